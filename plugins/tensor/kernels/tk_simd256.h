// SPDX-License-Identifier: MIT
/*
 * tk_simd256.h -- the AVX2 + FMA + F16C instance of the vector vocabulary
 * (see tk_simd512.h for the contract of each name). Tails use maskload /
 * maskstore; int8 and uint16 tails go through a small stack buffer.
 * Include from exactly one .c file.
 */
#ifndef TK_SIMD256_H
#define TK_SIMD256_H

#include <immintrin.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define TK_T __attribute__((target("avx2,fma,f16c")))
#define TK_FN(name) name##_avx2
#define VF_N 8
#define VD_N 4
#define TK_HAS_NT 1

typedef __m256 vf;
typedef __m256d vd;
typedef __m256i vi;
typedef __m256 vfm;

/* All-ones int32 lanes [0, n). */
static inline TK_T __m256i lanes8i(size_t n)
{
    return _mm256_cmpgt_epi32(_mm256_set1_epi32((int)n),
                              _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
}
/* All-ones int64 lanes [0, n). */
static inline TK_T __m256i lanes4i(size_t n)
{
    return _mm256_cmpgt_epi64(_mm256_set1_epi64x((long long)n),
                              _mm256_setr_epi64x(0, 1, 2, 3));
}

static inline TK_T vf vf_zero(void) { return _mm256_setzero_ps(); }
static inline TK_T vf vf_set1(float x) { return _mm256_set1_ps(x); }
static inline TK_T vf vf_ld(const float *p) { return _mm256_loadu_ps(p); }
static inline TK_T vf vf_ldn(const float *p, size_t n, float fill)
{
    __m256i m = lanes8i(n);
    return _mm256_blendv_ps(_mm256_set1_ps(fill), _mm256_maskload_ps(p, m),
                            _mm256_castsi256_ps(m));
}
static inline TK_T void vf_st(float *p, vf v) { _mm256_storeu_ps(p, v); }
static inline TK_T void vf_stn(float *p, vf v, size_t n)
{
    _mm256_maskstore_ps(p, lanes8i(n), v);
}
static inline TK_T void vf_stnt(float *p, vf v) { _mm256_stream_ps(p, v); }
static inline TK_T vf vf_add(vf a, vf b) { return _mm256_add_ps(a, b); }
static inline TK_T vf vf_sub(vf a, vf b) { return _mm256_sub_ps(a, b); }
static inline TK_T vf vf_mul(vf a, vf b) { return _mm256_mul_ps(a, b); }
static inline TK_T vf vf_div(vf a, vf b) { return _mm256_div_ps(a, b); }
static inline TK_T vf vf_fma(vf a, vf b, vf c) { return _mm256_fmadd_ps(a, b, c); }
static inline TK_T vf vf_fnma(vf a, vf b, vf c) { return _mm256_fnmadd_ps(a, b, c); }
static inline TK_T vf vf_max(vf a, vf b) { return _mm256_max_ps(a, b); }
static inline TK_T vf vf_min(vf a, vf b) { return _mm256_min_ps(a, b); }
static inline TK_T vf vf_sqrt(vf a) { return _mm256_sqrt_ps(a); }
static inline TK_T vf vf_abs(vf a)
{
    return _mm256_andnot_ps(_mm256_set1_ps(-0.0f), a);
}
static inline TK_T vf vf_round(vf a)
{
    return _mm256_round_ps(a, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
}
static inline TK_T float vf_hsum(vf a)
{
    __m128 s = _mm_add_ps(_mm256_castps256_ps128(a), _mm256_extractf128_ps(a, 1));
    s = _mm_add_ps(s, _mm_movehl_ps(s, s));
    s = _mm_add_ss(s, _mm_movehdup_ps(s));
    return _mm_cvtss_f32(s);
}
static inline TK_T float vf_hmax(vf a)
{
    __m128 s = _mm_max_ps(_mm256_castps256_ps128(a), _mm256_extractf128_ps(a, 1));
    s = _mm_max_ps(s, _mm_movehl_ps(s, s));
    s = _mm_max_ss(s, _mm_movehdup_ps(s));
    return _mm_cvtss_f32(s);
}
static inline TK_T vfm vf_lt(vf a, vf b) { return _mm256_cmp_ps(a, b, _CMP_LT_OQ); }
static inline TK_T vfm vf_gt(vf a, vf b) { return _mm256_cmp_ps(a, b, _CMP_GT_OQ); }
static inline TK_T vfm vf_eq(vf a, vf b) { return _mm256_cmp_ps(a, b, _CMP_EQ_OQ); }
static inline TK_T vf vf_sel(vfm m, vf a, vf b) { return _mm256_blendv_ps(a, b, m); }
static inline TK_T int vfm_any(vfm m) { return _mm256_movemask_ps(m) != 0; }

static inline TK_T vi vi_set1(int32_t x) { return _mm256_set1_epi32(x); }
static inline TK_T vi vi_iota(void) { return _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7); }
static inline TK_T vi vi_add(vi a, vi b) { return _mm256_add_epi32(a, b); }
static inline TK_T vi vi_sub(vi a, vi b) { return _mm256_sub_epi32(a, b); }
static inline TK_T vi vi_mul(vi a, vi b) { return _mm256_mullo_epi32(a, b); }
static inline TK_T vi vi_xor(vi a, vi b) { return _mm256_xor_si256(a, b); }
static inline TK_T vi vi_and(vi a, vi b) { return _mm256_and_si256(a, b); }
static inline TK_T vi vi_or(vi a, vi b) { return _mm256_or_si256(a, b); }
#define vi_srl(v, k) _mm256_srli_epi32((v), (k))
#define vi_sll(v, k) _mm256_slli_epi32((v), (k))
static inline TK_T vi vi_sel(vfm m, vi a, vi b)
{
    return _mm256_castps_si256(
        _mm256_blendv_ps(_mm256_castsi256_ps(a), _mm256_castsi256_ps(b), m));
}
static inline TK_T vi vf_cvt_vi(vf a) { return _mm256_cvtps_epi32(a); }
static inline TK_T vf vi_cvt_vf(vi a) { return _mm256_cvtepi32_ps(a); }
static inline TK_T vi vf_as_vi(vf a) { return _mm256_castps_si256(a); }
static inline TK_T vf vi_as_vf(vi a) { return _mm256_castsi256_ps(a); }
static inline TK_T void vi_st(int32_t *p, vi v) { _mm256_storeu_si256((__m256i *)(void *)p, v); }

/* 8 int32 lanes (within int16 range) packed to 8 int16 in a __m128i. */
static inline TK_T __m128i pack16(vi v)
{
    __m256i s = _mm256_shuffle_epi8(
        v, _mm256_setr_epi8(0, 1, 4, 5, 8, 9, 12, 13, -1, -1, -1, -1, -1, -1, -1, -1,
                            0, 1, 4, 5, 8, 9, 12, 13, -1, -1, -1, -1, -1, -1, -1, -1));
    s = _mm256_permute4x64_epi64(s, 0x08);
    return _mm256_castsi256_si128(s);
}
static inline TK_T void vi_st_i8(int8_t *p, vi v)
{
    __m128i h = pack16(v);
    _mm_storel_epi64((__m128i *)(void *)p, _mm_packs_epi16(h, h));
}
static inline TK_T void vi_st_i8n(int8_t *p, vi v, size_t n)
{
    int8_t tmp[16];
    vi_st_i8(tmp, v);
    memcpy(p, tmp, n);
}
static inline TK_T vi vi_ld_i8(const int8_t *p)
{
    return _mm256_cvtepi8_epi32(_mm_loadl_epi64((const __m128i *)(const void *)p));
}
static inline TK_T vi vi_ld_i8n(const int8_t *p, size_t n)
{
    int8_t tmp[8] = {0};
    memcpy(tmp, p, n);
    return vi_ld_i8(tmp);
}
static inline TK_T void vi_st_u16(uint16_t *p, vi v)
{
    _mm_storeu_si128((__m128i *)(void *)p, pack16(v));
}
static inline TK_T void vi_st_u16n(uint16_t *p, vi v, size_t n)
{
    uint16_t tmp[8];
    vi_st_u16(tmp, v);
    memcpy(p, tmp, n * sizeof(uint16_t));
}
static inline TK_T vi vi_ld_u16(const uint16_t *p)
{
    return _mm256_cvtepu16_epi32(_mm_loadu_si128((const __m128i *)(const void *)p));
}
static inline TK_T vi vi_ld_u16n(const uint16_t *p, size_t n)
{
    uint16_t tmp[8] = {0};
    memcpy(tmp, p, n * sizeof(uint16_t));
    return vi_ld_u16(tmp);
}
static inline TK_T void vf_st_f16(uint16_t *p, vf v)
{
    _mm_storeu_si128((__m128i *)(void *)p,
                     _mm256_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
}
static inline TK_T void vf_st_f16n(uint16_t *p, vf v, size_t n)
{
    uint16_t tmp[8];
    vf_st_f16(tmp, v);
    memcpy(p, tmp, n * sizeof(uint16_t));
}
static inline TK_T vf vf_ld_f16(const uint16_t *p)
{
    return _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(const void *)p));
}
static inline TK_T vf vf_ld_f16n(const uint16_t *p, size_t n)
{
    uint16_t tmp[8] = {0};
    memcpy(tmp, p, n * sizeof(uint16_t));
    return vf_ld_f16(tmp);
}

static inline TK_T vd vd_set1(double x) { return _mm256_set1_pd(x); }
static inline TK_T vd vd_iota(void) { return _mm256_setr_pd(0, 1, 2, 3); }
static inline TK_T vd vd_ld(const double *p) { return _mm256_loadu_pd(p); }
static inline TK_T vd vd_ldn(const double *p, size_t n, double fill)
{
    __m256i m = lanes4i(n);
    return _mm256_blendv_pd(_mm256_set1_pd(fill), _mm256_maskload_pd(p, m),
                            _mm256_castsi256_pd(m));
}
static inline TK_T void vd_st(double *p, vd v) { _mm256_storeu_pd(p, v); }
static inline TK_T void vd_stn(double *p, vd v, size_t n)
{
    _mm256_maskstore_pd(p, lanes4i(n), v);
}
static inline TK_T void vd_stnt(double *p, vd v) { _mm256_stream_pd(p, v); }
static inline TK_T vd vd_add(vd a, vd b) { return _mm256_add_pd(a, b); }
static inline TK_T vd vd_sub(vd a, vd b) { return _mm256_sub_pd(a, b); }
static inline TK_T vd vd_mul(vd a, vd b) { return _mm256_mul_pd(a, b); }
static inline TK_T vd vd_div(vd a, vd b) { return _mm256_div_pd(a, b); }
static inline TK_T vd vd_fma(vd a, vd b, vd c) { return _mm256_fmadd_pd(a, b, c); }
static inline TK_T vd vd_max(vd a, vd b) { return _mm256_max_pd(a, b); }
static inline TK_T vd vd_sqrt(vd a) { return _mm256_sqrt_pd(a); }
static inline TK_T void vd_st_f32(float *p, vd v) { _mm_storeu_ps(p, _mm256_cvtpd_ps(v)); }
static inline TK_T void vd_st_f32n(float *p, vd v, size_t n)
{
    _mm_maskstore_ps(p, _mm256_castsi256_si128(lanes8i(n)), _mm256_cvtpd_ps(v));
}

static inline TK_T void vsfence(void) { _mm_sfence(); }

#endif /* TK_SIMD256_H */
