// SPDX-License-Identifier: MIT
/*
 * tk_ew.c -- tk_eltwise: argument checks, the split over threads (flat
 * when all operands are contiguous, by rows otherwise) and the choice of
 * the scalar or vector kernel; plus the double-precision reference and
 * the tolerance model used by the tests and the plugin's verify().
 */
#include "tk_internal.h"

#include <float.h>
#include <math.h>

typedef struct ew_job {
    const tk_ew_args *x;
    size_t esize;
    int flat;  /* all operands contiguous: one range of rows * cols */
    int nt;    /* non-temporal stores in the vector kernel */
    const tk_isa_ops *ops;
} ew_job;

/* Start of row r of an input with stride ld (NULL stays NULL). */
static const char *row_ptr(const void *base, size_t r, size_t ld, size_t es)
{
    return base == NULL ? NULL : (const char *)base + r * ld * es;
}

/* Start of row r of the output. */
static char *out_ptr(void *base, size_t r, size_t ld, size_t es)
{
    return (char *)base + r * ld * es;
}

/* Runs the chosen kernel over n elements of the operands starting at
 * a, b, c (inputs, NULL when unused) and o. */
static void ew_range(const ew_job *j, const char *a, const char *b,
                     const char *c, char *o, size_t n)
{
    const tk_ew_args *x = j->x;

    if (x->dtype == TK_F32) {
        if (x->vector)
            j->ops->ew_f32(x->op, (const float *)(const void *)a,
                           (const float *)(const void *)b,
                           (const float *)(const void *)c,
                           (float *)(void *)o, n, j->nt);
        else
            tk_ew_scalar_f32(x->op, (const float *)(const void *)a,
                             (const float *)(const void *)b,
                             (const float *)(const void *)c,
                             (float *)(void *)o, n);
    } else {
        if (x->vector)
            j->ops->ew_f64(x->op, (const double *)(const void *)a,
                           (const double *)(const void *)b,
                           (const double *)(const void *)c,
                           (double *)(void *)o, n, j->nt);
        else
            tk_ew_scalar_f64(x->op, (const double *)(const void *)a,
                             (const double *)(const void *)b,
                             (const double *)(const void *)c,
                             (double *)(void *)o, n);
    }
}

/* One thread's share: a 64-byte aligned range of the flat array, or a
 * range of rows. */
static void ew_task(void *arg, unsigned tid, unsigned nthr)
{
    const ew_job *j = arg;
    const tk_ew_args *x = j->x;
    size_t b, e, es = j->esize;

    if (j->flat) {
        bh_split(x->rows * x->cols, 64 / es, tid, nthr, &b, &e);
        if (e > b)
            ew_range(j, row_ptr(x->a, b, 1, es), row_ptr(x->b, b, 1, es),
                     row_ptr(x->c, b, 1, es),
                     out_ptr(x->out, b, 1, es), e - b);
    } else {
        bh_split(x->rows, 1, tid, nthr, &b, &e);
        for (size_t r = b; r < e; r++)
            ew_range(j, row_ptr(x->a, r, x->lda, es),
                     row_ptr(x->b, r, x->ldb, es), row_ptr(x->c, r, x->ldc, es),
                     out_ptr(x->out, r, x->ldo, es), x->cols);
    }
    if (j->nt)
        tk_sfence();
}

/* TK_OK when an operand of rows x cols with stride ld spans a
 * representable byte range. */
static int check_operand(const void *p, size_t rows, size_t cols, size_t ld,
                         size_t es)
{
    size_t span;

    if (p == NULL || (rows > 1 && ld < cols))
        return TK_EINVAL;
    if (tk_mul_overflow(rows - 1, ld, &span) ||
        __builtin_add_overflow(span, cols, &span) ||
        tk_mul_overflow(span, es, &span))
        return TK_EINVAL;
    return TK_OK;
}

int tk_eltwise(const tk_ew_args *x, tk_pool *pool)
{
    int arity;
    ew_job j;
    size_t total;

    if (x == NULL || (x->dtype != TK_F32 && x->dtype != TK_F64))
        return TK_EINVAL;
    arity = tk_op_arity(x->op);
    if (arity == 0)
        return TK_EINVAL;
    if (x->rows == 0 || x->cols == 0)
        return TK_OK;
    j.esize = tk_dtype_size(x->dtype);
    if (check_operand(x->a, x->rows, x->cols, x->lda, j.esize) != TK_OK ||
        check_operand(x->out, x->rows, x->cols, x->ldo, j.esize) != TK_OK ||
        (arity >= 2 &&
         check_operand(x->b, x->rows, x->cols, x->ldb, j.esize) != TK_OK) ||
        (arity >= 3 &&
         check_operand(x->c, x->rows, x->cols, x->ldc, j.esize) != TK_OK) ||
        tk_mul_overflow(x->rows, x->cols, &total) ||
        tk_mul_overflow(total, j.esize * (size_t)(arity + 1), &total))
        return TK_EINVAL;
    if (x->vector && x->dtype == TK_F64 && tk_op_transcendental(x->op))
        return TK_EUNSUP;
    j.x = x;
    j.ops = tk_ops();
    j.flat = x->rows == 1 ||
             (x->lda == x->cols && x->ldo == x->cols &&
              (arity < 2 || x->ldb == x->cols) &&
              (arity < 3 || x->ldc == x->cols));
    j.nt = x->vector && tk_want_nt(total);
    tk_pool_run(pool, total, ew_task, &j);
    return TK_OK;
}

/* gelu's inner argument -2u = x (c1 + c2 x^2) in double. */
static double gelu_t(double x)
{
    const double k = sqrt(2.0 / M_PI);

    return -2.0 * k * (x + 0.044715 * x * x * x);
}

double tk_ref_op(tk_op op, double a, double b, double c)
{
    switch (op) {
    case TK_OP_ADD:
        return a + b;
    case TK_OP_SUB:
        return a - b;
    case TK_OP_MUL:
        return a * b;
    case TK_OP_DIV:
        return a / b;
    case TK_OP_FMA:
        return fma(a, b, c);
    case TK_OP_RELU:
        return a != a ? a : a > 0.0 ? a : 0.0;
    case TK_OP_GELU:
        return a / (1.0 + exp(gelu_t(a)));
    case TK_OP_SIGMOID:
        return 1.0 / (1.0 + exp(-a));
    case TK_OP_TANH:
        return tanh(a);
    case TK_OP_EXP:
        return exp(a);
    case TK_OP_LOG:
        return log(a);
    case TK_OP_SQRT:
        return sqrt(a);
    case TK_OP_COUNT:
        break;
    }
    return NAN;
}

double tk_op_err(tk_op op, tk_dtype dtype, int vector, double a, double b,
                 double c, double y)
{
    double ref = tk_ref_op(op, a, b, c);
    double u = dtype == TK_F64 ? DBL_EPSILON / 2 : FLT_EPSILON / 2;
    double tiny = dtype == TK_F64 ? DBL_MIN : FLT_MIN;
    double rel, scale;

    if (dtype == TK_F32 && isinf((float)ref))
        ref = (float)ref; /* overflows f32: inf is the right answer */
    if (ref != ref)
        return y != y ? 0.0 : INFINITY;
    if (isinf(ref) || isinf(y))
        return y == ref ? 0.0 : INFINITY;
    switch (op) {
    case TK_OP_ADD:
    case TK_OP_SUB:
        scale = fabs(a) + fabs(b);
        rel = 2 * u;
        break;
    case TK_OP_FMA:
        scale = fabs(a * b) + fabs(c);
        rel = 2 * u;
        break;
    case TK_OP_MUL:
    case TK_OP_DIV:
    case TK_OP_RELU:
    case TK_OP_SQRT:
        scale = fabs(ref);
        rel = 2 * u;
        break;
    case TK_OP_GELU:
        scale = fabs(ref);
        rel = (vector ? 1e-6 : 8 * u) + 8 * u * fabs(gelu_t(a));
        break;
    default:
        scale = fabs(ref);
        rel = vector ? 1e-6 : 8 * u;
        break;
    }
    return fabs(y - ref) / (rel * scale + 2 * tiny);
}
