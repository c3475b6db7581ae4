// SPDX-License-Identifier: MIT
/* bhost history's series from the results store (--store): the same set
 * a results folder gives (history_load.h), with each run's id, commit and
 * branch. */
#ifndef BH_HISTORY_STORE_H
#define BH_HISTORY_STORE_H

#include "history_load.h"
#include "store_query.h"

#include <stdint.h>

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

#endif
