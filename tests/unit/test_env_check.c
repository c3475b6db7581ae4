// SPDX-License-Identifier: MIT
/* Unit tests of the environment checks around a run
 * (host/supervisor/env_check.h): the flags decided from recorded values
 * (a calibration slower than the reference beyond the threshold and its
 * noise, a load average above the CPU count, throttle counters that rose),
 * and one real begin/end pair, whose fields must be filled and whose
 * flags must be what the decision gives on its own recorded values.
 * Nothing asserts a timing. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "env_check.h"
#include "sysinfo_env.h"

#include <math.h>
#include <string.h>

/* The calibration: 8% slower at the end than the reference is flagged,
 * 4% is not, and the reference's own noise widens the threshold. */
static void test_clock_fell(void **state)
{
    double s;

    (void)state;
    assert_int_equal(bh_env_decide(1e6, 0.01, 1.0e6, 1.08e6, 0.5, 2, -1, -1, &s),
                     BH_ENV_CLOCK_FELL);
    assert_true(fabs(s - 0.08) < 1e-12);
    assert_int_equal(bh_env_decide(1e6, 0.01, 1.0e6, 1.04e6, 0.5, 2, -1, -1, &s), 0);
    /* 8% is within 5% + a noise of 4% */
    assert_int_equal(bh_env_decide(1e6, 0.04, 1.0e6, 1.08e6, 0.5, 2, -1, -1, &s), 0);
    /* slower at the start counts as well; the larger slowdown is kept */
    assert_int_equal(bh_env_decide(1e6, 0, 1.10e6, 1.02e6, 0.5, 2, -1, -1, &s), BH_ENV_CLOCK_FELL);
    assert_true(fabs(s - 0.10) < 1e-12);
    /* faster is never flagged */
    assert_int_equal(bh_env_decide(1e6, 0, 0.8e6, 0.9e6, 0.5, 2, -1, -1, &s), 0);
    assert_true(s < 0);
    /* no reference or no calibration: nothing known */
    assert_int_equal(bh_env_decide(0, 0, 1e6, 2e6, NAN, 2, -1, -1, &s), 0);
    assert_true(isnan(s));
}

/* The load average at the start above the CPU count, and throttle
 * counters that rose; unknown values flag nothing. */
static void test_load_and_throttle(void **state)
{
    double s;

    (void)state;
    assert_int_equal(bh_env_decide(1e6, 0, 1e6, 1e6, 2.5, 2, -1, -1, &s), BH_ENV_LOADED);
    assert_int_equal(bh_env_decide(1e6, 0, 1e6, 1e6, 2.0, 2, -1, -1, &s), 0);
    assert_int_equal(bh_env_decide(1e6, 0, 1e6, 1e6, NAN, 2, -1, -1, &s), 0);
    assert_int_equal(bh_env_decide(1e6, 0, 1e6, 1e6, 0.1, 2, 10, 12, &s), BH_ENV_THROTTLED);
    assert_int_equal(bh_env_decide(1e6, 0, 1e6, 1e6, 0.1, 2, 10, 10, &s), 0);
    assert_int_equal(bh_env_decide(1e6, 0, 1.2e6, 1e6, 9.0, 2, 1, 2, &s),
                     BH_ENV_LOADED | BH_ENV_CLOCK_FELL | BH_ENV_THROTTLED);
    assert_string_equal(bh_env_flag_name(BH_ENV_LOADED), "loaded");
    assert_string_equal(bh_env_flag_name(BH_ENV_CLOCK_FELL), "clock_fell");
    assert_string_equal(bh_env_flag_name(BH_ENV_THROTTLED), "throttled");
    assert_null(bh_env_flag_name(1u << 7));
}

/* A real begin and end: every field read, the reference set by the first
 * call, and the flags those recorded values give. */
static void test_begin_end(void **state)
{
    bh_env_run a, b;
    bh_sysinfo_env m;
    double s;

    (void)state;
    bh_sysinfo_env_read(&m);
    assert_true(m.ncpu >= 1);
    bh_env_begin(&a);
    bh_env_end(&a);
    bh_env_begin(&b);
    bh_env_end(&b);
    assert_true(a.have && b.have);
    assert_true(a.calib_start_ns > 0 && a.calib_end_ns > 0);
    /* the first calibration of the process is every run's reference */
    assert_true(a.calib_ref_ns == a.calib_start_ns);
    assert_true(b.calib_ref_ns == a.calib_start_ns);
    assert_true(a.calib_ref_noise >= 0);
    assert_int_equal(a.ncpu, m.ncpu);
    assert_int_equal(b.flags, bh_env_decide((double)b.calib_ref_ns, b.calib_ref_noise,
                                            (double)b.calib_start_ns, (double)b.calib_end_ns,
                                            b.load1, b.ncpu, b.throttle_start, b.throttle_end, &s));
    /* no cpufreq here is "" (a VM), else a governor name */
    assert_true(strlen(a.governor) < sizeof(a.governor));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_clock_fell),
        cmocka_unit_test(test_load_and_throttle),
        cmocka_unit_test(test_begin_end),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
