// SPDX-License-Identifier: MIT
/* Quantiles of sorted samples and distribution-free confidence intervals
 * for them from order statistics.
 *
 * Pure functions: no I/O, no globals, no allocation; reentrant. Sorted
 * input means ascending and finite (bh_stats_sort()). */
#ifndef BH_STATS_QUANTILE_H
#define BH_STATS_QUANTILE_H

#include <stddef.h>

/* Type-7 quantile (R's default, numpy's "linear") of sorted s[0..n):
 * h = (n-1)p, j = floor(h), Q = s[j] + (h-j)(s[j+1]-s[j]), Q = s[n-1] when
 * j >= n-1. NAN when n == 0 or p is outside [0, 1] or NaN. */
double bh_stats_quantile_sorted(const double *s, size_t n, double p);

/* Ranks (1-based) of the order statistics that bound a distribution-free
 * confidence interval for the q-quantile at the given level, with
 * K ~ Binomial(n, q) and F(k) = P(K <= k):
 *   r = the largest r with F(r-1) <= (1-level)/2,
 *   s = the smallest s with F(s-1) >= 1 - (1-level)/2,
 * so that P[x(r) < Q_q < x(s)] = F(s-1) - F(r-1) >= level.
 * *r is 0 when no order statistic is low enough (the bound is -infinity),
 * *s is 0 when none is high enough (+infinity). *coverage (may be NULL)
 * receives the exact coverage of the interval, counting a missing bound as
 * infinite. Returns 0; -1 when n == 0, q is outside (0, 1) or level is
 * outside (0, 1) (outputs zeroed, coverage NAN). */
int bh_stats_order_ci_ranks(size_t n, double q, double level, size_t *r, size_t *s,
                            double *coverage);

/* The interval of bh_stats_order_ci_ranks() as values of sorted s[0..n):
 * *lo = x(r) or -INFINITY, *hi = x(s) or +INFINITY. coverage may be NULL.
 * Returns 0; -1 on the same argument errors (*lo, *hi NAN). */
int bh_stats_quantile_ci_sorted(const double *s, size_t n, double q, double level, double *lo,
                                double *hi, double *coverage);

#endif
