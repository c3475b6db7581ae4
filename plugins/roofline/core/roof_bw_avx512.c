// SPDX-License-Identifier: MIT
/* See roof_bw.h: the AVX-512 set, 64-byte vectors unrolled so that two
 * loads or stores a cycle can be in flight: eight independent sums for
 * read (vaddpd latency 4 at two a cycle), four stores or four FMAs a loop
 * for write and triad. Ordinary (write-allocating) stores: see
 * bench_bw.c. */
#include "roof_bw.h"

#include <immintrin.h>

#define ROOF_AVX512    __attribute__((target("avx512f")))
#define ROOF_BARRIER() __asm__ __volatile__("" : : : "memory")

ROOF_AVX512 static double read_avx512(const double *a, size_t n, uint64_t passes)
{
    double sum = 0;

    for (uint64_t p = 0; p < passes; p++) {
        __m512d s0 = _mm512_setzero_pd(), s1 = s0, s2 = s0, s3 = s0;
        __m512d s4 = s0, s5 = s0, s6 = s0, s7 = s0;
        double tail = 0;
        size_t i = 0;

        ROOF_BARRIER();
        for (; i + 64 <= n; i += 64) {
            s0 = _mm512_add_pd(s0, _mm512_loadu_pd(a + i));
            s1 = _mm512_add_pd(s1, _mm512_loadu_pd(a + i + 8));
            s2 = _mm512_add_pd(s2, _mm512_loadu_pd(a + i + 16));
            s3 = _mm512_add_pd(s3, _mm512_loadu_pd(a + i + 24));
            s4 = _mm512_add_pd(s4, _mm512_loadu_pd(a + i + 32));
            s5 = _mm512_add_pd(s5, _mm512_loadu_pd(a + i + 40));
            s6 = _mm512_add_pd(s6, _mm512_loadu_pd(a + i + 48));
            s7 = _mm512_add_pd(s7, _mm512_loadu_pd(a + i + 56));
        }
        for (; i < n; i++)
            tail += a[i];
        s0 = _mm512_add_pd(_mm512_add_pd(s0, s1), _mm512_add_pd(s2, s3));
        s4 = _mm512_add_pd(_mm512_add_pd(s4, s5), _mm512_add_pd(s6, s7));
        sum = _mm512_reduce_add_pd(_mm512_add_pd(s0, s4)) + tail;
    }
    return sum;
}

ROOF_AVX512 static void write_avx512(double *a, size_t n, uint64_t passes)
{
    for (uint64_t p = 0; p < passes; p++) {
        double v = (double)(p + 1);
        __m512d vv = _mm512_set1_pd(v);
        size_t i = 0;

        for (; i + 32 <= n; i += 32) {
            _mm512_storeu_pd(a + i, vv);
            _mm512_storeu_pd(a + i + 8, vv);
            _mm512_storeu_pd(a + i + 16, vv);
            _mm512_storeu_pd(a + i + 24, vv);
        }
        for (; i < n; i++)
            a[i] = v;
        ROOF_BARRIER();
    }
}

ROOF_AVX512 static void triad_avx512(double *a, const double *b, const double *c, double s,
                                     size_t n, uint64_t passes)
{
    __m512d vs = _mm512_set1_pd(s);

    for (uint64_t p = 0; p < passes; p++) {
        size_t i = 0;

        for (; i + 32 <= n; i += 32) {
            for (size_t k = 0; k < 32; k += 8)
                _mm512_storeu_pd(a + i + k, _mm512_fmadd_pd(vs, _mm512_loadu_pd(c + i + k),
                                                            _mm512_loadu_pd(b + i + k)));
        }
        for (; i < n; i++)
            a[i] = b[i] + s * c[i];
        ROOF_BARRIER();
    }
}

const roof_bw_kernels roof_bw_avx512 = {"avx512", read_avx512, write_avx512, triad_avx512};
