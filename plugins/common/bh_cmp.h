// SPDX-License-Identifier: MIT
/*
 * bh_cmp.h -- comparison and order helpers the in-tree plugins share: the
 * qsort order of doubles, the median of a sample, and the rate record the
 * roof benchmarks keep to report their figure as a metric.
 */
#ifndef BH_CMP_H
#define BH_CMP_H

#include <stddef.h>
#include <stdint.h>

/* Ascending qsort order of two doubles (NaN compares equal to all).
 * [any-thread] */
int bh_cmp_double(const void *a, const void *b);

/* Sorts v[0..n) ascending and returns its median (the mean of the middle
 * two for an even n); 0 when n is 0. [any-thread] */
double bh_median_sort(double *v, size_t n);

/* The last 64 rates (per-iteration work per second) of run() calls. */
typedef struct bh_rates {
    double rate[64]; /* per-iteration work / second of the last calls */
    uint32_t count;  /* calls recorded, wraps over rate[] */
    uint32_t reserved;
} bh_rates;

/* Records one run() of iters iterations of work_per_iter lasting ns;
 * nothing when ns or iters is 0. */
void bh_rates_add(bh_rates *r, double work_per_iter, uint64_t iters, uint64_t ns);

/* Median of the recorded rates (0 when none). */
double bh_rates_median(const bh_rates *r);

#endif /* BH_CMP_H */
