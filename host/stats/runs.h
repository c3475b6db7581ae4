// SPDX-License-Identifier: MIT
/* Run-level structure of benchmark samples: per-run medians, within- and
 * between-run spread, a one-way ANOVA F ratio, and within-run drift.
 *
 * The run (one fresh worker process) is the unit of replication; samples
 * inside one run are not independent of run-level effects. */
#ifndef BH_STATS_RUNS_H
#define BH_STATS_RUNS_H

#include <stddef.h>
#include <stdint.h>

typedef struct bh_stats_runs {
    size_t n_runs;            /* distinct run ids */
    double median_of_medians; /* median of the run medians */
    double between_cv;        /* sd / |mean| of the run medians; NAN when < 2 runs */
    double log_median_sd;     /* sd of ln(run median); NAN when < 2 runs or a median <= 0 */
    double within_cv;         /* sqrt(sum (n_r-1) cv_r^2 / sum (n_r-1)) over runs with a non-zero mean; NAN when none has 2 samples */
    double f;                 /* MS_between / MS_within (0 when MS_between == 0, INFINITY when only MS_within == 0); NAN when < 2 runs or n == n_runs */
    double f_p;               /* P(F(R-1, n-R) > f); NAN with f */
    double drift;             /* median over runs with >= 3 samples and a non-zero median of (median(last third) - median(first third)) / |run median|; NAN when none */
} bh_stats_runs;

/* Analyses n finite samples values[i] taken in run run[i] (any ids, any
 * order; run == NULL: one run). Samples of one run must be in the order
 * they were taken.
 * Temporary memory only (malloc, freed). Reentrant.
 * Returns 0; -1 when n == 0 or memory runs out (*out: n_runs 0, rest NAN). */
int bh_stats_run_analysis(const double *values, const uint32_t *run, size_t n,
                          bh_stats_runs *out);

#endif
