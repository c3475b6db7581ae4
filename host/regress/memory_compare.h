// SPDX-License-Identifier: MIT
/* Memory in the gate: peak RSS and host-API allocations compared like any
 * lower-is-better metric, one value per run (docs/statistics.md section
 * 11.8).
 *
 * The metrics and where a run's value comes from (runs[] of a result):
 *
 *   peak_rss_kb   runs[].peak_rss_kb (the worker's ru_maxrss), KiB
 *   alloc_bytes   runs[].alloc.bytes, bytes requested through the host API
 *   alloc_count   runs[].alloc.count, host-API allocations
 *
 * Their noise floors are their own: regression.memory.rss_floor (10%) for
 * peak RSS, whose warning and critical thresholds are raised to it when
 * lower, and regression.memory.alloc_floor (0.1%) for the allocations,
 * which repeat exactly from run to run. The memory items form a
 * Benjamini-Hochberg family of their own, so that memory never costs the
 * time comparisons power (and a shard's time family, which counts the
 * other shards' tests, stays what their baselines say). */
#ifndef BH_REGRESS_MEMORY_COMPARE_H
#define BH_REGRESS_MEMORY_COMPARE_H

#include "regress_compare.h"
#include "regress_config.h"
#include "result_view.h"
#include "verdict.h"

#include <stddef.h>

#define BH_REGRESS_RSS "peak_rss_kb"
#define BH_REGRESS_ALLOC_BYTES "alloc_bytes"
#define BH_REGRESS_ALLOC_COUNT "alloc_count"

/* The memory metrics, in the order a case's items list them. */
extern const char *const bh_regress_memory_metrics[];
#define BH_REGRESS_N_MEMORY 3

/* The reason of a memory item decided without a test: every run on both
 * sides had the same value. */
#define BH_REGRESS_REASON_SAME_MEMORY                                                              \
    "every run on both sides had the same value: deterministic and unchanged"

/* True when metric is one of the memory metrics. Pure. */
int bh_regress_is_memory_metric(const char *metric);

/* The unit of a memory metric ("KiB", "B", "allocations"); "" for others. */
const char *bh_regress_memory_unit(const char *metric);

/* A run's value of a memory metric: NAN when the run is not ok or the
 * result has no such figure (results older than per-run figures). */
double bh_regress_memory_run_value(const bh_rv_run *r, const char *metric);

/* True when metric (a memory metric) of the pair of cases is compared
 * under cfg: memory comparison on, the metric not ignored by
 * regression.metrics, not a metric the plugin itself reports, a value in
 * some ok run of each side, not 0 in every run of both (a plugin that
 * allocates nothing through the host), and peak RSS not measured under
 * Valgrind (counted != 0). */
int bh_regress_memory_compared(const bh_regress_config *cfg, const bh_rv_case *base,
                               const bh_rv_case *cand, const char *metric, int counted);

/* The thresholds of a memory metric in a case whose thresholds are *th:
 * its floor (a floor regression.metrics gives the metric, else rss_floor
 * or alloc_floor), with warning and critical raised to it where below.
 * Other metrics: *th unchanged. */
void bh_regress_memory_thresholds(const bh_regress_config *cfg, const char *metric,
                                  bh_regress_thresholds *th);

/* Benjamini-Hochberg over the tested items of r that in selects (a
 * family of their own) into their q; returns how many were adjusted. */
size_t bh_regress_adjust_family(bh_regress_report *r, int (*in)(const bh_regress_item *));

/* Benjamini-Hochberg over the tested memory items of r (item.memory, not
 * decided) into their q; sets r->n_memory_tests. Called by
 * bh_regress_finalize before the verdicts. */
void bh_regress_memory_adjust(bh_regress_report *r);

#endif
