// SPDX-License-Identifier: MIT
/*
 * tk_simd1.h -- the portable instance of the vector vocabulary: one lane,
 * plain C (see tk_simd512.h for the contract of each name). The same
 * kernel bodies compiled with it are the fallback on CPUs without AVX2 and
 * the reference point of the ISA-equivalence unit tests.
 * Include from exactly one .c file.
 */
#ifndef TK_SIMD1_H
#define TK_SIMD1_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "tk_internal.h"

#define TK_T
#define TK_FN(name) name##_portable
#define VF_N 1
#define VD_N 1
#define TK_HAS_NT 0

typedef float vf;
typedef double vd;
typedef int32_t vi;
typedef int vfm;

static inline vf vf_zero(void) { return 0.0f; }
static inline vf vf_set1(float x) { return x; }
static inline vf vf_ld(const float *p) { return *p; }
static inline vf vf_ldn(const float *p, size_t n, float fill) { return n ? *p : fill; }
static inline void vf_st(float *p, vf v) { *p = v; }
static inline void vf_stn(float *p, vf v, size_t n) { if (n) *p = v; }
static inline void vf_stnt(float *p, vf v) { *p = v; }
static inline vf vf_add(vf a, vf b) { return a + b; }
static inline vf vf_sub(vf a, vf b) { return a - b; }
static inline vf vf_mul(vf a, vf b) { return a * b; }
static inline vf vf_div(vf a, vf b) { return a / b; }
static inline vf vf_fma(vf a, vf b, vf c) { return fmaf(a, b, c); }
static inline vf vf_fnma(vf a, vf b, vf c) { return fmaf(-a, b, c); }
/* Operand order as x86 max/min: the second operand when unordered. */
static inline vf vf_max(vf a, vf b) { return a > b ? a : b; }
static inline vf vf_min(vf a, vf b) { return a < b ? a : b; }
static inline vf vf_sqrt(vf a) { return sqrtf(a); }
static inline vf vf_abs(vf a) { return fabsf(a); }
static inline vf vf_round(vf a) { return nearbyintf(a); }
static inline float vf_hsum(vf a) { return a; }
static inline float vf_hmax(vf a) { return a; }
static inline vfm vf_lt(vf a, vf b) { return a < b; }
static inline vfm vf_gt(vf a, vf b) { return a > b; }
static inline vfm vf_eq(vf a, vf b) { return a == b; }
static inline vf vf_sel(vfm m, vf a, vf b) { return m ? b : a; }
static inline int vfm_any(vfm m) { return m; }

static inline vi vi_set1(int32_t x) { return x; }
static inline vi vi_iota(void) { return 0; }
static inline vi vi_add(vi a, vi b) { return (vi)((uint32_t)a + (uint32_t)b); }
static inline vi vi_sub(vi a, vi b) { return (vi)((uint32_t)a - (uint32_t)b); }
static inline vi vi_mul(vi a, vi b) { return (vi)((uint32_t)a * (uint32_t)b); }
static inline vi vi_xor(vi a, vi b) { return a ^ b; }
static inline vi vi_and(vi a, vi b) { return a & b; }
static inline vi vi_or(vi a, vi b) { return a | b; }
#define vi_srl(v, k) ((vi)((uint32_t)(v) >> (k)))
#define vi_sll(v, k) ((vi)((uint32_t)(v) << (k)))
static inline vi vi_sel(vfm m, vi a, vi b) { return m ? b : a; }
static inline vi vf_cvt_vi(vf a) { return (vi)lrintf(a); }
static inline vf vi_cvt_vf(vi a) { return (vf)a; }
static inline vi vf_as_vi(vf a) { vi r; memcpy(&r, &a, sizeof(r)); return r; }
static inline vf vi_as_vf(vi a) { vf r; memcpy(&r, &a, sizeof(r)); return r; }
static inline void vi_st(int32_t *p, vi v) { *p = v; }

static inline void vi_st_i8(int8_t *p, vi v) { *p = (int8_t)v; }
static inline void vi_st_i8n(int8_t *p, vi v, size_t n) { if (n) *p = (int8_t)v; }
static inline vi vi_ld_i8(const int8_t *p) { return *p; }
static inline vi vi_ld_i8n(const int8_t *p, size_t n) { return n ? *p : 0; }
static inline void vi_st_u16(uint16_t *p, vi v) { *p = (uint16_t)v; }
static inline void vi_st_u16n(uint16_t *p, vi v, size_t n) { if (n) *p = (uint16_t)v; }
static inline vi vi_ld_u16(const uint16_t *p) { return *p; }
static inline vi vi_ld_u16n(const uint16_t *p, size_t n) { return n ? *p : 0; }
static inline void vf_st_f16(uint16_t *p, vf v) { *p = tk_f32_to_f16(v); }
static inline void vf_st_f16n(uint16_t *p, vf v, size_t n) { if (n) *p = tk_f32_to_f16(v); }
static inline vf vf_ld_f16(const uint16_t *p) { return tk_f16_to_f32(*p); }
static inline vf vf_ld_f16n(const uint16_t *p, size_t n) { return n ? tk_f16_to_f32(*p) : 0.0f; }

static inline vd vd_set1(double x) { return x; }
static inline vd vd_iota(void) { return 0.0; }
static inline vd vd_ld(const double *p) { return *p; }
static inline vd vd_ldn(const double *p, size_t n, double fill) { return n ? *p : fill; }
static inline void vd_st(double *p, vd v) { *p = v; }
static inline void vd_stn(double *p, vd v, size_t n) { if (n) *p = v; }
static inline void vd_stnt(double *p, vd v) { *p = v; }
static inline vd vd_add(vd a, vd b) { return a + b; }
static inline vd vd_sub(vd a, vd b) { return a - b; }
static inline vd vd_mul(vd a, vd b) { return a * b; }
static inline vd vd_div(vd a, vd b) { return a / b; }
static inline vd vd_fma(vd a, vd b, vd c) { return fma(a, b, c); }
static inline vd vd_max(vd a, vd b) { return a > b ? a : b; }
static inline vd vd_sqrt(vd a) { return sqrt(a); }
static inline void vd_st_f32(float *p, vd v) { *p = (float)v; }
static inline void vd_st_f32n(float *p, vd v, size_t n) { if (n) *p = (float)v; }

static inline void vsfence(void) {}

#endif /* TK_SIMD1_H */
