// SPDX-License-Identifier: MIT
/* See roof_bw.h. The portable set, and the choice among the sets. The
 * portable loops are left to -O3's auto-vectorizer (the read sum is not
 * vectorized without -ffast-math: it stays a portable reference). */
#include "roof_bw.h"

/* Keeps the compiler from merging passes: memory may have been read or
 * written by someone else in between. */
#define ROOF_BARRIER() __asm__ __volatile__("" : : : "memory")

static double read_portable(const double *a, size_t n, uint64_t passes)
{
    double sum = 0;

    for (uint64_t p = 0; p < passes; p++) {
        double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
        size_t i = 0;

        ROOF_BARRIER();
        for (; i + 4 <= n; i += 4) {
            s0 += a[i];
            s1 += a[i + 1];
            s2 += a[i + 2];
            s3 += a[i + 3];
        }
        for (; i < n; i++)
            s0 += a[i];
        sum = (s0 + s1) + (s2 + s3);
    }
    return sum;
}

static void write_portable(double *a, size_t n, uint64_t passes)
{
    for (uint64_t p = 0; p < passes; p++) {
        double v = (double)(p + 1);

        for (size_t i = 0; i < n; i++)
            a[i] = v;
        ROOF_BARRIER();
    }
}

static void triad_portable(double *a, const double *b, const double *c, double s, size_t n,
                           uint64_t passes)
{
    for (uint64_t p = 0; p < passes; p++) {
        for (size_t i = 0; i < n; i++)
            a[i] = b[i] + s * c[i];
        ROOF_BARRIER();
    }
}

static const roof_bw_kernels portable = {"portable", read_portable, write_portable, triad_portable};

unsigned roof_bw_variant_count(void)
{
#if defined(ROOF_HAVE_X86)
    return 2;
#else
    return 1;
#endif
}

const roof_bw_kernels *roof_bw_variant(unsigned i)
{
    if (i == 0)
        return &portable;
#if defined(ROOF_HAVE_X86)
    if (i == 1 && __builtin_cpu_supports("avx512f"))
        return &roof_bw_avx512;
#endif
    return NULL;
}

const roof_bw_kernels *roof_bw_best(void)
{
    for (unsigned i = roof_bw_variant_count(); i-- > 1;)
        if (roof_bw_variant(i) != NULL)
            return roof_bw_variant(i);
    return &portable;
}
