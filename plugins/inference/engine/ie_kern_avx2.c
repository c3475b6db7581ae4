// SPDX-License-Identifier: MIT
/*
 * ie_kern_avx2.c -- the kernel bodies compiled for AVX2 + FMA + F16C:
 * ie_kern_avx2. Nothing here runs unless ie_kern_get() chose it.
 */
#include "ie_internal.h"

#include <immintrin.h>

#define IE_T __attribute__((target("avx2,fma,f16c")))
#define IE_FN(name) name##_avx2
#define VN 8

#define IE_LOAD_I8(p)                                                          \
    ((vf)_mm256_cvtepi32_ps(                                                   \
        _mm256_cvtepi8_epi32(_mm_loadl_epi64((const __m128i *)(p)))))

#include "ie_kern_body.h"

const ie_kern ie_kern_avx2 = IE_KERN_TABLE("avx2");
