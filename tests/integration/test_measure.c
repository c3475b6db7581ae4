// SPDX-License-Identifier: MIT
/* Integration tests of measure: instructions (README "Counting
 * instructions"): the real bhost binary counts the selftest spin
 * benchmark under valgrind's callgrind. Counts are deterministic, so the
 * assertions are exact or within 0.1%; nothing asserts on timings. Where
 * valgrind is not installed the counting tests are skipped, and the test
 * of a machine without valgrind still runs (PATH emptied for bhost). */
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
#include <unistd.h>

static int have_valgrind;

/* A spin config named cnt with work 2000 and slowdown_pct pct, counting
 * instructions: 5 runs of 3 samples of 50 iterations. */
static void write_config(const char *file, int pct)
{
    char text[1024];

    snprintf(text, sizeof(text),
             "schema: 1\n"
             "name: cnt\n"
             "defaults: {runs: 5, samples: 3, iterations: 50, seed: 7}\n"
             "suites:\n"
             "  - plugin: selftest\n"
             "    include: [spin]\n"
             "    params: {work: [2000], slowdown_pct: [%d]}\n"
             "    defaults: {measure: instructions}\n",
             pct);
    it_write(it_path(file), text);
}

/* bhost run CONFIG --out OUT --seed SEED, expecting exit 0. */
static void run_config(const char *config, const char *out, const char *seed)
{
    tp_proc p;
    const char *args[] = {"run", it_path(config), "--out", it_path(out), "--seed", seed,
                          "--quiet", NULL};

    it_run(&p, args);
    it_expect_code(&p, 0);
    tp_proc_free(&p);
}

/* True when an executable valgrind is in a folder of PATH. */
static int valgrind_on_path(void)
{
    const char *path = getenv("PATH");
    char buf[4096];

    while (path && *path) {
        size_t len = strcspn(path, ":");

        snprintf(buf, sizeof(buf), "%.*s/valgrind", (int)len, path);
        if (len && access(buf, X_OK) == 0)
            return 1;
        path += len + (path[len] == ':');
    }
    return 0;
}

static int setup(void **state)
{
    (void)state;
    if (!it_setup("bh_itest_measure", 0))
        return -1;
    write_config("base.yaml", 0);
    write_config("slow.yaml", 2);
    have_valgrind = valgrind_on_path();
    if (have_valgrind) {
        run_config("base.yaml", "a1.json", "1");
        run_config("base.yaml", "a2.json", "2");
        run_config("slow.yaml", "b.json", "3");
    }
    return 0;
}

/* The value of metric name in every run of the only case of a result,
 * checking each run is a counted one; returns the first. */
static double counted_value(const cJSON *doc, const char *name)
{
    const cJSON *c = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(doc, "cases"), 0);
    const cJSON *set = it_member(c, "settings");
    const cJSON *r;
    double first = NAN;
    int n = 0;

    assert_string_equal(it_str_of(c, "status"), "ok");
    assert_string_equal(it_str_of(set, "measure"), "instructions");
    assert_int_equal(it_member(set, "iterations")->valueint, 50);
    cJSON_ArrayForEach(r, it_member(c, "runs")) {
        const cJSON *m;
        double v = NAN;

        assert_string_equal(it_str_of(r, "timing"), "instructions");
        assert_int_equal(it_member(r, "iters_per_sample")->valueint, 50);
        cJSON_ArrayForEach(m, it_member(r, "metrics")) {
            if (strcmp(it_str_of(m, "name"), name) == 0)
                v = it_member(m, "value")->valuedouble;
        }
        if (!(v >= 0))
            fail_msg("run %d has no metric %s", n, name);
        if (n++ == 0)
            first = v;
        else if (fabs(v - first) > 0.001 * first)
            fail_msg("%s: run %d counted %.3f, run 0 %.3f (beyond 0.1%%)", name, n - 1, v,
                     first);
    }
    assert_int_equal(n, 5);
    return first;
}

static void test_counts_repeat(void **state)
{
    cJSON *a1, *a2;
    double i1, i2;

    (void)state;
    if (!have_valgrind)
        skip();
    a1 = it_load_json(it_path("a1.json"));
    a2 = it_load_json(it_path("a2.json"));
    i1 = counted_value(a1, "instructions");
    i2 = counted_value(a2, "instructions");
    /* 2000 steps of three shifts and three xors, at least 6 instructions a
       step. */
    assert_true(i1 > 6 * 2000);
    if (fabs(i2 - i1) > 0.001 * i1)
        fail_msg("instructions per iteration %.3f then %.3f: beyond 0.1%%", i1, i2);
    assert_true(counted_value(a1, "l1_misses") >= 0);
    assert_true(counted_value(a2, "ll_misses") >= 0);
    cJSON_Delete(a1);
    cJSON_Delete(a2);
}

static void test_slowdown_counted(void **state)
{
    cJSON *a, *b;
    double ratio;

    (void)state;
    if (!have_valgrind)
        skip();
    a = it_load_json(it_path("a1.json"));
    b = it_load_json(it_path("b.json"));
    /* slowdown_pct: 2 is 2040 steps for 2000: 2% more instructions in the
       loop, a few fewer in relative terms for the call around it. */
    ratio = counted_value(b, "instructions") / counted_value(a, "instructions");
    if (!(ratio > 1.018 && ratio < 1.021))
        fail_msg("slowdown_pct 2 counted %.5f times the instructions, expected about 1.02",
                 ratio);
    cJSON_Delete(a);
    cJSON_Delete(b);
}

/* The verdict of metric in a comparison document's only case. */
static const cJSON *metric_verdict(const cJSON *cmp, const char *metric)
{
    const cJSON *c = cJSON_GetArrayItem(it_member(cmp, "cases"), 0);
    const cJSON *m;

    cJSON_ArrayForEach(m, it_member(c, "metrics")) {
        if (strcmp(it_str_of(m, "metric"), metric) == 0)
            return m;
    }
    return NULL;
}

static void test_gate_on_counts(void **state)
{
    tp_proc p;
    const char *slow[] = {"compare",     it_path("a1.json"), it_path("b.json"),
                          "--ignore-param", "slowdown_pct",  "--out",
                          it_path("ab.json"), NULL};
    const char *same[] = {"compare", it_path("a1.json"), it_path("a2.json"), "--out",
                          it_path("aa.json"), NULL};
    cJSON *d;
    const cJSON *m;

    (void)state;
    if (!have_valgrind)
        skip();
    it_run(&p, slow);
    it_expect_code(&p, 0);
    tp_proc_free(&p);
    d = it_load_json(it_path("ab.json"));
    m = metric_verdict(d, "instructions");
    assert_non_null(m);
    assert_string_equal(it_str_of(m, "verdict"), "regressed");
    assert_true(it_member(it_member(m, "thresholds"), "noise_floor")->valuedouble == 0.001);
    /* The time under valgrind is not compared. */
    assert_null(metric_verdict(d, "time"));
    cJSON_Delete(d);
    it_run(&p, same);
    it_expect_code(&p, 0);
    tp_proc_free(&p);
    d = it_load_json(it_path("aa.json"));
    assert_string_equal(it_str_of(metric_verdict(d, "instructions"), "verdict"), "no change");
    assert_int_equal(it_member(it_member(d, "counts"), "regressed")->valueint, 0);
    cJSON_Delete(d);
}

static void test_no_valgrind_is_unsupported(void **state)
{
    tp_proc p;
    const char *args[] = {"run", it_path("base.yaml"), "--out", it_path("none.json"), "--quiet",
                          NULL};
    char *path = getenv("PATH") ? strdup(getenv("PATH")) : NULL;
    cJSON *d;

    (void)state;
    setenv("PATH", "/nonexistent-bin", 1);
    it_run(&p, args);
    if (path)
        setenv("PATH", path, 1);
    free(path);
    it_expect_code(&p, 0);
    tp_proc_free(&p);
    d = it_load_json(it_path("none.json"));
    it_expect_case(d, "selftest/spin[work=2000,slowdown_pct=0]", "unsupported",
                   "measure: instructions needs valgrind");
    cJSON_Delete(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_counts_repeat),
        cmocka_unit_test(test_slowdown_counted),
        cmocka_unit_test(test_gate_on_counts),
        cmocka_unit_test(test_no_valgrind_is_unsupported),
    };

    return cmocka_run_group_tests(tests, setup, it_group_teardown);
}
