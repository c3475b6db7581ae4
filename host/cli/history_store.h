// SPDX-License-Identifier: MIT
/* bhost history from the results store (--store) and the trend lines
 * (--trend N) of either source. */
#ifndef BH_HISTORY_STORE_H
#define BH_HISTORY_STORE_H

#include "history_load.h"
#include "store_query.h"

#include <cjson/cJSON.h>
#include <stdint.h>
#include <stdio.h>

/* What the store knows about each file (run) of a set besides
 * bh_history_file: indexed like set->files. */
typedef struct bh_history_runs_info {
    int64_t *run_id;
    char **commit; /* NULL entries when unknown */
    char **branch;
    size_t n, cap;
} bh_history_runs_info;

/* Fills set (zeroed beforehand) from the store instead of a folder: every
 * series of f->config (all when NULL) whose case id f->match accepts,
 * each with its points as bh_store_history(o) selects them (one indexed
 * query per series). Each stored run becomes one file of the set (path:
 * the file it was ingested from, else "STORE run ID"); files are ranked
 * by (started_at, run id); series ordered by config then case id. info
 * (zeroed) gets the runs' ids, commits and branches. 0, or -1 with e set
 * (set and info hold what was read; free both). */
int bh_history_load_store(bh_store *s, const bh_history_filter *f,
                          const bh_store_history_opts *o, bh_history_set *set,
                          bh_history_runs_info *info, bh_error *e);

void bh_history_runs_info_free(bh_history_runs_info *info);

/* Prints the trend of series s: a sparkline of its newest last points,
 * their first and last value and the change between them, then one line
 * per point (time, branch@commit when info has them, value, change from
 * the point before). info may be NULL. */
void bh_history_print_trend(FILE *out, const bh_history_set *set,
                            const bh_history_runs_info *info, const bh_history_series *s,
                            size_t last);

/* The same as a JSON array of {date, file, run, commit, branch, value}
 * (run, commit, branch null without info). */
cJSON *bh_history_trend_json(const bh_history_set *set, const bh_history_runs_info *info,
                             const bh_history_series *s, size_t last);

#endif
