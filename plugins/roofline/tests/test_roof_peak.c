// SPDX-License-Identifier: MIT
/* The peak kernels of every instruction set this CPU runs: one and
 * several iterations leave the closed-form value in every lane, a wrong
 * lane is caught, the operation counts are those of the instructions, and
 * a type without a kernel is refused naming what it lacks. */
#include "test_roof.h"

#include "roof_peak.h"

#include <string.h>

static void kernels_exact(void **state)
{
    _Alignas(64) unsigned char out[ROOF_PEAK_OUT_BYTES];
    char why[200];
    unsigned ran = 0;

    (void)state;
    for (unsigned i = 0; i < roof_peak_kernel_count(); i++) {
        const roof_peak_kernel *k = roof_peak_kernel_at(i);

        assert_non_null(k);
        if (!k->runs_here())
            continue;
        for (uint64_t iters = 1; iters <= 3; iters += 2) {
            memset(out, 0xff, sizeof(out));
            k->run(iters, out);
            if (roof_peak_check(k, out, why, sizeof(why)) != 0)
                fail_msg("%u iterations: %s", (unsigned)iters, why);
        }
        /* a lane off by one unit in its last byte is caught */
        out[ROOF_PEAK_CHAINS * k->vector_bytes - 1] ^= 1;
        assert_int_equal(roof_peak_check(k, out, why, sizeof(why)), -1);
        assert_non_null(strstr(why, "expected"));
        /* no iteration: zeros, not the expected value */
        k->run(0, out);
        assert_int_equal(roof_peak_check(k, out, why, sizeof(why)), -1);
        ran++;
    }
    assert_true(ran >= 2); /* the portable f64 and f32 at least */
    assert_null(roof_peak_kernel_at(roof_peak_kernel_count()));
}

static void operation_counts(void **state)
{
    (void)state;
    for (unsigned i = 0; i < roof_peak_kernel_count(); i++) {
        const roof_peak_kernel *k = roof_peak_kernel_at(i);
        double lanes = k->vector_bytes / (k->type == ROOF_F64   ? 8.0
                                          : k->type == ROOF_F16 ? 2.0
                                                                : 4.0);
        double per_lane = k->type == ROOF_BF16 ? 2 : k->type == ROOF_INT8 ? 4 : 1;

        assert_true(k->ops_per_instr == 2 * lanes * per_lane);
        assert_true(roof_peak_ops_per_iteration(k) ==
                    k->ops_per_instr * ROOF_PEAK_CHAINS * ROOF_PEAK_STEPS);
    }
}

static void selection(void **state)
{
    char why[200] = "";

    (void)state;
    for (unsigned t = 0; t < ROOF_TYPE_COUNT; t++) {
        const roof_peak_kernel *k = roof_peak_select((roof_type)t, why, sizeof(why));

        assert_int_equal(roof_type_from_name(roof_type_name((roof_type)t)), t);
        if (k != NULL) {
            assert_int_equal(k->type, t);
            assert_true(k->runs_here());
        } else {
            assert_non_null(strstr(why, "which this CPU or build lacks"));
        }
    }
    assert_non_null(roof_peak_select(ROOF_F64, why, sizeof(why)));
    assert_non_null(roof_peak_select(ROOF_F32, why, sizeof(why)));
    assert_int_equal(roof_type_from_name("f8"), ROOF_TYPE_COUNT);
    assert_null(roof_peak_select(ROOF_TYPE_COUNT, why, sizeof(why)));
#if defined(ROOF_HAVE_X86)
    if (__builtin_cpu_supports("avx512vnni"))
        assert_string_equal(roof_peak_select(ROOF_INT8, why, sizeof(why))->isa, "avx512_vnni");
    if (__builtin_cpu_supports("avx512fp16"))
        assert_string_equal(roof_peak_select(ROOF_F16, why, sizeof(why))->isa, "avx512_fp16");
#endif
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(kernels_exact),
    cmocka_unit_test(operation_counts),
    cmocka_unit_test(selection),
};

size_t test_roof_peak_group(const struct CMUnitTest **out)
{
    *out = tests;
    return sizeof(tests) / sizeof(tests[0]);
}
