// SPDX-License-Identifier: MIT
#include "loader.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Why st (of what) is unsafe to load code from, or NULL when it is safe:
 * writable by everyone, or owned by a user other than root and us. */
static const char *unsafe_reason(const struct stat *st, int is_dir)
{
    if ((st->st_mode & S_IWOTH) && !(is_dir && (st->st_mode & S_ISVTX)))
        return "is writable by every user";
    if (st->st_uid != 0 && st->st_uid != geteuid())
        return "is owned by another user";
    return NULL;
}

int bh_loader_check_safe(const char *path, bh_error *e)
{
    struct stat st;
    const char *why;

    /* The file only: its directory was either named explicitly (by
     * BHOST_PLUGIN_PATH, a config's plugin_path or the path itself), which
     * is the user's choice, or is an implicit location that
     * bh_search_path_init already left out when it is unsafe. */
    if (stat(path, &st) != 0)
        return bh_error_set(e, "%s: cannot stat: %s", path, strerror(errno));
    if (!S_ISREG(st.st_mode))
        return bh_error_set(e, "refusing to load %s: not a regular file",
                            path);
    why = unsafe_reason(&st, 0);
    if (why)
        return bh_error_set(e,
                            "refusing to load %s: the file %s (fix its "
                            "permissions or pass --allow-unsafe-plugins)",
                            path, why);
    return 0;
}

int bh_loader_dir_is_safe(const char *dir)
{
    struct stat st;

    if (stat(dir, &st) != 0)
        return 1; /* a missing directory holds nothing to load */
    return unsafe_reason(&st, 1) == NULL;
}
