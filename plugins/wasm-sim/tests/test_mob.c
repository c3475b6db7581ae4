// SPDX-License-Identifier: MIT
/*
 * test_mob.c -- unit tests of the mobile simulation: the thermal timeline
 * is identical for equal inputs and follows the heat budget; profiles and
 * pacing; the three levels' accuracy; threads do not change results; the
 * adaptation rule.
 */
#include "mob.h"
#include "wk.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

/* Runs the model for profile name, level, seed over horizon_s. */
static void run_model(const char *name, int level, uint64_t seed,
                      double horizon_s, mob_thermal *t)
{
    const mob_profile *p = mob_profile_find(name);

    assert_non_null(p);
    memset(t, 0, sizeof(*t));
    t->energy = mob_level_energy(level);
    t->seed = seed;
    t->horizon_s = horizon_s;
    assert_int_equal(mob_thermal_run(p, t), 0);
}

/* Equal profile, level and seed give the same timeline, bit for bit. */
static void test_thermal_deterministic(void **state)
{
    mob_thermal *a = malloc(sizeof(*a)), *b = malloc(sizeof(*b));
    mob_thermal *c = malloc(sizeof(*c));

    (void)state;
    run_model("phone-big", MOB_F32, 20261122, 600, a);
    run_model("phone-big", MOB_F32, 20261122, 600, b);
    assert_true(a->n_events > 1);
    assert_memory_equal(a, b, sizeof(*a));
    /* another seed moves the demand jitter and so the timeline */
    run_model("phone-big", MOB_F32, 42, 600, c);
    assert_true(c->n_events > 1);
    assert_true(c->hash != a->hash);
    free(a);
    free(b);
    free(c);
}

/* The model behaves as its parameters say: phone-big throttles at f32
 * after tens of seconds and sustains about half its burst; int8 runs
 * cooler; phone-little never reaches its budget; tablet throttles later
 * and less than phone-big. */
static void test_thermal_budget(void **state)
{
    mob_thermal big, i8, little, tab;

    (void)state;
    run_model("phone-big", MOB_F32, 7, 300, &big);
    run_model("phone-big", MOB_INT8, 7, 300, &i8);
    run_model("phone-little", MOB_F32, 7, 300, &little);
    run_model("tablet", MOB_F32, 7, 300, &tab);
    assert_true(big.time_to_throttle_s > 10 && big.time_to_throttle_s < 60);
    assert_true(big.sustained > 0.3 && big.sustained < 0.75);
    assert_true(big.throttled < 1.0 && big.min_duty < 1.0);
    assert_true(big.peak_heat_j >= 120.0);
    assert_true(i8.time_to_throttle_s < 0 || i8.time_to_throttle_s >
                                                 big.time_to_throttle_s);
    assert_true(i8.sustained > big.sustained);
    assert_true(little.time_to_throttle_s < 0);
    assert_int_equal(little.n_events, 0);
    assert_true(little.sustained == 1.0);
    assert_true(tab.time_to_throttle_s > big.time_to_throttle_s);
    assert_true(tab.sustained > big.sustained);
    /* work done never exceeds what full duty would give */
    assert_true(big.work <= 300.0 && big.work > 0.3 * 300.0);
    /* bad inputs */
    big.horizon_s = 0;
    assert_int_equal(mob_thermal_run(mob_profile_find("tablet"), &big), -1);
}

static void test_profiles(void **state)
{
    const mob_profile *p = mob_profile_find("phone-little");

    (void)state;
    assert_non_null(p);
    assert_null(mob_profile_find("phone"));
    assert_null(mob_profile_find(NULL));
    for (int i = 0; mob_profile_names[i]; i++)
        assert_non_null(mob_profile_find(mob_profile_names[i]));
    /* compute-bound: slowed by the core speed; memory-bound: bandwidth */
    assert_true(fabs(mob_paced_ns(p, 1e6, 0) - 1e6 / p->speed) < 1e-6);
    assert_true(fabs(mob_paced_ns(p, 1.0, 4e9) - 1e9) < 1e-3);
    assert_int_equal(mob_level_find("int8"), MOB_INT8);
    assert_int_equal(mob_level_find("bf16"), -1);
    assert_true(mob_layer_bytes(MOB_F16, 4, 64, 64) <
                mob_layer_bytes(MOB_F32, 4, 64, 64));
}

/* Each level against the exact product, errors relative to sum |x||w|
 * (the inputs cancel heavily, so relative to |y| would say little): f32
 * rounding, f16 within 2^-11, int8 within a quantization step; 1 and 3
 * threads agree bit for bit. */
static void test_levels(void **state)
{
    enum { M = 7, N = 40, K = 96 };
    float x[M * K], w[K * N];
    double rel[MOB_LEVELS];
    mob_pool *pool = mob_pool_new(3);

    (void)state;
    assert_non_null(pool);
    assert_int_equal(mob_pool_size(pool), 3);
    for (int i = 0; i < M * K; i++)
        x[i] = (float)sin(i * 0.37);
    for (int i = 0; i < K * N; i++)
        w[i] = (float)(0.05 * cos(i * 0.11));
    for (int lv = 0; lv < MOB_LEVELS; lv++) {
        mob_layer one, three;
        double err = 0, mag = 0;

        assert_int_equal(mob_layer_init(&one, lv, M, N, K, x, w), 0);
        assert_int_equal(mob_layer_init(&three, lv, M, N, K, x, w), 0);
        mob_layer_run(&one, NULL);
        mob_layer_run(&three, pool);
        assert_memory_equal(one.y, three.y, sizeof(float) * M * N);
        for (int i = 0; i < M; i++)
            for (int j = 0; j < N; j++) {
                double ref = 0, m = 0;

                for (int p = 0; p < K; p++) {
                    ref += (double)x[i * K + p] * w[p * N + j];
                    m += fabs((double)x[i * K + p] * w[p * N + j]);
                }
                err += (one.y[i * N + j] - ref) * (one.y[i * N + j] - ref);
                mag += m * m;
            }
        rel[lv] = sqrt(err / mag);
        mob_layer_free(&one);
        mob_layer_free(&three);
    }
    assert_true(rel[MOB_F32] < 1e-7);
    assert_true(rel[MOB_F16] < 0x1p-11);
    assert_true(rel[MOB_INT8] < 1.0 / 127);
    assert_true(rel[MOB_F32] <= rel[MOB_F16] && rel[MOB_F16] < rel[MOB_INT8]);
    mob_pool_free(pool);
}

static void test_adapt_pick(void **state)
{
    const double lat[MOB_LEVELS] = {4.0, 2.5, 1.0};
    const int all[MOB_LEVELS] = {1, 1, 1}, no_f32[MOB_LEVELS] = {0, 1, 1};
    const int none[MOB_LEVELS] = {0, 0, 0};
    int met = -1;

    (void)state;
    assert_int_equal(mob_adapt_pick(lat, all, 5.0, &met), MOB_F32);
    assert_int_equal(met, 1);
    assert_int_equal(mob_adapt_pick(lat, all, 3.0, &met), MOB_F16);
    assert_int_equal(met, 1);
    assert_int_equal(mob_adapt_pick(lat, all, 1.0, &met), MOB_INT8);
    assert_int_equal(met, 1);
    assert_int_equal(mob_adapt_pick(lat, all, 0.5, &met), MOB_INT8);
    assert_int_equal(met, 0);
    assert_int_equal(mob_adapt_pick(lat, no_f32, 5.0, &met), MOB_F16);
    assert_int_equal(mob_adapt_pick(lat, none, 5.0, &met), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_thermal_deterministic),
        cmocka_unit_test(test_thermal_budget),
        cmocka_unit_test(test_profiles),
        cmocka_unit_test(test_levels),
        cmocka_unit_test(test_adapt_pick),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
