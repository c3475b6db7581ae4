// SPDX-License-Identifier: MIT
#include "quantile.h"

#include <math.h>
#include <stdint.h>

#include "distributions.h"

double bh_stats_quantile_sorted(const double *s, size_t n, double p)
{
    double h, fl;
    size_t j;

    if (n == 0 || !(p >= 0.0 && p <= 1.0))
        return NAN;
    h = (double)(n - 1) * p;
    fl = floor(h);
    j = (size_t)fl;
    if (j >= n - 1)
        return s[n - 1];
    return s[j] + (h - fl) * (s[j + 1] - s[j]);
}

/* Smallest k in [lo, hi] with cdf(k) >= target, or hi + 1 when none; cdf
 * is non-decreasing in k. */
static int64_t first_cdf_at_least(int64_t lo, int64_t hi, int64_t n, double q, double target)
{
    int64_t end = hi + 1;

    while (lo < end) {
        int64_t mid = lo + (end - lo) / 2;

        if (bh_stats_binom_cdf(mid, n, q) >= target)
            end = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

/* Largest k in [lo, hi] with cdf(k) <= target, or lo - 1 when none. */
static int64_t last_cdf_at_most(int64_t lo, int64_t hi, int64_t n, double q, double target)
{
    int64_t beg = lo - 1;

    while (beg < hi) {
        int64_t mid = hi - (hi - beg) / 2;

        if (bh_stats_binom_cdf(mid, n, q) <= target)
            beg = mid;
        else
            hi = mid - 1;
    }
    return beg;
}

int bh_stats_order_ci_ranks(size_t n, double q, double level, size_t *r, size_t *s,
                            double *coverage)
{
    int64_t nn = (int64_t)n, kr, ks;
    double half, lo_cdf, hi_cdf;

    *r = 0;
    *s = 0;
    if (coverage)
        *coverage = NAN;
    if (n == 0 || !(q > 0.0 && q < 1.0) || !(level > 0.0 && level < 1.0))
        return -1;
    half = (1.0 - level) / 2.0;
    /* r - 1 = largest k with F(k) <= half; F(n) = 1 > half so k < n. */
    kr = last_cdf_at_most(0, nn - 1, nn, q, half);
    /* s - 1 = smallest k < n with F(k) >= 1 - half. */
    ks = first_cdf_at_least(0, nn - 1, nn, q, 1.0 - half);
    lo_cdf = 0.0;
    hi_cdf = 1.0;
    if (kr >= 0) {
        *r = (size_t)kr + 1;
        lo_cdf = bh_stats_binom_cdf(kr, nn, q);
    }
    if (ks <= nn - 1) {
        *s = (size_t)ks + 1;
        hi_cdf = bh_stats_binom_cdf(ks, nn, q);
    }
    if (coverage)
        *coverage = hi_cdf - lo_cdf;
    return 0;
}

int bh_stats_quantile_ci_sorted(const double *s, size_t n, double q, double level, double *lo,
                                double *hi, double *coverage)
{
    size_t rr, ss;

    if (bh_stats_order_ci_ranks(n, q, level, &rr, &ss, coverage) != 0) {
        *lo = NAN;
        *hi = NAN;
        return -1;
    }
    *lo = rr ? s[rr - 1] : -INFINITY;
    *hi = ss ? s[ss - 1] : INFINITY;
    return 0;
}
