// SPDX-License-Identifier: MIT
/* Unit tests for host/regress/drift.c: the robust between-invocation sd
 * and its known answers, robustness to a step in the history, the floor,
 * how the floor widens (and only widens) a report's comparisons, the
 * paired thresholds, and the regression: keys that set it. The store half
 * (history read from a real store) is tests/ci/test_drift_floor.py. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "drift.h"
#include "regress_compare.h"
#include "regress_config.h"

#define LEN(a) (sizeof(a) / sizeof((a)[0]))

static void test_sd_known_answers(void **state)
{
    const double alt[] = {100, 102, 100, 102, 100};
    const double flat[] = {5, 5, 5, 5};
    const double bad[] = {100, 0, 100};
    const double two[] = {100, 101};

    (void)state;
    /* every |ln difference| is ln 1.02: sd = 1.4826 ln(1.02) / sqrt 2 */
    assert_float_equal(bh_regress_drift_sd(alt, LEN(alt)), 0.020760244380834268, 1e-15);
    assert_float_equal(bh_regress_drift_sd(flat, LEN(flat)), 0.0, 0.0);
    assert_true(isnan(bh_regress_drift_sd(bad, LEN(bad))));
    assert_true(isnan(bh_regress_drift_sd(two, LEN(two))));
}

static void test_sd_ignores_one_step(void **state)
{
    /* 1% alternation with a 50% step in the middle: the step is one
     * difference of nine and moves the median not at all */
    const double step[] = {100, 101, 100, 101, 100, 150, 151.5, 150, 151.5, 150};
    const double calm[] = {100, 101, 100, 101, 100, 101, 100, 101, 100, 101};

    (void)state;
    assert_float_equal(bh_regress_drift_sd(step, LEN(step)),
                       bh_regress_drift_sd(calm, LEN(calm)), 1e-12);
}

static void test_floor(void **state)
{
    (void)state;
    /* exp(z(0.975) sqrt 2 0.01) - 1 */
    assert_float_equal(bh_regress_drift_floor(0.01, 0.05), 0.028105796362362327, 1e-12);
    assert_float_equal(bh_regress_drift_floor(0.0, 0.05), 0.0, 0.0);
    assert_float_equal(bh_regress_drift_floor(NAN, 0.05), 0.0, 0.0);
    assert_float_equal(bh_regress_drift_floor(0.01, 0.0), 0.0, 0.0);
    assert_true(bh_regress_drift_floor(0.01, 0.001) > bh_regress_drift_floor(0.01, 0.05));
}

/* A report of one comparison: 10 tight runs, the candidate 3% slower. */
static void shifted_report(bh_regress_report *r, const bh_regress_config *cfg)
{
    double b[10], c[10];

    for (int i = 0; i < 10; i++) {
        b[i] = 1000.0 + i;
        c[i] = b[i] * 1.03;
    }
    memset(r, 0, sizeof(*r));
    bh_regress_report_add_values(r, cfg, "s/x", "time", 1, b, 10, c, 10);
    bh_regress_finalize(r, cfg);
}

/* A history of "s/x" time: 8 values alternating by `swing` (newest first). */
static bh_store_recent history(double *v, double swing)
{
    for (int i = 0; i < 8; i++)
        v[i] = 1000.0 * (i % 2 ? 1.0 + swing : 1.0);
    return (bh_store_recent){"s/x", "time", v, 8, 8};
}

static void test_apply_widens(void **state)
{
    bh_regress_config cfg;
    bh_regress_report r;
    double v[8];
    bh_store_recent h = history(v, 0.03);
    double sd = bh_regress_drift_sd(v, 8);

    (void)state;
    bh_regress_config_default(&cfg);
    shifted_report(&r, &cfg);
    assert_int_equal(r.items[0].v.kind, BH_VERDICT_REGRESSED);
    bh_regress_apply_drift(&r, &cfg, &h, 1);
    /* 3% swings: a floor beyond the 3% shift, so no longer a regression */
    assert_int_equal(r.items[0].drift.runs, 8);
    assert_float_equal(r.items[0].drift.sd, sd, 1e-15);
    assert_float_equal(r.items[0].drift.floor, bh_regress_drift_floor(sd, cfg.fdr), 1e-15);
    assert_float_equal(r.items[0].drift.config_floor, 0.01, 0.0);
    assert_float_equal(r.items[0].th.noise_floor, r.items[0].drift.floor, 0.0);
    assert_true(r.items[0].th.noise_floor > 0.03);
    assert_int_not_equal(r.items[0].v.kind, BH_VERDICT_REGRESSED);
    assert_int_equal(r.n_drift, 1);
    /* a paired confirmation decides with the configured floor */
    assert_float_equal(bh_regress_paired_thresholds(&r.items[0]).noise_floor, 0.01, 0.0);
    /* applied twice: the configured floor is still the one remembered */
    bh_regress_apply_drift(&r, &cfg, &h, 1);
    assert_float_equal(r.items[0].drift.config_floor, 0.01, 0.0);
    bh_regress_report_free(&r);
}

static void test_apply_never_narrows(void **state)
{
    bh_regress_config cfg;
    bh_regress_report r;
    double v[8];
    bh_store_recent h = history(v, 0.0001);

    (void)state;
    bh_regress_config_default(&cfg);
    shifted_report(&r, &cfg);
    bh_regress_apply_drift(&r, &cfg, &h, 1);
    assert_int_equal(r.items[0].drift.runs, 8);
    assert_true(r.items[0].drift.floor < 0.01);
    assert_float_equal(r.items[0].th.noise_floor, 0.01, 0.0);
    assert_int_equal(r.n_drift, 0);
    assert_int_equal(r.items[0].v.kind, BH_VERDICT_REGRESSED);
    bh_regress_report_free(&r);
}

static void test_apply_off_short_or_unmatched(void **state)
{
    bh_regress_config cfg;
    bh_regress_report r;
    double v[8];
    bh_store_recent h = history(v, 0.03), other = h;

    (void)state;
    bh_regress_config_default(&cfg);
    cfg.drift_window = 0; /* off */
    shifted_report(&r, &cfg);
    bh_regress_apply_drift(&r, &cfg, &h, 1);
    assert_int_equal(r.items[0].drift.runs, 0);
    assert_int_equal(r.items[0].v.kind, BH_VERDICT_REGRESSED);
    bh_regress_report_free(&r);
    cfg.drift_window = 20;
    cfg.drift_min_runs = 9; /* more than the 8 recorded */
    shifted_report(&r, &cfg);
    bh_regress_apply_drift(&r, &cfg, &h, 1);
    assert_int_equal(r.items[0].drift.runs, 0);
    bh_regress_report_free(&r);
    cfg.drift_min_runs = 5;
    cfg.drift_window = 6; /* only the newest 6 count */
    shifted_report(&r, &cfg);
    bh_regress_apply_drift(&r, &cfg, &h, 1);
    assert_int_equal(r.items[0].drift.runs, 6);
    bh_regress_report_free(&r);
    other.metric = "tokens_per_s"; /* another metric's history */
    shifted_report(&r, &cfg);
    bh_regress_apply_drift(&r, &cfg, &other, 1);
    assert_int_equal(r.items[0].drift.runs, 0);
    bh_regress_report_free(&r);
}

/* Parses json expecting an error containing want. */
static void expect_error(const char *json, const char *want)
{
    bh_regress_config c;
    bh_error e = {""};

    if (bh_regress_config_parse(json, NULL, "cfg.yaml", &c, &e) == 0)
        fail_msg("accepted %s", json);
    if (!strstr(e.msg, want))
        fail_msg("message '%s' lacks '%s'", e.msg, want);
    bh_regress_config_free(&c);
}

static void test_config_keys(void **state)
{
    bh_regress_config c;
    bh_error e = {""};

    (void)state;
    assert_int_equal(bh_regress_config_parse(NULL, NULL, NULL, &c, &e), 0);
    assert_int_equal(c.drift_window, 20);
    assert_int_equal(c.drift_min_runs, 5);
    bh_regress_config_free(&c);
    assert_int_equal(bh_regress_config_parse("{\"drift_window\":0,\"drift_min_runs\":50}", NULL,
                                             NULL, &c, &e),
                     0);
    assert_int_equal(c.drift_window, 0);
    bh_regress_config_free(&c);
    expect_error("{\"drift_window\":-1}", "regression.drift_window: expected a whole number "
                                          "from 0 to 1000, got -1");
    expect_error("{\"drift_min_runs\":2}", "from 3 to 1000");
    expect_error("{\"drift_window\":4}", "regression.drift_min_runs: expected at most "
                                         "drift_window (4), got 5");
    expect_error("{\"drift_windo\":4}", "did you mean 'drift_window'");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sd_known_answers),
        cmocka_unit_test(test_sd_ignores_one_step),
        cmocka_unit_test(test_floor),
        cmocka_unit_test(test_apply_widens),
        cmocka_unit_test(test_apply_never_narrows),
        cmocka_unit_test(test_apply_off_short_or_unmatched),
        cmocka_unit_test(test_config_keys),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
