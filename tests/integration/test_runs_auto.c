// SPDX-License-Identifier: MIT
/* Integration tests of runs: auto (docs/statistics.md section 8.3): the
 * real bhost binary on the selftest benchmark "fixed", which reports a
 * time per iteration that does not depend on the machine (a constant, or
 * a constant times a factor drawn once per run with noise_pct). What is
 * asserted follows from those reported values and from lower bounds on
 * wall time (a run waits at least the time it reports), never from how
 * fast this machine is: a constant case stops at its min runs with
 * ci_narrow, a case with 50% run noise runs to max_runs, one whose runs
 * cannot all fit max_time stops with time_budget; the least runs follow
 * the comparison's level; bad values are one-line errors. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "itest_util.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int setup(void **state)
{
    (void)state;
    return it_setup("bh_itest_runs_auto", 0) ? 0 : -1;
}

/* bhost run CONFIG --out OUT -v, expecting exit 0; the result document
 * (cJSON_Delete it) and the console text into *out_text (free it). */
static cJSON *run_config(const char *config, const char *out, char **out_text)
{
    tp_proc p;
    const char *args[] = {"run", it_path(config), "--out", it_path(out), "-v", NULL};
    cJSON *doc;

    it_run(&p, args);
    it_expect_code(&p, 0);
    if (out_text)
        *out_text = strdup(p.out);
    tp_proc_free(&p);
    doc = it_load_json(it_path(out));
    return doc;
}

/* Asserts the runs_auto record of case id: min (at least -min when
 * negative), max, why it stopped and the runs made (runs, settings.runs
 * and the runs array agree; -1: as many as its min); returns its
 * ci_rel_width (NAN when null). */
static double expect_auto(const cJSON *doc, const char *id, int min, int max,
                          const char *stopped, int runs)
{
    const cJSON *c = it_expect_case(doc, id, "ok", NULL);
    const cJSON *ra = it_member(c, "runs_auto");
    const cJSON *w = it_member(ra, "ci_rel_width");

    if (min < 0)
        assert_true(it_member(ra, "min")->valueint >= -min);
    else
        assert_int_equal(it_member(ra, "min")->valueint, min);
    if (runs < 0)
        runs = it_member(ra, "min")->valueint;
    assert_int_equal(it_member(ra, "max")->valueint, max);
    assert_string_equal(it_str_of(ra, "stopped"), stopped);
    assert_int_equal(cJSON_GetArraySize(it_member(c, "runs")), runs);
    assert_int_equal(it_member(it_member(c, "settings"), "runs")->valueint, runs);
    return cJSON_IsNumber(w) ? w->valuedouble : NAN;
}

/* A constant case stops at min runs (its interval has width 0), a case
 * whose runs differ by up to 50% runs to max runs; a fixed-runs suite
 * beside them keeps its runs and has no runs_auto; -v says why each
 * stopped. */
static void test_stop_reasons(void **state)
{
    char *text = NULL;
    cJSON *doc;
    double w;

    (void)state;
    it_write(it_path("stop.yaml"),
             "schema: 1\n"
             "name: stop\n"
             "defaults: {warmup: 0ms, sample_time: 1ms, samples: 3, runs: auto, min_runs: 6,\n"
             "           max_runs: 9}\n"
             "suites:\n"
             "  - plugin: selftest\n"
             "    include: [fixed]\n"
             "    params: {noise_pct: [0, 50]}\n"
             "  - plugin: selftest\n"
             "    name: fixed-runs\n"
             "    include: [fixed]\n"
             "    params: {time_ns: [2000]}\n"
             "    defaults: {runs: 3}\n");
    doc = run_config("stop.yaml", "stop.json", &text);
    w = expect_auto(doc, "selftest/fixed[noise_pct=0]", 6, 9, "ci_narrow", 6);
    assert_true(w == 0.0);
    w = expect_auto(doc, "selftest/fixed[noise_pct=50]", 6, 9, "max_runs", 9);
    assert_true(w >= 0.01);
    {
        const cJSON *c = it_expect_case(doc, "selftest/fixed[time_ns=2000]", "ok", NULL);

        assert_null(cJSON_GetObjectItemCaseSensitive(c, "runs_auto"));
        assert_int_equal(cJSON_GetArraySize(it_member(c, "runs")), 3);
    }
    it_assert_has(text, "runs: 6 (auto, 6 to 9): stopped as the 95% CI of the run medians, "
                        "0.00% wide, is narrower than the noise floor 1.00%");
    it_assert_has(text, "runs: 9 (auto, 6 to 9): stopped at max_runs; the 95% CI of the run "
                        "medians is still");
    free(text);
    cJSON_Delete(doc);
}

/* Without min_runs the least runs are those the comparison needs: with
 * fdr 0.001 over 2 cases an exact Mann-Whitney p must reach 0.0005, which
 * takes 8 runs a side (2 / C(16, 8) = 0.00016; 7 give 0.00058); more if
 * the cases report metrics the comparison would test too. The noise
 * floor is the case's own, overrides included. */
static void test_default_min_and_floor(void **state)
{
    cJSON *doc;
    const cJSON *ra;

    (void)state;
    it_write(it_path("dflt.yaml"),
             "schema: 1\n"
             "name: dflt\n"
             "defaults: {warmup: 0ms, sample_time: 1ms, samples: 3, runs: auto}\n"
             "suites:\n"
             "  - plugin: selftest\n"
             "    include: [fixed]\n"
             "    params: {time_ns: [1000, 3000]}\n"
             "regression:\n"
             "  fdr: 0.001\n"
             "  overrides:\n"
             "    - {match: '*time_ns=3000*', noise_floor: 2%}\n");
    doc = run_config("dflt.yaml", "dflt.json", NULL);
    expect_auto(doc, "selftest/fixed[time_ns=1000]", -8, 30, "ci_narrow", -1);
    expect_auto(doc, "selftest/fixed[time_ns=3000]", -8, 30, "ci_narrow", -1);
    ra = it_member(it_case_of(doc, "selftest/fixed[time_ns=1000]"), "runs_auto");
    assert_true(fabs(it_member(ra, "noise_floor")->valuedouble - 0.01) < 1e-12);
    ra = it_member(it_case_of(doc, "selftest/fixed[time_ns=3000]"), "runs_auto");
    assert_true(fabs(it_member(ra, "noise_floor")->valuedouble - 0.02) < 1e-12);
    cJSON_Delete(doc);
}

/* A run of 3 samples of at least 20 ms after a calibration sample of at
 * least 20 ms takes at least 60 ms of wall time even when its budget ends
 * it after 2 samples (a run's time is waited for): 6 runs take at least
 * 360 ms, and a seventh would pass max_time 400 ms whatever the machine. */
static void test_time_budget(void **state)
{
    cJSON *doc;

    (void)state;
    it_write(it_path("budget.yaml"),
             "schema: 1\n"
             "name: budget\n"
             "defaults: {warmup: 0ms, sample_time: 20ms, samples: 3, runs: auto, min_runs: 6,\n"
             "           max_time: 400ms}\n"
             "suites:\n"
             "  - plugin: selftest\n"
             "    include: [fixed]\n"
             "    params: {noise_pct: [50]}\n");
    doc = run_config("budget.yaml", "budget.json", NULL);
    expect_auto(doc, "selftest/fixed[noise_pct=50]", 6, 30, "time_budget", 6);
    cJSON_Delete(doc);
}

/* --runs auto on one benchmark: one test, so the least runs are the 6 a
 * bounded 95% interval needs; a constant case stops there. Without a
 * terminal the progress lines count the runs it did not need out. */
static void test_cli_runs_auto(void **state)
{
    tp_proc p;
    const char *args[] = {"run", "selftest/fixed", "--runs", "auto", "--warmup", "0ms",
                          "--samples", "3", "--sample-time", "1ms", "--out",
                          it_path("cli.json"), NULL};
    cJSON *doc;

    (void)state;
    it_run(&p, args);
    it_expect_code(&p, 0);
    it_assert_has(p.err, "suite 1 (selftest) finished: 1/1 case done");
    tp_proc_free(&p);
    doc = it_load_json(it_path("cli.json"));
    expect_auto(doc, "selftest/fixed", 6, 30, "ci_narrow", 6);
    cJSON_Delete(doc);
}

/* Bad values: one line naming the place and what was expected. */
static void test_bad_values(void **state)
{
    tp_proc p;
    const char *v1[] = {"validate", it_path("bad1.yaml"), NULL};
    const char *v2[] = {"validate", it_path("bad2.yaml"), NULL};
    const char *cli[] = {"run", "selftest/fixed", "--runs", "autox", NULL};
    char want[512];

    (void)state;
    it_write(it_path("bad1.yaml"), "schema: 1\ndefaults:\n  runs: autox\nsuites: []\n");
    it_write(it_path("bad2.yaml"), "schema: 1\n"
                                   "defaults: {runs: auto, min_runs: 8}\n"
                                   "suites:\n"
                                   "  - plugin: selftest\n"
                                   "    include: [fixed]\n"
                                   "    defaults: {max_runs: 5}\n");
    it_run(&p, v1);
    it_expect_code(&p, 3);
    snprintf(want, sizeof(want), "%s:3:9: 'runs' must be an integer >= 1 or auto, got 'autox'",
             it_path("bad1.yaml"));
    it_assert_has(p.err, want);
    assert_int_equal(it_count_lines(p.err), 1);
    tp_proc_free(&p);
    it_run(&p, v2);
    it_expect_code(&p, 3);
    snprintf(want, sizeof(want),
             "%s:6:26: max_runs 5 is below min_runs 8 (expected max_runs >= min_runs)",
             it_path("bad2.yaml"));
    it_assert_has(p.err, want);
    assert_int_equal(it_count_lines(p.err), 1);
    tp_proc_free(&p);
    it_run(&p, cli);
    it_expect_code(&p, 2);
    it_assert_has(p.err, "--runs expects an integer from 1 to 10000 or auto, got 'autox'");
    assert_int_equal(it_count_lines(p.err), 1);
    tp_proc_free(&p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_stop_reasons),
        cmocka_unit_test(test_default_min_and_floor),
        cmocka_unit_test(test_time_budget),
        cmocka_unit_test(test_cli_runs_auto),
        cmocka_unit_test(test_bad_values),
    };

    return cmocka_run_group_tests(tests, setup, it_group_teardown);
}
