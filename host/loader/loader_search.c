// SPDX-License-Identifier: MIT
#define _GNU_SOURCE
#include "loader.h"

#include "bh_fs.h"
#include "bh_mem.h"
#include "bh_strbuf.h"

#include <dirent.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef BHOST_BUILD_ROOT
#define BHOST_BUILD_ROOT ""
#endif
#ifndef BHOST_PLUGINDIR
#define BHOST_PLUGINDIR "/usr/local/lib/bhost/plugins"
#endif

static void add_dir(bh_search_path *sp, const char *dir)
{
    if (!dir || !*dir)
        return;
    for (size_t i = 0; i < sp->n; i++)
        if (strcmp(sp->dirs[i], dir) == 0)
            return;
    BH_PUSH(sp->dirs, sp->n, sp->cap, bh_xstrdup(dir));
}

/* True when this executable lives inside the build tree it was built in. */
static int running_from_build_tree(void)
{
    char exe[PATH_MAX];
    char root[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
    size_t rl;

    if (n <= 0 || !*BHOST_BUILD_ROOT || !realpath(BHOST_BUILD_ROOT, root))
        return 0;
    exe[n] = '\0';
    rl = strlen(root);
    return strncmp(exe, root, rl) == 0 && exe[rl] == '/';
}

void bh_search_path_init(bh_search_path *sp, char *const *config_dirs, size_t n_config_dirs)
{
    const char *env = getenv("BHOST_PLUGIN_PATH");

    memset(sp, 0, sizeof(*sp));
    if (env && *env) {
        char *copy = bh_xstrdup(env);
        char *save = NULL;

        for (char *tok = strtok_r(copy, ":", &save); tok; tok = strtok_r(NULL, ":", &save))
            add_dir(sp, tok);
        free(copy);
    }
    for (size_t i = 0; i < n_config_dirs; i++)
        add_dir(sp, config_dirs[i]);
    /* implicit locations: used only when nobody else can write there */
    if (running_from_build_tree() && bh_loader_dir_is_safe(BHOST_BUILD_ROOT)) {
        char *d = bh_xasprintf("%s/plugins/+", BHOST_BUILD_ROOT);
        add_dir(sp, d);
        free(d);
    }
    if (bh_loader_dir_is_safe(BHOST_PLUGINDIR))
        add_dir(sp, BHOST_PLUGINDIR);
}

void bh_search_path_free(bh_search_path *sp)
{
    for (size_t i = 0; i < sp->n; i++)
        free(sp->dirs[i]);
    free(sp->dirs);
    memset(sp, 0, sizeof(*sp));
}

/* Absolute form of path (free() it); the path itself when it does not
 * exist. */
static char *absolute(const char *path)
{
    char buf[PATH_MAX];

    if (realpath(path, buf))
        return bh_xstrdup(buf);
    return bh_xstrdup(path);
}

/* Calls fn for every directory the search path entry stands for. */
static char *find_in_entry(const char *entry, const char *file)
{
    size_t len = strlen(entry);

    if (len >= 2 && strcmp(entry + len - 2, "/+") == 0) {
        char *base = bh_xstrndup(entry, len - 2);
        DIR *d = opendir(base);
        struct dirent *de;
        char *found = NULL;

        while (d && !found && (de = readdir(d))) {
            char *cand;

            if (de->d_name[0] == '.')
                continue;
            cand = bh_xasprintf("%s/%s/%s", base, de->d_name, file);
            if (bh_is_regular_file(cand))
                found = absolute(cand);
            free(cand);
        }
        if (d)
            closedir(d);
        free(base);
        return found;
    } else {
        char *cand = bh_xasprintf("%s/%s", entry, file);
        char *found = bh_is_regular_file(cand) ? absolute(cand) : NULL;

        free(cand);
        return found;
    }
}

void bh_search_path_prepend(bh_search_path *sp, const char *dir)
{
    char *sub = bh_xasprintf("%s/+", dir);
    bh_search_path front;

    memset(&front, 0, sizeof(front));
    add_dir(&front, dir);
    add_dir(&front, sub);
    for (size_t i = 0; i < sp->n; i++)
        add_dir(&front, sp->dirs[i]);
    free(sub);
    bh_search_path_free(sp);
    *sp = front;
}

char *bh_loader_find_in_dir(const char *dir, const char *path)
{
    const char *base = strrchr(path, '/');
    char *sub, *found;

    base = base ? base + 1 : path;
    found = find_in_entry(dir, base);
    if (found)
        return found;
    sub = bh_xasprintf("%s/+", dir);
    found = find_in_entry(sub, base);
    free(sub);
    return found;
}

char *bh_loader_find(const bh_search_path *sp, const char *name, bh_error *e)
{
    size_t len = strlen(name);
    bh_strbuf where = BH_STRBUF_INIT;
    char *file;

    if (strchr(name, '/') || (len > 3 && strcmp(name + len - 3, ".so") == 0)) {
        if (!bh_is_regular_file(name)) {
            if (bh_path_exists(name))
                bh_error_set(e, "%s: not a regular file", name);
            else
                bh_error_set(e, "plugin file '%s' does not exist", name);
            return NULL;
        }
        return absolute(name);
    }
    file = bh_xasprintf("%s.so", name);
    for (size_t i = 0; i < sp->n; i++) {
        char *found = find_in_entry(sp->dirs[i], file);

        if (found) {
            free(file);
            return found;
        }
    }
    for (size_t i = 0; i < sp->n; i++) {
        size_t dl = strlen(sp->dirs[i]);
        int subdirs = dl >= 2 && strcmp(sp->dirs[i] + dl - 2, "/+") == 0;

        bh_strbuf_printf(&where, "%s%.*s%s", i ? ":" : "", (int)(subdirs ? dl - 2 : dl),
                         sp->dirs[i], subdirs ? "/*" : "");
    }
    bh_error_set(e, "plugin '%s' not found (looked for %s in %s)", name, file,
                 sp->n ? bh_strbuf_str(&where) : "an empty search path");
    bh_strbuf_free(&where);
    free(file);
    return NULL;
}

/* Adds the *.so files of dir to the list, skipping file names already in
 * (compared as found, before symbolic links are resolved); names[] holds
 * those file names in step with out[]. */
static void list_dir(const char *dir, char ***out, char ***names, size_t *n, size_t *cap)
{
    DIR *d = opendir(dir);
    struct dirent *de;

    while (d && (de = readdir(d))) {
        size_t len = strlen(de->d_name);
        char *full;
        int seen = 0;

        if (len <= 3 || strcmp(de->d_name + len - 3, ".so") != 0)
            continue;
        for (size_t i = 0; i < *n; i++)
            if (strcmp((*names)[i], de->d_name) == 0)
                seen = 1;
        if (seen)
            continue;
        full = bh_xasprintf("%s/%s", dir, de->d_name);
        if (bh_is_regular_file(full)) {
            size_t before = *cap;

            BH_PUSH(*out, *n, *cap, absolute(full));
            if (*cap != before || !*names)
                *names = bh_xreallocarray(*names, *cap, sizeof(char *));
            (*names)[*n - 1] = bh_xstrdup(de->d_name);
        }
        free(full);
    }
    if (d)
        closedir(d);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Orders paths by file name, then by full path. */
static int cmp_base(const void *a, const void *b)
{
    const char *x = *(char *const *)a;
    const char *y = *(char *const *)b;
    const char *bx = strrchr(x, '/');
    const char *by = strrchr(y, '/');
    int c = strcmp(bx ? bx + 1 : x, by ? by + 1 : y);

    return c ? c : strcmp(x, y);
}

void bh_loader_list(const bh_search_path *sp, char ***out, size_t *n)
{
    size_t cap = 0;
    char **names = NULL;

    *out = NULL;
    *n = 0;
    for (size_t i = 0; i < sp->n; i++) {
        const char *entry = sp->dirs[i];
        size_t len = strlen(entry);

        if (len >= 2 && strcmp(entry + len - 2, "/+") == 0) {
            char *base = bh_xstrndup(entry, len - 2);
            DIR *d = opendir(base);
            struct dirent *de;
            char **subs = NULL;
            size_t ns = 0, cs = 0;

            while (d && (de = readdir(d)))
                if (de->d_name[0] != '.')
                    BH_PUSH(subs, ns, cs, bh_xasprintf("%s/%s", base, de->d_name));
            if (d)
                closedir(d);
            if (ns > 1)
                qsort(subs, ns, sizeof(*subs), cmp_str);
            for (size_t j = 0; j < ns; j++) {
                if (bh_is_directory(subs[j]))
                    list_dir(subs[j], out, &names, n, &cap);
                free(subs[j]);
            }
            free(subs);
            free(base);
        } else {
            list_dir(entry, out, &names, n, &cap);
        }
    }
    for (size_t i = 0; i < *n; i++)
        free(names[i]);
    free(names);
    if (*n > 1)
        qsort(*out, *n, sizeof(**out), cmp_base);
}
