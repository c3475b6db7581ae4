// SPDX-License-Identifier: MIT
/* Reading the results store: series and their history, runs, baseline
 * selection, and a stored run as a result document again. */
#ifndef BH_STORE_QUERY_H
#define BH_STORE_QUERY_H

#include "store.h"

#include <cjson/cJSON.h>
#include <stddef.h>
#include <stdint.h>

/* One series: the results of one case id of one config. */
typedef struct bh_store_series {
    int64_t id;
    char *config;
    char *case_id;
} bh_store_series;

/* Every series (of config, when not NULL), ordered by config then case
 * id: *out is a new array of *n (free with bh_store_series_free). 0 or
 * -1 with e set. */
int bh_store_list_series(bh_store *s, const char *config, bh_store_series **out, size_t *n,
                         bh_error *e);
void bh_store_series_free(bh_store_series *v, size_t n);

/* One stored result of a series: an ok case with at least one ok run. */
typedef struct bh_store_point {
    int64_t run_id;
    char *started_at;
    char *commit;       /* NULL when unknown */
    char *branch;       /* NULL when unknown */
    char *source;       /* the file it was read from, or NULL */
    double value;       /* median of the run medians, ns per iteration */
    double *run_medians; /* ns per iteration, run order */
    size_t n_runs;
} bh_store_point;

/* What bh_store_history selects. */
typedef struct bh_store_history_opts {
    const char *branch; /* only runs on this branch (NULL: all) */
    size_t last;        /* only the newest this many points (0: all) */
} bh_store_history_opts;

/* The points of series id, oldest first (by run start time, then run id):
 * *out is a new array of *n (free with bh_store_points_free). One indexed
 * query. 0 or -1 with e set. */
int bh_store_history(bh_store *s, int64_t series, const bh_store_history_opts *o,
                     bh_store_point **out, size_t *n, bh_error *e);
void bh_store_points_free(bh_store_point *v, size_t n);

/* One stored run, as listed. */
typedef struct bh_store_run {
    int64_t id;
    char *config, *started_at, *commit, *branch, *fingerprint, *host, *source;
    int dirty;          /* 1, 0, -1 unknown */
    int complete;
    int64_t n_cases;
} bh_store_run;

/* The newest limit runs (0: all), of config and branch when not NULL,
 * newest first. *out is a new array (free with bh_store_runs_free). */
int bh_store_list_runs(bh_store *s, const char *config, const char *branch, size_t limit,
                       bh_store_run **out, size_t *n, bh_error *e);
void bh_store_runs_free(bh_store_run *v, size_t n);

/* Frees what *r holds and zeroes it. */
void bh_store_run_clear(bh_store_run *r);

/* One run by id into *out (release with bh_store_run_clear). 1 found, 0
 * not there (*out untouched), -1 error. */
int bh_store_get_run(bh_store *s, int64_t id, bh_store_run *out, bh_error *e);

/* Baseline selection: the newest complete run of config on branch
 * measured on a system with fingerprint. 1 found (*id), 0 none, -1 error. */
int bh_store_find_latest(bh_store *s, const char *config, const char *branch,
                         const char *fingerprint, int64_t *id, bh_error *e);

/* Baseline selection: the first commit of commits[0..n) (nearest first)
 * that has a complete, clean (not dirty) run of config on a system with
 * fingerprint; the newest such run. 1 found (*id, *which the commit's
 * index), 0 none, -1 error. */
int bh_store_find_commit(bh_store *s, const char *config, const char *fingerprint,
                         char *const *commits, size_t n, int64_t *id, size_t *which,
                         bh_error *e);

/* The metric name of the time per iteration in bh_store_recent. */
#define BH_STORE_TIME_METRIC "time"

/* The recent values of one (case, metric) of a config. */
typedef struct bh_store_recent {
    char *case_id;
    char *metric;   /* BH_STORE_TIME_METRIC or an extra metric */
    double *values; /* newest first: "time" the case's value (median of
                       the run medians, ns/iter), an extra metric the
                       median of its values */
    size_t n, cap;
} bh_store_recent;

/* The newest `window` values of every ok case of config (by case id) in
 * runs measured on a system with fingerprint that started at or before
 * `before` (an ISO 8601 UTC time as results record it), looked for among
 * the newest 16 * window such runs (shards store a share of the cases
 * each). *out is a new array of *n (free with bh_store_recent_free);
 * entries of one case are adjacent. One query. 0, or -1 with e set. */
int bh_store_recent_values(bh_store *s, const char *config, const char *fingerprint,
                           const char *before, size_t window, bh_store_recent **out,
                           size_t *n, bh_error *e);
void bh_store_recent_free(bh_store_recent *v, size_t n);

/* The result document of a stored run (caller deletes): run and system
 * as stored, every case with its params, settings, status, raw samples
 * and metrics per run, and summary; verdicts are null (they belonged to
 * that run's own comparison). It validates as "bhost.result/1" and its
 * bh_store_run_key equals the original's. NULL with e set. */
cJSON *bh_store_load_doc(bh_store *s, int64_t id, bh_error *e);

#endif
