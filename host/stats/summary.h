// SPDX-License-Identifier: MIT
/* Per-case summary of benchmark samples: location, spread, quantiles,
 * outliers, confidence intervals, run structure and stability flags.
 *
 * Pure: no I/O, no globals; temporary memory only (malloc, freed before
 * return); reentrant. Deterministic: identical input and options give
 * identical bytes. */
#ifndef BH_SUMMARY_H
#define BH_SUMMARY_H

#include <stddef.h>
#include <stdint.h>

/* Stability flags */
#define BH_STAB_HIGH_CV          (1u << 0) /* between-run CV of run medians > max_cv */
#define BH_STAB_SHORT_SAMPLES    (1u << 1) /* some sample shorter than min_sample_ns */
#define BH_STAB_SEVERE_OUTLIERS  (1u << 2) /* any Tukey severe outlier */
#define BH_STAB_BETWEEN_RUN      (1u << 3) /* between-run variance far above within-run (ratio > 4, F-like) */
#define BH_STAB_WARMUP_DRIFT     (1u << 4) /* trend across sample index within runs */
#define BH_STAB_TOO_FEW          (1u << 5) /* too few runs/samples for the CI */

typedef struct bh_summary_opts {
    double ci_level;          /* order-statistic CI of the median, default 0.99 */
    double boot_level;        /* bootstrap CI level, default 0.95 */
    uint32_t boot_resamples;  /* default 10000; 0 disables bootstrap */
    uint64_t seed;            /* bootstrap seed (bh_rng), default 0 */
    double max_cv;            /* default 0.05 */
    double min_sample_ns;     /* samples shorter than this raise SHORT_SAMPLES; 0 = off; default 1e6 (1 ms) */
    double alpha;             /* for MDE, default 0.01 */
    double power;             /* for MDE, default 0.8 */
} bh_summary_opts;

typedef struct bh_summary {
    size_t n;                 /* samples */
    size_t n_runs;            /* distinct run ids */
    double min, max, mean, sd, cv, median, mad; /* sd: divisor n-1, NAN when n < 2; cv = sd/|mean|, NAN when undefined; mad scaled by 1.4826 */
    double q1, q3, p5, p95, p99;                /* type-7 quantiles */
    double median_ci_lo, median_ci_hi, median_ci_level; /* order-statistic CI; +-INFINITY when n too small; level = opts->ci_level */
    double mean_boot_lo, mean_boot_hi, median_boot_lo, median_boot_hi; /* sample-level percentile bootstrap; NAN when disabled */
    size_t low_severe, low_mild, high_mild, high_severe; /* Tukey 1.5/3 IQR counts (never dropped) */
    double within_run_cv;     /* pooled within-run CV: sqrt(sum (n_r-1) cv_r^2 / sum (n_r-1)); NAN when no run has 2 samples */
    double between_run_cv;    /* CV of the run medians; NAN when < 2 runs */
    double run_median_median; /* median of run medians (the robust headline figure) */
    double mde;               /* minimum detectable relative effect (fraction), see bh_summarize(); NAN if < 2 runs */
    uint32_t flags;           /* BH_STAB_* */

    /* Beyond the integration interface. */
    double iqr;                /* q3 - q1 */
    double median_ci_coverage; /* exact coverage of [median_ci_lo, median_ci_hi] */
    double between_run_f;      /* one-way ANOVA F = MS_between / MS_within over runs; NAN when < 2 runs or n == n_runs */
    double between_run_p;      /* P(F > between_run_f) with no run effect; NAN with it */
    double drift;              /* median over runs of (median of last third - median of first third) / run median; NAN when no run has 3 samples */
    double mwu_min_p;          /* smallest two-sided exact Mann-Whitney p reachable with n_runs runs per side: 2 / C(2R, R) */
} bh_summary;

/* Fills *o with the defaults above. */
void bh_summary_opts_default(bh_summary_opts *o);

/* Summarizes n samples.
 *
 * values[i]: one sample (e.g. ns per iteration); run[i]: the run it came
 * from (ids 0..n_runs-1 in any order; sparse ids are accepted and counted
 * as distinct runs; run == NULL means one run). Samples of one run must
 * appear in values[] in the order they were taken (for WARMUP_DRIFT).
 * sample_ns: duration of each sample for SHORT_SAMPLES, may be NULL.
 * opts may be NULL for the defaults. Inputs are read only, never kept.
 *
 * Definitions:
 * - the bootstrap resamples individual samples (seed opts->seed);
 * - mde = expm1((z(1-alpha/2) + z(power)) * s * sqrt(2/R)) with s the sd of
 *   the log run medians (the CV of the run medians when one is <= 0) and R
 *   runs on each side (docs/statistics.md section 10.14, normal
 *   approximation);
 * - flags: HIGH_CV when the CV of the run medians (the sample CV with one
 *   run) exceeds max_cv; SHORT_SAMPLES when some sample_ns[i] <
 *   min_sample_ns; SEVERE_OUTLIERS when any Tukey severe outlier;
 *   BETWEEN_RUN when between_run_f > 4; WARMUP_DRIFT when |drift| > max_cv;
 *   TOO_FEW when a median CI bound is infinite or there are < 2 runs.
 *
 * Returns 0, or -1 (with *out zeroed) when n == 0, values is NULL, values
 * or sample_ns hold NaN/Inf, an option is out of range (levels, alpha and
 * power in (0, 1); max_cv and min_sample_ns >= 0), or memory runs out;
 * -1 without writing when out is NULL. */
int bh_summarize(const double *values, const uint32_t *run, const double *sample_ns, size_t n,
                 const bh_summary_opts *opts, bh_summary *out);

#endif
