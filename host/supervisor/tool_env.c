// SPDX-License-Identifier: MIT
/* See tool_env.h. */
#define _GNU_SOURCE
#include "tool_env.h"

#include "bh_fs.h"
#include "bh_mem.h"

#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

char *bh_tool_find(const char *name)
{
    char found[PATH_MAX];
    const char *path = getenv("PATH");

    while (path && *path) {
        size_t len = strcspn(path, ":");

        /* An empty entry is the current folder, as execvp reads it. */
        if (snprintf(found, sizeof(found), "%.*s/%s", (int)len, len ? path : ".", name) <
                (int)sizeof(found) &&
            bh_is_regular_file(found) && access(found, X_OK) == 0)
            return bh_xstrdup(found);
        path += len + (path[len] == ':');
    }
    return NULL;
}

const char *bh_tool_valgrind_refusal(void)
{
#if defined(__SANITIZE_ADDRESS__)
    return "Valgrind does not run workers built with AddressSanitizer";
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
    return "Valgrind does not run workers built with AddressSanitizer";
#else
    return NULL;
#endif
#else
    return NULL;
#endif
}

/* Removes the entries of dir (folders, when depth > 0, with their
 * files), then dir. */
static void remove_tree(const char *dir, int depth)
{
    DIR *d = opendir(dir);
    struct dirent *de;

    while (d && (de = readdir(d)) != NULL) {
        char *p;

        if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
            continue;
        p = bh_xasprintf("%s/%s", dir, de->d_name);
        if (unlink(p) != 0 && depth > 0 && bh_is_directory(p))
            remove_tree(p, depth - 1);
        free(p);
    }
    if (d)
        closedir(d);
    rmdir(dir);
}

void bh_tool_remove_dir(const char *dir)
{
    remove_tree(dir, 1);
}
