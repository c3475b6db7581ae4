// SPDX-License-Identifier: MIT
/* The ratio of two cases' median times per iteration with a seeded
 * percentile bootstrap interval, read from the cases of a result document
 * being built: the estimator of ratios: (ratio_build.c) and of the
 * speedups of scaling: (scaling_build.c). */
#ifndef BH_MEDIAN_RATIO_H
#define BH_MEDIAN_RATIO_H

#include <cjson/cJSON.h>
#include <stddef.h>
#include <stdint.h>

/* Resamples of the bootstrap, and its level. */
#define BH_RATIO_RESAMPLES 10000
#define BH_RATIO_LEVEL     0.95

/* One case's times per iteration (ns) from its ok runs: each run's
 * median and every sample. */
typedef struct bh_case_times {
    const cJSON *c;
    double *run_med, *all;
    size_t n_runs, n_all;
} bh_case_times;

/* Fills t from case c's ok runs (c borrowed); free with
 * bh_case_times_free. */
void bh_case_times_load(bh_case_times *t, const cJSON *c);
void bh_case_times_free(bh_case_times *t);

/* Why t has no time: "ID STATUS: MESSAGE" (fresh); NULL when it has. */
char *bh_case_times_problem(const bh_case_times *t);

/* The median of all of t's samples; NAN without any. */
double bh_case_times_median(const bh_case_times *t);

/* A ratio of medians and its interval at BH_RATIO_LEVEL. */
typedef struct bh_median_ratio {
    double ratio, lo, hi;
    double median_a, median_b;
} bh_median_ratio;

/* The median of a over the median of b (both with samples), and a
 * percentile bootstrap of it seeded with seed that resamples each side's
 * runs with replacement (its samples with fewer than 3 ok runs). */
void bh_median_ratio_estimate(const bh_case_times *a, const bh_case_times *b, uint64_t seed,
                              bh_median_ratio *out);

#endif
