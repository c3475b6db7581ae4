// SPDX-License-Identifier: MIT
/*
 * tk_gemm_i8_vnni.c -- the AVX-512 VNNI microkernel of the int8 matmul:
 * an 8 x 32 int32 tile from a packed 8-row A panel (unsigned, biased by
 * +128) and a packed 32-column B panel (signed), k in groups of 4 per
 * vpdpbusd. Compiled with a target attribute; only called when
 * tk_has_vnni() says so.
 */
#include "tk_gemm_i8.h"

#include <immintrin.h>

#define TK_VNNI __attribute__((target("avx512f,avx512bw,avx512vnni")))

/* Stores (or adds, when acc) one 16-lane row segment; corr is the
 * -128 * colsum correction, applied when the tile is first written. */
static inline TK_VNNI void put(int32_t *c, __m512i v, __m512i corr, int acc)
{
    if (acc)
        v = _mm512_add_epi32(v, _mm512_loadu_si512(c));
    else
        v = _mm512_add_epi32(v, corr);
    _mm512_storeu_si512(c, v);
}

TK_VNNI void tk_i8_ukernel_vnni(const uint8_t *a, const int8_t *b, size_t kg,
                                int32_t *c, size_t ldc, const int32_t *corr,
                                int acc)
{
    __m512i c00 = _mm512_setzero_si512(), c01 = c00, c10 = c00, c11 = c00;
    __m512i c20 = c00, c21 = c00, c30 = c00, c31 = c00;
    __m512i c40 = c00, c41 = c00, c50 = c00, c51 = c00;
    __m512i c60 = c00, c61 = c00, c70 = c00, c71 = c00;
    __m512i k0, k1;
    const int32_t *ap = (const int32_t *)(const void *)a;

    for (size_t g = 0; g < kg; g++, ap += 8, b += 128) {
        __m512i b0 = _mm512_loadu_si512(b);
        __m512i b1 = _mm512_loadu_si512(b + 64);
        __m512i x;

#define ROW(r, lo, hi)                                                         \
    x = _mm512_set1_epi32(ap[r]);                                              \
    lo = _mm512_dpbusd_epi32(lo, x, b0);                                       \
    hi = _mm512_dpbusd_epi32(hi, x, b1)
        ROW(0, c00, c01);
        ROW(1, c10, c11);
        ROW(2, c20, c21);
        ROW(3, c30, c31);
        ROW(4, c40, c41);
        ROW(5, c50, c51);
        ROW(6, c60, c61);
        ROW(7, c70, c71);
#undef ROW
    }
    k0 = _mm512_loadu_si512(corr);
    k1 = _mm512_loadu_si512(corr + 16);
    put(c, c00, k0, acc);
    put(c + 16, c01, k1, acc);
    put(c + ldc, c10, k0, acc);
    put(c + ldc + 16, c11, k1, acc);
    put(c + 2 * ldc, c20, k0, acc);
    put(c + 2 * ldc + 16, c21, k1, acc);
    put(c + 3 * ldc, c30, k0, acc);
    put(c + 3 * ldc + 16, c31, k1, acc);
    put(c + 4 * ldc, c40, k0, acc);
    put(c + 4 * ldc + 16, c41, k1, acc);
    put(c + 5 * ldc, c50, k0, acc);
    put(c + 5 * ldc + 16, c51, k1, acc);
    put(c + 6 * ldc, c60, k0, acc);
    put(c + 6 * ldc + 16, c61, k1, acc);
    put(c + 7 * ldc, c70, k0, acc);
    put(c + 7 * ldc + 16, c71, k1, acc);
}
