// SPDX-License-Identifier: MIT
/*
 * tk_simd512.h -- the AVX-512 instance of the small vector vocabulary the
 * kernel bodies (tk_body_*.h) are written in. Every function carries the
 * target attribute, so the library still loads and runs on CPUs without
 * AVX-512: these are only called after tk_isa() said AVX512.
 *
 * vf: VF_N floats, vd: VD_N doubles, vi: VF_N int32, vfm: a lane mask of
 * vf. The *_ldn and *_stn forms touch only lanes [0, n), n < the width;
 * the *_stnt forms are non-temporal stores to 64-byte aligned addresses
 * (vsfence() after).
 * Include from exactly one .c file.
 */
#ifndef TK_SIMD512_H
#define TK_SIMD512_H

#include <immintrin.h>
#include <stddef.h>
#include <stdint.h>

#define TK_T __attribute__((target("avx512f,avx512bw,avx512dq,avx512vl,fma,f16c")))
#define TK_FN(name) name##_avx512
#define VF_N 16
#define VD_N 8
#define TK_HAS_NT 1

typedef __m512 vf;
typedef __m512d vd;
typedef __m512i vi;
typedef __mmask16 vfm;

static inline TK_T __mmask16 lanes16(size_t n) { return (__mmask16)((1u << n) - 1u); }
static inline TK_T __mmask8 lanes8(size_t n) { return (__mmask8)((1u << n) - 1u); }

static inline TK_T vf vf_zero(void) { return _mm512_setzero_ps(); }
static inline TK_T vf vf_set1(float x) { return _mm512_set1_ps(x); }
static inline TK_T vf vf_ld(const float *p) { return _mm512_loadu_ps(p); }
static inline TK_T vf vf_ldn(const float *p, size_t n, float fill)
{
    return _mm512_mask_loadu_ps(_mm512_set1_ps(fill), lanes16(n), p);
}
static inline TK_T void vf_st(float *p, vf v) { _mm512_storeu_ps(p, v); }
static inline TK_T void vf_stn(float *p, vf v, size_t n)
{
    _mm512_mask_storeu_ps(p, lanes16(n), v);
}
static inline TK_T void vf_stnt(float *p, vf v) { _mm512_stream_ps(p, v); }
static inline TK_T vf vf_add(vf a, vf b) { return _mm512_add_ps(a, b); }
static inline TK_T vf vf_sub(vf a, vf b) { return _mm512_sub_ps(a, b); }
static inline TK_T vf vf_mul(vf a, vf b) { return _mm512_mul_ps(a, b); }
static inline TK_T vf vf_div(vf a, vf b) { return _mm512_div_ps(a, b); }
static inline TK_T vf vf_fma(vf a, vf b, vf c) { return _mm512_fmadd_ps(a, b, c); }
static inline TK_T vf vf_fnma(vf a, vf b, vf c) { return _mm512_fnmadd_ps(a, b, c); }
static inline TK_T vf vf_max(vf a, vf b) { return _mm512_max_ps(a, b); }
static inline TK_T vf vf_min(vf a, vf b) { return _mm512_min_ps(a, b); }
static inline TK_T vf vf_sqrt(vf a) { return _mm512_sqrt_ps(a); }
static inline TK_T vf vf_abs(vf a) { return _mm512_abs_ps(a); }
/* a * 2^n for integral n (exact scaling, IEEE overflow and underflow). */
#define TK_HAS_SCALEF 1
static inline TK_T vf vf_scalef(vf a, vf n) { return _mm512_scalef_ps(a, n); }
static inline TK_T vf vf_round(vf a)
{
    return _mm512_roundscale_ps(a, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
}
static inline TK_T float vf_hsum(vf a) { return _mm512_reduce_add_ps(a); }
static inline TK_T float vf_hmax(vf a) { return _mm512_reduce_max_ps(a); }
static inline TK_T vfm vf_lt(vf a, vf b) { return _mm512_cmp_ps_mask(a, b, _CMP_LT_OQ); }
static inline TK_T vfm vf_gt(vf a, vf b) { return _mm512_cmp_ps_mask(a, b, _CMP_GT_OQ); }
static inline TK_T vfm vf_eq(vf a, vf b) { return _mm512_cmp_ps_mask(a, b, _CMP_EQ_OQ); }
/* Lanes of b where m is set, of a elsewhere. */
static inline TK_T vf vf_sel(vfm m, vf a, vf b) { return _mm512_mask_blend_ps(m, a, b); }
static inline TK_T int vfm_any(vfm m) { return m != 0; }

static inline TK_T vi vi_set1(int32_t x) { return _mm512_set1_epi32(x); }
static inline TK_T vi vi_iota(void)
{
    return _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
}
static inline TK_T vi vi_add(vi a, vi b) { return _mm512_add_epi32(a, b); }
static inline TK_T vi vi_sub(vi a, vi b) { return _mm512_sub_epi32(a, b); }
static inline TK_T vi vi_mul(vi a, vi b) { return _mm512_mullo_epi32(a, b); }
static inline TK_T vi vi_xor(vi a, vi b) { return _mm512_xor_si512(a, b); }
static inline TK_T vi vi_and(vi a, vi b) { return _mm512_and_si512(a, b); }
static inline TK_T vi vi_or(vi a, vi b) { return _mm512_or_si512(a, b); }
#define vi_srl(v, k) _mm512_srli_epi32((v), (k))
#define vi_sll(v, k) _mm512_slli_epi32((v), (k))
static inline TK_T vi vi_sel(vfm m, vi a, vi b) { return _mm512_mask_blend_epi32(m, a, b); }
static inline TK_T vi vf_cvt_vi(vf a) { return _mm512_cvtps_epi32(a); }
static inline TK_T vf vi_cvt_vf(vi a) { return _mm512_cvtepi32_ps(a); }
static inline TK_T vi vf_as_vi(vf a) { return _mm512_castps_si512(a); }
static inline TK_T vf vi_as_vf(vi a) { return _mm512_castsi512_ps(a); }
static inline TK_T void vi_st(int32_t *p, vi v) { _mm512_storeu_si512(p, v); }

/* int32 lanes (already within int8 range) to/from int8 memory. */
static inline TK_T void vi_st_i8(int8_t *p, vi v)
{
    _mm_storeu_si128((__m128i *)(void *)p, _mm512_cvtepi32_epi8(v));
}
static inline TK_T void vi_st_i8n(int8_t *p, vi v, size_t n)
{
    _mm512_mask_cvtepi32_storeu_epi8(p, lanes16(n), v);
}
static inline TK_T vi vi_ld_i8(const int8_t *p)
{
    return _mm512_cvtepi8_epi32(_mm_loadu_si128((const __m128i *)(const void *)p));
}
static inline TK_T vi vi_ld_i8n(const int8_t *p, size_t n)
{
    return _mm512_cvtepi8_epi32(_mm_maskz_loadu_epi8(lanes16(n), p));
}
/* Low 16 bits of each int32 lane to/from uint16 memory. */
static inline TK_T void vi_st_u16(uint16_t *p, vi v)
{
    _mm256_storeu_si256((__m256i *)(void *)p, _mm512_cvtepi32_epi16(v));
}
static inline TK_T void vi_st_u16n(uint16_t *p, vi v, size_t n)
{
    _mm512_mask_cvtepi32_storeu_epi16(p, lanes16(n), v);
}
static inline TK_T vi vi_ld_u16(const uint16_t *p)
{
    return _mm512_cvtepu16_epi32(_mm256_loadu_si256((const __m256i *)(const void *)p));
}
static inline TK_T vi vi_ld_u16n(const uint16_t *p, size_t n)
{
    return _mm512_cvtepu16_epi32(_mm256_maskz_loadu_epi16(lanes16(n), p));
}
/* IEEE half <-> float, round to nearest even. */
static inline TK_T void vf_st_f16(uint16_t *p, vf v)
{
    _mm256_storeu_si256((__m256i *)(void *)p,
                        _mm512_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
}
static inline TK_T void vf_st_f16n(uint16_t *p, vf v, size_t n)
{
    __m256i h = _mm512_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    _mm256_mask_storeu_epi16(p, lanes16(n), h);
}
static inline TK_T vf vf_ld_f16(const uint16_t *p)
{
    return _mm512_cvtph_ps(_mm256_loadu_si256((const __m256i *)(const void *)p));
}
static inline TK_T vf vf_ld_f16n(const uint16_t *p, size_t n)
{
    return _mm512_cvtph_ps(_mm256_maskz_loadu_epi16(lanes16(n), p));
}

static inline TK_T vd vd_set1(double x) { return _mm512_set1_pd(x); }
static inline TK_T vd vd_iota(void) { return _mm512_setr_pd(0, 1, 2, 3, 4, 5, 6, 7); }
static inline TK_T vd vd_ld(const double *p) { return _mm512_loadu_pd(p); }
static inline TK_T vd vd_ldn(const double *p, size_t n, double fill)
{
    return _mm512_mask_loadu_pd(_mm512_set1_pd(fill), lanes8(n), p);
}
static inline TK_T void vd_st(double *p, vd v) { _mm512_storeu_pd(p, v); }
static inline TK_T void vd_stn(double *p, vd v, size_t n)
{
    _mm512_mask_storeu_pd(p, lanes8(n), v);
}
static inline TK_T void vd_stnt(double *p, vd v) { _mm512_stream_pd(p, v); }
static inline TK_T vd vd_add(vd a, vd b) { return _mm512_add_pd(a, b); }
static inline TK_T vd vd_sub(vd a, vd b) { return _mm512_sub_pd(a, b); }
static inline TK_T vd vd_mul(vd a, vd b) { return _mm512_mul_pd(a, b); }
static inline TK_T vd vd_div(vd a, vd b) { return _mm512_div_pd(a, b); }
static inline TK_T vd vd_fma(vd a, vd b, vd c) { return _mm512_fmadd_pd(a, b, c); }
static inline TK_T vd vd_max(vd a, vd b) { return _mm512_max_pd(a, b); }
static inline TK_T vd vd_sqrt(vd a) { return _mm512_sqrt_pd(a); }
/* VD_N doubles rounded to float, stored as VD_N floats. */
static inline TK_T void vd_st_f32(float *p, vd v) { _mm256_storeu_ps(p, _mm512_cvtpd_ps(v)); }
static inline TK_T void vd_st_f32n(float *p, vd v, size_t n)
{
    _mm256_mask_storeu_ps(p, lanes8(n), _mm512_cvtpd_ps(v));
}

static inline TK_T void vsfence(void) { _mm_sfence(); }

#endif /* TK_SIMD512_H */
