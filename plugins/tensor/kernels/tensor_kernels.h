// SPDX-License-Identifier: MIT
/*
 * tensor_kernels.h -- libtensor_kernels: the CPU tensor kernels behind the
 * tensor plugin, usable without bhost (its unit tests link only this).
 *
 * Conventions for every function below:
 *  - Sizes and strides count elements, never bytes, unless named *_bytes.
 *    Row strides (ld*) are >= the row length; matrices are row-major unless
 *    a function says otherwise.
 *  - Actions return TK_OK or a negative TK_E* code and write nothing on
 *    TK_EINVAL (checked before any work); constructors return NULL.
 *  - pool may be NULL (run on the calling thread). A pool runs one call at
 *    a time: calls sharing a pool must not overlap.
 *  - Vector code is picked at run time (AVX-512, AVX2+FMA+F16C, or portable
 *    C), see tk_isa(). Results of the vector and portable paths agree
 *    within the tolerances documented next to each function.
 *  - f32 transcendental functions of the vector paths (exp, log, tanh,
 *    sigmoid, gelu) are polynomial approximations. Measured worst relative
 *    error over dense sweeps (unit tests): exp 2.3e-7, log 1.7e-7, tanh
 *    2.6e-7, sigmoid 2.8e-7 (a few ulp); gelu adds the rounding of its
 *    f32 inner argument t (8 u |t|, 1.3e-5 at x = -9.9, as any f32
 *    evaluation). Verification tolerance: 1e-6 relative (+ 8 u |t| for
 *    gelu); results below FLT_MIN may flush to 0.
 */
#ifndef TENSOR_KERNELS_H
#define TENSOR_KERNELS_H

#include <stddef.h>
#include <stdint.h>

/* ---- Status codes -------------------------------------------------------- */

enum {
    TK_OK = 0,
    TK_EINVAL = -1, /* bad argument: sizes, strides, NULL, overflow */
    TK_ENOMEM = -2, /* a scratch allocation failed */
    TK_EUNSUP = -3  /* valid request this build/CPU cannot serve */
};

/* ---- Element types ------------------------------------------------------- */

typedef enum {
    TK_F32 = 1,
    TK_F64,
    TK_F16,
    TK_BF16,
    TK_I8,
    TK_I32,
    TK_I64
} tk_dtype;

/* Bytes per element of t; 0 for an unknown value. */
size_t tk_dtype_size(tk_dtype t);

/* The dtype named s ("f32", "f64", "f16", "bf16", "i8", "i32", "i64");
 * 0 when s names none. */
tk_dtype tk_dtype_from_name(const char *s);

/* ---- Instruction set selection ------------------------------------------ */

enum { TK_ISA_PORTABLE = 0, TK_ISA_AVX2 = 1, TK_ISA_AVX512 = 2 };

/* Best level this CPU supports: AVX512 needs F, BW, DQ, VL; AVX2 needs
 * AVX2, FMA and F16C. Detected once. [any-thread] */
int tk_isa_detected(void);

/* The level in use: min(detected, limit). [any-thread] */
int tk_isa(void);

/* Caps the level in use at limit (TK_ISA_*), or removes the cap when limit
 * < 0. For tests and comparisons; not thread-safe against running
 * kernels. */
void tk_isa_limit(int limit);

/* True when the int8 matmul uses AVX-512 VNNI here (and the level in use
 * is AVX512). [any-thread] */
int tk_has_vnni(void);

/* "avx512", "avx2" or "portable". */
const char *tk_isa_name(int level);

/* Last-level cache size in bytes (sysconf, else 32 MiB): outputs larger
 * than half of it are written with non-temporal stores. */
size_t tk_llc_bytes(void);

/* ---- Thread pool --------------------------------------------------------- */

#include "bh_pool.h" /* plugins/common: the pool, bh_split */

typedef bh_pool tk_pool;

/* One share of a parallel call: thread tid of nthr (tid 0 is the caller). */
typedef void (*tk_task_fn)(void *arg, unsigned tid, unsigned nthr);

/* Starts nthreads - 1 workers (nthreads in 1..256). The caller's thread is
 * worker 0 of every call. NULL on failure. Workers spin briefly after a
 * call, then sleep. Destroy joins them. */
tk_pool *tk_pool_create(unsigned nthreads);

/* Joins the workers and frees p; NULL is ignored. */
void tk_pool_destroy(tk_pool *p);

/* Threads of p including the caller: 1 for NULL. */
unsigned tk_pool_threads(const tk_pool *p);

/* Runs fn(arg, tid, n) on n threads and returns when all are done. n is
 * all of p's threads, or 1 (fn runs inline, no wake-up) when p is NULL or
 * work_bytes is below the size worth splitting (128 KiB per thread). */
void tk_pool_run(tk_pool *p, size_t work_bytes, tk_task_fn fn, void *arg);


/* ---- Element-wise -------------------------------------------------------- */

typedef enum {
    TK_OP_ADD = 0, /* a + b */
    TK_OP_SUB,     /* a - b */
    TK_OP_MUL,     /* a * b */
    TK_OP_DIV,     /* a / b */
    TK_OP_FMA,     /* a * b + c (fused in vector code) */
    TK_OP_RELU,    /* max(a, 0) */
    TK_OP_GELU,    /* tanh form: a * sigmoid(2 sqrt(2/pi) (a + 0.044715 a^3)) */
    TK_OP_SIGMOID, /* 1 / (1 + exp(-a)) */
    TK_OP_TANH,
    TK_OP_EXP,
    TK_OP_LOG, /* natural log */
    TK_OP_SQRT,
    TK_OP_COUNT
} tk_op;

/* Inputs per element of op: 1, 2 or 3; 0 for an unknown op. */
int tk_op_arity(tk_op op);

/* Lower-case name ("add", ..., "sqrt"), or NULL. */
const char *tk_op_name(tk_op op);

/* The op named s, or TK_OP_COUNT. */
tk_op tk_op_from_name(const char *s);

/* True when op is exp, log, tanh, sigmoid or gelu. */
int tk_op_transcendental(tk_op op);

/* out = op(a, b, c) over a rows x cols matrix (cols contiguous), each
 * operand with its own row stride. Unused inputs (by arity) may be NULL.
 * dtype TK_F32 or TK_F64. vector = 0 runs plain scalar loops compiled
 * without auto-vectorization (libm for transcendental functions); vector
 * = 1 the best explicit SIMD path (TK_EUNSUP for f64 transcendental ops).
 * out may alias an input with the same stride. */
typedef struct tk_ew_args {
    tk_op op;
    tk_dtype dtype;
    int vector;
    size_t rows, cols;
    const void *a, *b, *c;
    void *out;
    size_t lda, ldb, ldc, ldo;
} tk_ew_args;

int tk_eltwise(const tk_ew_args *args, tk_pool *pool);

/* Reference of op in double precision (gelu in its tanh form). */
double tk_ref_op(tk_op op, double a, double b, double c);

/* How far y is from the double reference of op(a, b, c), as a fraction of
 * the tolerance of the path that produced it: <= 1 passes. The tolerance is
 * abs + rel * scale, scale = |a| + |b| for add/sub, |a b| + |c| for fma,
 * |ref| otherwise; rel is a few ulp of dtype for exactly rounded ops and
 * libm, 1e-6 for the f32 polynomials, widened by |t| for gelu (its inner
 * argument t is itself rounded); abs covers flushed subnormals. A NaN or
 * infinite reference must be matched exactly (0 or +inf is returned). */
double tk_op_err(tk_op op, tk_dtype dtype, int vector, double a, double b,
                 double c, double y);

/* ---- Creation ------------------------------------------------------------ */

/* out[i] = value converted to dtype (F32, F64, F16, BF16, I8, I32, I64;
 * integers saturate, floats round to nearest even). */
int tk_fill(void *out, tk_dtype dtype, size_t n, double value, tk_pool *pool);

/* out[i] = start + i * step, computed in double and rounded to dtype
 * (F32, F64, I32, I64). */
int tk_arange(void *out, tk_dtype dtype, size_t n, double start, double step,
              tk_pool *pool);

/* The uniform draw of element i of stream seed: a counter-based hash, so
 * any element can be recomputed alone. In [0, 1), 24 random bits. */
float tk_rand_at(uint64_t seed, uint64_t i);

/* out[i] = lo + (hi - lo) * tk_rand_at(seed, i), dtype F32 or F64.
 * n < 2^32. */
int tk_rand_uniform(void *out, tk_dtype dtype, size_t n, uint64_t seed,
                    double lo, double hi, tk_pool *pool);

/* Standard normal draws by Box-Muller over tk_rand_at pairs: out[2j] and
 * out[2j+1] come from draws 2j and 2j+1. dtype F32 or F64. n < 2^32. */
int tk_rand_normal(void *out, tk_dtype dtype, size_t n, uint64_t seed,
                   double mean, double stddev, tk_pool *pool);

/* ---- Reductions (f32) ---------------------------------------------------- */

typedef enum {
    TK_RED_SUM = 0,
    TK_RED_MEAN,
    TK_RED_MAX,
    TK_RED_ARGMAX, /* first index of the maximum, as int64 */
    TK_RED_VAR,    /* population variance (divides by r) */
    TK_RED_COUNT
} tk_red_op;

/* "sum", "mean", "max", "argmax", "var" or NULL. */
const char *tk_red_name(tk_red_op op);

/* Reduces x viewed as contiguous [outer, r, inner] over the middle axis:
 * out[o * inner + j] = op over t of x[(o * r + t) * inner + j]. out is
 * float (int64_t for ARGMAX), outer * inner elements. r >= 1. A whole-tensor
 * reduction is outer = inner = 1. Inputs must not hold NaN. */
int tk_reduce(tk_red_op op, const float *x, size_t outer, size_t r,
              size_t inner, void *out, tk_pool *pool);

/* Bound on |sum - exact| / sum(|x|) of the f32 sums tk_reduce computes
 * over r elements (used for sum, mean, var tolerances). */
double tk_reduce_rel_bound(size_t r, size_t inner);

/* ---- Row-wise normalization (f32, rows x cols) -------------------------- */

/* y = softmax(x) along each row; log_softmax when log != 0. */
int tk_softmax(const float *x, float *y, size_t rows, size_t cols,
               size_t ldx, size_t ldy, int log, tk_pool *pool);

/* y = (x - mean) / sqrt(var + eps) * gamma + beta per row; gamma and beta
 * (cols elements) may be NULL (1 and 0). */
int tk_layernorm(const float *x, float *y, const float *gamma,
                 const float *beta, size_t rows, size_t cols, size_t ldx,
                 size_t ldy, float eps, tk_pool *pool);

/* y = x / sqrt(mean(x^2) + eps) * gamma per row; gamma may be NULL. */
int tk_rmsnorm(const float *x, float *y, const float *gamma, size_t rows,
               size_t cols, size_t ldx, size_t ldy, float eps,
               tk_pool *pool);

/* ---- Manipulation (any element size 1, 2, 4, 8) ------------------------- */

#define TK_MAX_DIMS 6

/* dst[j][i] = src[i][j] for a rows x cols src, in cache-sized tiles. */
int tk_transpose(const void *src, void *dst, size_t esize, size_t rows,
                 size_t cols, size_t lds, size_t ldd, tk_pool *pool);

/* dst = src permuted: dst dimension d is src dimension perm[d]; src and dst
 * contiguous, ndim 1..TK_MAX_DIMS, perm a permutation. Uses tiles when the
 * innermost dimension moves. */
int tk_permute(const void *src, void *dst, size_t esize, int ndim,
               const size_t *shape, const int *perm, tk_pool *pool);

/* Copies an ndim-dimensional box of the given shape between two strided
 * layouts (strides in elements, >= 0). Slicing is a strided copy whose src
 * starts at the slice origin with strides multiplied by the steps. */
int tk_strided_copy(const void *src, const size_t *src_strides, void *dst,
                    const size_t *dst_strides, size_t esize, int ndim,
                    const size_t *shape, tk_pool *pool);

/* Strides (elements) that view a tensor of shape/strides as new_shape
 * without copying, in *new_strides. TK_OK when such a view exists;
 * TK_EUNSUP when a copy is required; TK_EINVAL when element counts
 * differ. */
int tk_reshape_strides(int ndim, const size_t *shape, const size_t *strides,
                       int new_ndim, const size_t *new_shape,
                       size_t *new_strides);

/* dst = concatenation of nsrc tensors [outer, inner_i] along the last
 * axis: dst is [outer, sum inner_i]. Concatenation along axis 0 is
 * outer = 1. */
int tk_concat(const void *const *srcs, const size_t *inner, size_t nsrc,
              void *dst, size_t esize, size_t outer, tk_pool *pool);

/* dst[i, :] = table[idx[i], :] for nidx indices into a [rows, cols]
 * table; TK_EINVAL (nothing written) when an index is outside [0, rows). */
int tk_gather_rows(const void *table, size_t rows, size_t cols, size_t esize,
                   const int64_t *idx, size_t nidx, void *dst,
                   tk_pool *pool);

/* ---- Half precision ------------------------------------------------------ */

/* One value, round to nearest even; NaN stays NaN, overflow gives inf. */
uint16_t tk_f32_to_f16(float x);
float tk_f16_to_f32(uint16_t h);
uint16_t tk_f32_to_bf16(float x);
float tk_bf16_to_f32(uint16_t h);

/* n values each way (F16C / AVX-512 when available). */
int tk_cvt_f32_f16(const float *x, uint16_t *y, size_t n, tk_pool *pool);
int tk_cvt_f16_f32(const uint16_t *x, float *y, size_t n, tk_pool *pool);
int tk_cvt_f32_bf16(const float *x, uint16_t *y, size_t n, tk_pool *pool);
int tk_cvt_bf16_f32(const uint16_t *x, float *y, size_t n, tk_pool *pool);

/* ---- Quantization -------------------------------------------------------- */

/* Symmetric quantization of a [rows, cols] f32 matrix: per tensor (one
 * scale) or per channel (one scale per row). scale = max|x| / qmax with
 * qmax 127 (int8) or 7 (int4), or 1 for an all-zero group; q = clamp(
 * round_half_even(x / scale), -qmax, qmax). int4 values are packed two per
 * byte, element 2i in the low nibble, rows padded to (cols + 1) / 2
 * bytes. scales holds 1 or rows floats. */
int tk_quantize_i8(const float *x, int8_t *q, float *scales, size_t rows,
                   size_t cols, int per_channel, tk_pool *pool);
int tk_dequantize_i8(const int8_t *q, const float *scales, float *y,
                     size_t rows, size_t cols, int per_channel,
                     tk_pool *pool);
int tk_quantize_i4(const float *x, uint8_t *q, float *scales, size_t rows,
                   size_t cols, int per_channel, tk_pool *pool);
int tk_dequantize_i4(const uint8_t *q, const float *scales, float *y,
                     size_t rows, size_t cols, int per_channel,
                     tk_pool *pool);

/* ---- int8 matmul --------------------------------------------------------- */

/* B packed for tk_matmul_i8: panels of 32 columns by groups of 4 k, plus
 * the column sums. Owned by the caller; release with tk_i8_packed_free. */
typedef struct tk_i8_packed {
    size_t k, n;     /* logical shape of B (k x n) */
    size_t kp, np;   /* padded to multiples of 4 and 32 */
    int8_t *data;    /* np / 32 panels of kp * 32 bytes */
    int32_t *colsum; /* n column sums of B */
} tk_i8_packed;

/* Packs B (k x n, row stride ldb), or B^T stored n x k when trans != 0.
 * *out is overwritten; TK_ENOMEM leaves it empty. */
int tk_i8_pack(const int8_t *b, size_t k, size_t n, size_t ldb, int trans,
               tk_i8_packed *out);
void tk_i8_packed_free(tk_i8_packed *p);

/* Bytes of workspace tk_matmul_i8 needs for an m-row A and k = b->k (the
 * packed A panels). */
size_t tk_matmul_i8_work(size_t m, size_t k);

/* C (m x n int32, row stride ldc) = A (m x k int8, row stride lda; A^T
 * stored k x m when trans_a) * B, exact int32 arithmetic (k < 2^17).
 * work: tk_matmul_i8_work(m, k) bytes, owned by the caller. Blocked: A is
 * packed into 8-row panels, threads take 32-column panels of B, the inner
 * product runs on the AVX-512 VNNI microkernel when available, else on a
 * portable C one over the same packing. */
int tk_matmul_i8(const int8_t *a, size_t lda, int trans_a, size_t m,
                 const tk_i8_packed *b, int32_t *c, size_t ldc, void *work,
                 tk_pool *pool);

/* y (m x n f32) = x (m x k f32) * W^T with W (n x k) int8 per-row scales
 * wscale, packed as tk_i8_pack(W, k, n, k, 1): x is quantized per row to
 * int8 into the caller's xq (m * k bytes) and xscale (m floats), multiplied
 * exactly into acc (m * n int32), then scaled: y = acc * xscale * wscale.
 * work as for tk_matmul_i8. */
int tk_qmatmul(const float *x, size_t m, const tk_i8_packed *w,
               const float *wscale, int8_t *xq, float *xscale, int32_t *acc,
               float *y, void *work, tk_pool *pool);

/* ---- STREAM (f64) -------------------------------------------------------- */

typedef enum {
    TK_STREAM_COPY = 0, /* c = a */
    TK_STREAM_SCALE,    /* b = s * c */
    TK_STREAM_ADD,      /* c = a + b */
    TK_STREAM_TRIAD     /* a = b + s * c */
} tk_stream_kind;

/* One STREAM kernel over n doubles of arrays a, b, c (64-byte aligned for
 * the non-temporal path). */
int tk_stream(tk_stream_kind kind, double *a, double *b, double *c, size_t n,
              double s, tk_pool *pool);

#endif /* TENSOR_KERNELS_H */
