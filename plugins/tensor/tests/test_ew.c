// SPDX-License-Identifier: MIT
/*
 * test_ew.c -- element-wise kernels: every op, dtype, variant and ISA
 * level against the double reference at odd sizes, strided rows with
 * untouched padding, threaded and non-temporal paths, accuracy sweeps of
 * the f32 polynomials, special values and argument checks.
 */
#include "tt_util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define CANARY 12345.0

/* Input range of op's operands (a; b and c share a's unless noted). */
static void domain(tk_op op, double *lo, double *hi)
{
    switch (op) {
    case TK_OP_LOG:
    case TK_OP_SQRT:
        *lo = 1e-3;
        *hi = 1e3;
        break;
    case TK_OP_EXP:
        *lo = -80.0;
        *hi = 80.0;
        break;
    default:
        *lo = -8.0;
        *hi = 8.0;
        break;
    }
}

/* Reads element i of a buffer of dtype as double. */
static double at(const void *p, tk_dtype t, size_t i)
{
    return t == TK_F32 ? (double)((const float *)p)[i] : ((const double *)p)[i];
}

/* Writes v to element i of a buffer of dtype. */
static void put(void *p, tk_dtype t, size_t i, double v)
{
    if (t == TK_F32)
        ((float *)p)[i] = (float)v;
    else
        ((double *)p)[i] = v;
}

typedef struct ew_case {
    tk_dtype dtype;
    int vector;
    size_t rows, cols, pad; /* row stride cols + pad for every operand */
    unsigned threads;
} ew_case;

/* Runs every op for one case and checks values and padding. */
static void run_case(const ew_case *k, tt_rng *r)
{
    size_t ld = k->cols + k->pad, n = k->rows * ld, es = tk_dtype_size(k->dtype);
    void *a = tt_alloc(n * es), *b = tt_alloc(n * es), *c = tt_alloc(n * es);
    void *o = tt_alloc(n * es);
    tk_pool *pool = k->threads > 1 ? tk_pool_create(k->threads) : NULL;

    for (int op = 0; op < TK_OP_COUNT; op++) {
        tk_ew_args x = {(tk_op)op, k->dtype, k->vector, k->rows, k->cols,
                        a, b, c, o, ld, ld, ld, ld};
        double lo, hi;
        int st;

        domain((tk_op)op, &lo, &hi);
        for (size_t i = 0; i < n; i++) {
            double bv = tt_uniform(r, 0.5, 2.0);

            put(a, k->dtype, i, tt_uniform(r, lo, hi));
            put(b, k->dtype, i, op == TK_OP_DIV && (i & 1) ? -bv
                                : op == TK_OP_DIV         ? bv
                                                          : tt_uniform(r, lo, hi));
            put(c, k->dtype, i, tt_uniform(r, lo, hi));
            put(o, k->dtype, i, CANARY);
        }
        st = tk_eltwise(&x, pool);
        if (k->vector && k->dtype == TK_F64 && tk_op_transcendental((tk_op)op)) {
            assert_int_equal(st, TK_EUNSUP);
            continue;
        }
        assert_int_equal(st, TK_OK);
        for (size_t row = 0; row < k->rows; row++)
            for (size_t col = 0; col < ld; col++) {
                size_t i = row * ld + col;
                double y = at(o, k->dtype, i);

                if (col >= k->cols) {
                    assert_true(y == CANARY);
                    continue;
                }
                double err = tk_op_err((tk_op)op, k->dtype, k->vector,
                                       at(a, k->dtype, i), at(b, k->dtype, i),
                                       at(c, k->dtype, i), y);
                if (!(err <= 1.0))
                    fail_msg("%s %s %s rows=%zu cols=%zu at %zu: a=%.9g b=%.9g "
                             "c=%.9g y=%.9g err=%.3g", tk_op_name((tk_op)op),
                             k->dtype == TK_F32 ? "f32" : "f64",
                             k->vector ? "vector" : "scalar", k->rows, k->cols,
                             i, at(a, k->dtype, i), at(b, k->dtype, i),
                             at(c, k->dtype, i), y, err);
            }
    }
    tk_pool_destroy(pool);
    free(a);
    free(b);
    free(c);
    free(o);
}

/* All sizes, dtypes and variants, contiguous, at one ISA level. */
static void contiguous_at(int level, void *ctx)
{
    tt_rng r;

    (void)ctx;
    tt_seed(&r, 100 + (uint64_t)level);
    for (size_t s = 0; s < tt_nsizes; s++)
        for (int d = 0; d < 2; d++)
            for (int v = 0; v < 2; v++) {
                ew_case k = {d ? TK_F64 : TK_F32, v, 1, tt_sizes[s], 3, 1};

                run_case(&k, &r);
            }
}

static void test_ew_contiguous(void **state)
{
    (void)state;
    tt_each_isa(contiguous_at, NULL);
}

/* Strided rows (padding must stay untouched), at one ISA level. */
static void strided_at(int level, void *ctx)
{
    tt_rng r;
    static const size_t cols[] = {1, 5, 17, 33};

    (void)ctx;
    tt_seed(&r, 200 + (uint64_t)level);
    for (size_t s = 0; s < 4; s++)
        for (int d = 0; d < 2; d++)
            for (int v = 0; v < 2; v++) {
                ew_case k = {d ? TK_F64 : TK_F32, v, 7, cols[s], 5, 1};

                run_case(&k, &r);
            }
}

static void test_ew_strided(void **state)
{
    (void)state;
    tt_each_isa(strided_at, NULL);
}

/* Threaded flat and row splits, and the non-temporal path (an output
 * larger than half the last-level cache), checked against the reference. */
static void test_ew_threads_and_nt(void **state)
{
    tt_rng r;
    ew_case flat = {TK_F32, 1, 1, 300007, 0, 3};
    ew_case rows = {TK_F32, 1, 301, 1001, 7, 3};
    size_t n = tk_llc_bytes() / 4 + 4099; /* > llc / 2 over 3 operands */
    float *a = tt_alloc(n * 4), *b = tt_alloc(n * 4), *o = tt_alloc(n * 4 + 64);
    float *out = o + 1; /* misaligned: exercises the aligned head */
    tk_ew_args x = {TK_OP_ADD, TK_F32, 1, 1, n, a, b, NULL, out, n, n, n, n};
    tk_pool *pool = tk_pool_create(2);

    (void)state;
    tt_seed(&r, 300);
    run_case(&flat, &r);
    run_case(&rows, &r);
    tt_fill_f32(&r, a, n, -1, 1);
    tt_fill_f32(&r, b, n, -1, 1);
    assert_int_equal(tk_eltwise(&x, pool), TK_OK);
    for (size_t i = 0; i < n; i++)
        if (out[i] != a[i] + b[i])
            fail_msg("nt add wrong at %zu", i);
    tk_pool_destroy(pool);
    free(a);
    free(b);
    free(o);
}

/* Largest tk_op_err of the vector f32 op over x in [lo, hi] (steps
 * points), at the current ISA level. */
static double sweep(tk_op op, double lo, double hi, size_t steps)
{
    float *x = tt_alloc(steps * 4), *y = tt_alloc(steps * 4);
    tk_ew_args a = {op, TK_F32, 1, 1, steps, x, NULL, NULL, y, steps, 0, 0, steps};
    double worst = 0.0;

    for (size_t i = 0; i < steps; i++)
        x[i] = (float)(lo + (hi - lo) * (double)i / (double)(steps - 1));
    assert_int_equal(tk_eltwise(&a, NULL), TK_OK);
    for (size_t i = 0; i < steps; i++) {
        double e = tk_op_err(op, TK_F32, 1, x[i], 0, 0, y[i]);

        if (!(e <= 1.0))
            fail_msg("%s(%.9g) = %.9g, err %.3g", tk_op_name(op), (double)x[i],
                     (double)y[i], e);
        worst = e > worst ? e : worst;
    }
    free(x);
    free(y);
    return worst;
}

/* Dense sweeps of each polynomial over its whole useful range. */
static void sweeps_at(int level, void *ctx)
{
    (void)ctx;
    (void)level;
    sweep(TK_OP_EXP, -87.3, 88.7, 200001);
    sweep(TK_OP_LOG, 1.4e-45, 1.1e-38, 20001);
    sweep(TK_OP_LOG, 1e-37, 1e-30, 20001);
    sweep(TK_OP_LOG, 0.5, 2.0, 200001);
    sweep(TK_OP_LOG, 1e-3, 3e38, 200001);
    sweep(TK_OP_TANH, -12, 12, 200001);
    sweep(TK_OP_TANH, -0.4, 0.4, 200001);
    sweep(TK_OP_SIGMOID, -87, 40, 200001);
    sweep(TK_OP_GELU, -10, 10, 200001);
}

static void test_ew_poly_sweeps(void **state)
{
    (void)state;
    tt_each_isa(sweeps_at, NULL);
}

/* Special inputs of the vector f32 functions at one level. */
static void specials_at(int level, void *ctx)
{
    static const float in[] = {0.0f, -0.0f, INFINITY, -INFINITY, NAN, 1e-45f,
                               -1.0f, 100.0f, -100.0f, 88.72283f, -87.34f};
    const size_t n = sizeof(in) / sizeof(in[0]);
    float y[sizeof(in) / sizeof(in[0])];

    (void)ctx;
    (void)level;
    for (int op = TK_OP_GELU; op <= TK_OP_SQRT; op++) {
        tk_ew_args a = {(tk_op)op, TK_F32, 1, 1, n, in, NULL, NULL, y, n, 0, 0, n};

        assert_int_equal(tk_eltwise(&a, NULL), TK_OK);
        for (size_t i = 0; i < n; i++) {
            double ref = tk_ref_op((tk_op)op, in[i], 0, 0);

            if (isnan(ref))
                assert_true(isnan(y[i]));
            else if (isinf((float)ref)) /* includes float overflow */
                assert_true(y[i] == (float)ref);
            else
                assert_true(fabs(y[i] - ref) <= 1e-6 * fabs(ref) + 2e-38);
        }
    }
}

static void test_ew_specials(void **state)
{
    (void)state;
    tt_each_isa(specials_at, NULL);
}

static void test_ew_invalid(void **state)
{
    float a[4] = {1, 2, 3, 4}, o[4];
    tk_ew_args x = {TK_OP_ADD, TK_F32, 1, 1, 4, a, NULL, NULL, o, 4, 4, 4, 4};

    (void)state;
    assert_int_equal(tk_eltwise(NULL, NULL), TK_EINVAL);
    assert_int_equal(tk_eltwise(&x, NULL), TK_EINVAL); /* b missing */
    x.op = TK_OP_EXP;
    x.dtype = TK_F64;
    assert_int_equal(tk_eltwise(&x, NULL), TK_EUNSUP);
    x.dtype = TK_I32;
    assert_int_equal(tk_eltwise(&x, NULL), TK_EINVAL);
    x.dtype = TK_F32;
    x.rows = 2;
    x.cols = 2;
    x.lda = 1; /* shorter than a row */
    assert_int_equal(tk_eltwise(&x, NULL), TK_EINVAL);
    x.op = TK_OP_COUNT;
    assert_int_equal(tk_eltwise(&x, NULL), TK_EINVAL);
    assert_int_equal(tk_op_from_name("gelu"), TK_OP_GELU);
    assert_int_equal(tk_op_from_name("nope"), TK_OP_COUNT);
    assert_string_equal(tk_op_name(TK_OP_SQRT), "sqrt");
}

int tt_group_ew(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ew_contiguous),
        cmocka_unit_test(test_ew_strided),
        cmocka_unit_test(test_ew_threads_and_nt),
        cmocka_unit_test(test_ew_poly_sweeps),
        cmocka_unit_test(test_ew_specials),
        cmocka_unit_test(test_ew_invalid),
    };

    return cmocka_run_group_tests_name("tensor_ew", tests, NULL, NULL);
}
