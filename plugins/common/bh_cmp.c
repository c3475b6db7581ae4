// SPDX-License-Identifier: MIT
/*
 * bh_cmp.c -- the order of doubles, the median and the rate record
 * (contracts in bh_cmp.h).
 */
#include "bh_cmp.h"

#include <stdlib.h>
#include <string.h>

int bh_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;

    return x < y ? -1 : x > y;
}

double bh_median_sort(double *v, size_t n)
{
    if (n == 0)
        return 0.0;
    qsort(v, n, sizeof(double), bh_cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

void bh_rates_add(bh_rates *r, double work_per_iter, uint64_t iters, uint64_t ns)
{
    if (ns == 0 || iters == 0)
        return;
    r->rate[r->count % 64] = work_per_iter * (double)iters * 1e9 / (double)ns;
    r->count++;
}

double bh_rates_median(const bh_rates *r)
{
    double v[64];
    uint32_t n = r->count < 64 ? r->count : 64;

    memcpy(v, r->rate, n * sizeof(double));
    return bh_median_sort(v, n);
}
