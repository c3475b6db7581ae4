// SPDX-License-Identifier: MIT
/*
 * test_zero.c -- the ZeRO model and partitioning: per-rank memory and
 * communication volumes against the ZeRO paper's own figures and hand
 * counts, partition ranges and tensor cuts, the published model sizes, and
 * an in-process simulation of N ranks (reduce-scatter of the ranks'
 * gradients, a step of each rank's shard, all-gather of the parameters)
 * that must equal the unsharded step bit for bit.
 */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ot_util.h"

/* ZeRO paper, figure 1: 7.5B parameters, 64 ranks, mixed-precision Adam
 * (2 + 2 + 12 bytes): 120 GB, 31.4 GB, 16.6 GB, 1.88 GB. */
static void test_paper_figures(void **state)
{
    const double want[4] = {120e9, 31.4e9, 16.6e9, 1.88e9};

    (void)state;
    for (unsigned s = 0; s < 4; s++) {
        opt_zero_plan z;

        assert_int_equal(opt_zero_plan_make(s, 64, 7500000000u, 2, 2, 12, 1, &z), 0);
        assert_true(fabs(z.mem_total - want[s]) <= 0.005 * want[s]);
    }
}

/* Hand counts for 1000 parameters on 4 ranks. */
static void test_small_counts(void **state)
{
    opt_zero_plan z;

    (void)state;
    assert_int_equal(opt_zero_plan_make(0, 4, 1000, 2, 2, 12, 1, &z), 0);
    assert_true(z.mem_total == 16000 && z.all_reduce_bytes == 3000 &&
                z.comm_bytes == 3000);
    assert_int_equal(opt_zero_plan_make(1, 4, 1000, 2, 2, 12, 1, &z), 0);
    assert_true(z.mem_total == 7000 && z.reduce_scatter_bytes == 1500 &&
                z.all_gather_bytes == 1500 && z.comm_bytes == 3000);
    assert_int_equal(opt_zero_plan_make(2, 4, 1000, 2, 2, 12, 1, &z), 0);
    assert_true(z.mem_total == 5500 && z.comm_bytes == 3000);
    assert_int_equal(opt_zero_plan_make(3, 4, 1000, 2, 2, 12, 1, &z), 0);
    assert_true(z.mem_total == 4000 && z.all_gather_bytes == 3000 &&
                z.comm_bytes == 4500);
    assert_int_equal(opt_zero_plan_make(4, 4, 1000, 2, 2, 12, 1, &z), OPT_E_INVALID);
    assert_int_equal(opt_zero_plan_make(1, 0, 1000, 2, 2, 12, 1, &z), OPT_E_INVALID);
}

/* Ranges pad to the alignment; the last ranks may be short or empty. */
static void test_ranges_and_cuts(void **state)
{
    static const size_t sizes[] = {5, 3, 7};
    size_t out[4];
    opt_zero_plan z;
    uint64_t b, e;

    (void)state;
    opt_zero_plan_make(1, 4, 10, 4, 4, 8, 1, &z);
    opt_zero_range(&z, 3, &b, &e);
    assert_true(z.shard == 3 && b == 9 && e == 10);
    opt_zero_plan_make(1, 4, 10, 4, 4, 8, 4, &z);
    opt_zero_range(&z, 2, &b, &e);
    assert_true(z.shard == 4 && b == 8 && e == 10);
    opt_zero_range(&z, 3, &b, &e);
    assert_true(b == 10 && e == 10);
    assert_int_equal(opt_zero_cut(sizes, 3, 4, 12, out, 4), 3);
    assert_true(out[0] == 1 && out[1] == 3 && out[2] == 4);
    assert_int_equal(opt_zero_cut(sizes, 3, 0, 15, out, 4), 3);
    assert_int_equal(opt_zero_cut(sizes, 3, 6, 7, out, 4), 1);
}

/* The published parameter counts and gpt2's 148 tensors. */
static void test_model_sizes(void **state)
{
    (void)state;
    assert_true(opt_model_params("bert-base") == 109482240u);
    assert_true(opt_model_params("gpt2") == 124439808u);
    assert_true(opt_model_params("llama-7b") == 6738415616u);
    assert_int_equal(opt_model_tensors("gpt2", NULL, 0), 148);
    assert_int_equal(opt_model_tensors("nope", NULL, 0), 0);
}

/* N ranks in one process: each rank's shard (cut across the tensors) is
 * stepped on the reduce-scattered gradient sum; the all-gathered params
 * equal the unsharded step on the same sum. */
static void test_simulated_ranks(void **state)
{
    enum { RANKS = 3, COUNT = 9, STEPS = 3 };
    static const size_t sizes[COUNT] = {1000, 17, 17, 5000, 3, 777, 64, 2048, 9};
    opt_hparams hp;
    ot_fix *full;
    size_t total = 0;
    float *rank_grads[RANKS];
    opt_zero_plan z;

    (void)state;
    for (size_t k = 0; k < COUNT; k++)
        total += sizes[k];
    opt_hparams_default(OPT_ADAMW, &hp);
    full = ot_fix_new(&hp, 1, &total, OPT_F32, OPT_F32, 3);
    for (int r = 0; r < RANKS; r++) {
        uint64_t rng = 100 + (uint64_t)r;

        rank_grads[r] = malloc(total * sizeof(float));
        for (size_t i = 0; i < total; i++)
            rank_grads[r][i] = (float)ot_uniform(&rng, -1, 1);
    }
    assert_int_equal(opt_zero_plan_make(2, RANKS, total, 4, 4, 8, 16, &z), 0);
    {
        /* shard state of every rank over the flat space, as one array */
        float *master = malloc(total * 4), *m = calloc(total, 4), *v = calloc(total, 4);
        float *gshard = malloc(total * 4);
        opt_group *rg[RANKS];

        memcpy(master, full->master[0], total * 4);
        for (int r = 0; r < RANKS; r++) {
            uint64_t b, e;
            size_t cut[COUNT], n, o;

            opt_zero_range(&z, (unsigned)r, &b, &e);
            n = opt_zero_cut(sizes, COUNT, b, e, cut, COUNT);
            rg[r] = opt_group_create(n, cut, OPT_F32, OPT_F32);
            assert_non_null(rg[r]);
            o = b;
            for (size_t k = 0; k < n; k++) {
                rg[r]->master[k] = master + o;
                rg[r]->grad[k] = gshard + o;
                rg[r]->state[0][k] = m + o;
                rg[r]->state[1][k] = v + o;
                o += cut[k];
            }
        }
        for (int s = 0; s < STEPS; s++) {
            float *fg = (float *)full->grad[0];

            /* unsharded: sum over ranks in rank order, step at 1/N */
            for (size_t i = 0; i < total; i++) {
                float acc = 0;

                for (int r = 0; r < RANKS; r++)
                    acc += rank_grads[r][i];
                fg[i] = acc;
            }
            assert_int_equal(opt_step(full->g, &hp, hp.lr, 1.0 / RANKS, NULL,
                                      OPT_PATH_MULTI, NULL), 0);
            /* sharded: each rank reduces only its shard, then steps it */
            for (int r = 0; r < RANKS; r++) {
                uint64_t b, e;

                opt_zero_range(&z, (unsigned)r, &b, &e);
                for (uint64_t i = b; i < e; i++) {
                    float acc = 0;

                    for (int q = 0; q < RANKS; q++)
                        acc += rank_grads[q][i];
                    gshard[i] = acc;
                }
                assert_int_equal(opt_step(rg[r], &hp, hp.lr, 1.0 / RANKS, NULL,
                                          OPT_PATH_MULTI, NULL), 0);
            }
            /* all-gather: the union of the shards is master */
            assert_memory_equal(master, full->master[0], total * 4);
            assert_memory_equal(m, full->state[0][0], total * 4);
        }
        for (int r = 0; r < RANKS; r++)
            opt_group_destroy(rg[r]);
        free(master);
        free(m);
        free(v);
        free(gshard);
    }
    for (int r = 0; r < RANKS; r++)
        free(rank_grads[r]);
    ot_fix_free(full);
}

/* Runs the tests of this file. */
int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_paper_figures),
        cmocka_unit_test(test_small_counts),
        cmocka_unit_test(test_ranges_and_cuts),
        cmocka_unit_test(test_model_sizes),
        cmocka_unit_test(test_simulated_ranks),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
