// SPDX-License-Identifier: MIT
/* Descriptive statistics on arrays of doubles.
 *
 * Every function here is pure: no I/O, no globals, no allocation, reentrant
 * and safe to call from any thread on distinct (or read-only shared) data.
 * Inputs must be finite unless a function says otherwise; check with
 * bh_stats_all_finite() first. */
#ifndef BH_STATS_DESCRIPTIVE_H
#define BH_STATS_DESCRIPTIVE_H

#include <stdbool.h>
#include <stddef.h>

/* 1 / Phi^-1(0.75), rounded as everyone reports it: makes the MAD a
 * consistent estimator of sigma under normality. */
#define BH_STATS_MAD_SCALE 1.4826

/* Streaming mean and variance (Welford's update). Zero-initialise or call
 * bh_stats_welford_init(); the struct owns nothing. */
typedef struct bh_stats_welford {
    size_t n;
    double mean;
    double m2; /* sum of squared deviations from the running mean */
} bh_stats_welford;

/* Resets w to the empty state. */
void bh_stats_welford_init(bh_stats_welford *w);
/* Adds one observation x (finite) to w. */
void bh_stats_welford_push(bh_stats_welford *w, double x);
/* Sample variance (divisor n-1) of what was pushed; NAN when n < 2. */
double bh_stats_welford_var(const bh_stats_welford *w);

/* True when each of the n values is finite (neither NaN nor +-Inf); true
 * for n == 0. x may be NULL only when n == 0. */
bool bh_stats_all_finite(const double *x, size_t n);

/* Arithmetic mean of n values (two passes: sum, then a correction of the
 * rounding error). NAN when n == 0. */
double bh_stats_mean(const double *x, size_t n);

/* Mean and sample variance (divisor n-1) by the corrected two-pass
 * algorithm, never by sum of squares. Either output pointer may be NULL.
 * Returns 0; -1 when n == 0 (outputs set to NAN). *var is NAN when n == 1. */
int bh_stats_mean_var(const double *x, size_t n, double *mean, double *var);

/* Sorts x[0..n) ascending in place (deterministic; NaN-free input). */
void bh_stats_sort(double *x, size_t n);

/* Returns the k-th smallest (0-based) of x[0..n), partially reordering x
 * (introselect: expected O(n), O(n log n) worst case). NAN when k >= n. */
double bh_stats_select(double *x, size_t n, size_t k);

/* Median of sorted data (mean of the two middle values for even n);
 * NAN when n == 0. */
double bh_stats_median_sorted(const double *s, size_t n);

/* Median of x[0..n) (NaN-free), sorting x in place: the one median every
 * module that reads samples uses. NAN when n == 0. */
double bh_stats_median(double *x, size_t n);

/* Median absolute deviation of sorted data s around med, multiplied by
 * BH_STATS_MAD_SCALE. O(n), no scratch memory. NAN when n == 0. */
double bh_stats_mad_sorted(const double *s, size_t n, double med);

/* Tukey fences from type-7 quartiles and the counts of values beyond them.
 * Mild: beyond 1.5 IQR but within 3 IQR; severe: beyond 3 IQR. A value on
 * a fence is not an outlier. Outliers are counted, never removed. */
typedef struct bh_stats_tukey {
    double q1, q3, iqr;
    double low_severe_fence, low_mild_fence;   /* q1 - 3 IQR, q1 - 1.5 IQR */
    double high_mild_fence, high_severe_fence; /* q3 + 1.5 IQR, q3 + 3 IQR */
    size_t low_severe, low_mild, high_mild, high_severe;
} bh_stats_tukey;

/* Fills *out from sorted data s[0..n). Returns 0; -1 when n == 0 (out
 * zeroed). */
int bh_stats_tukey_sorted(const double *s, size_t n, bh_stats_tukey *out);

#endif
