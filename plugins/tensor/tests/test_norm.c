// SPDX-License-Identifier: MIT
/*
 * test_norm.c -- softmax, log-softmax, layernorm and rmsnorm against
 * double references: odd row lengths on every ISA level, strided rows with
 * untouched padding, optional gamma/beta, threads and the non-temporal
 * path, argument checks.
 */
#include "tt_util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define CANARY 777.0f

/* Double reference of kind (0 softmax, 1 log-softmax, 2 layernorm,
 * 3 rmsnorm) for one row. */
static void ref_row(int kind, const float *x, const float *g, const float *b,
                    size_t n, double eps, double *y)
{
    double m = -INFINITY, s = 0, mean = 0, var = 0, ms = 0;

    for (size_t i = 0; i < n; i++) {
        m = x[i] > m ? x[i] : m;
        mean += x[i];
        ms += (double)x[i] * x[i];
    }
    mean /= (double)n;
    ms /= (double)n;
    for (size_t i = 0; i < n; i++) {
        s += exp(x[i] - m);
        var += (x[i] - mean) * (x[i] - mean);
    }
    var /= (double)n;
    for (size_t i = 0; i < n; i++) {
        double gi = g ? g[i] : 1.0, bi = b ? b[i] : 0.0;

        switch (kind) {
        case 0:
            y[i] = exp(x[i] - m) / s;
            break;
        case 1:
            y[i] = x[i] - m - log(s);
            break;
        case 2:
            y[i] = (x[i] - mean) / sqrt(var + eps) * gi + bi;
            break;
        default:
            y[i] = x[i] / sqrt(ms + eps) * gi;
            break;
        }
    }
}

/* Runs kind over rows x cols (strides cols + pad) and checks values and
 * padding. */
static void check(int kind, size_t rows, size_t cols, size_t pad, int affine,
                  tk_pool *pool, tt_rng *r)
{
    size_t ld = cols + pad;
    float *x = tt_alloc(rows * ld * 4), *y = tt_alloc(rows * ld * 4);
    float *g = tt_alloc(cols * 4), *b = tt_alloc(cols * 4);
    double *ref = tt_alloc(cols * 8);
    const float eps = 1e-5f;
    int st;

    tt_fill_f32(r, x, rows * ld, -8, 8);
    tt_fill_f32(r, g, cols, 0.5, 1.5);
    tt_fill_f32(r, b, cols, -1, 1);
    for (size_t i = 0; i < rows * ld; i++)
        y[i] = CANARY;
    if (kind < 2)
        st = tk_softmax(x, y, rows, cols, ld, ld, kind, pool);
    else if (kind == 2)
        st = tk_layernorm(x, y, affine ? g : NULL, affine ? b : NULL, rows, cols,
                          ld, ld, eps, pool);
    else
        st = tk_rmsnorm(x, y, affine ? g : NULL, rows, cols, ld, ld, eps, pool);
    assert_int_equal(st, TK_OK);
    for (size_t row = 0; row < rows; row++) {
        ref_row(kind, x + row * ld, affine ? g : NULL,
                affine && kind == 2 ? b : NULL, cols, eps, ref);
        for (size_t c = 0; c < ld; c++) {
            float v = y[row * ld + c];
            double tol;

            if (c >= cols) {
                assert_true(v == CANARY);
                continue;
            }
            tol = kind == 0 ? 5e-6 * ref[c] + 1e-30 : 1e-5 * (1 + fabs(ref[c]));
            if (!(fabs(v - ref[c]) <= tol))
                fail_msg("norm kind %d rows %zu cols %zu at %zu,%zu: %.9g vs %.9g",
                         kind, rows, cols, row, c, (double)v, ref[c]);
        }
    }
    free(x);
    free(y);
    free(g);
    free(b);
    free(ref);
}

/* Every kind at every odd length, contiguous and strided, at one level. */
static void norms_at(int level, void *ctx)
{
    tt_rng r;

    (void)ctx;
    tt_seed(&r, 800 + (uint64_t)level);
    for (int kind = 0; kind < 4; kind++)
        for (size_t s = 0; s < tt_nsizes; s++) {
            check(kind, 1, tt_sizes[s], 0, 1, NULL, &r);
            check(kind, 3, tt_sizes[s], 5, kind >= 2, NULL, &r);
        }
}

static void test_norm_rows(void **state)
{
    (void)state;
    tt_each_isa(norms_at, NULL);
}

/* Threads over rows, and outputs past half the last-level cache
 * (non-temporal, with rows that start misaligned). */
static void test_norm_threads_nt(void **state)
{
    tk_pool *pool = tk_pool_create(3);
    size_t rows = tk_llc_bytes() / 4 / 1003 + 7;
    tt_rng r;

    (void)state;
    tt_seed(&r, 900);
    for (int kind = 0; kind < 4; kind++) {
        check(kind, 257, 1025, 3, 1, pool, &r);
        check(kind, rows, 1003, 0, 1, pool, &r);
    }
    tk_pool_destroy(pool);
}

static void test_norm_invalid(void **state)
{
    float x[8] = {0}, y[8];

    (void)state;
    assert_int_equal(tk_softmax(NULL, y, 1, 8, 8, 8, 0, NULL), TK_EINVAL);
    assert_int_equal(tk_softmax(x, y, 2, 4, 3, 4, 0, NULL), TK_EINVAL);
    assert_int_equal(tk_softmax(x, y, 1, 0, 8, 8, 0, NULL), TK_EINVAL);
    assert_int_equal(tk_layernorm(x, y, NULL, NULL, 1, 8, 8, 8, -1.0f, NULL),
                     TK_EINVAL);
    assert_int_equal(tk_rmsnorm(x, y, NULL, 0, 8, 8, 8, 0.0f, NULL), TK_OK);
}

int tt_group_norm(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_norm_rows),
        cmocka_unit_test(test_norm_threads_nt),
        cmocka_unit_test(test_norm_invalid),
    };

    return cmocka_run_group_tests_name("tensor_norm", tests, NULL, NULL);
}
