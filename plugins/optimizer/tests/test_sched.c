// SPDX-License-Identifier: MIT
/*
 * test_sched.c -- the schedulers: the running (recursive, as PyTorch's
 * chainable get_lr) form against each closed form over thousands of
 * steps, and known values of each schedule written out independently here
 * (milestones, restart points, warmup ends, OneCycle phase ends).
 *
 * Tolerance: running vs closed |a - b| <= 1e-9 (|b| + 1e-12 base).
 */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>

#include <cmocka.h>

#include "opt.h"

#define NEAR(a, b, tol) (fabs((a) - (b)) <= (tol) * (fabs(b) + 1e-300))

/* The running form follows the closed form for steps 0..steps. */
static void follow(const opt_sched_cfg *cfg, uint64_t steps)
{
    opt_sched s;

    assert_int_equal(opt_sched_check(cfg), OPT_OK);
    opt_sched_init(&s, cfg);
    for (uint64_t t = 0; t <= steps; t++) {
        double want = opt_sched_closed(cfg, t);

        if (!(fabs(s.lr - want) <= 1e-9 * fabs(want) + 1e-12 * cfg->base_lr))
            fail_msg("%s t=%llu running %.17g closed %.17g", opt_sched_name(cfg->kind),
                     (unsigned long long)t, s.lr, want);
        opt_sched_step(&s);
    }
}

/* Every kind with its defaults over 6000 steps. */
static void test_running_equals_closed(void **state)
{
    (void)state;
    for (int k = 0; k < OPT_SCHED_KIND_COUNT; k++) {
        opt_sched_cfg cfg;

        opt_sched_default((opt_sched_kind)k, 0.1, 5000, &cfg);
        follow(&cfg, 6000);
    }
}

/* Independent anchors of every schedule. */
static void test_anchors(void **state)
{
    opt_sched_cfg c;

    (void)state;
    /* StepLR(step_size 30, gamma 0.1) */
    opt_sched_default(OPT_SCHED_STEP, 1.0, 100, &c);
    c.step_size = 30;
    assert_true(NEAR(opt_sched_closed(&c, 29), 1.0, 1e-15));
    assert_true(NEAR(opt_sched_closed(&c, 30), 0.1, 1e-15));
    assert_true(NEAR(opt_sched_closed(&c, 65), 0.01, 1e-15));
    follow(&c, 200);
    /* MultiStepLR([30, 80], 0.1), and a repeated milestone: gamma^2 */
    c.kind = OPT_SCHED_MULTISTEP;
    c.milestone_count = 3;
    c.milestones[0] = 30;
    c.milestones[1] = 80;
    c.milestones[2] = 80;
    assert_true(NEAR(opt_sched_closed(&c, 79), 0.1, 1e-15));
    assert_true(NEAR(opt_sched_closed(&c, 80), 0.001, 1e-15));
    follow(&c, 200);
    /* ExponentialLR(0.5) */
    c.kind = OPT_SCHED_EXPONENTIAL;
    c.gamma = 0.5;
    assert_true(NEAR(opt_sched_closed(&c, 3), 0.125, 1e-15));
    follow(&c, 100);
    /* CosineAnnealingWarmRestarts(T_0 10, T_mult 2, eta_min 0.1): restarts
     * at 10, 30, 70; mid-cycle values are the mean. */
    c.kind = OPT_SCHED_COSINE_RESTARTS;
    c.t0 = 10;
    c.t_mult = 2;
    c.eta_min = 0.1;
    assert_true(NEAR(opt_sched_closed(&c, 0), 1.0, 1e-15));
    assert_true(NEAR(opt_sched_closed(&c, 5), 0.55, 1e-12));
    assert_true(NEAR(opt_sched_closed(&c, 10), 1.0, 1e-15));
    assert_true(NEAR(opt_sched_closed(&c, 20), 0.55, 1e-12));
    assert_true(NEAR(opt_sched_closed(&c, 30), 1.0, 1e-15));
    assert_true(NEAR(opt_sched_closed(&c, 70), 1.0, 1e-15));
    assert_true(NEAR(opt_sched_closed(&c, 69),
                     0.1 + 0.9 * (1 + cos(M_PI * 39.0 / 40.0)) / 2, 1e-12));
    follow(&c, 100000);
    c.t_mult = 1;
    assert_true(NEAR(opt_sched_closed(&c, 25), 0.55, 1e-12));
    follow(&c, 1000);
    c.t_mult = 3;
    follow(&c, 100000);
    /* linear warmup 100 then cosine to 0 at 1100 */
    c.kind = OPT_SCHED_WARMUP_COSINE;
    c.warmup = 100;
    c.total = 1100;
    c.eta_min = 0;
    assert_true(opt_sched_closed(&c, 0) == 0);
    assert_true(NEAR(opt_sched_closed(&c, 50), 0.5, 1e-15));
    assert_true(NEAR(opt_sched_closed(&c, 100), 1.0, 1e-15));
    assert_true(NEAR(opt_sched_closed(&c, 600), 0.5, 1e-12));
    assert_true(fabs(opt_sched_closed(&c, 1100)) < 1e-15);
    assert_true(fabs(opt_sched_closed(&c, 5000)) < 1e-15);
    follow(&c, 1500);
    /* linear warmup then linear decay to min_lr 0.1 */
    c.kind = OPT_SCHED_WARMUP_LINEAR;
    c.eta_min = 0.1;
    assert_true(NEAR(opt_sched_closed(&c, 600), 0.55, 1e-12));
    assert_true(NEAR(opt_sched_closed(&c, 1100), 0.1, 1e-12));
    follow(&c, 1500);
    /* OneCycleLR(max 1, total 1000, pct 0.3, div 25, final_div 1e4):
     * 0.04 at 0, max at step 299, min 4e-6 at step 999 */
    c.kind = OPT_SCHED_ONECYCLE;
    c.total = 1000;
    c.pct_start = 0.3;
    c.div_factor = 25;
    c.final_div_factor = 1e4;
    assert_true(NEAR(opt_sched_closed(&c, 0), 0.04, 1e-12));
    assert_true(NEAR(opt_sched_closed(&c, 299), 1.0, 1e-12));
    assert_true(NEAR(opt_sched_closed(&c, 999), 4e-6, 1e-9));
    assert_true(NEAR(opt_sched_closed(&c, 649), (1.0 + 4e-6) / 2, 1e-12));
    follow(&c, 999);
    /* PolynomialLR(total 100, power 2) */
    c.kind = OPT_SCHED_POLYNOMIAL;
    c.total = 100;
    c.power = 2;
    assert_true(NEAR(opt_sched_closed(&c, 50), 0.25, 1e-12));
    assert_true(opt_sched_closed(&c, 100) == 0);
    assert_true(opt_sched_closed(&c, 150) == 0);
    follow(&c, 150);
}

/* Inconsistent settings are refused. */
static void test_check(void **state)
{
    opt_sched_cfg c;

    (void)state;
    opt_sched_default(OPT_SCHED_STEP, 1, 100, &c);
    c.step_size = 0;
    assert_int_equal(opt_sched_check(&c), OPT_E_INVALID);
    opt_sched_default(OPT_SCHED_MULTISTEP, 1, 100, &c);
    c.milestones[0] = 90;
    c.milestones[1] = 10;
    assert_int_equal(opt_sched_check(&c), OPT_E_INVALID);
    opt_sched_default(OPT_SCHED_WARMUP_COSINE, 1, 100, &c);
    c.warmup = 200;
    assert_int_equal(opt_sched_check(&c), OPT_E_INVALID);
    opt_sched_default(OPT_SCHED_COSINE_RESTARTS, 1, 100, &c);
    c.t_mult = 1.5;
    assert_int_equal(opt_sched_check(&c), OPT_E_INVALID);
    opt_sched_default(OPT_SCHED_ONECYCLE, 1, 100, &c);
    c.pct_start = 1.5;
    assert_int_equal(opt_sched_check(&c), OPT_E_INVALID);
    assert_int_equal(opt_sched_from_name("onecycle"), OPT_SCHED_ONECYCLE);
    assert_int_equal(opt_sched_from_name("nope"), -1);
}

/* Runs the tests of this file. */
int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_running_equals_closed),
        cmocka_unit_test(test_anchors),
        cmocka_unit_test(test_check),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
