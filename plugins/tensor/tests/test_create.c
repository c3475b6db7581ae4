// SPDX-License-Identifier: MIT
/*
 * test_create.c -- fill, arange and random draws: values for every dtype
 * at odd sizes and misaligned starts on every ISA level, the
 * non-temporal fill, thread-count independence, moments of the draws and
 * argument checks.
 */
#include "tt_util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Expected bytes of value in dtype t (independent of the library's
 * encoder: spelled out per type). */
static void expect_bytes(tk_dtype t, double v, unsigned char *out)
{
    switch (t) {
    case TK_F32: {
        float f = (float)v;
        memcpy(out, &f, 4);
        break;
    }
    case TK_F64:
        memcpy(out, &v, 8);
        break;
    case TK_F16: {
        uint16_t h = tk_f32_to_f16((float)v);
        memcpy(out, &h, 2);
        break;
    }
    case TK_BF16: {
        uint16_t h = tk_f32_to_bf16((float)v);
        memcpy(out, &h, 2);
        break;
    }
    case TK_I8: {
        int8_t i = v > 127 ? 127 : v < -128 ? -128 : (int8_t)lrint(v);
        memcpy(out, &i, 1);
        break;
    }
    case TK_I32: {
        int32_t i = v > 2147483647.0 ? INT32_MAX : (int32_t)lrint(v);
        memcpy(out, &i, 4);
        break;
    }
    case TK_I64: {
        int64_t i = (int64_t)llrint(v);
        memcpy(out, &i, 8);
        break;
    }
    }
}

/* Fills of every dtype, size and misalignment at one ISA level. */
static void fill_at(int level, void *ctx)
{
    static const tk_dtype types[] = {TK_F32, TK_F64, TK_F16, TK_BF16,
                                     TK_I8,  TK_I32, TK_I64};
    static const double values[] = {0.0, 1.0, -2.5, 300.0, 1e10};

    (void)ctx;
    (void)level;
    for (size_t t = 0; t < sizeof(types) / sizeof(types[0]); t++) {
        size_t es = tk_dtype_size(types[t]);

        for (size_t s = 0; s < tt_nsizes; s++)
            for (size_t v = 0; v < sizeof(values) / sizeof(values[0]); v++) {
                size_t n = tt_sizes[s];
                unsigned char *buf = tt_alloc((n + 16) * es);
                unsigned char want[8];

                expect_bytes(types[t], values[v], want);
                assert_int_equal(tk_fill(buf + es, types[t], n, values[v], NULL),
                                 TK_OK);
                for (size_t i = 0; i < n; i++)
                    assert_memory_equal(buf + es * (i + 1), want, es);
                for (size_t i = 0; i < es; i++) /* before and after: untouched */
                    assert_int_equal(buf[i] | buf[(n + 1) * es + i], 0);
                free(buf);
            }
    }
}

static void test_fill(void **state)
{
    (void)state;
    tt_each_isa(fill_at, NULL);
}

/* A fill larger than half the last-level cache (non-temporal), threaded. */
static void test_fill_nt(void **state)
{
    size_t n = tk_llc_bytes() / 4 + 1001;
    float *x = tt_alloc(n * 4 + 4);
    tk_pool *pool = tk_pool_create(3);

    (void)state;
    assert_int_equal(tk_fill(x + 1, TK_F32, n, 7.0, pool), TK_OK);
    for (size_t i = 0; i < n; i++)
        if (x[i + 1] != 7.0f)
            fail_msg("nt fill wrong at %zu", i);
    assert_true(x[0] == 0.0f);
    tk_pool_destroy(pool);
    free(x);
}

/* arange in each dtype against start + i * step. */
static void arange_at(int level, void *ctx)
{
    (void)ctx;
    (void)level;
    for (size_t s = 0; s < tt_nsizes; s++) {
        size_t n = tt_sizes[s];
        float *f = tt_alloc(n * 4);
        double *d = tt_alloc(n * 8);
        int32_t *i32 = tt_alloc(n * 4);
        int64_t *i64 = tt_alloc(n * 8);

        assert_int_equal(tk_arange(f, TK_F32, n, -3.25, 0.1, NULL), TK_OK);
        assert_int_equal(tk_arange(d, TK_F64, n, -3.25, 0.1, NULL), TK_OK);
        assert_int_equal(tk_arange(i32, TK_I32, n, 5, 3, NULL), TK_OK);
        assert_int_equal(tk_arange(i64, TK_I64, n, -7, 2, NULL), TK_OK);
        for (size_t i = 0; i < n; i++) {
            double ref = -3.25 + (double)i * 0.1;

            assert_true(fabs(f[i] - ref) <= 1.2e-7 * fabs(ref) + 1e-12);
            assert_true(fabs(d[i] - ref) <= 4.5e-16 * fabs(ref) + 1e-15);
            assert_int_equal(i32[i], 5 + 3 * (int64_t)i);
            assert_int_equal(i64[i], -7 + 2 * (int64_t)i);
        }
        free(f);
        free(d);
        free(i32);
        free(i64);
    }
}

static void test_arange(void **state)
{
    (void)state;
    tt_each_isa(arange_at, NULL);
}

/* Uniform draws: element-wise against tk_rand_at on every level. */
static void uniform_at(int level, void *ctx)
{
    (void)ctx;
    (void)level;
    for (size_t s = 0; s < tt_nsizes; s++) {
        size_t n = tt_sizes[s];
        float *f = tt_alloc(n * 4);
        double *d = tt_alloc(n * 8);

        assert_int_equal(tk_rand_uniform(f, TK_F32, n, 42, -2.0, 3.0, NULL), TK_OK);
        assert_int_equal(tk_rand_uniform(d, TK_F64, n, 42, -2.0, 3.0, NULL), TK_OK);
        for (size_t i = 0; i < n; i++) {
            double u = tk_rand_at(42, i), ref = -2.0 + 5.0 * u;

            assert_true(u >= 0.0 && u < 1.0);
            assert_true(fabs(f[i] - ref) <= 4e-7);
            assert_true(d[i] == ref);
            assert_true(f[i] >= -2.0f && f[i] <= 3.0f);
        }
        free(f);
        free(d);
    }
}

static void test_uniform(void **state)
{
    (void)state;
    tt_each_isa(uniform_at, NULL);
}

/* Moments of large draws; threads do not change a single bit; different
 * seeds give different streams. */
static void test_moments_and_threads(void **state)
{
    const size_t n = 1 << 20;
    float *u1 = tt_alloc(n * 4), *u3 = tt_alloc(n * 4), *v = tt_alloc(n * 4);
    double *z = tt_alloc(n * 8), *z3 = tt_alloc(n * 8);
    tk_pool *pool = tk_pool_create(3);
    double mu = 0, m2 = 0, zm = 0, z2 = 0;
    size_t same = 0;

    (void)state;
    assert_int_equal(tk_rand_uniform(u1, TK_F32, n, 7, 0, 1, NULL), TK_OK);
    assert_int_equal(tk_rand_uniform(u3, TK_F32, n, 7, 0, 1, pool), TK_OK);
    assert_int_equal(tk_rand_uniform(v, TK_F32, n, 8, 0, 1, pool), TK_OK);
    assert_memory_equal(u1, u3, n * 4);
    assert_int_equal(tk_rand_normal(z, TK_F64, n, 9, 0, 1, NULL), TK_OK);
    assert_int_equal(tk_rand_normal(z3, TK_F64, n, 9, 0, 1, pool), TK_OK);
    assert_memory_equal(z, z3, n * 8);
    for (size_t i = 0; i < n; i++) {
        mu += u1[i];
        m2 += (u1[i] - 0.5) * (u1[i] - 0.5);
        zm += z[i];
        z2 += z[i] * z[i];
        same += u1[i] == v[i];
    }
    mu /= (double)n;
    m2 /= (double)n;
    zm /= (double)n;
    z2 /= (double)n;
    assert_true(fabs(mu - 0.5) < 5 * sqrt(1.0 / 12 / (double)n));
    assert_true(fabs(m2 - 1.0 / 12) < 0.002);
    assert_true(fabs(zm) < 5 / sqrt((double)n));
    assert_true(fabs(z2 - 1.0) < 5 * sqrt(2.0 / (double)n));
    assert_true(same < n / 1000);
    /* Box-Muller pairs against their formula. */
    for (size_t j = 0; j < 100; j++) {
        double a = tk_rand_at(9, 2 * j), b = tk_rand_at(9, 2 * j + 1);
        double r = sqrt(-2.0 * log(1.0 - a));

        assert_true(fabs(z[2 * j] - r * cos(2 * M_PI * b)) < 1e-12);
        assert_true(fabs(z[2 * j + 1] - r * sin(2 * M_PI * b)) < 1e-12);
    }
    tk_pool_destroy(pool);
    free(u1);
    free(u3);
    free(v);
    free(z);
    free(z3);
}

static void test_create_invalid(void **state)
{
    float x[4];

    (void)state;
    assert_int_equal(tk_fill(NULL, TK_F32, 4, 0, NULL), TK_EINVAL);
    assert_int_equal(tk_fill(x, (tk_dtype)99, 4, 0, NULL), TK_EINVAL);
    assert_int_equal(tk_arange(x, TK_F16, 4, 0, 1, NULL), TK_EINVAL);
    assert_int_equal(tk_rand_uniform(x, TK_F32, (size_t)1 << 33, 1, 0, 1, NULL),
                     TK_EINVAL);
    assert_int_equal(tk_rand_uniform(x, TK_F32, 4, 1, 1, 0, NULL), TK_EINVAL);
    assert_int_equal(tk_rand_normal(x, TK_F32, 4, 1, 0, -1, NULL), TK_EINVAL);
    assert_int_equal(tk_fill(x, TK_F32, 0, 1, NULL), TK_OK);
    assert_int_equal(tk_dtype_from_name("bf16"), TK_BF16);
    assert_int_equal(tk_dtype_from_name("f8"), 0);
}

int tt_group_create(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fill),
        cmocka_unit_test(test_fill_nt),
        cmocka_unit_test(test_arange),
        cmocka_unit_test(test_uniform),
        cmocka_unit_test(test_moments_and_threads),
        cmocka_unit_test(test_create_invalid),
    };

    return cmocka_run_group_tests_name("tensor_create", tests, NULL, NULL);
}
