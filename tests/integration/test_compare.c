// SPDX-License-Identifier: MIT
/* Integration tests of the comparison half of the regression engine: the
 * real bhost binary ($BHOST_EXE) with the selftest plugin's spin benchmark.
 * Slowdowns are injected with slowdown_pct = 300 (4x the work), where the
 * outcome is certain; nothing asserts on timings. Configs are written into
 * a temporary directory. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "itest_util.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The verdict object of the first case of a result document. */
static const cJSON *first_verdict(const cJSON *doc)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(
        cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(doc, "cases"), 0), "verdict");

    if (!cJSON_IsObject(v))
        fail_msg("the first case has no verdict object");
    return v;
}

/* Its time metric object. */
static const cJSON *time_metric(const cJSON *verdict)
{
    return cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(verdict, "metrics"), 0);
}

/* A spin config named cmp: work 2000, slowdown_pct pct (omitted when < 0),
 * extra a YAML suffix for the file. */
static void write_config(const char *file, int pct, const char *extra)
{
    char text[2048];

    snprintf(text, sizeof(text),
             "schema: 1\n"
             "name: cmp\n"
             "defaults: {warmup: 20ms, sample_time: 2ms, samples: 5, runs: 6, seed: 7}\n"
             "suites:\n"
             "  - plugin: selftest\n"
             "    include: [spin]\n"
             "    params: {work: [2000]%s}\n"
             "%s",
             pct < 0 ? "" : (pct == 0 ? ", slowdown_pct: [0]" : ", slowdown_pct: [300]"),
             extra ? extra : "");
    it_write(it_path(file), text);
}

static int setup(void **state)
{
    (void)state;
    if (!it_setup("bh_itest_compare", 0))
        return -1;
    write_config("base.yaml", -1, NULL);
    write_config("slow.yaml", 1, NULL);
    {
        tp_proc p;
        const char *args[] = {"run", it_path("base.yaml"), "--results-dir", it_path("res"),
                              "--save-baseline", "main", "--out", it_path("base.json"), "--quiet",
                              NULL};

        it_run(&p, args);
        it_expect_code(&p, 0);
        tp_proc_free(&p);
    }
    return 0;
}

static void test_saved_baseline_is_a_result(void **state)
{
    cJSON *d = it_load_json(it_path("res/cmp/baselines/main.json"));

    (void)state;
    assert_string_equal(it_str_of(d, "schema"), "bhost.result/1");
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(d, "cases")), 1);
    cJSON_Delete(d);
}

static void test_regression_fails_without_confirm(void **state)
{
    tp_proc p;
    const char *args[] = {"run",          it_path("slow.yaml"), "--results-dir", it_path("res"),
                          "--baseline",   "main",          "--ignore-param", "slowdown_pct",
                          "--fail-on-regression", "--no-confirm", "--out", it_path("slow1.json"),
                          NULL};
    cJSON *d;
    const cJSON *v;
    const cJSON *cmp;

    (void)state;
    it_run(&p, args);
    it_expect_code(&p, 5);
    it_assert_has(p.out, "change: [+");
    it_assert_has(p.out, "regressed (critical)");
    it_assert_has(p.out, "(baseline: selftest/spin[work=2000])");
    d = it_load_json(it_path("slow1.json"));
    v = first_verdict(d);
    assert_string_equal(it_str_of(v, "verdict"), "regressed");
    assert_string_equal(it_str_of(v, "severity"), "critical");
    assert_string_equal(it_str_of(time_metric(v), "metric"), "time");
    assert_true(cJSON_GetObjectItemCaseSensitive(time_metric(v), "change")->valuedouble > 1.0);
    assert_true(cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(time_metric(v), "confirmation")));
    cmp = cJSON_GetObjectItemCaseSensitive(d, "comparison");
    assert_int_equal(
        cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(cmp, "regressed"),
                                         "critical")->valueint,
        1);
    cJSON_Delete(d);
    tp_proc_free(&p);
}

static void test_regression_confirmed_by_rerun(void **state)
{
    tp_proc p;
    const char *args[] = {"run",        it_path("slow.yaml"), "--results-dir",  it_path("res"),
                          "--baseline", it_path("base.json"), "--ignore-param", "slowdown_pct",
                          "--fail-on-regression", "--out", it_path("slow2.json"), NULL};
    cJSON *d;
    const cJSON *c;

    (void)state;
    it_run(&p, args);
    it_expect_code(&p, 5);
    it_assert_has(p.out, "confirmed: [+");
    it_assert_has(p.err, "no --baseline-plugins: weaker");
    d = it_load_json(it_path("slow2.json"));
    c = cJSON_GetObjectItemCaseSensitive(time_metric(first_verdict(d)), "confirmation");
    assert_true(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(c, "confirmed")));
    assert_true(cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(c, "paired")));
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(c, "candidate_values")),
                     12);
    cJSON_Delete(d);
    tp_proc_free(&p);
}

static void test_abba_with_same_build_is_not_confirmed(void **state)
{
    /* The baseline build is the same plugin: interleaved pairs run the same
       (slowed) case on both sides, so the first verdict does not hold. */
    char plugins[1024];
    tp_proc p;
    const char *args[] = {"run", it_path("slow.yaml"), "--results-dir", it_path("res"),
                          "--baseline", "main", "--ignore-param", "slowdown_pct",
                          "--fail-on-regression", "--baseline-plugins", plugins, "--out",
                          it_path("slow3.json"), NULL};
    cJSON *d;
    const cJSON *m;
    const cJSON *c;

    (void)state;
    snprintf(plugins, sizeof(plugins), "%s/plugins", it_env("BHOST_BUILD_ROOT"));
    it_run(&p, args);
    it_expect_code(&p, 0);
    it_assert_has(p.out, "not confirmed: [");
    it_assert_has(p.out, "ABBA, 12 pairs");
    d = it_load_json(it_path("slow3.json"));
    m = time_metric(first_verdict(d));
    assert_string_equal(it_str_of(m, "initial_verdict"), "regressed");
    assert_string_not_equal(it_str_of(m, "verdict"), "regressed");
    c = cJSON_GetObjectItemCaseSensitive(m, "confirmation");
    assert_true(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(c, "paired")));
    assert_true(cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(c, "confirmed")));
    assert_int_equal(cJSON_GetObjectItemCaseSensitive(c, "pairs")->valueint, 12);
    assert_string_equal(it_str_of(c, "test"), "wilcoxon-exact");
    cJSON_Delete(d);
    tp_proc_free(&p);
}

static void test_compare_self(void **state)
{
    /* A result against itself: shift exactly 0, p 1, never a change. */
    tp_proc p;
    const char *args[] = {"compare", it_path("base.json"), it_path("base.json"), "--json", NULL};
    cJSON *d;
    const cJSON *m;
    const char *v;

    (void)state;
    it_run(&p, args);
    it_expect_code(&p, 0);
    d = cJSON_Parse(p.out);
    assert_non_null(d);
    assert_string_equal(it_str_of(d, "schema"), "bhost.comparison/1");
    m = time_metric(cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(d, "cases"), 0));
    assert_true(cJSON_GetObjectItemCaseSensitive(m, "change")->valuedouble == 0.0);
    assert_true(cJSON_GetObjectItemCaseSensitive(m, "p")->valuedouble == 1.0);
    v = it_str_of(m, "verdict");
    assert_true(strcmp(v, "no change") == 0 || strcmp(v, "inconclusive") == 0);
    cJSON_Delete(d);
    tp_proc_free(&p);
}

static void test_compare_lines_out_and_fail(void **state)
{
    tp_proc p;
    const char *args[] = {"compare",        it_path("base.json"), it_path("slow1.json"),
                          "--ignore-param", "slowdown_pct",  "--out",
                          it_path("cmp.json"),   "--fail-on-regression", NULL};
    cJSON *d;

    (void)state;
    it_run(&p, args);
    it_expect_code(&p, 5);
    it_assert_has(p.out, "selftest/spin[work=2000,slowdown_pct=300]");
    it_assert_has(p.out, "regressed (critical)");
    it_assert_has(p.out, "compared 1 case, 1 test (BH fdr 0.05): 1 regressed (1 critical");
    d = it_load_json(it_path("cmp.json"));
    assert_string_equal(it_str_of(d, "schema"), "bhost.comparison/1");
    cJSON_Delete(d);
    tp_proc_free(&p);
    /* Without --ignore-param the ids differ: one new, one missing. */
    {
        const char *a2[] = {"compare", it_path("base.json"), it_path("slow1.json"), NULL};

        it_run(&p, a2);
        it_expect_code(&p, 0);
        it_assert_has(p.out, "0 regressed");
        it_assert_has(p.out, "1 new, 1 missing");
        tp_proc_free(&p);
    }
}

static void test_compare_refuses_incomparable(void **state)
{
    tp_proc p;
    cJSON *d = it_load_json(it_path("base.json"));
    char *text;
    const char *args[] = {"compare", it_path("base.json"), it_path("other.json"), NULL};
    const char *forced[] = {"compare", it_path("base.json"), it_path("other.json"), "--force",
                            "--json", NULL};
    cJSON *out;

    (void)state;
    cJSON_ReplaceItemInObjectCaseSensitive(
        cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(d, "system"), "cpu"),
        "model", cJSON_CreateString("Imaginary CPU 9000"));
    text = cJSON_Print(d);
    it_write(it_path("other.json"), text);
    free(text);
    it_run(&p, args);
    it_expect_code(&p, 2);
    it_assert_has(p.err, "system fingerprints differ: cpu.model");
    it_assert_has(p.err, "Imaginary CPU 9000");
    it_assert_has(p.err, "use --force");
    tp_proc_free(&p);
    it_run(&p, forced);
    it_expect_code(&p, 0);
    out = cJSON_Parse(p.out);
    assert_non_null(out);
    assert_true(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(out, "forced")));
    it_assert_has(it_str_of(out, "system_diff"), "cpu.model");
    cJSON_Delete(out);
    tp_proc_free(&p);
    /* Another config's result. */
    cJSON_ReplaceItemInObjectCaseSensitive(
        cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(d, "run"), "config"),
        "name", cJSON_CreateString("nightly"));
    text = cJSON_Print(d);
    it_write(it_path("other.json"), text);
    free(text);
    it_run(&p, args);
    it_expect_code(&p, 2);
    it_assert_has(p.err, "different configs ('cmp' != 'nightly')");
    tp_proc_free(&p);
    cJSON_Delete(d);
}

static void test_bad_files(void **state)
{
    tp_proc p;
    const char *missing[] = {"compare", it_path("base.json"), it_path("nope.json"), NULL};
    const char *bad[] = {"compare", it_path("bad.json"), it_path("base.json"), NULL};
    const char *notres[] = {"compare", it_path("base.json"), it_path("notres.json"), NULL};
    const char *nobase[] = {"run", it_path("slow.yaml"), "--results-dir", it_path("res"),
                            "--baseline", "never-saved", NULL};

    (void)state;
    it_run(&p, missing);
    it_expect_code(&p, 4);
    it_assert_has(p.err, "nope.json");
    assert_int_equal(it_count_lines(p.err), 1);
    tp_proc_free(&p);
    it_write(it_path("bad.json"), "{\"schema\": \"bhost.result/1\",\n \"run\": {,}\n");
    it_run(&p, bad);
    it_expect_code(&p, 4);
    it_assert_has(p.err, "bad.json:2: not valid JSON");
    assert_int_equal(it_count_lines(p.err), 1);
    tp_proc_free(&p);
    it_write(it_path("notres.json"), "{\"schema\": \"other/1\"}");
    it_run(&p, notres);
    it_expect_code(&p, 4);
    it_assert_has(p.err, "notres.json: expected \"schema\": \"bhost.result/1\"");
    tp_proc_free(&p);
    it_run(&p, nobase);
    it_expect_code(&p, 4);
    it_assert_has(p.err, "res/cmp/baselines/never-saved.json");
    assert_int_equal(it_count_lines(p.err), 1);
    tp_proc_free(&p);
}

/* Writes base.json with field (a path inside its first case's first run,
 * or the case's status when sample < 0) replaced by value, to file. */
static void write_garbled(const char *file, int sample, int slot, cJSON *value)
{
    cJSON *d = it_load_json(it_path("base.json"));
    cJSON *c = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(d, "cases"), 0);
    cJSON *run = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(c, "runs"), 0);
    char *text;

    if (sample < 0)
        cJSON_ReplaceItemInObjectCaseSensitive(c, "status", value);
    else
        cJSON_ReplaceItemInArray(
            cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(run, "samples"), sample), slot,
            value);
    text = cJSON_Print(d);
    it_write(it_path(file), text);
    cJSON_free(text);
    cJSON_Delete(d);
}

/* Runs args; exit 4 and exactly the one line want on stderr. */
static void expect_refused(const char *const *args, const char *want)
{
    tp_proc p;

    it_run(&p, args);
    it_expect_code(&p, 4);
    it_assert_has(p.err, want);
    assert_int_equal(it_count_lines(p.err), 1);
    tp_proc_free(&p);
}

/* Samples and statuses that are garbage are refused, naming the file and
 * the field, by compare and by run --baseline (issue 20, row 13). */
static void test_garbage_samples(void **state)
{
    const char *cmp[] = {"compare", it_path("garbled.json"), it_path("base.json"), NULL};
    const char *gate[] = {"run",        it_path("base.yaml"),    "--results-dir", it_path("res"),
                          "--baseline", it_path("garbled.json"), NULL};
    char want[1200];

    (void)state;
    write_garbled("garbled.json", 2, 1, cJSON_CreateString("abc"));
    snprintf(want, sizeof(want),
             "%s: cases[0].runs[0].samples[2][1]: expected a non-negative number of "
             "nanoseconds, got \"abc\"",
             it_path("garbled.json"));
    expect_refused(cmp, want);
    expect_refused(gate, want);
    write_garbled("garbled.json", 0, 1, cJSON_CreateNumber(-5));
    expect_refused(cmp, "garbled.json: cases[0].runs[0].samples[0][1]: expected a non-negative "
                        "number of nanoseconds, got -5");
    write_garbled("garbled.json", 1, 0, cJSON_CreateNumber(0));
    expect_refused(cmp, "garbled.json: cases[0].runs[0].samples[1][0]: expected a whole number of "
                        "iterations >= 1, got 0");
    write_garbled("garbled.json", -1, 0, cJSON_CreateString("great"));
    expect_refused(cmp, "garbled.json: cases[0].status: expected one of ok, skipped, unsupported, "
                        "failed, invalid, crashed, timeout, oom, got \"great\"");
}

static void test_bad_regression_section(void **state)
{
    tp_proc p;
    const char *args[] = {"run", it_path("badreg.yaml"), "--results-dir", it_path("res"), NULL};
    const char *cmp[] = {"compare", it_path("base.json"), it_path("base.json"), "--config",
                         it_path("badreg.yaml"), NULL};

    (void)state;
    write_config("badreg.yaml", -1, "regression:\n  noise_flor: 2%\n");
    it_run(&p, args);
    it_expect_code(&p, 3);
    it_assert_has(p.err, "badreg.yaml:9:15: regression.noise_flor: unknown key 'noise_flor' (did "
                         "you mean 'noise_floor'?)");
    assert_int_equal(it_count_lines(p.err), 1);
    tp_proc_free(&p);
    it_run(&p, cmp);
    it_expect_code(&p, 3);
    it_assert_has(p.err, "did you mean 'noise_floor'");
    tp_proc_free(&p);
}

static void test_concurrent_save_baseline(void **state)
{
    tp_proc a, b;
    const char *args[] = {"run", it_path("base.yaml"), "--results-dir", it_path("res"),
                          "--save-baseline", "twice", "--quiet", "--runs", "2", NULL};
    cJSON *d;

    (void)state;
    it_start(&a, args);
    it_start(&b, args);
    tp_finish(&a);
    tp_finish(&b);
    it_expect_code(&a, 0);
    it_expect_code(&b, 0);
    d = it_load_json(it_path("res/cmp/baselines/twice.json"));
    assert_string_equal(it_str_of(d, "schema"), "bhost.result/1");
    cJSON_Delete(d);
    tp_proc_free(&a);
    tp_proc_free(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_saved_baseline_is_a_result),
        cmocka_unit_test(test_regression_fails_without_confirm),
        cmocka_unit_test(test_regression_confirmed_by_rerun),
        cmocka_unit_test(test_abba_with_same_build_is_not_confirmed),
        cmocka_unit_test(test_compare_self),
        cmocka_unit_test(test_compare_lines_out_and_fail),
        cmocka_unit_test(test_compare_refuses_incomparable),
        cmocka_unit_test(test_bad_files),
        cmocka_unit_test(test_garbage_samples),
        cmocka_unit_test(test_bad_regression_section),
        cmocka_unit_test(test_concurrent_save_baseline),
    };

    return cmocka_run_group_tests(tests, setup, it_group_teardown);
}
