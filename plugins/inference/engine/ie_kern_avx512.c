// SPDX-License-Identifier: MIT
/*
 * ie_kern_avx512.c -- the kernel bodies compiled for AVX-512 (F, BW, DQ,
 * VL) + FMA: ie_kern_avx512. Nothing here runs unless ie_kern_get() chose
 * it.
 */
#include "ie_internal.h"

#include <immintrin.h>

#define IE_T __attribute__((target("avx512f,avx512bw,avx512dq,avx512vl,fma,f16c")))
#define IE_FN(name) name##_avx512
#define VN 16

#define IE_LOAD_I8(p)                                                          \
    ((vf)_mm512_cvtepi32_ps(                                                   \
        _mm512_cvtepi8_epi32(_mm_loadu_si128((const __m128i *)(p)))))

#include "ie_kern_body.h"

const ie_kern ie_kern_avx512 = IE_KERN_TABLE("avx512");
