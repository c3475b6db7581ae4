// SPDX-License-Identifier: MIT
/*
 * test_reduce.c -- sum, mean, max, argmax and variance over the middle
 * axis of [outer, r, inner] tensors against double references: odd sizes
 * on every ISA level, rows, strided axes, ties, an offset mean, threaded
 * splits of each shape of work, and argument checks.
 */
#include "tt_util.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>

typedef struct shape {
    size_t outer, r, inner;
} shape;

/* Checks every op of the library over x of shape s against double
 * references (data in x must be finite). */
static void check_shape(const float *x, shape s, tk_pool *pool)
{
    size_t nout = s.outer * s.inner;
    float *y = tt_alloc(nout * sizeof(float));
    int64_t *arg = tt_alloc(nout * sizeof(int64_t));

    for (int op = 0; op < TK_RED_COUNT; op++) {
        void *out = op == TK_RED_ARGMAX ? (void *)arg : (void *)y;
        double bound = tk_reduce_rel_bound(s.r, s.inner);

        assert_int_equal(tk_reduce((tk_red_op)op, x, s.outer, s.r, s.inner, out,
                                   pool), TK_OK);
        for (size_t o = 0; o < s.outer; o++)
            for (size_t j = 0; j < s.inner; j++) {
                double sum = 0, abs_sum = 0, best = -INFINITY, m2 = 0;
                size_t besti = 0, k = o * s.inner + j;

                for (size_t t = 0; t < s.r; t++) {
                    double v = x[(o * s.r + t) * s.inner + j];

                    sum += v;
                    abs_sum += fabs(v);
                    if (v > best) {
                        best = v;
                        besti = t;
                    }
                }
                for (size_t t = 0; t < s.r; t++) {
                    double d = x[(o * s.r + t) * s.inner + j] - sum / (double)s.r;

                    m2 += d * d;
                }
                double mean = sum / (double)s.r, var = m2 / (double)s.r;
                double tol_sum = bound * abs_sum + FLT_EPSILON * fabs(sum) + 1e-30;
                double mabs = abs_sum / (double)s.r;
                switch (op) {
                case TK_RED_SUM:
                    assert_true(fabs(y[k] - sum) <= tol_sum);
                    break;
                case TK_RED_MEAN:
                    assert_true(fabs(y[k] - mean) <= tol_sum / (double)s.r);
                    break;
                case TK_RED_MAX:
                    assert_true(y[k] == (float)best);
                    break;
                case TK_RED_ARGMAX:
                    assert_int_equal(arg[k], (int64_t)besti);
                    break;
                default:
                    if (!(fabs(y[k] - var) <=
                          8 * bound * (var + mabs * mabs * bound) +
                              FLT_EPSILON * var + 1e-30))
                        fail_msg("var shape %zu,%zu,%zu at %zu: %.9g vs %.9g",
                                 s.outer, s.r, s.inner, k, (double)y[k], var);
                    break;
                }
            }
    }
    free(y);
    free(arg);
}

/* Random data of shape s in [lo, hi), or small integers (many ties). */
static float *make(tt_rng *r, shape s, double lo, double hi, int ties)
{
    size_t n = s.outer * s.r * s.inner;
    float *x = tt_alloc(n * sizeof(float));

    for (size_t i = 0; i < n; i++)
        x[i] = ties ? (float)tt_below(r, 5) : (float)tt_uniform(r, lo, hi);
    return x;
}

/* Whole vectors of every size, rows, strided axes and ties at one level. */
static void shapes_at(int level, void *ctx)
{
    static const shape more[] = {{3, 17, 1}, {2, 33, 5}, {4, 7, 129},
                                 {1, 1, 1},  {5, 1, 3},  {2, 300, 17}};
    tt_rng r;

    (void)ctx;
    tt_seed(&r, 500 + (uint64_t)level);
    for (size_t i = 0; i < tt_nsizes; i++) {
        shape s = {1, tt_sizes[i], 1};
        float *x = make(&r, s, -8, 8, 0);

        check_shape(x, s, NULL);
        free(x);
        x = make(&r, s, 0, 0, 1);
        check_shape(x, s, NULL);
        free(x);
    }
    for (size_t i = 0; i < sizeof(more) / sizeof(more[0]); i++) {
        float *x = make(&r, more[i], -8, 8, 0);

        check_shape(x, more[i], NULL);
        free(x);
        x = make(&r, more[i], 0, 0, 1);
        check_shape(x, more[i], NULL);
        free(x);
    }
}

static void test_reduce_shapes(void **state)
{
    (void)state;
    tt_each_isa(shapes_at, NULL);
}

/* Variance of data far from zero (mean 1000, spread 1) and long sums. */
static void test_reduce_offset_and_long(void **state)
{
    tt_rng r;
    shape s = {1, 1000003, 1};
    float *x;

    (void)state;
    tt_seed(&r, 600);
    x = make(&r, s, 999.0, 1001.0, 0);
    check_shape(x, s, NULL);
    free(x);
}

/* Each split of work over 3 threads: chunks of one vector, rows, whole
 * slices and column ranges. */
static void test_reduce_threads(void **state)
{
    static const shape shapes[] = {
        {1, 1000003, 1}, {64, 10007, 1}, {3, 101, 4001}, {1, 50, 100003}};
    tk_pool *pool = tk_pool_create(3);
    tt_rng r;

    (void)state;
    tt_seed(&r, 700);
    for (size_t i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++) {
        float *x = make(&r, shapes[i], -1, 1, 0);

        check_shape(x, shapes[i], pool);
        free(x);
    }
    tk_pool_destroy(pool);
}

static void test_reduce_invalid(void **state)
{
    float x[4] = {1, 2, 3, 4}, y[4];

    (void)state;
    assert_int_equal(tk_reduce(TK_RED_SUM, NULL, 1, 4, 1, y, NULL), TK_EINVAL);
    assert_int_equal(tk_reduce(TK_RED_SUM, x, 1, 0, 1, y, NULL), TK_EINVAL);
    assert_int_equal(tk_reduce(TK_RED_COUNT, x, 1, 4, 1, y, NULL), TK_EINVAL);
    assert_int_equal(tk_reduce(TK_RED_SUM, x, SIZE_MAX, 4, 2, y, NULL),
                     TK_EINVAL);
    assert_string_equal(tk_red_name(TK_RED_VAR), "var");
    assert_null(tk_red_name(TK_RED_COUNT));
}

int tt_group_reduce(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reduce_shapes),
        cmocka_unit_test(test_reduce_offset_and_long),
        cmocka_unit_test(test_reduce_threads),
        cmocka_unit_test(test_reduce_invalid),
    };

    return cmocka_run_group_tests_name("tensor_reduce", tests, NULL, NULL);
}
