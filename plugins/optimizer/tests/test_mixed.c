// SPDX-License-Identifier: MIT
/*
 * test_mixed.c -- mixed precision: bf16 and f16 parameter copies and
 * gradients with f32 master weights and moments, against the double
 * reference on the stored gradient values; the conversions themselves
 * (round to nearest even, subnormals, overflow, NaN) on every instruction
 * set against the scalar ones and known values.
 *
 * Tolerance: master and state as f32 (RTOL 1e-5, see test_update.c); the
 * parameter copy must be exactly the rounded master.
 */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "opt_internal.h"
#include "ot_util.h"

#define RTOL 1e-5
#define ATOL 1e-12

/* Known conversions. */
static void test_scalar_conversions(void **state)
{
    (void)state;
    assert_int_equal(opt_f32_to_bf16(1.0f), 0x3F80);
    /* 1 + 2^-8 is a tie between 1 and 1 + 2^-7: to even (1.0) */
    assert_int_equal(opt_f32_to_bf16(1.0f + 0x1p-8f), 0x3F80);
    /* 1 + 3 * 2^-8 ties up to 1 + 2^-6 (even) */
    assert_int_equal(opt_f32_to_bf16(1.0f + 3 * 0x1p-8f), 0x3F82);
    assert_int_equal(opt_f32_to_bf16(NAN), 0x7FC0);
    assert_true(opt_bf16_to_f32(0xC000) == -2.0f);
    assert_int_equal(opt_f32_to_f16(1.0f), 0x3C00);
    assert_int_equal(opt_f32_to_f16(65504.0f), 0x7BFF);
    assert_int_equal(opt_f32_to_f16(65520.0f), 0x7C00); /* rounds to inf */
    assert_int_equal(opt_f32_to_f16(0x1p-24f), 0x0001);  /* smallest subnormal */
    assert_int_equal(opt_f32_to_f16(0x1p-25f), 0x0000);  /* tie to even: 0 */
    assert_int_equal(opt_f32_to_f16(0x1.8p-25f), 0x0001);
    assert_int_equal(opt_f32_to_f16(1.0f + 0x1p-11f), 0x3C00); /* tie to even */
    assert_true(opt_f16_to_f32(0x0001) == 0x1p-24f);
    assert_true(opt_f16_to_f32(0xFC00) == -INFINITY);
    /* every f16 value survives f16 -> f32 -> f16 */
    for (uint32_t h = 0; h < 0x10000u; h++) {
        uint16_t x = (uint16_t)h;
        float f = opt_f16_to_f32(x);

        if (f == f)
            assert_int_equal(opt_f32_to_f16(f), x);
        assert_true(opt_bf16_to_f32(x) == opt_bf16_to_f32(x) ||
                    opt_f32_to_bf16(opt_bf16_to_f32(x)) == 0x7FC0);
    }
}

/* The vector conversions equal the scalar ones on random and special
 * values, at every ISA. */
static void test_vector_conversions(void **state)
{
    enum { N = 4133 };
    float *src = malloc(N * sizeof(float)), *back = malloc(N * sizeof(float));
    uint16_t *h = malloc(N * 2), *want = malloc(N * 2);
    uint64_t rng = 99;

    (void)state;
    for (size_t i = 0; i < N; i++) {
        uint32_t u = (uint32_t)ot_next(&rng);

        memcpy(&src[i], &u, 4);
        if (i % 3 == 0)
            src[i] = (float)ot_uniform(&rng, -70000, 70000);
        if (i % 7 == 0)
            src[i] = (float)ot_uniform(&rng, -1e-6, 1e-6);
    }
    src[5] = NAN;
    src[6] = INFINITY;
    src[7] = -0.0f;
    for (int isa = 0; isa <= opt_isa_detected(); isa++) {
        const opt_isa_ops *ops;

        opt_isa_limit(isa);
        ops = opt_ops();
        ops->to_bf16(h, src, N);
        for (size_t i = 0; i < N; i++)
            want[i] = opt_f32_to_bf16(src[i]);
        assert_memory_equal(h, want, N * 2);
        ops->from_bf16(back, h, N);
        for (size_t i = 0; i < N; i++)
            assert_true(back[i] == opt_bf16_to_f32(h[i]) || back[i] != back[i]);
        ops->to_f16(h, src, N);
        for (size_t i = 0; i < N; i++) {
            want[i] = opt_f32_to_f16(src[i]);
            if (src[i] != src[i]) /* NaN payloads may differ */
                assert_true((h[i] & 0x7C00) == 0x7C00 && (h[i] & 0x3FF) != 0);
            else
                assert_int_equal(h[i], want[i]);
        }
        ops->from_f16(back, h, N);
        for (size_t i = 0; i < N; i++)
            assert_true(back[i] == opt_f16_to_f32(h[i]) || back[i] != back[i]);
    }
    opt_isa_limit(-1);
    free(src);
    free(back);
    free(h);
    free(want);
}

/* Several steps of kind in mixed precision (params and grads in t). */
static void check_mixed(opt_kind kind, opt_dtype t, opt_pool *pool)
{
    static const size_t sizes[] = {70001, 5, 4096};

    for (int isa = 0; isa <= opt_isa_detected(); isa++) {
        opt_hparams hp;
        ot_fix *f;

        opt_hparams_default(kind, &hp);
        hp.weight_decay = 0.01;
        if (t == OPT_F16)
            hp.skip_nonfinite = 1;
        opt_isa_limit(isa);
        f = ot_fix_new(&hp, 3, sizes, t, t, 77);
        for (int s = 0; s < 4; s++) {
            double worst;

            /* f16 grads under a loss scale of 1024, undone by gscale */
            ot_fix_grads(f, t == OPT_F16 ? -1024 : -1, t == OPT_F16 ? 1024 : 1);
            assert_int_equal(opt_step(f->g, &hp, hp.lr,
                                      t == OPT_F16 ? 1.0 / 1024 : 1.0, pool,
                                      OPT_PATH_MULTI, NULL),
                             OPT_OK);
            ot_fix_ref_step(f, hp.lr, t == OPT_F16 ? 1.0 / 1024 : 1.0);
            worst = ot_fix_worst(f, RTOL, ATOL);
            if (!(worst <= 1))
                fail_msg("%s %s isa %s step %d: worst %g", opt_kind_name(kind),
                         t == OPT_BF16 ? "bf16" : "f16", opt_isa_name(isa), s + 1,
                         worst);
        }
        ot_fix_free(f);
    }
    opt_isa_limit(-1);
}

/* Every optimizer in bf16 and in f16 (loss-scaled, skip_nonfinite). */
static void test_mixed_all(void **state)
{
    opt_pool *pool = opt_pool_create(2);

    (void)state;
    assert_non_null(pool);
    for (int k = 0; k < OPT_KIND_COUNT; k++) {
        check_mixed((opt_kind)k, OPT_BF16, pool);
        check_mixed((opt_kind)k, OPT_F16, pool);
    }
    opt_pool_destroy(pool);
}

/* An overflowed f16 gradient (inf) skips the step (dynamic loss scaling). */
static void test_f16_overflow_skips(void **state)
{
    const size_t n = 300;
    opt_hparams hp;
    ot_fix *f;

    (void)state;
    opt_hparams_default(OPT_ADAMW, &hp);
    hp.skip_nonfinite = 1;
    f = ot_fix_new(&hp, 1, &n, OPT_F16, OPT_F16, 4);
    ot_fix_grads(f, -1, 1);
    ((uint16_t *)f->grad[0])[10] = 0x7C00;
    assert_int_equal(opt_step(f->g, &hp, hp.lr, 1, NULL, OPT_PATH_MULTI, NULL),
                     OPT_SKIPPED);
    ot_fix_free(f);
}

/* Runs the tests of this file. */
int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_scalar_conversions),
        cmocka_unit_test(test_vector_conversions),
        cmocka_unit_test(test_mixed_all),
        cmocka_unit_test(test_f16_overflow_skips),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
