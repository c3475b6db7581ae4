// SPDX-License-Identifier: MIT
/* Shared declarations of the config module's files; not for other modules.
 * Every reader below reports errors as "file:line:col: message" with the
 * position of the offending node, and names what was expected. */
#ifndef BH_CONFIG_INTERNAL_H
#define BH_CONFIG_INTERNAL_H

#include "config.h"
#include "yaml_tree.h"

#include <stddef.h>

/* Largest config file read, in bytes. */
#define BH_CONFIG_MAX_FILE (4u << 20)
/* Longest extends: chain, the file itself included. */
#define BH_CONFIG_MAX_CHAIN 32
/* Most parameter combinations a config may expand to: one suite, and all
 * its suites together (a suite without params counts as one). Checked
 * before any list is scanned, so that validation stays fast. */
#define BH_CONFIG_MAX_COMBOS 100000
/* Most different suite plugins, and most different backends, a config may
 * name: each is looked up and described before the plan is made. */
#define BH_CONFIG_MAX_PLUGINS 256
/* Longest plugin_path: list (every plugin lookup walks it). */
#define BH_CONFIG_MAX_PLUGIN_PATH 64
/* Longest devices: list of one backend. */
#define BH_CONFIG_MAX_DEVICES 1024

/* ---- config_values.c: positions, node readers, key checks ---- */

/* Sets e to "file:line:col: <fmt...>" at n's position; returns -1. */
int bh_config_fail(bh_error *e, const bh_ynode *n, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Describes n for "got ...": "'text'" for a scalar (shortened), "a map",
 * "a list" or "nothing". Writes into buf and returns it. */
const char *bh_config_got(const bh_ynode *n, char *buf, size_t size);

/* Checks that every key of map is one of allowed; the first other key is
 * an error naming where ("defaults", "suites[1]"; NULL: the top level)
 * with a did-you-mean, or the allowed list when nothing is close. */
int bh_config_check_keys(const bh_ynode *map, const char *const *allowed,
                         size_t n_allowed, const char *where, bh_error *e);

/* 0 when n is a map or null (an empty map); else -1 naming what. */
int bh_config_expect_map(const bh_ynode *n, const char *what, bh_error *e);

/* A non-empty scalar as a fresh string (*out, caller frees); -1 naming
 * what otherwise. */
int bh_config_get_string(const bh_ynode *n, const char *what, char **out,
                         bh_error *e);

/* A plain true or false; -1 naming what otherwise. */
int bh_config_get_bool(const bh_ynode *n, const char *what, int *out,
                       bh_error *e);

/* A non-empty string or a list of them (null: none) as a fresh array of
 * fresh strings (*out, free with bh_config_strings_free); -1 naming what
 * and the offending item otherwise. */
int bh_config_get_strings(const bh_ynode *n, const char *what, char ***out,
                          size_t *n_out, bh_error *e);

void bh_config_strings_free(char **v, size_t n);

/* Fills *out from a scalar node, typed as config.h describes; out->text
 * is a fresh string (free with bh_config_scalar_free). */
void bh_config_scalar_from_node(const bh_ynode *n, bh_scalar *out);
void bh_config_scalar_free(bh_scalar *s);

/* True when s is non-empty and made only of a-z, 0-9 and the characters
 * in extra. */
int bh_config_name_ok(const char *s, const char *extra);

/* The position of n as a bh_srcpos (file borrowed from the tree). */
bh_srcpos bh_config_pos(const bh_ynode *n);

/* ---- config_settings.c ---- */

/* Applies every key of map (a settings map; null: nothing) onto *s, where
 * names the map in errors ("defaults", "suites[0].defaults"). On failure
 * *s holds the keys applied before the bad one; it stays freeable. */
int bh_config_settings_apply(bh_settings *s, const bh_ynode *map,
                             const char *where, bh_error *e);

/* ---- config_expect.c ---- */

/* Applies the budgets of map (an expect: map; null: nothing) onto *s,
 * replacing a budget of the same key and keeping the others; where names
 * the map's owner in errors ("defaults", "suites[0]"). An error is
 * "file:line:col: WHERE.expect.KEY: expected ..., got ...". */
int bh_config_expect_apply(bh_settings *s, const bh_ynode *map, const char *where,
                           bh_error *e);

/* Deep copy of src's budgets into dst (whose own are not freed), and
 * freeing s's budgets (s->expect NULL after). */
void bh_config_expect_copy(bh_settings *dst, const bh_settings *src);
void bh_config_expect_free(bh_settings *s);

/* ---- config_paths.c ---- */

/* The directory part of path ("." when it has none); fresh string. */
char *bh_config_dirname(const char *path);
/* rel when it is absolute, else dir/rel ("." dir: rel); fresh string. */
char *bh_config_path_join(const char *dir, const char *rel);
/* The file name of path without a .yaml or .yml suffix; fresh string. */
char *bh_config_stem(const char *path);

/* ---- config_extends.c ---- */

/* Reads c->path and every base it extends into one merged tree (*root,
 * free with bh_yaml_free; NULL for an empty file). Fills c->files and
 * c->hash. Each file's schema: is checked and removed; extends: is
 * followed and removed; a base's name: is dropped. */
int bh_config_read_tree(bh_config *c, bh_ynode **root, bh_error *e);

/* ---- config_suite.c ---- */

/* Fills c->suites from the suites: node (a list; null: none), with each
 * suite's settings layered on c->defaults. */
int bh_config_load_suites(bh_config *c, const bh_ynode *list, bh_error *e);
void bh_config_suite_free(bh_suite *s);

/* ---- config_launcher.c ---- */
/* Reads the launcher: map n into a new s->launcher (replacing one there);
 * where names its owner in errors ("suites[0]"; NULL: the top level). */
int bh_config_load_launcher(bh_settings *s, const bh_ynode *n, const char *where,
                            bh_error *e);
/* ---- config_ratios.c ---- */
/* Fills c->ratios from the ratios: node (a list; null or NULL: none); the suites
 * must be loaded, since a side may name one. */
int bh_config_load_ratios(bh_config *c, const bh_ynode *list, bh_error *e);
void bh_config_ratios_free(bh_config *c);

/* ---- config_scaling.c ---- */
/* Fills c->scaling from the scaling: lists of root (the merged top-level
 * map) and of its suites; the suites must be loaded. */
int bh_config_load_scaling(bh_config *c, const bh_ynode *root, bh_error *e);
void bh_config_scaling_free(bh_config *c);

/* ---- config_command.c ---- */
/* Checks the command: map cmd of suite node suite (where: "suites[i]")
 * and appends its settings to s->params as one-value axes (name shown in
 * the case id, the rest hidden). s->plugin must be "command", s->name set
 * and the suite without params:. */
int bh_config_load_command(bh_suite *s, const bh_ynode *suite, const bh_ynode *cmd,
                           const char *where, bh_error *e);

/* ---- config_regression.c ---- */

/* The regression: map as compact JSON text (*out, caller frees; NULL when
 * n is null). */
int bh_config_regression_json(const bh_ynode *n, char **out, bh_error *e);

/* Where each value of the regression: map n was written, as compact JSON
 * text {"": pos, "noise_floor": pos, "overrides[0].match": pos, ...} with
 * pos = "file:line:col" (*out, caller frees). 0, or -1 when encoding
 * fails (*out NULL). */
int bh_config_regression_pos_json(const bh_ynode *n, char **out);

#endif
