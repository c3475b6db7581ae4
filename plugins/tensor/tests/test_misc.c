// SPDX-License-Identifier: MIT
/*
 * test_misc.c -- the thread pool (every thread runs once per call, many
 * calls, sleeping workers wake), tk_split, the STREAM kernels on every ISA
 * level with and without non-temporal stores, and the ISA controls.
 */
#include "tt_util.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct count_ctx {
    atomic_uint calls;
    atomic_uint mask;
} count_ctx;

/* Records that thread tid ran. */
static void count_task(void *arg, unsigned tid, unsigned nthr)
{
    count_ctx *c = arg;

    (void)nthr;
    atomic_fetch_add(&c->calls, 1);
    atomic_fetch_or(&c->mask, 1u << tid);
}

static void test_pool(void **state)
{
    tk_pool *p = tk_pool_create(4);
    count_ctx c;
    struct timespec nap = {0, 30 * 1000 * 1000};

    (void)state;
    assert_non_null(p);
    assert_int_equal(tk_pool_threads(p), 4);
    assert_int_equal(tk_pool_threads(NULL), 1);
    for (int round = 0; round < 2000; round++) {
        atomic_init(&c.calls, 0);
        atomic_init(&c.mask, 0);
        tk_pool_run(p, (size_t)1 << 30, count_task, &c);
        assert_int_equal(atomic_load(&c.calls), 4);
        assert_int_equal(atomic_load(&c.mask), 15);
        if (round == 1000)
            nanosleep(&nap, NULL); /* let the workers fall asleep */
    }
    atomic_init(&c.calls, 0);
    tk_pool_run(p, 16, count_task, &c); /* too small to split */
    assert_int_equal(atomic_load(&c.calls), 1);
    tk_pool_destroy(p);
    assert_null(tk_pool_create(0));
    tk_pool_destroy(NULL);
}

static void test_split(void **state)
{
    (void)state;
    for (size_t n = 0; n < 300; n += 7)
        for (unsigned nthr = 1; nthr < 6; nthr++) {
            size_t next = 0;

            for (unsigned t = 0; t < nthr; t++) {
                size_t b, e;

                bh_split(n, 16, t, nthr, &b, &e);
                assert_int_equal(b, next);
                assert_true(e >= b && e <= n);
                assert_true(b % 16 == 0 || b == n);
                next = e;
            }
            assert_int_equal(next, n);
        }
}

/* The four kernels over n doubles against their definition. */
static void check_stream(size_t n, tk_pool *pool)
{
    double *a = tt_alloc(n * 8 + 64), *b = tt_alloc(n * 8 + 64), *c = tt_alloc(n * 8 + 64);
    double *a1 = a + 1, *b1 = b + 1, *c1 = c + 1; /* misaligned heads */

    for (size_t i = 0; i < n; i++) {
        a1[i] = 1.0 + (double)i;
        b1[i] = 2.0 - (double)i;
        c1[i] = 0.0;
    }
    assert_int_equal(tk_stream(TK_STREAM_COPY, a1, b1, c1, n, 3.0, pool), TK_OK);
    for (size_t i = 0; i < n; i++)
        assert_true(c1[i] == a1[i]);
    assert_int_equal(tk_stream(TK_STREAM_SCALE, a1, b1, c1, n, 3.0, pool), TK_OK);
    for (size_t i = 0; i < n; i++)
        assert_true(b1[i] == 3.0 * c1[i]);
    assert_int_equal(tk_stream(TK_STREAM_ADD, a1, b1, c1, n, 3.0, pool), TK_OK);
    for (size_t i = 0; i < n; i++)
        assert_true(c1[i] == a1[i] + b1[i]);
    assert_int_equal(tk_stream(TK_STREAM_TRIAD, a1, b1, c1, n, 3.0, pool), TK_OK);
    for (size_t i = 0; i < n; i++)
        assert_true(a1[i] == b1[i] + 3.0 * c1[i]);
    assert_true(a[0] == 0.0 && b[0] == 0.0 && c[0] == 0.0);
    free(a);
    free(b);
    free(c);
}

/* Odd sizes at one level. */
static void stream_at(int level, void *ctx)
{
    (void)ctx;
    (void)level;
    for (size_t s = 0; s < tt_nsizes; s++)
        check_stream(tt_sizes[s], NULL);
}

static void test_stream(void **state)
{
    tk_pool *pool = tk_pool_create(3);

    (void)state;
    tt_each_isa(stream_at, NULL);
    check_stream(tk_llc_bytes() / 8 + 1001, pool); /* non-temporal */
    assert_int_equal(tk_stream((tk_stream_kind)9, NULL, NULL, NULL, 1, 0, NULL),
                     TK_EINVAL);
    tk_pool_destroy(pool);
}

static void test_isa(void **state)
{
    int d = tk_isa_detected();

    (void)state;
    assert_true(d >= TK_ISA_PORTABLE && d <= TK_ISA_AVX512);
    tk_isa_limit(TK_ISA_PORTABLE);
    assert_int_equal(tk_isa(), TK_ISA_PORTABLE);
    assert_false(tk_has_vnni());
    tk_isa_limit(-1);
    assert_int_equal(tk_isa(), d);
    assert_string_equal(tk_isa_name(TK_ISA_AVX2), "avx2");
    assert_true(tk_llc_bytes() >= ((size_t)1 << 16));
}

int tt_group_misc(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pool),
        cmocka_unit_test(test_split),
        cmocka_unit_test(test_stream),
        cmocka_unit_test(test_isa),
    };

    return cmocka_run_group_tests_name("tensor_misc", tests, NULL, NULL);
}
