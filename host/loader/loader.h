// SPDX-License-Identifier: MIT
/* Finding and opening plugin files.
 *
 * Search order for a plugin named in a config: BHOST_PLUGIN_PATH
 * (colon-separated), the config's plugin_path, the build tree (only when
 * this bhost binary runs from it), the installed plugin directory. The
 * current directory is never searched implicitly. A name containing '/'
 * or ending in ".so" is a path and is used as given.
 *
 * bh_loader_open() runs plugin code (init) and is called only in workers;
 * the supervisor only searches. */
#ifndef BH_LOADER_H
#define BH_LOADER_H

#include "bh_error.h"

#include <bhost/plugin.h>
#include <stddef.h>

typedef struct bh_search_path {
    char **dirs; /* a dir ending in "/+" means: its immediate subdirs */
    size_t n;
    size_t cap;
} bh_search_path;

/* Builds the search path from the environment, the config's plugin_path
 * (borrowed strings, copied) and the build/installed locations. */
void bh_search_path_init(bh_search_path *sp, char *const *config_dirs, size_t n_config_dirs);
void bh_search_path_free(bh_search_path *sp);

/* Puts dir and its immediate subfolders ("dir/+") in front of sp, so a
 * plugin file there wins over every other entry (bhost ab: one build's
 * plugins). */
void bh_search_path_prepend(bh_search_path *sp, const char *dir);

/* The file named like path's last component in dir or one level below it
 * (a build tree's plugins/NAME/NAME.so): absolute (symbolic links
 * resolved), a new string, or NULL when neither has it. */
char *bh_loader_find_in_dir(const char *dir, const char *path);

/* Resolves name to an absolute file path (free() it), or NULL with e set
 * to "plugin 'x' not found in: dir1:dir2". */
char *bh_loader_find(const bh_search_path *sp, const char *name, bh_error *e);

/* Checks that the plugin file is safe to load code from: a regular file,
 * not writable by every user, owned by root or the current user. Its
 * directory is not checked: a directory named explicitly is the user's
 * choice, and unsafe implicit ones never enter the search path. 0 or -1
 * with e saying why, one line. */
int bh_loader_check_safe(const char *path, bh_error *e);

/* True when an implicit search directory may be used: it does not exist,
 * or it is neither world-writable nor owned by another user. */
int bh_loader_dir_is_safe(const char *dir);

/* Lists every *.so in the search path, absolute paths, first occurrence
 * of each file name wins. *out is an array of n strings (free each and the
 * array). */
void bh_loader_list(const bh_search_path *sp, char ***out, size_t *n);

/* A plugin opened in this process. */
typedef struct bh_plugin {
    char *path;
    const bhost_entry *entry;
    const bhost_bench_factory *benchmarks; /* NULL when not provided */
    const bhost_backend *backend;          /* NULL when not provided */
} bh_plugin;

/* Opens path: checks it is an ELF shared object, dlopens it RTLD_NOW |
 * RTLD_LOCAL, validates bhost_entry_v1 (ABI major, 1.0 minimum size,
 * flags, strings) before calling init(api), then fetches the interfaces.
 * Each failure has its own one-line message in e. The library is never
 * closed. Returns 0 or -1. */
int bh_loader_open(const char *path, const bhost_host_api *api, bh_plugin *out, bh_error *e);

/* Releases what bh_loader_open allocated (the library stays loaded). */
void bh_plugin_release(bh_plugin *p);

/* The message the plugin passed to set_error(NULL, ...) during init, kept
 * by the host API implementation; the loader appends it to init failures.
 * Provided by the worker (weak default returns ""). */
const char *bh_loader_last_plugin_error(void);

#endif
