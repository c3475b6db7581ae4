// SPDX-License-Identifier: MIT
/* `bhost history` analysis of a loaded results folder: change points and
 * the newest-value check for every series, and their JSON form
 * (schema "bhost.history/1"). */
#ifndef BH_HISTORY_REPORT_H
#define BH_HISTORY_REPORT_H

#include "history.h"
#include "history_load.h"

#include <cjson/cJSON.h>
#include <stddef.h>

#define BH_HISTORY_SCHEMA "bhost.history/1"

typedef struct bh_history_analysis_opts {
    bh_history_opts detect; /* the change-point detector */
    double pi_level;        /* two-sided coverage of the newest-value PI (default 0.99) */
    size_t pi_min_ref;      /* fewest reference points for a PI, >= 2 (default 5) */
    size_t pi_max_ref;      /* most reference points for the PI, >= pi_min_ref (default 64) */
} bh_history_analysis_opts;

/* The findings for one series. */
typedef struct bh_history_result {
    const bh_history_series *series; /* borrowed from the set */
    bh_history_cp *cps;              /* ascending; indexes into series->pts */
    size_t n_cps;
    bh_history_pi newest;            /* the newest point against the points since the last change */
    double newest_q;                 /* Benjamini-Hochberg q of newest.p across the series that have a PI; NAN without */
} bh_history_result;

typedef struct bh_history_analysis {
    bh_history_result *r; /* one per series, in the set's order */
    size_t n;
} bh_history_analysis;

/* Fills *o with the defaults above (and bh_history_opts_default()). */
void bh_history_analysis_opts_default(bh_history_analysis_opts *o);

/* Runs the detector and the newest-value check on every series of set.
 * *out must be zeroed; free it with bh_history_analysis_free().
 * Deterministic; no I/O. Returns 0; -1 when the options are invalid or a
 * computation fails (out freed). */
int bh_history_analyze(const bh_history_set *set, const bh_history_analysis_opts *o,
                       bh_history_analysis *out);

/* Releases what *a owns and zeroes it. */
void bh_history_analysis_free(bh_history_analysis *a);

/* The JSON document of an analysis (caller deletes): schema, root, the
 * options, file counts, warnings and, per series, its change points (with
 * the date and file of their first point) and the newest-value check.
 * Non-finite numbers are written as null. */
cJSON *bh_history_json(const char *root, const bh_history_set *set,
                       const bh_history_analysis_opts *o, const bh_history_analysis *a);

/* "inside", "below", "above" or "none". */
const char *bh_history_pi_status_name(bh_history_pi_status s);

#endif
