// SPDX-License-Identifier: MIT
/* Two-sample comparisons and the pieces around them: t tests, Mann-Whitney
 * U, Wilcoxon signed-rank, Hodges-Lehmann shifts with CIs, Fieller's ratio
 * CI, multiple-testing adjustment (Benjamini-Hochberg, Benjamini-Yekutieli,
 * Holm), the E-Divisive statistic, through-origin slope, geometric mean.
 * Formulas and known answers: docs/statistics.md section 10.
 *
 * Pure: no I/O, no globals; temporary memory only (malloc, freed before
 * return); reentrant; deterministic. Inputs must be finite: a function
 * given NaN or Inf returns -1 (or NAN). */
#ifndef BH_STATS_COMPARE_H
#define BH_STATS_COMPARE_H

#include <stddef.h>

/* ---- t tests (compare.c) --------------------------------------------- */

typedef struct bh_stats_ttest {
    double t;  /* (mean x - mean y) / standard error */
    double df; /* degrees of freedom (Welch-Satterthwaite or nx + ny - 2) */
    double p;  /* two-sided */
} bh_stats_ttest;

/* Welch's unequal-variance t test of x against y. Returns 0; -1 when
 * nx < 2, ny < 2, an input is not finite, or both variances are 0 (out
 * NAN). */
int bh_stats_welch_t(const double *x, size_t nx, const double *y, size_t ny,
                     bh_stats_ttest *out);
/* Student's pooled-variance t test; same contract. */
int bh_stats_student_t(const double *x, size_t nx, const double *y, size_t ny,
                       bh_stats_ttest *out);

/* ---- rank tests and Hodges-Lehmann (ranktests.c) ---------------------- */

typedef enum bh_stats_rank_method {
    BH_STATS_RANK_AUTO = 0, /* exact when there are no ties (and no zero
                               differences) and every n < 50, else NORMAL_CC */
    BH_STATS_RANK_EXACT,    /* exact null distribution; -1 with ties */
    BH_STATS_RANK_NORMAL_CC, /* normal, tie-corrected, continuity-corrected */
    BH_STATS_RANK_NORMAL,   /* normal, tie-corrected, no continuity correction */
} bh_stats_rank_method;

typedef struct bh_stats_mwu {
    double u1;  /* R1 - nx(nx+1)/2, R1 the rank sum of x (average ranks) */
    double u2;  /* nx ny - u1 */
    double p;   /* two-sided */
    int exact;  /* 1 when p comes from the exact distribution */
} bh_stats_mwu;

/* Mann-Whitney U test of x against y. Exact two-sided p =
 * min(1, 2 P(U >= max(u1, u2))); normal p = 2 (1 - Phi(z)) with
 * z = (max(u1, u2) - nx ny / 2 [- 0.5]) / sigma, sigma tie-corrected.
 * Returns 0; -1 when nx or ny is 0, an input is not finite, EXACT is asked
 * with ties, or memory runs out (out NAN). */
int bh_stats_mann_whitney(const double *x, size_t nx, const double *y, size_t ny,
                          bh_stats_rank_method method, bh_stats_mwu *out);

/* Smallest two-sided exact Mann-Whitney p reachable with nx and ny values:
 * 2 / C(nx + ny, nx), at most 1. NAN when nx or ny is 0. */
double bh_stats_mwu_min_p(size_t nx, size_t ny);

typedef struct bh_stats_wilcoxon {
    double w_plus; /* sum of the ranks of positive differences */
    size_t n;      /* differences left after dropping zeros */
    double p;      /* two-sided */
    int exact;
} bh_stats_wilcoxon;

/* Wilcoxon signed-rank test of the differences d (paired or interleaved
 * mode): zeros dropped, |d| ranked with average ranks for ties. Exact
 * two-sided p = min(1, 2 min(P(W <= w), P(W >= w))) from the subset-sum
 * distribution; normal with mu = n(n+1)/4 and
 * sigma^2 = n(n+1)(2n+1)/24 - sum(t^3 - t)/48. With every d zero: w 0,
 * n 0, p 1. Returns 0; -1 when nd == 0, an input is not finite, EXACT is
 * asked with ties or zeros, or memory runs out (out NAN). */
int bh_stats_wilcoxon_signed_rank(const double *d, size_t nd, bh_stats_rank_method method,
                                  bh_stats_wilcoxon *out);

typedef struct bh_stats_shift {
    double estimate; /* median of the pairwise differences */
    double lo, hi;   /* CI by test inversion; -+INFINITY when n is too small */
} bh_stats_shift;

/* Two-sample Hodges-Lehmann shift of y relative to x: the median of the
 * nx*ny differences y[j] - x[i], with the CI [D(C), D(nx ny + 1 - C)],
 * C = round(nx ny / 2 - z(1 - (1-level)/2) sqrt(nx ny (nx + ny + 1) / 12)).
 * For ratio effects pass log values: exp(estimate) - 1 is the relative
 * change. O(nx ny) memory. Returns 0; -1 when nx or ny is 0, an input is
 * not finite, level is outside (0, 1), or memory runs out (out NAN). */
int bh_stats_hodges_lehmann(const double *x, size_t nx, const double *y, size_t ny,
                            double level, bh_stats_shift *out);

/* One-sample Hodges-Lehmann location (median of the Walsh averages
 * (x[i] + x[j]) / 2, i <= j), with the signed-rank CI [A(C), A(M + 1 - C)],
 * M = n(n+1)/2, C = round(M/2 - z sqrt(n(n+1)(2n+1)/24)). Paired mode uses
 * it on per-round log ratios. Same contract as above. */
int bh_stats_hodges_lehmann_one(const double *x, size_t n, double level, bh_stats_shift *out);

/* ---- effects and helpers (compare.c) ----------------------------------- */

/* Fieller CI for the ratio b / a of two independent means, with
 * va = Var(mean a) = s_a^2 / n_a, vb likewise, and critical value t.
 * Returns 0 with *ratio = b / a and [*lo, *hi]; -1 when the interval is
 * unbounded (a^2 <= t^2 va) or an input is invalid (outputs NAN). */
int bh_stats_fieller(double a, double va, double b, double vb, double t, double *ratio,
                     double *lo, double *hi);

/* Least-squares slope through the origin, sum(x y) / sum(x^2) (time per
 * iteration from (iterations, elapsed) pairs). NAN when n == 0, an input
 * is not finite, or every x is 0. */
double bh_stats_slope_origin(const double *x, const double *y, size_t n);

/* exp(mean(ln x)); NAN when n == 0 or some x is not finite and > 0. */
double bh_stats_geomean(const double *x, size_t n);

/* Multiple-testing adjustment of m p-values into q[0..m) (same order; q
 * may alias p). BH: q(i) = min over j >= i of min(1, m p(j) / j) on the
 * ascending order; BY multiplies by sum 1/i (any dependence); Holm:
 * q(i) = max over j <= i of min(1, (m - j + 1) p(j)) (FWER). Returns 0;
 * -1 when some p is outside [0, 1] or NaN, or memory runs out (q
 * untouched). m == 0 is a no-op. */
int bh_stats_adjust_bh(const double *p, size_t m, double *q);
int bh_stats_adjust_by(const double *p, size_t m, double *q);
int bh_stats_adjust_holm(const double *p, size_t m, double *q);

/* E-Divisive divergence (U-statistic form, alpha = 1) of splitting x at
 * every tau: q[tau] = (m n / (m + n)) * (2/(m n) sum |l - r| -
 * sum_{i<k} |l_i - l_k| / C(m, 2) - sum_{j<k} |r_j - r_k| / C(n, 2)), with
 * left part l = x[0..tau) of size m, right part r of size n, an empty
 * pair-mean counting 0, and q[0] = 0. O(n^2) time, no allocation.
 * Returns the argmax tau (the first on ties), or -1 when n == 0 or an input
 * is not finite. */
long bh_stats_edivisive_q(const double *x, size_t n, double *q);

#endif
