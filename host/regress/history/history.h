// SPDX-License-Identifier: MIT
/* Change points and the newest-value check over a series of nightly
 * medians (docs/statistics.md sections 5.2, 6 and 11.4).
 *
 * The detector is Hunter-style windowed E-Divisive without permutations:
 * E-Divisive proposes splits inside overlapping windows, a two-sample
 * t test on the two neighbouring segments decides significance, and a
 * merge pass removes the weakest change points until each one is
 * significant at max_p and at least min_change in magnitude.
 *
 * Everything in this header is pure: no I/O, no globals; temporary memory
 * only (malloc; -1 when it runs out); reentrant; deterministic (identical
 * input and options give identical output bytes). */
#ifndef BH_HISTORY_H
#define BH_HISTORY_H

#include <stddef.h>

/* The significance test between the segments before and after a split. */
typedef enum bh_history_test {
    BH_HISTORY_STUDENT = 0, /* pooled variance, nb + na - 2 df (default) */
    BH_HISTORY_WELCH = 1,   /* unequal variances, Welch-Satterthwaite df */
} bh_history_test;

/* What the t test counts as one observation. */
typedef enum bh_history_unit {
    BH_HISTORY_UNIT_POINT = 0, /* one value per result (nightly median; default) */
    BH_HISTORY_UNIT_RUN = 1,   /* every run median of every result in the segment */
} bh_history_unit;

typedef struct bh_history_opts {
    size_t window;     /* points per E-Divisive window, 0 = the whole series (default 50) */
    size_t min_size;   /* fewest points on each side of a change point, >= 2 (default 3) */
    double split_p;    /* t-test level that keeps a split in the window pass (default 0.01) */
    double max_p;      /* t-test level a change point must meet at the end (default 0.001) */
    double min_change; /* magnitude floor as a fraction (default 0.01 = 1%) */
    bh_history_test test;
    bh_history_unit unit;
    int log_scale;     /* 1: test and split ln(values) (default); 0: raw values */
} bh_history_opts;

/* Run-level values of each point, for BH_HISTORY_UNIT_RUN: point i owns
 * values[offset[i] .. offset[i+1]) (offset has n + 1 entries, ascending). */
typedef struct bh_history_runs {
    const double *values;
    const size_t *offset;
} bh_history_runs;

/* One change point, with the statistics of its two neighbouring segments
 * [lo, index) and [index, hi) (bounded by the neighbouring change points
 * or the ends of the series). */
typedef struct bh_history_cp {
    size_t index;     /* first point after the change */
    size_t lo, hi;    /* the segments before and after */
    double before;    /* median of the point values in [lo, index) */
    double after;     /* median of the point values in [index, hi) */
    double change;    /* after / before - 1 */
    double magnitude; /* max(|after/before - 1|, |before/after - 1|) (Hunter) */
    double t;         /* t statistic of after against before (> 0: after is higher) */
    double df;        /* its degrees of freedom (NAN when not testable) */
    double p;         /* two-sided p; 1 when a segment is shorter than min_size */
    size_t candidates; /* splits of [lo, hi) it was chosen among: hi - lo - 2 min_size + 1 */
    double p_adjusted; /* min(1, p * candidates): p corrected for choosing the best split */
} bh_history_cp;

/* Fills *o with the defaults above. */
void bh_history_opts_default(bh_history_opts *o);

/* Checks options: min_size >= 2, window 0 or >= 2 * min_size, split_p and
 * max_p in (0, 1], min_change >= 0 and finite, known test and unit.
 * Returns 0 or -1. */
int bh_history_opts_check(const bh_history_opts *o);

/* Finds the change points of x[0..n) (values > 0 and finite; run values
 * the same when runs is given). opts NULL means the defaults; runs may be
 * NULL unless opts->unit is BH_HISTORY_UNIT_RUN.
 *
 * Algorithm (exact):
 *  1. y = ln x (or x when log_scale is 0); run values likewise.
 *  2. Windows [s, e): s = 0, e = min(s + window, n); after each window,
 *     stop when e == n, else s = max(last change point the window found,
 *     s + max(1, window / 2)).
 *  3. In a window the change points already known that fall inside it are
 *     fixed boundaries. Repeatedly: for every segment [a, b) between
 *     boundaries with b - a >= 2 min_size, compute the E-Divisive q(tau)
 *     of y[a..b) (bh_stats_edivisive_q) for a + min_size <= tau <=
 *     b - min_size; take the largest q over all segments (the first on
 *     ties); stop when none is > 0 or the t test of [tau, b) against
 *     [a, tau) has p > split_p; else add tau as a boundary.
 *  4. Merge: while change points remain, recompute each one's statistics
 *     on its neighbouring segments; remove the one with the largest
 *     p_adjusted (the first on ties) if that p_adjusted > max_p, else the
 *     one with the smallest magnitude (the first on ties) if that
 *     magnitude < min_change, else stop. p_adjusted is the t test's p
 *     times the number of splits the point was chosen among (Bonferroni):
 *     the best of 30 splits of pure noise has p <= 0.001 about 3% of the
 *     time, so an unadjusted max_p cries wolf on flat series.
 * The t test is opts->test on the y values (unit POINT) or on the pooled
 * transformed run values of the segment's points (unit RUN). When both
 * segments have zero variance, p is 0 if their means differ and 1 if not.
 *
 * On success *cps is a new array of *n_cps change points in ascending
 * index order (free() it; NULL when there are none). A series with fewer
 * than 2 min_size points has none.
 * Returns 0; -1 (*cps NULL, *n_cps 0) when n > 0 and x is NULL, a value
 * is NaN, infinite or <= 0, runs is missing for unit RUN, the options are
 * invalid, or memory runs out. */
int bh_history_detect(const double *x, size_t n, const bh_history_runs *runs,
                      const bh_history_opts *opts, bh_history_cp **cps, size_t *n_cps);

/* ---- the newest-value check (predict.c) -------------------------------- */

typedef enum bh_history_pi_status {
    BH_HISTORY_PI_NONE = 0, /* no interval: too few points or no spread */
    BH_HISTORY_PI_INSIDE,
    BH_HISTORY_PI_BELOW,
    BH_HISTORY_PI_ABOVE,
} bh_history_pi_status;

typedef struct bh_history_pi {
    size_t n;       /* reference points */
    double center;  /* mean of the reference */
    double lo, hi;  /* the prediction interval */
    double t;       /* (newest - center) / (sd sqrt(1 + 1/n)) */
    double df;      /* n - 1 */
    double p;       /* two-sided P(|T| >= |t|) */
    bh_history_pi_status status;
} bh_history_pi;

/* Student t prediction interval for one new observation from a reference
 * sample ref[0..n): center +- t((1 + level) / 2; n - 1) sd sqrt(1 + 1/n)
 * with sd the sample standard deviation (divisor n - 1) (Bencher's t_test
 * threshold; level is the two-sided coverage), and where newest falls.
 * Zero spread gives status NONE with lo = hi = center and t, p NAN.
 * Returns 0; -1 (status NONE, numbers NAN) when n < 2, a value or newest
 * is not finite, or level is outside (0, 1). */
int bh_history_predict(const double *ref, size_t n, double newest, double level,
                       bh_history_pi *out);

/* The newest-value check of a series x[0..n) (values > 0 and finite)
 * whose last change point starts at last_cp (0 when none): the reference
 * is x[max(last_cp, n - 1 - max_ref) .. n - 1), the newest point x[n - 1].
 * With log_scale the interval is built on ln x and center, lo and hi are
 * transformed back (center is then a geometric mean). Fewer than min_ref
 * reference points give status NONE with only out->n set (so a fresh
 * segment does not get an interval as wide as t(.995; 1) makes it).
 * Returns 0; -1 on invalid input (n == 0, last_cp >= n, min_ref < 2,
 * max_ref < min_ref, bad level or values). */
int bh_history_check_newest(const double *x, size_t n, size_t last_cp, size_t min_ref,
                            size_t max_ref, double level, int log_scale, bh_history_pi *out);

#endif
