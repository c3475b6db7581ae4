// SPDX-License-Identifier: MIT
/*
 * test_gemm.c -- the int8 matmul against exact int64 dot products (odd
 * shapes, both transposes, k past one cache block, padded ldc, threads,
 * VNNI and portable microkernels) and the quantized f32 matmul against its
 * definition.
 */
#include "tt_util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* One int8 matmul case at the current ISA level. */
static void check_i8(size_t m, size_t n, size_t k, int ta, int tb,
                     tk_pool *pool, tt_rng *r)
{
    size_t lda = (ta ? m : k) + 3, ldb = (tb ? k : n) + 1, ldc = n + 2;
    int8_t *a = tt_alloc((ta ? k : m) * lda), *b = tt_alloc((tb ? n : k) * ldb);
    int32_t *c = tt_alloc(m * ldc * sizeof(int32_t));
    void *work = tt_alloc(tk_matmul_i8_work(m, k));
    tk_i8_packed p;

    for (size_t i = 0; i < (ta ? k : m) * lda; i++)
        a[i] = (int8_t)(tt_below(r, 256) - 128);
    for (size_t i = 0; i < (tb ? n : k) * ldb; i++)
        b[i] = (int8_t)(tt_below(r, 256) - 128);
    for (size_t i = 0; i < m * ldc; i++)
        c[i] = -7;
    assert_int_equal(tk_i8_pack(b, k, n, ldb, tb, &p), TK_OK);
    assert_int_equal(tk_matmul_i8(a, lda, ta, m, &p, c, ldc, work, pool), TK_OK);
    for (size_t i = 0; i < m; i++)
        for (size_t j = 0; j < ldc; j++) {
            int64_t want = 0;

            if (j >= n) {
                assert_int_equal(c[i * ldc + j], -7);
                continue;
            }
            for (size_t kk = 0; kk < k; kk++)
                want += (int64_t)(ta ? a[kk * lda + i] : a[i * lda + kk]) *
                        (int64_t)(tb ? b[j * ldb + kk] : b[kk * ldb + j]);
            if (c[i * ldc + j] != want)
                fail_msg("i8 %zux%zux%zu ta=%d tb=%d vnni=%d at %zu,%zu: %d vs %lld",
                         m, n, k, ta, tb, tk_has_vnni(), i, j, c[i * ldc + j],
                         (long long)want);
        }
    tk_i8_packed_free(&p);
    free(a);
    free(b);
    free(c);
    free(work);
}

/* Shapes and transposes at one ISA level (VNNI only at AVX512). */
static void i8_at(int level, void *ctx)
{
    static const size_t shapes[][3] = {{1, 1, 1},  {7, 33, 5},   {9, 31, 13},
                                       {8, 32, 4}, {17, 65, 129}, {33, 40, 1100}};
    tt_rng r;

    (void)ctx;
    tt_seed(&r, 1400 + (uint64_t)level);
    for (size_t s = 0; s < sizeof(shapes) / sizeof(shapes[0]); s++)
        for (int t = 0; t < 4; t++)
            check_i8(shapes[s][0], shapes[s][1], shapes[s][2], t & 1, t >> 1,
                     NULL, &r);
}

static void test_matmul_i8(void **state)
{
    tk_pool *pool = tk_pool_create(3);
    tt_rng r;
    tk_i8_packed p;
    int8_t b[4] = {0};

    (void)state;
    tt_each_isa(i8_at, NULL);
    tt_seed(&r, 1500);
    check_i8(130, 200, 300, 0, 1, pool, &r);
    assert_int_equal(tk_i8_pack(NULL, 1, 1, 1, 0, &p), TK_EINVAL);
    assert_int_equal(tk_i8_pack(b, 2, 2, 1, 0, &p), TK_EINVAL); /* ldb < n */
    assert_int_equal(tk_matmul_i8(b, 1, 0, 1, NULL, NULL, 1, NULL, NULL), TK_EINVAL);
    tk_pool_destroy(pool);
}

/* qmatmul: per-row activation scales, exact integer products, then the
 * two scales; and its error against the f32 product stays small. */
static void test_qmatmul(void **state)
{
    const size_t m = 19, n = 37, k = 70;
    float *x = tt_alloc(m * k * 4), *w = tt_alloc(n * k * 4), *y = tt_alloc(m * n * 4);
    float *ws = tt_alloc(n * 4), *xs = tt_alloc(m * 4);
    int8_t *wq = tt_alloc(n * k), *xq = tt_alloc(m * k);
    int32_t *acc = tt_alloc(m * n * 4);
    void *work = tt_alloc(tk_matmul_i8_work(m, k));
    double err2 = 0, ref2 = 0;
    tk_i8_packed p;
    tt_rng r;

    (void)state;
    tt_seed(&r, 1600);
    tt_fill_f32(&r, x, m * k, -1, 1);
    tt_fill_f32(&r, w, n * k, -0.5, 0.5);
    assert_int_equal(tk_quantize_i8(w, wq, ws, n, k, 1, NULL), TK_OK);
    assert_int_equal(tk_i8_pack(wq, k, n, k, 1, &p), TK_OK);
    assert_int_equal(tk_qmatmul(x, m, &p, ws, xq, xs, acc, y, work, NULL), TK_OK);
    for (size_t i = 0; i < m; i++) {
        float amax = 0;

        for (size_t kk = 0; kk < k; kk++)
            amax = fabsf(x[i * k + kk]) > amax ? fabsf(x[i * k + kk]) : amax;
        assert_true(xs[i] == amax / 127.0f);
        for (size_t j = 0; j < n; j++) {
            int64_t dot = 0;
            double f32 = 0;

            for (size_t kk = 0; kk < k; kk++) {
                dot += (int64_t)xq[i * k + kk] * wq[j * k + kk];
                f32 += (double)x[i * k + kk] * w[j * k + kk];
            }
            assert_int_equal(acc[i * n + j], dot);
            assert_true(y[i * n + j] == (float)dot * (xs[i] * ws[j]));
            err2 += (y[i * n + j] - f32) * (y[i * n + j] - f32);
            ref2 += f32 * f32;
        }
    }
    assert_true(sqrt(err2 / ref2) < 0.02);
    tk_i8_packed_free(&p);
    free(x);
    free(w);
    free(y);
    free(ws);
    free(xs);
    free(wq);
    free(xq);
    free(acc);
    free(work);
}

int tt_group_gemm(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_matmul_i8),
        cmocka_unit_test(test_qmatmul),
    };

    return cmocka_run_group_tests_name("tensor_gemm", tests, NULL, NULL);
}
