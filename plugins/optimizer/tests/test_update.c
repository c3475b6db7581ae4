// SPDX-License-Identifier: MIT
/*
 * test_update.c -- every optimizer's fused f32 step against the double
 * reference over several steps, on each instruction set this CPU has, at
 * sizes that leave vector tails; the corner cases (step 1 bias
 * correction, beta = 0, weight decay 0 and not, large lr, Nesterov and
 * dampening, Adagrad's accumulator and lr decay, LAMB's zero norms),
 * clipping by global norm, non-finite skips and gradient accumulation.
 *
 * Tolerance (f32): |x - ref| <= RTOL (|ref| + sum of |ref steps|) + ATOL
 * per element of p and of every state slot.
 */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ot_util.h"

#define RTOL 1e-5
#define ATOL 1e-12
#define STEPS 6

/* Runs steps steps of hp on one tensor of n elements (grads uniform in
 * [-1, 1)) at every ISA up to the detected one, with pool, and checks each
 * step against the reference. */
static void check_n_steps(const opt_hparams *hp, size_t n, opt_pool *pool,
                          double gscale, int steps)
{
    for (int isa = 0; isa <= opt_isa_detected(); isa++) {
        ot_fix *f = ot_fix_new(hp, 1, &n, OPT_F32, OPT_F32, 1234 + (uint64_t)isa);

        opt_isa_limit(isa);
        for (int s = 0; s < steps; s++) {
            double worst;

            ot_fix_grads(f, -1, 1);
            assert_int_equal(opt_step(f->g, hp, hp->lr, gscale, pool,
                                      OPT_PATH_MULTI, NULL),
                             OPT_OK);
            ot_fix_ref_step(f, hp->lr, gscale);
            worst = ot_fix_worst(f, RTOL, ATOL);
            if (!(worst <= 1))
                fail_msg("%s isa %s n %zu step %d: worst %g", opt_kind_name(hp->kind),
                         opt_isa_name(isa), n, s + 1, worst);
        }
        ot_fix_free(f);
    }
    opt_isa_limit(-1);
}

/* check_n_steps over STEPS steps. */
static void check_steps(const opt_hparams *hp, size_t n, opt_pool *pool,
                        double gscale)
{
    check_n_steps(hp, n, pool, gscale, STEPS);
}

/* Every optimizer with its defaults, and with weight decay. */
static void test_all_kinds(void **state)
{
    static const size_t sizes[] = {1, 15, 17, 1000, 4099};

    (void)state;
    for (int k = 0; k < OPT_KIND_COUNT; k++) {
        for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
            opt_hparams hp;

            opt_hparams_default((opt_kind)k, &hp);
            check_steps(&hp, sizes[i], NULL, 1.0);
            hp.weight_decay = 0.05;
            check_steps(&hp, sizes[i], NULL, 0.5);
        }
    }
}

/* SGD variants: momentum, dampening, Nesterov, decay. */
static void test_sgd_variants(void **state)
{
    opt_hparams hp;

    (void)state;
    opt_hparams_default(OPT_SGD, &hp);
    hp.lr = 0.1;
    hp.momentum = 0.9;
    check_steps(&hp, 1001, NULL, 1.0);
    hp.dampening = 0.5;
    check_steps(&hp, 1001, NULL, 1.0);
    hp.dampening = 0;
    hp.nesterov = 1;
    hp.weight_decay = 1e-2;
    check_steps(&hp, 1001, NULL, 1.0);
}

/* RMSprop variants: centered, momentum, both. */
static void test_rmsprop_variants(void **state)
{
    opt_hparams hp;

    (void)state;
    opt_hparams_default(OPT_RMSPROP, &hp);
    hp.centered = 1;
    check_steps(&hp, 1003, NULL, 1.0);
    hp.centered = 0;
    hp.momentum = 0.9;
    check_steps(&hp, 1003, NULL, 1.0);
    hp.centered = 1;
    check_steps(&hp, 1003, NULL, 1.0);
}

/* Adagrad with an initial accumulator and lr decay. */
static void test_adagrad_variants(void **state)
{
    opt_hparams hp;

    (void)state;
    opt_hparams_default(OPT_ADAGRAD, &hp);
    hp.initial_accumulator = 0.1;
    hp.lr_decay = 0.01;
    check_steps(&hp, 999, NULL, 1.0);
}

/* Large lr, beta = 0, large eps: still the reference. With lr 10 the
 * dynamics expand rounding differences step by step (LAMB's trust ratio
 * feeds ||p|| back), so that case runs 3 steps. */
static void test_corner_hparams(void **state)
{
    (void)state;
    for (int k = 0; k < OPT_KIND_COUNT; k++) {
        opt_hparams hp;

        opt_hparams_default((opt_kind)k, &hp);
        hp.lr = 10;
        check_n_steps(&hp, 257, NULL, 1.0, 3);
        opt_hparams_default((opt_kind)k, &hp);
        hp.beta1 = 0;
        hp.beta2 = 0;
        hp.momentum = 0;
        check_steps(&hp, 257, NULL, 1.0);
        opt_hparams_default((opt_kind)k, &hp);
        hp.eps = 0.1;
        check_steps(&hp, 257, NULL, 1.0);
    }
}

/* Adam step 1: bias correction makes the update lr g / (|g| + eps), i.e.
 * -lr sign(g) for |g| >> eps, whatever the betas; with beta1 = beta2 = 0
 * the same at every step. */
static void test_bias_correction_step1(void **state)
{
    const size_t n = 64;
    opt_hparams hp;

    (void)state;
    opt_hparams_default(OPT_ADAM, &hp);
    hp.lr = 0.01;
    for (int pass = 0; pass < 2; pass++) {
        ot_fix *f = ot_fix_new(&hp, 1, &n, OPT_F32, OPT_F32, 7);
        int steps = pass == 0 ? 1 : 3;

        for (int s = 0; s < steps; s++) {
            double before[64];

            for (size_t i = 0; i < n; i++)
                before[i] = f->master[0][i];
            ot_fix_grads(f, 0.1, 1);
            assert_int_equal(opt_step(f->g, &hp, hp.lr, 1, NULL, OPT_PATH_MULTI,
                                      NULL),
                             OPT_OK);
            for (size_t i = 0; i < n; i++) {
                double g = f->rg[i];
                double want = before[i] - hp.lr * g / (fabs(g) + hp.eps);

                assert_true(fabs(f->master[0][i] - want) <= 1e-6 * fabs(before[i]) + 1e-8);
            }
        }
        ot_fix_free(f);
        hp.beta1 = 0;
        hp.beta2 = 0;
    }
}

/* Weight decay with zero gradients: AdamW and Lion only shrink p by
 * (1 - lr wd); Adam's L2 decay moves p by the Adam step of wd p; with
 * wd = 0 nothing moves at all. */
static void test_weight_decay_zero_grad(void **state)
{
    const size_t n = 33;

    (void)state;
    for (int pass = 0; pass < 2; pass++) {
        double wd = pass == 0 ? 0.1 : 0.0;
        opt_kind kinds[] = {OPT_ADAMW, OPT_LION, OPT_ADAM};

        for (int j = 0; j < 3; j++) {
            opt_hparams hp;
            ot_fix *f;
            double before[33];

            opt_hparams_default(kinds[j], &hp);
            hp.lr = 0.01;
            hp.weight_decay = wd;
            f = ot_fix_new(&hp, 1, &n, OPT_F32, OPT_F32, 11);
            for (size_t i = 0; i < n; i++)
                before[i] = f->master[0][i];
            ot_fix_grads(f, 0, 0);
            assert_int_equal(opt_step(f->g, &hp, hp.lr, 1, NULL, OPT_PATH_MULTI,
                                      NULL),
                             OPT_OK);
            for (size_t i = 0; i < n; i++) {
                double want = before[i] * (1 - hp.lr * wd);

                if (kinds[j] == OPT_ADAM && wd > 0) /* g = wd p: sign step */
                    want = before[i] - hp.lr * wd * before[i] /
                                           (fabs(wd * before[i]) + hp.eps);
                assert_true(fabs(f->master[0][i] - want) <= 1e-6 * fabs(before[i]));
            }
            ot_fix_free(f);
        }
    }
}

/* SGD momentum: the buffer is g on step 1 (no dampening), then
 * mu buf + (1 - dampening) g. */
static void test_sgd_first_step_buffer(void **state)
{
    const size_t n = 40;
    opt_hparams hp;
    ot_fix *f;
    double g1[40];

    (void)state;
    opt_hparams_default(OPT_SGD, &hp);
    hp.momentum = 0.9;
    hp.dampening = 0.5;
    f = ot_fix_new(&hp, 1, &n, OPT_F32, OPT_F32, 5);
    ot_fix_grads(f, -1, 1);
    assert_int_equal(opt_step(f->g, &hp, 0.1, 1, NULL, OPT_PATH_MULTI, NULL), OPT_OK);
    for (size_t i = 0; i < n; i++) {
        g1[i] = f->rg[i];
        assert_true(f->state[0][0][i] == (float)g1[i]);
    }
    ot_fix_grads(f, -1, 1);
    assert_int_equal(opt_step(f->g, &hp, 0.1, 1, NULL, OPT_PATH_MULTI, NULL), OPT_OK);
    for (size_t i = 0; i < n; i++)
        assert_true(fabs(f->state[0][0][i] - (0.9 * g1[i] + 0.5 * f->rg[i])) < 1e-6);
    ot_fix_free(f);
}

/* LAMB with p = 0: ||p|| = 0 gives trust ratio 1. */
static void test_lamb_zero_params(void **state)
{
    const size_t n = 100;
    opt_hparams hp;
    ot_fix *f;

    (void)state;
    opt_hparams_default(OPT_LAMB, &hp);
    hp.weight_decay = 0;
    f = ot_fix_new(&hp, 1, &n, OPT_F32, OPT_F32, 3);
    for (size_t i = 0; i < n; i++)
        f->master[0][i] = 0, f->rp[i] = 0, f->mag[i] = 0;
    ot_fix_grads(f, 0.5, 1);
    assert_int_equal(opt_step(f->g, &hp, hp.lr, 1, NULL, OPT_PATH_MULTI, NULL), OPT_OK);
    for (size_t i = 0; i < n; i++) /* step 1: u = g / (|g| + eps) ~ 1 */
        assert_true(fabs(f->master[0][i] + hp.lr) < 1e-5 * hp.lr);
    ot_fix_free(f);
}

/* Clipping by global norm: active (coefficient < 1) and inactive, over 3
 * tensors, with threads; the norm the step reports is the reference's. */
static void test_clipping(void **state)
{
    static const size_t sizes[] = {50000, 7, 33333};
    opt_pool *pool = opt_pool_create(3);
    double max_norms[] = {0.5, 1e6};

    (void)state;
    assert_non_null(pool);
    for (int j = 0; j < 2; j++) {
        opt_hparams hp;
        ot_fix *f;

        opt_hparams_default(OPT_ADAMW, &hp);
        hp.max_grad_norm = max_norms[j];
        f = ot_fix_new(&hp, 3, sizes, OPT_F32, OPT_F32, 21);
        for (int s = 0; s < 3; s++) {
            opt_step_info info;
            double coef, ss = 0;

            ot_fix_grads(f, -1, 1);
            assert_int_equal(opt_step(f->g, &hp, hp.lr, 0.5, pool, OPT_PATH_MULTI,
                                      &info),
                             OPT_OK);
            coef = ot_fix_ref_step(f, hp.lr, 0.5);
            for (size_t i = 0; i < f->total; i++)
                ss += f->rg[i] * f->rg[i];
            assert_true(fabs(info.grad_norm - 0.5 * sqrt(ss)) <= 1e-12 * sqrt(ss));
            assert_true(fabs(info.clip_coef - coef) <= 1e-12);
            if (j == 0)
                assert_true(coef < 1);
            else
                assert_true(coef == 1);
            assert_true(ot_fix_worst(f, RTOL, ATOL) <= 1);
        }
        ot_fix_free(f);
    }
    opt_pool_destroy(pool);
}

/* A non-finite gradient skips the step: nothing changes, the step count
 * stays. */
static void test_skip_nonfinite(void **state)
{
    const size_t n = 100;
    opt_hparams hp;
    ot_fix *f;
    float before[100];

    (void)state;
    opt_hparams_default(OPT_ADAM, &hp);
    hp.skip_nonfinite = 1;
    f = ot_fix_new(&hp, 1, &n, OPT_F32, OPT_F32, 9);
    ot_fix_grads(f, -1, 1);
    ((float *)f->grad[0])[37] = INFINITY;
    memcpy(before, f->master[0], sizeof(before));
    assert_int_equal(opt_step(f->g, &hp, hp.lr, 1, NULL, OPT_PATH_MULTI, NULL),
                     OPT_SKIPPED);
    assert_memory_equal(before, f->master[0], sizeof(before));
    assert_int_equal(f->g->step, 0);
    ((float *)f->grad[0])[37] = 0.5f;
    assert_int_equal(opt_step(f->g, &hp, hp.lr, 1, NULL, OPT_PATH_MULTI, NULL), OPT_OK);
    assert_int_equal(f->g->step, 1);
    ot_fix_free(f);
}

/* Gradient accumulation over k micro-batches then a step at gscale 1/k
 * matches the reference on the mean gradient (f32 and bf16 micro-grads). */
static void test_accumulation(void **state)
{
    static const size_t sizes[] = {40000, 13};
    const int k = 4;
    opt_pool *pool = opt_pool_create(2);
    opt_dtype micro_types[] = {OPT_F32, OPT_BF16};

    (void)state;
    for (int j = 0; j < 2; j++) {
        opt_hparams hp;
        ot_fix *f, *micro;
        float *acc[2];
        const void *mp[2];

        opt_hparams_default(OPT_ADAMW, &hp);
        hp.max_grad_norm = 1.0;
        f = ot_fix_new(&hp, 2, sizes, OPT_F32, OPT_F32, 31);
        micro = ot_fix_new(&hp, 2, sizes, OPT_F32, micro_types[j], 32);
        for (int t = 0; t < 2; t++) {
            acc[t] = (float *)f->grad[t];
            mp[t] = micro->grad[t];
        }
        for (int s = 0; s < 3; s++) {
            memset(f->rg, 0, f->total * sizeof(double));
            for (int b = 0; b < k; b++) {
                ot_fix_grads(micro, -1, 1);
                opt_accumulate(f->g, acc, mp, micro_types[j], b == 0, pool,
                               OPT_PATH_MULTI);
                for (size_t i = 0; i < f->total; i++)
                    f->rg[i] += micro->rg[i];
            }
            assert_int_equal(opt_step(f->g, &hp, hp.lr, 1.0 / k, pool,
                                      OPT_PATH_MULTI, NULL),
                             OPT_OK);
            ot_fix_ref_step(f, hp.lr, 1.0 / k);
            assert_true(ot_fix_worst(f, RTOL, ATOL) <= 1);
        }
        ot_fix_free(f);
        ot_fix_free(micro);
    }
    opt_pool_destroy(pool);
}

/* Bytes and state per parameter as documented in opt.h. */
static void test_counts(void **state)
{
    opt_hparams hp;

    (void)state;
    opt_hparams_default(OPT_ADAMW, &hp);
    assert_true(opt_traffic_bytes_per_param(&hp, OPT_F32, OPT_F32) == 28);
    assert_true(opt_traffic_bytes_per_param(&hp, OPT_BF16, OPT_BF16) == 28);
    assert_true(opt_state_bytes_per_param(&hp, OPT_F32) == 8);
    assert_true(opt_state_bytes_per_param(&hp, OPT_BF16) == 12);
    hp.max_grad_norm = 1;
    assert_true(opt_traffic_bytes_per_param(&hp, OPT_F32, OPT_F32) == 32);
    opt_hparams_default(OPT_SGD, &hp);
    assert_true(opt_traffic_bytes_per_param(&hp, OPT_F32, OPT_F32) == 12);
    hp.momentum = 0.9;
    assert_true(opt_traffic_bytes_per_param(&hp, OPT_F32, OPT_F32) == 20);
    opt_hparams_default(OPT_LAMB, &hp);
    assert_true(opt_traffic_bytes_per_param(&hp, OPT_F32, OPT_F32) == 40);
    opt_hparams_default(OPT_LION, &hp);
    assert_true(opt_traffic_bytes_per_param(&hp, OPT_F32, OPT_F32) == 20);
}

/* Runs the tests of this file. */
int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_all_kinds),
        cmocka_unit_test(test_sgd_variants),
        cmocka_unit_test(test_rmsprop_variants),
        cmocka_unit_test(test_adagrad_variants),
        cmocka_unit_test(test_corner_hparams),
        cmocka_unit_test(test_bias_correction_step1),
        cmocka_unit_test(test_weight_decay_zero_grad),
        cmocka_unit_test(test_sgd_first_step_buffer),
        cmocka_unit_test(test_lamb_zero_params),
        cmocka_unit_test(test_clipping),
        cmocka_unit_test(test_skip_nonfinite),
        cmocka_unit_test(test_accumulation),
        cmocka_unit_test(test_counts),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
