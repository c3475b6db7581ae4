// SPDX-License-Identifier: MIT
/* The trend lines of bhost history --trend N, from a results folder or the
 * store: a sparkline and one line per point, or the same as JSON. */
#ifndef BH_HISTORY_TREND_H
#define BH_HISTORY_TREND_H

#include "history_store.h"

#include <cjson/cJSON.h>
#include <stdio.h>

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
