// SPDX-License-Identifier: MIT
/*
 * wk.h -- the wasm-sim kernels, written once in freestanding C.
 *
 * The same sources (wk_ops.c, wk_alloc.c) are compiled twice: by clang to
 * wasm32 (then wasm2c, then the host C compiler: the "wasm-cpu" mode) and
 * natively (the reference every mode is compared with). Nothing here
 * includes a C library header beyond the freestanding <stddef.h> and
 * <stdint.h>: the wasm module has no imports.
 *
 * Matrices are row-major. Pointers are linear-memory addresses inside the
 * wasm module and ordinary pointers natively. Floating-point order is fixed
 * (no FMA: built with -ffp-contract=off), so the wasm build reproduces the
 * native one bit for bit wherever the evaluation order is the same.
 */
#ifndef WK_H
#define WK_H

#include <stddef.h>
#include <stdint.h>

#ifdef __wasm__
#define WK_EXPORT(name) __attribute__((export_name(#name)))
#else
#define WK_EXPORT(name)
#endif

/* ---- Kernels (wk_ops.c) ------------------------------------------------ */

/* z[i] = a * x[i] + y[i] for i < n. */
void wk_axpy(uint32_t n, float a, const float *restrict x,
             const float *restrict y, float *restrict z);

/* Sum of x[i] * y[i], accumulated in order in f32. */
float wk_dot(uint32_t n, const float *x, const float *y);

/* C (m x n) = A (m x k) B (k x n), i-k-j order, C overwritten. */
void wk_sgemm(uint32_t m, uint32_t n, uint32_t k, const float *restrict a,
              const float *restrict b, float *restrict c);

/* y = softmax(x) over each of rows rows of cols values (max-subtracted,
 * exp by wk_expf). */
void wk_softmax(uint32_t rows, uint32_t cols, const float *restrict x,
                float *restrict y);

/* C (m x n, f32) = diag(sa) (A Bt^T) diag(sb) with A int8 m x k, Bt int8
 * n x k (B transposed), int32 accumulation (exact for k < 2^17). */
void wk_qmatmul(uint32_t m, uint32_t n, uint32_t k, const int8_t *restrict a,
                const int8_t *restrict bt, const float *restrict sa,
                const float *restrict sb, float *restrict c);

/* C (m x n) = A (m x k, f32) B (k x n, IEEE half bits), i-k-j order. */
void wk_hgemm(uint32_t m, uint32_t n, uint32_t k, const float *restrict a,
              const uint16_t *restrict bh, float *restrict c);

/* Symmetric per-row int8 quantization of x (m x k): scale[i] =
 * max|x_i| / 127 (1 for an all-zero row), q = round-half-away(x / scale). */
void wk_quantize_rows(uint32_t m, uint32_t k, const float *restrict x,
                      int8_t *restrict q, float *restrict scale);

/* exp(x) for f32, max relative error about 2 ulp on [-87, 88]; 0 below,
 * +inf above. */
float wk_expf(float x);

/* IEEE binary16 conversions (round to nearest even; inf/NaN kept). */
uint16_t wk_f32_to_f16(float f);
float wk_f16_to_f32(uint16_t h);

/* ---- Allocator inside linear memory (wk_alloc.c) ----------------------
 * A boundary-tag allocator with segregated free lists and immediate
 * coalescing. Every link is a 32-bit offset from the heap start, so the
 * heap layout is the same in the wasm build and natively. In the wasm
 * build the heap starts at __heap_base and grows with memory.grow; the
 * native build takes an arena from wk_heap_native(). One heap per module
 * instance (the native heap is one per process). */

/* 16-byte aligned block of at least size bytes, or NULL (0). */
void *wk_malloc(uint32_t size);
/* Releases a block from wk_malloc; NULL is ignored. */
void wk_free(void *p);
/* 0 when every block, tag, link and bin is consistent, else the number of
 * the first failed check (1..12). */
uint32_t wk_heap_check(void);
/* Counters: 0 bytes in use, 1 free bytes, 2 blocks in use, 3 free blocks,
 * 4 heap bytes, 5 memory.grow calls (arena extensions natively), 6 failed
 * allocations. */
uint32_t wk_heap_stat(uint32_t which);
/* ops allocate/free steps on 64 slots (sizes 1..max_size, drawn from a
 * xorshift32 stream that continues across calls, seeded by wk_churn_reset)
 * writing and checking a tag in every block. Returns a hash of the block
 * offsets handed out (0x... ^ failures); 0xFFFFFFFF when a tag was found
 * corrupted. */
uint32_t wk_churn(uint32_t ops, uint32_t max_size);
/* Frees every churn slot and reseeds the stream. */
void wk_churn_reset(uint32_t seed);

#ifndef __wasm__
/* Native build only: hands the heap the arena [base, base + cap) (16-byte
 * aligned) and resets it; the heap extends inside it in 64 KiB steps. */
void wk_heap_native(void *base, uint32_t cap);
#endif

#endif /* WK_H */
