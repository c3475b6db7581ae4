// SPDX-License-Identifier: MIT
/*
 * cpu_kernels.c -- gemm, axpy and reduce for the CPU backend. gemm and axpy
 * call CBLAS (OpenBLAS); gemm also takes bf16 or f16 inputs with f32
 * output (cpu_convert.c); reduce is a plain loop. Every argument is
 * checked first, so BLAS never sees a value its xerbla() would print
 * about.
 */
#include "backend_cpu.h"

#include <cblas.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* Bytes per element of the dtypes these kernels take; 0 for the others. */
static uint64_t elem_size(bhost_dtype t)
{
    return t == BHOST_DTYPE_F32 ? 4 : t == BHOST_DTYPE_F64 ? 8 : 0;
}

/* True for the half-precision gemm input types. */
static int is_half(bhost_dtype t)
{
    return t == BHOST_DTYPE_BF16 || t == BHOST_DTYPE_F16;
}

void bh_cpu_blas_threads(uint32_t n)
{
#if defined(BH_HAVE_OPENBLAS_THREADS)
    openblas_set_num_threads((int)(n > INT_MAX ? INT_MAX : n));
#else
    (void)n;
#endif
}

/* Common checks of every kernel's dev and stream arguments. */
static bhost_status check_call(const bhost_dev *dev, const bhost_stream *s,
                               const void *args, const char *op)
{
    bhost_status st = bh_cpu_check_dev(dev, op);

    if (st == BHOST_OK)
        st = bh_cpu_check_stream(dev, s, op);
    if (st == BHOST_OK && args == NULL)
        st = bh_cpu_fail(dev->h, BHOST_E_INVALID, "%s: NULL args", op);
    return st;
}

/* Bytes spanned by a column-major rows x cols matrix with leading dimension
 * ld, or UINT64_MAX on overflow. */
static uint64_t matrix_bytes(uint64_t rows, uint64_t cols, uint64_t ld,
                             uint64_t esize)
{
    uint64_t elems;
    uint64_t bytes;

    if (rows == 0 || cols == 0)
        return 0;
    if (__builtin_mul_overflow(ld, cols - 1, &elems) ||
        __builtin_add_overflow(elems, rows, &elems) ||
        __builtin_mul_overflow(elems, esize, &bytes))
        return UINT64_MAX;
    return bytes;
}

/* Checks one gemm operand: ld >= max(1, rows) and the span fits in buf. */
static bhost_status check_matrix(const bhost_dev *dev, const bhost_buf *buf,
                                 uint64_t rows, uint64_t cols, uint64_t ld,
                                 uint64_t esize, const char *what)
{
    uint64_t bytes;

    if (ld < (rows > 1 ? rows : 1))
        return bh_cpu_fail(dev->h, BHOST_E_INVALID,
                           "gemm: ld%s=%" PRIu64 " < %" PRIu64 " rows", what,
                           ld, rows);
    bytes = matrix_bytes(rows, cols, ld, esize);
    if (bytes == UINT64_MAX)
        return bh_cpu_fail(dev->h, BHOST_E_INVALID,
                           "gemm: matrix %s size overflows", what);
    return bh_cpu_check_range(dev, buf, 0, bytes, "gemm", what);
}

/* Checks the gemm arguments: one dtype (F32 or F64) throughout, or bf16
 * or f16 A and B with F32 C and compute type; flags 0/1, dimensions within
 * BLAS's int, operands inside their buffers, C distinct from A and B. */
static bhost_status check_gemm(const bhost_dev *dev, const bhost_gemm_args *g)
{
    int half = is_half(g->a_type) && g->b_type == g->a_type &&
               g->c_type == BHOST_DTYPE_F32 && g->compute_type == BHOST_DTYPE_F32;
    uint64_t es = elem_size(g->c_type), ein = half ? 2 : es;

    if (!BHOST_HAS(bhost_gemm_args, g, c) || g->reserved != 0)
        return bh_cpu_fail(dev->h, BHOST_E_INVALID,
                           "gemm: struct_size %" PRIu32
                           " too small or reserved != 0",
                           g->struct_size);
    if (!half && (es == 0 || g->a_type != g->c_type || g->b_type != g->c_type ||
                  g->compute_type != g->c_type))
        return bh_cpu_fail(dev->h, BHOST_E_UNSUPPORTED,
                           "gemm: dtypes a=%" PRId32 " b=%" PRId32
                           " c=%" PRId32 " compute=%" PRId32
                           " unsupported (all F32, all F64, or BF16/F16 a and "
                           "b with F32 c and compute)",
                           g->a_type, g->b_type, g->c_type, g->compute_type);
    if (g->trans_a > 1 || g->trans_b > 1)
        return bh_cpu_fail(dev->h, BHOST_E_INVALID,
                           "gemm: trans flags must be 0 or 1");
    if (g->m > INT_MAX || g->n > INT_MAX || g->k > INT_MAX ||
        g->lda > INT_MAX || g->ldb > INT_MAX || g->ldc > INT_MAX)
        return bh_cpu_fail(dev->h, BHOST_E_UNSUPPORTED,
                           "gemm: dimensions exceed the BLAS int range");
    return bh_be_check_gemm_operands(&bh_cpu_be, dev, g, ein, es,
                                     check_matrix);
}

/* Half-precision gemm: cblas_sbgemm for bf16 where the library has it,
 * else A and B converted to f32 in the device's scratch, then sgemm. */
static bhost_status gemm_half(bhost_dev *dev, const bhost_gemm_args *g)
{
    CBLAS_TRANSPOSE ta = g->trans_a ? CblasTrans : CblasNoTrans;
    CBLAS_TRANSPOSE tb = g->trans_b ? CblasTrans : CblasNoTrans;
    uint64_t na = matrix_bytes(g->trans_a ? g->k : g->m, g->trans_a ? g->m : g->k,
                               g->lda, 1);
    uint64_t nb = matrix_bytes(g->trans_b ? g->n : g->k, g->trans_b ? g->k : g->n,
                               g->ldb, 1);
    bh_cpu_sbgemm_fn sb = bh_cpu_sbgemm();
    int bf16 = g->a_type == BHOST_DTYPE_BF16;

    if (bf16 && sb != NULL) {
        sb(CblasColMajor, ta, tb, (int)g->m, (int)g->n, (int)g->k,
           (float)g->alpha, g->a->ptr, (int)g->lda, g->b->ptr, (int)g->ldb,
           (float)g->beta, g->c->ptr, (int)g->ldc);
        return BHOST_OK;
    }
    if (dev->scratch_elems < na + nb) {
        void *p = NULL;

        free(dev->scratch);
        dev->scratch = NULL;
        dev->scratch_elems = 0;
        if (na + nb > SIZE_MAX / sizeof(float) ||
            posix_memalign(&p, BH_CPU_ALIGN, (size_t)(na + nb) * sizeof(float)) != 0)
            return bh_cpu_fail(dev->h, BHOST_E_NOMEM,
                               "gemm: no memory to convert %" PRIu64
                               " half-precision inputs", na + nb);
        dev->scratch = p;
        dev->scratch_elems = na + nb;
    }
    bh_cpu_half_to_f32(g->a->ptr, dev->scratch, na, bf16);
    bh_cpu_half_to_f32(g->b->ptr, dev->scratch + na, nb, bf16);
    cblas_sgemm(CblasColMajor, ta, tb, (int)g->m, (int)g->n, (int)g->k,
                (float)g->alpha, dev->scratch, (int)g->lda, dev->scratch + na,
                (int)g->ldb, (float)g->beta, g->c->ptr, (int)g->ldc);
    return BHOST_OK;
}

/* A gemm whose C is one column (n == 1) or one row (m == 1) through
 * cblas_[sd]gemv: a matrix-vector product is memory-bound, and OpenBLAS's
 * gemv streams the matrix once where its gemm packs it first (about 4x
 * slower for decode-shaped calls). Column-major, same arguments as gemm;
 * returns 0 when the shape is not a vector product. [instance] */
static int gemm_as_gemv(const bhost_gemm_args *g)
{
    int f32 = g->c_type == BHOST_DTYPE_F32;
    CBLAS_TRANSPOSE ta, tmat;
    int rows, cols, lda, incx, incy;
    const void *mat, *x;

    if (g->n == 1) {
        /* y(m) = op(A) x, x = op(B)'s only column */
        ta = g->trans_a ? CblasTrans : CblasNoTrans;
        rows = (int)(g->trans_a ? g->k : g->m);
        cols = (int)(g->trans_a ? g->m : g->k);
        mat = g->a->ptr;
        lda = (int)g->lda;
        x = g->b->ptr;
        incx = g->trans_b ? (int)g->ldb : 1;
        incy = 1;
        tmat = ta;
    } else if (g->m == 1) {
        /* y(n)' = a' op(B): y = op(B)' a, a = op(A)'s only row */
        tmat = g->trans_b ? CblasNoTrans : CblasTrans;
        rows = (int)(g->trans_b ? g->n : g->k);
        cols = (int)(g->trans_b ? g->k : g->n);
        mat = g->b->ptr;
        lda = (int)g->ldb;
        x = g->a->ptr;
        incx = g->trans_a ? 1 : (int)g->lda;
        incy = (int)g->ldc;
    } else {
        return 0;
    }
    if (f32)
        cblas_sgemv(CblasColMajor, tmat, rows, cols, (float)g->alpha,
                    (const float *)mat, lda, (const float *)x, incx,
                    (float)g->beta, (float *)g->c->ptr, incy);
    else
        cblas_dgemv(CblasColMajor, tmat, rows, cols, g->alpha,
                    (const double *)mat, lda, (const double *)x, incx,
                    g->beta, (double *)g->c->ptr, incy);
    return 1;
}

/* C = alpha * op(A) * op(B) + beta * C through cblas_[sd]gemm, column-major
 * (half-precision inputs: gemm_half). Runs to completion before returning.
 * [instance] */
static bhost_status BHOST_ABI gemm_run(bhost_dev *dev, bhost_stream *s,
                                       const bhost_gemm_args *g)
{
    bhost_status st = check_call(dev, s, g, "gemm");

    if (st == BHOST_OK)
        st = check_gemm(dev, g);
    if (st != BHOST_OK)
        return st;
    if (g->m == 0 || g->n == 0)
        return BHOST_OK;
    if (is_half(g->a_type))
        return gemm_half(dev, g);
    if (g->k > 0 && gemm_as_gemv(g))
        return BHOST_OK;
    if (g->c_type == BHOST_DTYPE_F32)
        cblas_sgemm(CblasColMajor, g->trans_a ? CblasTrans : CblasNoTrans,
                    g->trans_b ? CblasTrans : CblasNoTrans, (int)g->m,
                    (int)g->n, (int)g->k, (float)g->alpha,
                    (const float *)g->a->ptr, (int)g->lda,
                    (const float *)g->b->ptr, (int)g->ldb, (float)g->beta,
                    (float *)g->c->ptr, (int)g->ldc);
    else
        cblas_dgemm(CblasColMajor, g->trans_a ? CblasTrans : CblasNoTrans,
                    g->trans_b ? CblasTrans : CblasNoTrans, (int)g->m,
                    (int)g->n, (int)g->k, g->alpha, (const double *)g->a->ptr,
                    (int)g->lda, (const double *)g->b->ptr, (int)g->ldb,
                    g->beta, (double *)g->c->ptr, (int)g->ldc);
    return BHOST_OK;
}

/* y = alpha * x + y through cblas_[sd]axpy, in chunks that fit BLAS's int.
 * [instance] */
static bhost_status BHOST_ABI axpy_run(bhost_dev *dev, bhost_stream *s,
                                       const bhost_axpy_args *a)
{
    const uint64_t chunk = (uint64_t)INT_MAX & ~UINT64_C(63);
    uint64_t es;
    bhost_status st = check_call(dev, s, a, "axpy");

    if (st != BHOST_OK)
        return st;
    if (!BHOST_HAS(bhost_axpy_args, a, y))
        return bh_cpu_fail(dev->h, BHOST_E_INVALID,
                           "axpy: struct_size %" PRIu32 " too small",
                           a->struct_size);
    es = elem_size(a->type);
    if (es == 0)
        return bh_cpu_fail(dev->h, BHOST_E_UNSUPPORTED,
                           "axpy: dtype %" PRId32 " unsupported (F32, F64)",
                           a->type);
    if (a->n > UINT64_MAX / es)
        return bh_cpu_fail(dev->h, BHOST_E_INVALID, "axpy: n overflows");
    st = bh_cpu_check_range(dev, a->x, 0, a->n * es, "axpy", "x");
    if (st == BHOST_OK)
        st = bh_cpu_check_range(dev, a->y, 0, a->n * es, "axpy", "y");
    if (st != BHOST_OK)
        return st;
    for (uint64_t off = 0; off < a->n; off += chunk) {
        int n = (int)(a->n - off < chunk ? a->n - off : chunk);

        if (a->type == BHOST_DTYPE_F32)
            cblas_saxpy(n, (float)a->alpha, (const float *)a->x->ptr + off, 1,
                        (float *)a->y->ptr + off, 1);
        else
            cblas_daxpy(n, a->alpha, (const double *)a->x->ptr + off, 1,
                        (double *)a->y->ptr + off, 1);
    }
    return BHOST_OK;
}

#define LANES 8

/* Sum of x[0..n) in double with LANES interleaved partial sums: a fixed
 * order, so results repeat exactly. */
#define DEFINE_SUM(name, type)                                                 \
    static double name(const type *x, uint64_t n)                              \
    {                                                                          \
        double part[LANES] = {0};                                              \
        double total = 0.0;                                                    \
        uint64_t i = 0;                                                        \
                                                                               \
        for (; i + LANES <= n; i += LANES)                                     \
            for (int l = 0; l < LANES; l++)                                    \
                part[l] += (double)x[i + (uint64_t)l];                         \
        for (; i < n; i++)                                                     \
            part[0] += (double)x[i];                                           \
        for (int l = 0; l < LANES; l++)                                        \
            total += part[l];                                                  \
        return total;                                                          \
    }

/* Min (want_max == 0) or max of x[0..n), n >= 1; a NaN anywhere wins. */
#define DEFINE_MINMAX(name, type)                                              \
    static type name(const type *x, uint64_t n, int want_max)                  \
    {                                                                          \
        type best = x[0];                                                      \
                                                                               \
        for (uint64_t i = 1; i < n && best == best; i++) {                     \
            type v = x[i];                                                     \
            if (v != v || (want_max ? v > best : v < best))                    \
                best = v;                                                      \
        }                                                                      \
        return best;                                                           \
    }

DEFINE_SUM(sum_f32, float)
DEFINE_SUM(sum_f64, double)
DEFINE_MINMAX(minmax_f32, float)
DEFINE_MINMAX(minmax_f64, double)

/* Checks the reduce arguments; BHOST_E_UNSUPPORTED for other dtypes. */
static bhost_status check_reduce(const bhost_dev *dev,
                                 const bhost_reduce_args *r, uint64_t es)
{
    bhost_status st;

    if (!BHOST_HAS(bhost_reduce_args, r, result) || r->reserved != 0)
        return bh_cpu_fail(dev->h, BHOST_E_INVALID,
                           "reduce: struct_size %" PRIu32
                           " too small or reserved != 0",
                           r->struct_size);
    if (es == 0)
        return bh_cpu_fail(dev->h, BHOST_E_UNSUPPORTED,
                           "reduce: dtype %" PRId32 " unsupported (F32, F64)",
                           r->type);
    if (r->op != BHOST_REDUCE_SUM && r->op != BHOST_REDUCE_MIN &&
        r->op != BHOST_REDUCE_MAX)
        return bh_cpu_fail(dev->h, BHOST_E_INVALID, "reduce: unknown op %" PRId32,
                           r->op);
    if (r->n == 0 && r->op != BHOST_REDUCE_SUM)
        return bh_cpu_fail(dev->h, BHOST_E_INVALID,
                           "reduce: min/max of zero elements");
    if (r->n > UINT64_MAX / es)
        return bh_cpu_fail(dev->h, BHOST_E_INVALID, "reduce: n overflows");
    st = bh_cpu_check_range(dev, r->x, 0, r->n * es, "reduce", "x");
    if (st == BHOST_OK)
        st = bh_cpu_check_range(dev, r->result, 0, es, "reduce", "result");
    return st;
}

/* result[0] = sum, min or max of x[0..n) in x's dtype. Sums accumulate in
 * double; min/max return NaN when x holds one. [instance] */
static bhost_status BHOST_ABI reduce_run(bhost_dev *dev, bhost_stream *s,
                                         const bhost_reduce_args *r)
{
    uint64_t es;
    bhost_status st = check_call(dev, s, r, "reduce");

    if (st != BHOST_OK)
        return st;
    es = elem_size(r->type);
    st = check_reduce(dev, r, es);
    if (st != BHOST_OK)
        return st;
    if (r->type == BHOST_DTYPE_F32) {
        const float *x = r->x->ptr;
        float v = r->op == BHOST_REDUCE_SUM
                      ? (float)sum_f32(x, r->n)
                      : minmax_f32(x, r->n, r->op == BHOST_REDUCE_MAX);

        memcpy(r->result->ptr, &v, sizeof(v));
    } else {
        const double *x = r->x->ptr;
        double v = r->op == BHOST_REDUCE_SUM
                       ? sum_f64(x, r->n)
                       : minmax_f64(x, r->n, r->op == BHOST_REDUCE_MAX);

        memcpy(r->result->ptr, &v, sizeof(v));
    }
    return BHOST_OK;
}

static const bhost_kernel_gemm gemm_table = {sizeof(bhost_kernel_gemm), 0,
                                             gemm_run};
static const bhost_kernel_axpy axpy_table = {sizeof(bhost_kernel_axpy), 0,
                                             axpy_run};
static const bhost_kernel_reduce reduce_table = {sizeof(bhost_kernel_reduce), 0,
                                                 reduce_run};

static const bh_be_tables tables = {&gemm_table, &axpy_table, &reduce_table,
                                    NULL, NULL};

const void *bh_cpu_kernel(bhost_dev *dev, const char *id)
{
    int kernel;

    (void)dev;
    return bh_be_find_table(&tables, id, &kernel);
}
