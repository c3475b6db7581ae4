// SPDX-License-Identifier: MIT
/*
 * opt_vec.h -- the small vector vocabulary opt_body.h is written in, as GCC
 * vector extensions of one width: define OPT_VEC_AVX512 (16 floats) or
 * OPT_VEC_AVX2 (8 floats) before including it. Every function carries the
 * target attribute of its instruction set, so the library still loads and
 * runs on CPUs without it: these run only after opt_isa() chose them.
 * Include from exactly one .c file per instruction set.
 */
#ifndef OPT_VEC_H
#define OPT_VEC_H

#include <immintrin.h>
#include <stdint.h>
#include <string.h>

#if defined(OPT_VEC_AVX512)
#define OPT_T __attribute__((target("avx512f,avx512bw,avx512dq,avx512vl,fma,f16c")))
#define OPT_FN(name) name##_avx512
#define VN 16
#elif defined(OPT_VEC_AVX2)
#define OPT_T __attribute__((target("avx2,fma,f16c")))
#define OPT_FN(name) name##_avx2
#define VN 8
#else
#error "define OPT_VEC_AVX512 or OPT_VEC_AVX2"
#endif

typedef float vf __attribute__((vector_size(VN * 4)));
typedef int32_t vi __attribute__((vector_size(VN * 4)));
typedef uint32_t vu __attribute__((vector_size(VN * 4)));
typedef uint16_t vh __attribute__((vector_size(VN * 2)));
typedef float vfh __attribute__((vector_size(VN * 2)));  /* VN/2 floats */
typedef double vd __attribute__((vector_size(VN * 4)));  /* VN/2 doubles */

/* Unaligned load of VN floats. */
static inline OPT_T vf vld(const float *p)
{
    vf v;

    memcpy(&v, p, sizeof(v));
    return v;
}

/* Unaligned store of VN floats. */
static inline OPT_T void vst(float *p, vf v)
{
    memcpy(p, &v, sizeof(v));
}

/* x in every lane. */
static inline OPT_T vf vset(float x)
{
    vf z = {0};

    return z + x;
}

/* Lane-wise square root, correctly rounded. */
static inline OPT_T vf vsqrt(vf x)
{
#if defined(OPT_VEC_AVX512)
    return (vf)_mm512_sqrt_ps((__m512)x);
#else
    return (vf)_mm256_sqrt_ps((__m256)x);
#endif
}

/* -1, 0 or +1 per lane (0 for zero and NaN), as torch.sign. */
static inline OPT_T vf vsign(vf x)
{
    vi one = (vi)vset(1.0f);
    vi gt = x > 0;
    vi lt = x < 0;

    return (vf)(one & gt) - (vf)(one & lt);
}

/* acc += x * x for the VN lanes of x, in double. */
static inline OPT_T void vsumsq(vd *acc_lo, vd *acc_hi, vf x)
{
    vfh lo, hi;
    vd dl, dh;

    memcpy(&lo, &x, sizeof(lo));
    memcpy(&hi, (const char *)&x + sizeof(lo), sizeof(hi));
    dl = __builtin_convertvector(lo, vd);
    dh = __builtin_convertvector(hi, vd);
    *acc_lo += dl * dl;
    *acc_hi += dh * dh;
}

/* Sum of the lanes of two double accumulators. */
static inline OPT_T double vdsum(vd a, vd b)
{
    double s = 0;
    vd t = a + b;

    for (int i = 0; i < VN / 2; i++)
        s += t[i];
    return s;
}

/* VN bf16 values widened to f32 (exact). */
static inline OPT_T vf vld_bf16(const uint16_t *p)
{
    vh h;

    memcpy(&h, p, sizeof(h));
    return (vf)(__builtin_convertvector(h, vu) << 16);
}

/* VN floats rounded to bf16, nearest even; NaN becomes 0x7FC0. */
static inline OPT_T void vst_bf16(uint16_t *p, vf x)
{
    vu u = (vu)x;
    vu nan = (vu)(x != x);
    vu r = (u + 0x7FFFu + ((u >> 16) & 1u)) >> 16;
    vh h;

    r = (r & ~nan) | (nan & 0x7FC0u);
    h = __builtin_convertvector(r, vh);
    memcpy(p, &h, sizeof(h));
}

/* VN f16 values widened to f32 (exact). */
static inline OPT_T vf vld_f16(const uint16_t *p)
{
#if defined(OPT_VEC_AVX512)
    return (vf)_mm512_cvtph_ps(_mm256_loadu_si256((const __m256i *)p));
#else
    return (vf)_mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)p));
#endif
}

/* VN floats rounded to f16, nearest even. */
static inline OPT_T void vst_f16(uint16_t *p, vf x)
{
#if defined(OPT_VEC_AVX512)
    _mm256_storeu_si256((__m256i *)p,
                        _mm512_cvtps_ph((__m512)x, _MM_FROUND_TO_NEAREST_INT));
#else
    _mm_storeu_si128((__m128i *)p,
                     _mm256_cvtps_ph((__m256)x, _MM_FROUND_TO_NEAREST_INT));
#endif
}

#endif /* OPT_VEC_H */
