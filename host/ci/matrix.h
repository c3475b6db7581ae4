// SPDX-License-Identifier: MIT
/* The GitHub Actions job matrix of a folder of configs (bhost ci-matrix):
 * one job per config, split per backend where the config asks for
 * backends that need their own runner, optionally split into shards. */
#ifndef BH_MATRIX_H
#define BH_MATRIX_H

#include "bh_error.h"

#include <cjson/cJSON.h>
#include <stddef.h>
#include <stdint.h>

#define BH_MATRIX_DEFAULT_RUNNER "ubuntu-latest"

typedef struct bh_matrix_opts {
    char *const *filters;  /* globs on config names (a word may hold several,
                              comma- or space-separated); none = all */
    size_t n_filters;
    char *const *runners;  /* "BACKEND=LABEL[,LABEL...]"; "default=..." sets
                              the runner of jobs without a mapped backend */
    size_t n_runners;
    uint32_t shards;       /* jobs per config/backend group; 0 or 1 = none */
} bh_matrix_opts;

/* The config files (*.yaml, *.yml) directly in dir, sorted by name; *n
 * set, NULL and -1 with e set when dir cannot be read. Free each path and
 * the array. */
char **bh_matrix_list_configs(const char *dir, size_t *n, bh_error *e);

/* Builds *out = {"include": [job, ...]} for the config files in paths (in
 * that order). A config becomes one job unless two or more of its backends
 * need a job of their own (a required backend, or one with a runner in
 * o->runners): then one job per such backend, the first also taking the
 * host-only cases and the backends without a runner of their own. Each job:
 * id (unique, safe in file and artifact names), group (id without the
 * shard), name, config (the path), config_name, backend ("" for the whole
 * config), backends (the --backend values), required (false when every
 * backend of the job is optional), runs_on (a label or a list; a config
 * whose launcher: names a runner_label gets it for every job), shard and
 * shards ("i/N" and N, "" and 1 unsharded), args (the extra `bhost run`
 * arguments as one shell-safe string). Returns 0; BH_MATRIX_BAD_CONFIG
 * with e = the config's own "file:line:col: ..." message; or -1 with e set
 * for a filter matching no config, a bad runner mapping, two configs of
 * one name, an empty matrix (*out NULL on failure). */
int bh_matrix_build(char *const *paths, size_t n, const bh_matrix_opts *o, cJSON **out,
                    bh_error *e);

#define BH_MATRIX_BAD_CONFIG (-2)

#endif
