// SPDX-License-Identifier: MIT
/*
 * tk_internal.h -- what the files of libtensor_kernels share: the per-ISA
 * kernel entry points (each defined three times by compiling the bodies in
 * tk_body_*.h with tk_simd512.h, tk_simd256.h and tk_simd1.h), the
 * per-ISA table the dispatchers call through, and small helpers.
 */
#ifndef TK_INTERNAL_H
#define TK_INTERNAL_H

#include "tensor_kernels.h"

#include <stddef.h>
#include <stdint.h>

/* Elements a whole-tensor sum accumulates in f32 lanes before adding the
 * block to a double; the error bound of tk_reduce_rel_bound() follows. */
#define TK_SUM_BLOCK 4096

/* The kernels one ISA level provides. Pointers are never NULL. Contracts:
 *  ew_f32/ew_f64: o[i] = op(a[i], b[i], c[i]) for i < n; nt: o is written
 *    with non-temporal stores where aligned (caller fences).
 *  fill64: bytes bytes of out from the 64-byte periodic pattern (out is
 *    aligned to the pattern's element size).
 *  arange_f32/f64: o[j] = start + (i0 + j) * step for j < n, in double.
 *  rand_f32: o[j] = lo + span * tk_rand_at(seed, i0 + j), i0 + n <= 2^32.
 *  sum_f32 (blocked f32 lanes into double), max_f32, argmax_f32 (first
 *    index of the max, *best its value), moments_f32 (mean and sum of
 *    squared deviations, blockwise two-pass combined exactly in double):
 *    n >= 1.
 *  acc_add/acc_max: acc[j] = acc[j] + x[j] / max(acc[j], x[j]);
 *  acc_sqdev: acc[j] += (x[j] - mean[j])^2.
 *  softmax_row, layernorm_row, rmsnorm_row: one row of n >= 1; pf (the
 *    next row, or NULL) is prefetched while this one is computed; softmax
 *    keeps its exponentials in scratch (n floats) when not NULL.
 *  stream: one STREAM kernel over n doubles.
 *  cvt_*: n conversions. absmax_f32: max |x[i]| (0 for n = 0).
 *  quant_i8: q = clamp(rint(x / scale), -qmax, qmax); dequant_i8: y =
 *    q * scale. */
typedef struct tk_isa_ops {
    void (*ew_f32)(tk_op op, const float *a, const float *b, const float *c,
                   float *o, size_t n, int nt);
    void (*ew_f64)(tk_op op, const double *a, const double *b,
                   const double *c, double *o, size_t n, int nt);
    void (*fill64)(void *out, size_t bytes, const void *pattern, int nt);
    void (*arange_f32)(float *o, size_t i0, size_t n, double start,
                       double step);
    void (*arange_f64)(double *o, size_t i0, size_t n, double start,
                       double step);
    void (*rand_f32)(float *o, size_t i0, size_t n, uint32_t k0, uint32_t k1,
                     float lo, float span);
    double (*sum_f32)(const float *x, size_t n);
    float (*max_f32)(const float *x, size_t n);
    size_t (*argmax_f32)(const float *x, size_t n, float *best);
    void (*moments_f32)(const float *x, size_t n, double *mean, double *m2);
    void (*acc_add)(float *acc, const float *x, size_t n);
    void (*acc_max)(float *acc, const float *x, size_t n);
    void (*acc_sqdev)(float *acc, const float *x, const float *mean,
                      size_t n);
    void (*softmax_row)(const float *x, float *y, size_t n, int log, int nt,
                        const float *pf, float *scratch);
    void (*layernorm_row)(const float *x, float *y, const float *g,
                          const float *b, size_t n, float eps, int nt,
                          const float *pf);
    void (*rmsnorm_row)(const float *x, float *y, const float *g, size_t n,
                        float eps, int nt, const float *pf);
    void (*stream)(int kind, double *a, double *b, double *c, size_t n,
                   double s, int nt);
    void (*cvt_f32_f16)(const float *x, uint16_t *y, size_t n);
    void (*cvt_f16_f32)(const uint16_t *x, float *y, size_t n);
    void (*cvt_f32_bf16)(const float *x, uint16_t *y, size_t n);
    void (*cvt_bf16_f32)(const uint16_t *x, float *y, size_t n);
    float (*absmax_f32)(const float *x, size_t n);
    void (*quant_i8)(const float *x, int8_t *q, size_t n, float scale,
                     float qmax);
    void (*dequant_i8)(const int8_t *q, float *y, size_t n, float scale);
} tk_isa_ops;

/* The AVX-512 and AVX2 tables exist in x86 builds only (TK_HAVE_X86). */
extern const tk_isa_ops tk_ops_avx512;
extern const tk_isa_ops tk_ops_avx2;
extern const tk_isa_ops tk_ops_portable;

/* The table of the level in use (tk_isa()). [any-thread] */
const tk_isa_ops *tk_ops(void);

/* The two 32-bit keys of a 64-bit seed for rand_f32 (mixed first so that
 * nearby seeds give unrelated streams). */
void tk_rand_keys(uint64_t seed, uint32_t *k0, uint32_t *k1);

/* The counter hash behind tk_rand_at, on 32-bit keys. */
static inline uint32_t tk_hash32(uint32_t i, uint32_t k0, uint32_t k1)
{
    uint32_t h = (i ^ k0) * UINT32_C(0x9E3779B1);

    h ^= h >> 15;
    h = (h + k1) * UINT32_C(0x85EBCA77);
    h ^= h >> 13;
    h *= UINT32_C(0xC2B2AE3D);
    h ^= h >> 16;
    return h;
}

/* True when a * b overflows size_t; else stores the product. */
static inline int tk_mul_overflow(size_t a, size_t b, size_t *out)
{
    return __builtin_mul_overflow(a, b, out);
}

/* The scalar variant of tk_eltwise (tk_ew_scalar.c, compiled without
 * auto-vectorization): o[i] = op(a[i], b[i], c[i]) for i < n. */
void tk_ew_scalar_f32(tk_op op, const float *a, const float *b,
                      const float *c, float *o, size_t n);
void tk_ew_scalar_f64(tk_op op, const double *a, const double *b,
                      const double *c, double *o, size_t n);

/* Orders this thread's non-temporal stores before what follows. */
static inline void tk_sfence(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_sfence();
#endif
}

/* True when [p, p + bytes) suits non-temporal stores: large against the
 * last-level cache. */
int tk_want_nt(size_t bytes);

#endif /* TK_INTERNAL_H */
