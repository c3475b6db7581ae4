// SPDX-License-Identifier: MIT
/*
 * test_multi.c -- the multi-tensor path: many tensors of uneven sizes,
 * split across threads at arbitrary tensor boundaries, give the same
 * result as one launch per tensor and as the flat buffer (bit for bit for
 * the element-wise optimizers), LAMB's per-tensor trust ratios follow the
 * reference with thread ranges cutting tensors, and the pool's splits
 * cover every element once.
 */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ot_util.h"

#define RTOL 1e-5
#define ATOL 1e-12

/* Sizes of count tensors: a mix of tiny, odd and large ones. */
static void mixed_sizes(size_t *sizes, size_t count, uint64_t seed)
{
    for (size_t k = 0; k < count; k++) {
        uint64_t r = ot_next(&seed);

        sizes[k] = k % 10 == 0 ? 20000 + r % 30000 : 1 + r % 700;
    }
}

/* Copies the data of a into b (same layout). */
static void copy_fix(const ot_fix *a, ot_fix *b)
{
    for (size_t k = 0; k < a->count; k++) {
        size_t n = a->g->offset[k + 1] - a->g->offset[k];

        memcpy(b->master[k], a->master[k], n * 4);
        memcpy(b->grad[k], a->grad[k], n * opt_dtype_size(a->grad_dtype));
        for (int s = 0; s < 3; s++)
            if (a->used[s])
                memcpy(b->state[s][k], a->state[s][k], n * 4);
    }
}

/* MULTI over threads == LOOP == single thread, element-wise kinds. */
static void test_paths_agree(void **state)
{
    enum { COUNT = 120 };
    size_t sizes[COUNT];
    opt_pool *pool = opt_pool_create(3);

    (void)state;
    assert_non_null(pool);
    mixed_sizes(sizes, COUNT, 5);
    for (int k = 0; k < OPT_KIND_COUNT; k++) {
        opt_hparams hp;
        ot_fix *a, *b, *c;

        if (k == OPT_LAMB)
            continue;
        opt_hparams_default((opt_kind)k, &hp);
        hp.weight_decay = 0.01;
        a = ot_fix_new(&hp, COUNT, sizes, OPT_BF16, OPT_F32, 8);
        b = ot_fix_new(&hp, COUNT, sizes, OPT_BF16, OPT_F32, 8);
        c = ot_fix_new(&hp, COUNT, sizes, OPT_BF16, OPT_F32, 8);
        for (int s = 0; s < 3; s++) {
            ot_fix_grads(a, -1, 1);
            copy_fix(a, b);
            copy_fix(a, c);
            assert_int_equal(opt_step(a->g, &hp, hp.lr, 1, pool, OPT_PATH_MULTI, NULL), 0);
            assert_int_equal(opt_step(b->g, &hp, hp.lr, 1, pool, OPT_PATH_LOOP, NULL), 0);
            assert_int_equal(opt_step(c->g, &hp, hp.lr, 1, NULL, OPT_PATH_MULTI, NULL), 0);
            for (size_t t = 0; t < COUNT; t++) {
                assert_memory_equal(a->master[t], b->master[t], sizes[t] * 4);
                assert_memory_equal(a->master[t], c->master[t], sizes[t] * 4);
                assert_memory_equal(a->param[t], c->param[t], sizes[t] * 2);
            }
        }
        ot_fix_free(a);
        ot_fix_free(b);
        ot_fix_free(c);
    }
    opt_pool_destroy(pool);
}

/* The flat buffer (one tensor) equals the tensor list for element-wise
 * kinds. */
static void test_flat_equals_list(void **state)
{
    enum { COUNT = 40 };
    size_t sizes[COUNT], total = 0;
    opt_pool *pool = opt_pool_create(2);
    opt_hparams hp;
    ot_fix *list, *flat;

    (void)state;
    mixed_sizes(sizes, COUNT, 9);
    for (size_t k = 0; k < COUNT; k++)
        total += sizes[k];
    opt_hparams_default(OPT_ADAMW, &hp);
    list = ot_fix_new(&hp, COUNT, sizes, OPT_F32, OPT_F32, 1);
    flat = ot_fix_new(&hp, 1, &total, OPT_F32, OPT_F32, 1);
    for (int s = 0; s < 3; s++) {
        size_t o = 0;

        ot_fix_grads(list, -1, 1);
        for (size_t k = 0; k < COUNT; k++) {
            memcpy(flat->master[0] + o, list->master[k], sizes[k] * 4);
            memcpy((float *)flat->grad[0] + o, list->grad[k], sizes[k] * 4);
            o += sizes[k];
        }
        opt_step(list->g, &hp, hp.lr, 1, pool, OPT_PATH_MULTI, NULL);
        opt_step(flat->g, &hp, hp.lr, 1, pool, OPT_PATH_MULTI, NULL);
        o = 0;
        for (size_t k = 0; k < COUNT; k++) {
            assert_memory_equal(flat->master[0] + o, list->master[k], sizes[k] * 4);
            o += sizes[k];
        }
    }
    ot_fix_free(list);
    ot_fix_free(flat);
    opt_pool_destroy(pool);
}

/* LAMB: per-tensor trust ratios against the reference, for threads 1..3
 * and both paths, with tensors cut by thread ranges. */
static void test_lamb_per_tensor(void **state)
{
    enum { COUNT = 30 };
    size_t sizes[COUNT];

    (void)state;
    mixed_sizes(sizes, COUNT, 13);
    for (unsigned threads = 1; threads <= 3; threads++) {
        for (int path = 0; path < 2; path++) {
            opt_pool *pool = opt_pool_create(threads);
            opt_hparams hp;
            ot_fix *f;

            opt_hparams_default(OPT_LAMB, &hp);
            f = ot_fix_new(&hp, COUNT, sizes, OPT_F32, OPT_F32, 17);
            for (int s = 0; s < 4; s++) {
                ot_fix_grads(f, -1, 1);
                assert_int_equal(opt_step(f->g, &hp, hp.lr, 1, pool,
                                          (opt_path)path, NULL),
                                 0);
                ot_fix_ref_step(f, hp.lr, 1);
                assert_true(ot_fix_worst(f, RTOL, ATOL) <= 1);
            }
            ot_fix_free(f);
            opt_pool_destroy(pool);
        }
    }
}

/* Tiny tensors only (1..5 elements, 20000 of them): the walk crosses
 * thousands of boundaries per thread. */
static void test_tiny_tensors(void **state)
{
    enum { COUNT = 20000 };
    size_t *sizes = malloc(COUNT * sizeof(size_t));
    opt_pool *pool = opt_pool_create(2);
    opt_hparams hp;
    ot_fix *f;

    (void)state;
    for (size_t k = 0; k < COUNT; k++)
        sizes[k] = 1 + k % 5;
    opt_hparams_default(OPT_ADAM, &hp);
    f = ot_fix_new(&hp, COUNT, sizes, OPT_F32, OPT_F32, 23);
    for (int s = 0; s < 2; s++) {
        ot_fix_grads(f, -1, 1);
        assert_int_equal(opt_step(f->g, &hp, hp.lr, 1, pool, OPT_PATH_MULTI, NULL), 0);
        ot_fix_ref_step(f, hp.lr, 1);
        assert_true(ot_fix_worst(f, RTOL, ATOL) <= 1);
    }
    ot_fix_free(f);
    free(sizes);
    opt_pool_destroy(pool);
}

/* opt_split covers [0, n) exactly once, aligned. */
static void test_split(void **state)
{
    (void)state;
    for (size_t n = 0; n < 300; n += 7) {
        for (unsigned t = 1; t <= 5; t++) {
            size_t next = 0;

            for (unsigned i = 0; i < t; i++) {
                size_t b, e;

                bh_split(n, 16, i, t, &b, &e);
                assert_true(b == next || (b == n && e == n));
                assert_true(b % 16 == 0 || b == n);
                if (e > b)
                    next = e;
            }
            assert_true(next == n);
        }
    }
}

/* Runs the tests of this file. */
int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_paths_agree),
        cmocka_unit_test(test_flat_equals_list),
        cmocka_unit_test(test_lamb_per_tensor),
        cmocka_unit_test(test_tiny_tensors),
        cmocka_unit_test(test_split),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
