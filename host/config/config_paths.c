// SPDX-License-Identifier: MIT
/* Path arithmetic for references between config files, done on the
 * strings alone (no file-system access). */
#include "config_internal.h"

#include "bh_mem.h"

#include <string.h>

char *bh_config_dirname(const char *path)
{
    const char *slash = strrchr(path, '/');

    if (!slash)
        return bh_xstrdup(".");
    while (slash > path && slash[-1] == '/')
        slash--;
    if (slash == path)
        return bh_xstrdup("/");
    return bh_xstrndup(path, (size_t)(slash - path));
}

char *bh_config_path_join(const char *dir, const char *rel)
{
    size_t n = strlen(dir);

    if (rel[0] == '/' || strcmp(dir, ".") == 0 || n == 0)
        return bh_xstrdup(rel);
    if (dir[n - 1] == '/')
        return bh_xasprintf("%s%s", dir, rel);
    return bh_xasprintf("%s/%s", dir, rel);
}

char *bh_config_stem(const char *path)
{
    const char *base = strrchr(path, '/');
    size_t n;

    base = base ? base + 1 : path;
    n = strlen(base);
    if (n > 5 && strcmp(base + n - 5, ".yaml") == 0)
        n -= 5;
    else if (n > 4 && strcmp(base + n - 4, ".yml") == 0)
        n -= 4;
    return bh_xstrndup(base, n);
}
