// SPDX-License-Identifier: MIT
/* Budgets (expect:), CPU utilisation and the environment checks through
 * the real bhost binary ($BHOST_EXE) on selftest/spin: an impossible
 * budget (time < 1ns) fails the gate with exit 5 and its message, with or
 * without a baseline; a budget every run meets (time < 10s) passes; a
 * budget on a metric the case does not report fails rather than passing;
 * without --fail-on-regression a missed budget is shown but does not
 * fail; a malformed budget is one line naming the file, line and column
 * (exit 3); every run records its CPU time and environment, with flags
 * that are what the documented rule gives on the recorded values. The
 * budget's status is checked against the recorded interval, not a time
 * this test assumes: nothing here asserts a timing. */
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

/* Writes a config of selftest/spin (work 1000, 6 runs: a 95% interval)
 * with expect_yaml as the suite's expect: map; returns its path. */
static const char *write_config(const char *name, const char *expect_yaml)
{
    char text[1024];

    snprintf(text, sizeof(text),
             "schema: 1\n"
             "name: budgets\n"
             "defaults: {warmup: 0, sample_time: 1ms, samples: 3, runs: 6, seed: 7}\n"
             "suites:\n"
             "  - plugin: selftest\n"
             "    include: [spin]\n"
             "    params: {work: 1000}\n"
             "    expect: %s\n",
             expect_yaml);
    it_write(it_path(name), text);
    return it_path(name);
}

/* bhost run config --out out [extra]; the finished process in *p. */
static void run_config(tp_proc *p, const char *config, const char *out, const char *extra)
{
    const char *args[] = {"run",          config,  "--results-dir",
                          it_path("res"), "--out", it_path(out),
                          "--no-store",   extra,   NULL};

    it_run(p, args);
}

/* The number member key of o. */
static double num_of(const cJSON *o, const char *key)
{
    const cJSON *n = it_member(o, key);

    assert_true(cJSON_IsNumber(n));
    return n->valuedouble;
}

/* The checked budget i of the spin case in doc. */
static const cJSON *budget(const cJSON *doc, int i)
{
    const cJSON *c = it_expect_case(doc, "selftest/spin[work=1000]", "ok", NULL);
    const cJSON *x = cJSON_GetArrayItem(it_member(c, "expect"), i);

    assert_non_null(x);
    return x;
}

static int setup(void **state)
{
    (void)state;
    return it_setup("bh_itest_budgets", 0) ? 0 : -1;
}

/* time < 1ns on spin: missed, and --fail-on-regression (no baseline)
 * exits 5 naming it; the interval recorded is wholly above 1 ns, which is
 * what "missed" means. */
static void test_impossible_budget_fails_the_gate(void **state)
{
    tp_proc p;
    cJSON *doc;
    const cJSON *x, *ci;

    (void)state;
    run_config(&p, write_config("fail.yaml", "{time: \"< 1ns\"}"), "fail.json",
               "--fail-on-regression");
    it_expect_code(&p, 5);
    it_assert_has(p.out, "budgets:\n  FAIL     selftest/spin[work=1000]  time < 1ns: missed, "
                         "median ");
    it_assert_has(p.out, "1 budget: 1 missed; a missed budget fails the gate "
                         "(--fail-on-regression exits 5)");
    doc = it_load_json(it_path("fail.json"));
    x = budget(doc, 0);
    assert_string_equal(it_str_of(x, "status"), "missed");
    assert_string_equal(it_str_of(x, "key"), "time");
    assert_string_equal(it_str_of(x, "op"), "<");
    assert_true(num_of(x, "target") == 1);
    assert_true(num_of(x, "runs") == 6);
    ci = it_member(x, "ci");
    assert_int_equal(cJSON_GetArraySize(ci), 2);
    assert_true(cJSON_GetArrayItem(ci, 0)->valuedouble >= 1);
    assert_true(cJSON_GetArrayItem(ci, 0)->valuedouble <= num_of(x, "value"));
    assert_true(num_of(x, "value") <= cJSON_GetArrayItem(ci, 1)->valuedouble);
    cJSON_Delete(doc);
    tp_proc_free(&p);
}

/* The reports next to the result carry the budgets: Markdown's table,
 * the HTML section and JUnit's failure of type budget. */
static void test_budgets_in_reports(void **state)
{
    tp_proc p;
    char *md, *html, *xml;

    (void)state;
    it_write(it_path("rep.yaml"),
             "schema: 1\n"
             "name: budgets\n"
             "defaults: {warmup: 0, sample_time: 1ms, samples: 3, runs: 6, seed: 7}\n"
             "output: [markdown, html, junit]\n"
             "suites:\n"
             "  - plugin: selftest\n"
             "    include: [spin]\n"
             "    params: {work: 1000}\n"
             "    expect: {time: \"< 1ns\"}\n");
    run_config(&p, it_path("rep.yaml"), "rep.json", "-q");
    it_expect_code(&p, 0);
    md = tp_slurp(it_path("rep.md"));
    html = tp_slurp(it_path("rep.html"));
    xml = tp_slurp(it_path("rep.xml"));
    it_assert_has(md, "### Budgets\n\n| case | budget | status | median | 95% CI | why |");
    it_assert_has(md, "| selftest/spin[work=1000] | time &lt; 1ns | missed | ");
    it_assert_has(html, "<section id=\"budgets\"><h2>Budgets</h2>");
    it_assert_has(html, "<td class=\"bad\">missed</td>");
    it_assert_has(xml, "<failure type=\"budget\" message=\"time &lt; 1ns: missed, median ");
    free(md);
    free(html);
    free(xml);
    tp_proc_free(&p);
}

/* The same run without --fail-on-regression: shown, exit 0; with -q the
 * failing budget goes to stderr. */
static void test_missed_budget_without_gate(void **state)
{
    tp_proc p;

    (void)state;
    run_config(&p, write_config("show.yaml", "{time: \"< 1ns\"}"), "show.json", "-q");
    it_expect_code(&p, 0);
    it_assert_has(p.err, "FAIL     selftest/spin[work=1000]  time < 1ns: missed");
    tp_proc_free(&p);
}

/* time < 10s and items_per_s > 1 are met by every run of spin (its
 * iteration is microseconds): exit 0 under the gate. */
static void test_budget_met_passes(void **state)
{
    tp_proc p;
    cJSON *doc;

    (void)state;
    run_config(&p, write_config("pass.yaml", "{time: \"< 10s\", items_per_s: \"> 1\"}"),
               "pass.json", "--fail-on-regression");
    it_expect_code(&p, 0);
    it_assert_has(p.out, "  ok       selftest/spin[work=1000]  time < 10s: met, median ");
    it_assert_has(p.out, "2 budgets: 2 met\n");
    doc = it_load_json(it_path("pass.json"));
    assert_string_equal(it_str_of(budget(doc, 0), "status"), "met");
    assert_string_equal(it_str_of(budget(doc, 1), "status"), "met");
    assert_string_equal(it_str_of(budget(doc, 1), "unit"), "items/s");
    cJSON_Delete(doc);
    tp_proc_free(&p);
}

/* A budget on a metric spin does not report fails the gate with the
 * names it does report, never passes silently. */
static void test_unknown_metric_fails(void **state)
{
    tp_proc p;
    cJSON *doc;

    (void)state;
    run_config(&p, write_config("unknown.yaml", "{gflops: \"> 100\"}"), "unknown.json",
               "--fail-on-regression");
    it_expect_code(&p, 5);
    it_assert_has(p.out, "gflops > 100: unknown metric (6 runs); the case reports no metric "
                         "'flop_per_s' (it reports: time, items_per_s");
    doc = it_load_json(it_path("unknown.json"));
    assert_string_equal(it_str_of(budget(doc, 0), "status"), "unknown metric");
    cJSON_Delete(doc);
    tp_proc_free(&p);
}

/* With a baseline too: a run saved as the baseline, then the same config
 * compared with it under the gate: the budget fails it (exit 5) whatever
 * the comparison says, and bhost compare --fail-on-regression of the two
 * files exits 5 on the candidate's missed budget. */
static void test_budget_with_baseline(void **state)
{
    tp_proc p;
    const char *cfg = write_config("base.yaml", "{time: \"< 1ns\"}");
    const char *save[] = {
        "run",        cfg,  "--results-dir",   it_path("res"), "--out", it_path("base.json"),
        "--no-store", "-q", "--save-baseline", "b1",           NULL};
    const char *gate[] = {"run",
                          cfg,
                          "--results-dir",
                          it_path("res"),
                          "--out",
                          it_path("cand.json"),
                          "--no-store",
                          "--baseline",
                          "b1",
                          "--no-confirm",
                          "--fail-on-regression",
                          NULL};
    const char *cmp[] = {"compare", it_path("base.json"), it_path("cand.json"),
                         "--fail-on-regression", NULL};

    (void)state;
    it_run(&p, save);
    it_expect_code(&p, 0);
    tp_proc_free(&p);
    it_run(&p, gate);
    it_expect_code(&p, 5);
    it_assert_has(p.out, "FAIL     selftest/spin[work=1000]  time < 1ns: missed");
    it_assert_has(p.out, "compared with ");
    tp_proc_free(&p);
    it_run(&p, cmp);
    it_expect_code(&p, 5);
    it_assert_has(p.out, "FAIL     selftest/spin[work=1000]  time < 1ns: missed");
    tp_proc_free(&p);
}

/* A shard's missed budget fails bhost merge --fail-on-regression (exit 5,
 * the budget's line); without the flag the merge exits 0. */
static void test_budget_through_merge(void **state)
{
    tp_proc p;
    const char *cfg = write_config("shard.yaml", "{time: \"< 1ns\"}");
    const char *shard[] = {"run", cfg, "--results-dir", it_path("res"), "--out",
                           it_path("s1.json"), "--no-store", "-q", "--shard", "1/1", NULL};
    const char *gate[] = {"merge", it_path("m1.json"), it_path("s1.json"),
                          "--fail-on-regression", NULL};
    const char *plain[] = {"merge", it_path("m2.json"), it_path("s1.json"), NULL};

    (void)state;
    it_run(&p, shard);
    it_expect_code(&p, 0);
    tp_proc_free(&p);
    it_run(&p, gate);
    it_expect_code(&p, 5);
    it_assert_has(p.out, "FAIL     selftest/spin[work=1000]  time < 1ns: missed");
    tp_proc_free(&p);
    it_run(&p, plain);
    it_expect_code(&p, 0);
    tp_proc_free(&p);
}

/* A malformed budget: one line, file:line:col and what was expected,
 * exit 3, before anything runs. */
static void test_bad_budget(void **state)
{
    tp_proc p;
    char want[512];

    (void)state;
    run_config(&p, write_config("bad.yaml", "{time: fast}"), "bad.json", "-q");
    it_expect_code(&p, 3);
    snprintf(want, sizeof(want),
             "%s:8:20: suites[0].expect.time: expected \"< DURATION\" or \"> DURATION\" "
             "(also <=, >=; a duration such as 10us), got \"fast\"",
             it_path("bad.yaml"));
    it_assert_has(p.err, want);
    assert_int_equal(it_count_lines(p.err), 1);
    tp_proc_free(&p);
}

/* Every run records its CPU time and its environment; the flags are what
 * the documented rule gives on the recorded values (env_check.h); the
 * case summarises both and the console says so. */
static void test_environment_recorded(void **state)
{
    tp_proc p;
    cJSON *doc;
    const cJSON *c, *r, *env, *cu;
    int n = 0;

    (void)state;
    run_config(&p, write_config("env.yaml", "{time: \"< 10s\"}"), "env.json", "-v");
    it_expect_code(&p, 0);
    it_assert_has(p.out, "\nenvironment: governor ");
    it_assert_has(p.out, ", cpu ");
    it_assert_has(p.out, "\n  cpu utilisation: median ");
    doc = it_load_json(it_path("env.json"));
    c = it_expect_case(doc, "selftest/spin[work=1000]", "ok", NULL);
    cJSON_ArrayForEach(r, it_member(c, "runs")) {
        const cJSON *cpu = it_member(r, "cpu");
        const cJSON *f;
        double ref, st, en, noise, load1, cpus;
        int loaded = 0, fell = 0;

        assert_true(num_of(cpu, "user_ns") + num_of(cpu, "sys_ns") > 0);
        assert_true(num_of(cpu, "utilisation") > 0);
        env = it_member(r, "environment");
        ref = num_of(env, "calibration_ref_ns");
        st = num_of(env, "calibration_start_ns");
        en = num_of(env, "calibration_end_ns");
        noise = num_of(env, "calibration_noise");
        cpus = num_of(env, "cpus");
        load1 = num_of(env, "load1");
        assert_true(ref > 0 && st > 0 && en > 0 && cpus >= 1);
        cJSON_ArrayForEach(f, it_member(env, "flags")) {
            loaded |= strcmp(f->valuestring, "loaded") == 0;
            fell |= strcmp(f->valuestring, "clock_fell") == 0;
        }
        assert_int_equal(loaded, load1 > cpus);
        assert_int_equal(fell, fmax(st, en) / ref - 1 > 0.05 + noise);
        n++;
    }
    assert_int_equal(n, 6);
    cu = it_member(c, "cpu_utilisation");
    assert_true(num_of(cu, "runs") == 6);
    assert_true(num_of(cu, "min") <= num_of(cu, "median"));
    assert_true(num_of(cu, "median") <= num_of(cu, "max"));
    env = it_member(c, "environment");
    assert_true(num_of(env, "runs_flagged") <= 6);
    assert_true(cJSON_IsArray(it_member(env, "messages")));
    cJSON_Delete(doc);
    tp_proc_free(&p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_impossible_budget_fails_the_gate),
        cmocka_unit_test(test_missed_budget_without_gate),
        cmocka_unit_test(test_budgets_in_reports),
        cmocka_unit_test(test_budget_met_passes),
        cmocka_unit_test(test_unknown_metric_fails),
        cmocka_unit_test(test_budget_with_baseline),
        cmocka_unit_test(test_budget_through_merge),
        cmocka_unit_test(test_bad_budget),
        cmocka_unit_test(test_environment_recorded),
    };

    return cmocka_run_group_tests(tests, setup, it_group_teardown);
}
