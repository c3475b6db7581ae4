// SPDX-License-Identifier: MIT
/* Reading a results folder into per-case series of run medians for
 * `bhost history`: every "bhost.result/1" file under a root, each parsed
 * once, grouped by (config, case id) and ordered by run.started_at. */
#ifndef BH_HISTORY_LOAD_H
#define BH_HISTORY_LOAD_H

#include "bh_error.h"

#include <stddef.h>

/* One result file that was read. */
typedef struct bh_history_file {
    char *path;       /* as found under the root */
    char *started_at; /* run.started_at */
    char *config;     /* run.config.name */
    size_t rank;      /* position in (started_at, base name, path) order */
} bh_history_file;

/* One result of one case. */
typedef struct bh_history_point {
    size_t file;     /* index into bh_history_set.files */
    double value;    /* median of the run medians (ns per iteration) */
    size_t run_off;  /* its run medians: set.runs[run_off .. run_off + n_runs) */
    size_t n_runs;
    size_t rank;     /* its file's rank (the sort key) */
} bh_history_point;

/* The results of one case of one config, oldest first. */
typedef struct bh_history_series {
    char *config;
    char *case_id;
    bh_history_point *pts;
    size_t n, cap;
} bh_history_series;

typedef struct bh_history_set {
    bh_history_file *files; /* every valid file, in path order */
    size_t n_files, cap_files;
    bh_history_series *series; /* ordered by (config, case id) */
    size_t n_series, cap_series;
    double *runs;           /* every run median, point after point */
    size_t n_runs, cap_runs;
    char **warnings;        /* "PATH: message" for each skipped file */
    size_t n_warnings, cap_warnings;
    size_t n_skipped;       /* malformed files skipped (each has a warning) */
    size_t n_other_config;  /* valid files of another config than asked */
    size_t *index;          /* open-addressing table: series index + 1, 0 = free */
    size_t index_cap;
} bh_history_set;

/* Which cases to keep: match(id, ctx) != 0 (match NULL keeps all), and
 * only files whose run.config.name equals config (NULL: every config). */
typedef struct bh_history_filter {
    int (*match)(const char *case_id, void *ctx);
    void *match_ctx;
    const char *config;
    int strict; /* a malformed file is an error instead of a warning */
} bh_history_filter;

/* Reads every *.json file under root, recursively, skipping folders named
 * "baselines" and names starting with '.'. A file that is not a valid
 * result document (bh_result_read(), or run.started_at or
 * run.config.name missing) adds a warning "PATH: message" and is skipped.
 * Per case, only cases with status "ok" and at least one ok run median
 * (bh_result_run_medians()) give a point; its value is the median of its
 * run medians. Points are ordered by run.started_at, then the file's base
 * name, then its path; series by config, then case id.
 * *set must be zeroed beforehand; free it with bh_history_set_free() in
 * every case. Returns 0; -1 with e = "PATH: message" when root cannot be
 * opened as a directory, or, with filter->strict, on the first malformed
 * file. filter may be NULL. Allocation failure exits (bh_mem). */
int bh_history_load(const char *root, const bh_history_filter *filter, bh_history_set *set,
                    bh_error *e);

/* Releases everything *set owns and zeroes it. */
void bh_history_set_free(bh_history_set *set);

#endif
