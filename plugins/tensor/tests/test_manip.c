// SPDX-License-Identifier: MIT
/*
 * test_manip.c -- transpose, permute, strided copy (slices), reshape
 * views, concat and gather against index arithmetic written out in the
 * test: every element size, odd shapes, padded strides, threads, and
 * argument checks.
 */
#include "tt_util.h"

#include <stdlib.h>
#include <string.h>

static const size_t esizes[] = {1, 2, 4, 8};

/* A buffer of n elements of es bytes whose element i holds a pattern
 * derived from i (distinct for small i in every size). */
static unsigned char *pattern(size_t n, size_t es)
{
    unsigned char *p = tt_alloc(n * es);

    for (size_t i = 0; i < n; i++)
        for (size_t b = 0; b < es; b++)
            p[i * es + b] = (unsigned char)((i >> (8 * (b % 4))) + 17 * b + 1);
    return p;
}

/* Every element size and shape (padded strides) at one ISA level. */
static void transpose_at(int level, void *ctx)
{
    static const size_t dims[][2] = {{1, 1}, {1, 37}, {37, 1}, {31, 33},
                                     {64, 64}, {65, 129}, {200, 3}, {8, 8},
                                     {40, 72}};
    tk_pool *pool = tk_pool_create(3);

    (void)ctx;
    (void)level;
    for (size_t e = 0; e < 4; e++)
        for (size_t d = 0; d < sizeof(dims) / sizeof(dims[0]); d++)
            for (int th = 0; th < 2; th++) {
                size_t es = esizes[e], rows = dims[d][0], cols = dims[d][1];
                size_t lds = cols + 3, ldd = rows + 2;
                unsigned char *src = pattern(rows * lds, es);
                unsigned char *dst = tt_alloc(cols * ldd * es);

                assert_int_equal(tk_transpose(src, dst, es, rows, cols, lds, ldd,
                                              th ? pool : NULL), TK_OK);
                for (size_t i = 0; i < rows; i++)
                    for (size_t j = 0; j < cols; j++)
                        assert_memory_equal(dst + (j * ldd + i) * es,
                                            src + (i * lds + j) * es, es);
                for (size_t j = 0; j < cols; j++) /* padding untouched */
                    for (size_t i = rows; i < ldd; i++)
                        for (size_t b = 0; b < es; b++)
                            assert_int_equal(dst[(j * ldd + i) * es + b], 0);
                free(src);
                free(dst);
            }
    /* Large enough to split over threads, by tile rows. */
    {
        size_t rows = 1031, cols = 517;
        unsigned char *src = pattern(rows * cols, 4), *dst = tt_alloc(rows * cols * 4);

        assert_int_equal(tk_transpose(src, dst, 4, rows, cols, cols, rows, pool),
                         TK_OK);
        for (size_t i = 0; i < rows; i++)
            for (size_t j = 0; j < cols; j++)
                assert_memory_equal(dst + (j * rows + i) * 4,
                                    src + (i * cols + j) * 4, 4);
        free(src);
        free(dst);
    }
    tk_pool_destroy(pool);
}

static void test_transpose(void **state)
{
    (void)state;
    tt_each_isa(transpose_at, NULL);
    assert_int_equal(tk_transpose(NULL, NULL, 4, 2, 2, 2, 2, NULL), TK_EINVAL);
}

/* Checks tk_permute of shape/perm against the definition. */
static void check_permute(int nd, const size_t *shape, const int *perm,
                          size_t es, tk_pool *pool)
{
    size_t total = 1, ss[TK_MAX_DIMS], dsh[TK_MAX_DIMS];
    unsigned char *src, *dst;

    for (int d = 0; d < nd; d++)
        total *= shape[d];
    ss[nd - 1] = 1;
    for (int d = nd - 1; d > 0; d--)
        ss[d - 1] = ss[d] * shape[d];
    for (int d = 0; d < nd; d++)
        dsh[d] = shape[perm[d]];
    src = pattern(total, es);
    dst = tt_alloc(total * es);
    assert_int_equal(tk_permute(src, dst, es, nd, shape, perm, pool), TK_OK);
    for (size_t k = 0; k < total; k++) { /* k: linear dst index */
        size_t rem = k, so = 0;

        for (int d = nd - 1; d >= 0; d--) {
            so += (rem % dsh[d]) * ss[perm[d]];
            rem /= dsh[d];
        }
        assert_memory_equal(dst + k * es, src + so * es, es);
    }
    free(src);
    free(dst);
}

static void test_permute(void **state)
{
    static const size_t s3[] = {5, 7, 9}, s4[] = {3, 4, 5, 6};
    static const int p3[][3] = {{0, 1, 2}, {2, 0, 1}, {1, 2, 0}, {0, 2, 1},
                                {2, 1, 0}, {1, 0, 2}};
    static const int p4[][4] = {{0, 2, 1, 3}, {3, 2, 1, 0}, {0, 1, 3, 2},
                                {1, 3, 0, 2}};
    static const size_t big[] = {33, 65, 129};
    static const int pbig[] = {2, 0, 1};
    static const size_t one[] = {17};
    static const int pone[] = {0};
    tk_pool *pool = tk_pool_create(3);

    (void)state;
    for (size_t e = 0; e < 4; e++) {
        for (size_t p = 0; p < 6; p++)
            check_permute(3, s3, p3[p], esizes[e], NULL);
        for (size_t p = 0; p < 4; p++)
            check_permute(4, s4, p4[p], esizes[e], pool);
        check_permute(1, one, pone, esizes[e], NULL);
    }
    check_permute(3, big, pbig, 4, pool);
    {
        int bad[] = {0, 0, 1};
        unsigned char buf[8];

        assert_int_equal(tk_permute(buf, buf, 4, 3, s3, bad, NULL), TK_EINVAL);
    }
    tk_pool_destroy(pool);
}

static void test_strided_copy(void **state)
{
    /* src [9, 13] f32: slice rows 1..8 step 2, cols 2..12 step 3 -> [4, 4]
     * into a dst with row stride 6. */
    const size_t rows = 9, cols = 13;
    unsigned char *src = pattern(rows * cols, 4), *dst = tt_alloc(4 * 6 * 4);
    size_t shape[2] = {4, 4}, ss[2] = {2 * cols, 3}, ds[2] = {6, 1};

    (void)state;
    assert_int_equal(tk_strided_copy(src + (1 * cols + 2) * 4, ss, dst, ds, 4, 2,
                                     shape, NULL), TK_OK);
    for (size_t i = 0; i < 4; i++)
        for (size_t j = 0; j < 6; j++) {
            if (j < 4)
                assert_memory_equal(dst + (i * 6 + j) * 4,
                                    src + ((1 + 2 * i) * cols + 2 + 3 * j) * 4, 4);
            else
                assert_int_equal(dst[(i * 6 + j) * 4], 0);
        }
    /* Contiguous inner runs, 3-D, threads, every element size. */
    for (size_t e = 0; e < 4; e++) {
        size_t sh[3] = {7, 50, 301}, s3[3] = {50 * 310, 310, 1}, d3[3] = {50 * 301, 301, 1};
        unsigned char *a = pattern(7 * 50 * 310, esizes[e]);
        unsigned char *b = tt_alloc(7 * 50 * 301 * esizes[e]);
        tk_pool *pool = tk_pool_create(2);

        assert_int_equal(tk_strided_copy(a, s3, b, d3, esizes[e], 3, sh, pool), TK_OK);
        for (size_t i = 0; i < 7 * 50; i++)
            assert_memory_equal(b + i * 301 * esizes[e], a + i * 310 * esizes[e],
                                301 * esizes[e]);
        tk_pool_destroy(pool);
        free(a);
        free(b);
    }
    assert_int_equal(tk_strided_copy(src, ss, dst, ds, 3, 2, shape, NULL), TK_EINVAL);
    free(src);
    free(dst);
}

static void test_reshape(void **state)
{
    size_t sh[3] = {2, 3, 4}, st[3] = {12, 4, 1}, out[TK_MAX_DIMS];
    size_t n1[2] = {6, 4}, n2[4] = {2, 1, 12, 1}, n3[1] = {24}, n4[2] = {5, 5};
    size_t tsh[2] = {4, 6}, tst[2] = {1, 4}; /* a transposed [6, 4] */
    size_t t1[3] = {2, 2, 6}, t2[1] = {24};
    size_t ssh[2] = {3, 4}, sst[2] = {8, 1}; /* every other row: [3, 4] of [6, 4] */
    size_t s1[3] = {3, 2, 2}, s2[1] = {12};

    (void)state;
    assert_int_equal(tk_reshape_strides(3, sh, st, 2, n1, out), TK_OK);
    assert_int_equal(out[0], 4);
    assert_int_equal(out[1], 1);
    assert_int_equal(tk_reshape_strides(3, sh, st, 4, n2, out), TK_OK);
    assert_int_equal(out[0], 12);
    assert_int_equal(out[2], 1);
    assert_int_equal(tk_reshape_strides(3, sh, st, 1, n3, out), TK_OK);
    assert_int_equal(out[0], 1);
    assert_int_equal(tk_reshape_strides(3, sh, st, 2, n4, out), TK_EINVAL);
    /* Splitting the outer axis of a transposed view is a view; merging
     * both axes is not. */
    assert_int_equal(tk_reshape_strides(2, tsh, tst, 3, t1, out), TK_OK);
    assert_int_equal(out[0], 2);
    assert_int_equal(out[1], 1);
    assert_int_equal(out[2], 4);
    assert_int_equal(tk_reshape_strides(2, tsh, tst, 1, t2, out), TK_EUNSUP);
    /* Row slices: splitting rows is a view, flattening is not. */
    assert_int_equal(tk_reshape_strides(2, ssh, sst, 3, s1, out), TK_OK);
    assert_int_equal(out[0], 8);
    assert_int_equal(out[1], 2);
    assert_int_equal(out[2], 1);
    assert_int_equal(tk_reshape_strides(2, ssh, sst, 1, s2, out), TK_EUNSUP);
}

static void test_concat(void **state)
{
    tk_pool *pool = tk_pool_create(3);

    (void)state;
    for (size_t e = 0; e < 4; e++)
        for (int big = 0; big < 2; big++) {
            size_t es = esizes[e], outer = big ? 1 : 37;
            size_t inner[3] = {big ? 100003 : 5, big ? 7 : 1, big ? 65537 : 13};
            size_t row = inner[0] + inner[1] + inner[2];
            unsigned char *s[3], *dst = tt_alloc(outer * row * es);
            const void *srcs[3];

            for (int k = 0; k < 3; k++) {
                s[k] = pattern(outer * inner[k], es);
                s[k][0] = (unsigned char)(99 + k);
                srcs[k] = s[k];
            }
            assert_int_equal(tk_concat(srcs, inner, 3, dst, es, outer, pool), TK_OK);
            for (size_t o = 0; o < outer; o++) {
                size_t off = o * row * es;

                for (int k = 0; k < 3; k++) {
                    assert_memory_equal(dst + off, s[k] + o * inner[k] * es,
                                        inner[k] * es);
                    off += inner[k] * es;
                }
            }
            for (int k = 0; k < 3; k++)
                free(s[k]);
            free(dst);
        }
    assert_int_equal(tk_concat(NULL, NULL, 0, NULL, 4, 1, NULL), TK_EINVAL);
    tk_pool_destroy(pool);
}

static void test_gather(void **state)
{
    const size_t rows = 50, cols = 33, nidx = 1000;
    unsigned char *table = pattern(rows * cols, 4), *dst = tt_alloc(nidx * cols * 4);
    int64_t *idx = tt_alloc(nidx * sizeof(int64_t));
    tk_pool *pool = tk_pool_create(2);
    tt_rng r;

    (void)state;
    tt_seed(&r, 1000);
    for (size_t i = 0; i < nidx; i++)
        idx[i] = (int64_t)tt_below(&r, rows);
    assert_int_equal(tk_gather_rows(table, rows, cols, 4, idx, nidx, dst, pool), TK_OK);
    for (size_t i = 0; i < nidx; i++)
        assert_memory_equal(dst + i * cols * 4, table + (size_t)idx[i] * cols * 4,
                            cols * 4);
    memset(dst, 0, nidx * cols * 4);
    idx[nidx - 1] = (int64_t)rows; /* out of range: nothing written */
    assert_int_equal(tk_gather_rows(table, rows, cols, 4, idx, nidx, dst, pool),
                     TK_EINVAL);
    idx[nidx - 1] = -1;
    assert_int_equal(tk_gather_rows(table, rows, cols, 4, idx, nidx, dst, pool),
                     TK_EINVAL);
    for (size_t i = 0; i < nidx * cols * 4; i++)
        assert_int_equal(dst[i], 0);
    tk_pool_destroy(pool);
    free(table);
    free(dst);
    free(idx);
}

int tt_group_manip(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_transpose),
        cmocka_unit_test(test_permute),
        cmocka_unit_test(test_strided_copy),
        cmocka_unit_test(test_reshape),
        cmocka_unit_test(test_concat),
        cmocka_unit_test(test_gather),
    };

    return cmocka_run_group_tests_name("tensor_manip", tests, NULL, NULL);
}
