// SPDX-License-Identifier: MIT
/* Integration tests for `bhost history`: the real binary ($BHOST_EXE) on
 * results folders written here (a step series, malformed files, filters,
 * baselines) and on result files written by `bhost run` itself. Asserts
 * exit codes, messages, change-point dates and JSON structure; nothing
 * depends on timings. */
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
#include <sys/stat.h>

/* ---- result folders written here -------------------------------------- */

/* One result file of config `config` started on day `day` of March 2026
 * with cases "k/a" (three runs whose samples of 4 iterations take a_ns
 * times 1, 1.004, 0.996 per iteration) and "k/b" (flat, 50 ns). */
static void write_day(const char *dir, const char *config, int day, double a_ns)
{
    char path[1300], text[2048];

    snprintf(path, sizeof(path), "%s/r-%02d.json", dir, day % 100);
    snprintf(text, sizeof(text),
             "{\"schema\":\"bhost.result/1\",\"run\":{\"started_at\":"
             "\"2026-03-%02dT02:00:00Z\",\"config\":{\"name\":\"%s\"}},\"cases\":["
             "{\"id\":\"k/a\",\"status\":\"ok\",\"runs\":["
             "{\"status\":\"ok\",\"samples\":[[4,%.6f],[4,%.6f]]},"
             "{\"status\":\"ok\",\"samples\":[[4,%.6f]]},"
             "{\"status\":\"ok\",\"samples\":[[4,%.6f]]}]},"
             "{\"id\":\"k/b\",\"status\":\"ok\",\"runs\":["
             "{\"status\":\"ok\",\"samples\":[[1,%.6f]]}]}]}",
             day, config, 4 * a_ns, 4 * a_ns, 4 * a_ns * 1.004, 4 * a_ns * 0.996,
             50.0 + 0.1 * (double)(day % 3));
    it_write(path, text);
}

/* nightly/: 24 days of k/a at ~100 ns with +-0.3% wiggle, 112 ns from
 * day 13 on, so the change point is dated 2026-03-13. */
static const char *make_step_folder(const char *name)
{
    const char *root = it_path(name);
    char dir[1100];

    mkdir(root, 0755);
    snprintf(dir, sizeof(dir), "%s/nightly", root);
    mkdir(dir, 0755);
    for (int day = 1; day <= 24; day++) {
        double wiggle = 1.0 + 0.003 * (double)((day * 7) % 5 - 2) / 2.0;

        write_day(dir, "nightly", day, (day >= 13 ? 112.0 : 100.0) * wiggle);
    }
    return root;
}

/* ---- tests ---------------------------------------------------------------- */

static void test_step_text(void **state)
{
    const char *root = make_step_folder("step_text");
    const char *args[] = {"history", root, NULL};
    tp_proc p;

    (void)state;
    it_run(&p, args);
    it_expect_code(&p, 0);
    it_assert_has(p.out, "k/a  [nightly]  24 points");
    it_assert_has(p.out, "change  2026-03-13T02:00:00Z");
    it_assert_has(p.out, "+12.");
    it_assert_has(p.out, "slower");
    it_assert_has(p.out, "k/b  [nightly]");
    it_assert_has(p.out, "no change point");
    it_assert_has(p.out, "newest  2026-03-24T02:00:00Z");
    it_assert_has(p.out, "inside the 99% PI");
    it_assert_has(p.out, "2 series, 1 change point");
    assert_int_equal(strlen(p.err), 0);
    tp_proc_free(&p);
}

static void test_step_json_deterministic(void **state)
{
    const char *root = make_step_folder("step_json");
    const char *args[] = {"history", root, "--json", NULL};
    tp_proc p, q;
    cJSON *doc;
    const cJSON *series, *a, *cp;

    (void)state;
    it_run(&p, args);
    it_expect_code(&p, 0);
    it_run(&q, args);
    it_expect_code(&q, 0);
    assert_string_equal(p.out, q.out);
    doc = it_parse_json(p.out, "bhost history --json output");
    assert_string_equal(it_member(doc, "schema")->valuestring, "bhost.history/1");
    assert_int_equal(it_member(it_member(doc, "files"), "read")->valueint, 24);
    series = it_member(doc, "series");
    assert_int_equal(cJSON_GetArraySize(series), 2);
    a = cJSON_GetArrayItem(series, 0);
    assert_string_equal(it_member(a, "case")->valuestring, "k/a");
    assert_string_equal(it_member(a, "config")->valuestring, "nightly");
    assert_int_equal(it_member(a, "points")->valueint, 24);
    assert_int_equal(cJSON_GetArraySize(it_member(a, "change_points")), 1);
    cp = cJSON_GetArrayItem(it_member(a, "change_points"), 0);
    assert_int_equal(it_member(cp, "index")->valueint, 12);
    assert_string_equal(it_member(cp, "date")->valuestring, "2026-03-13T02:00:00Z");
    assert_non_null(strstr(it_member(cp, "file")->valuestring, "r-13.json"));
    assert_true(it_member(cp, "change")->valuedouble > 0.11 &&
                it_member(cp, "change")->valuedouble < 0.13);
    assert_true(it_member(cp, "p")->valuedouble < 0.001);
    assert_string_equal(it_member(it_member(a, "newest"), "status")->valuestring, "inside");
    assert_int_equal(it_member(it_member(a, "newest"), "reference_points")->valueint, 11);
    cJSON_Delete(doc);
    tp_proc_free(&p);
    tp_proc_free(&q);
}

/* A malformed file: one warning line naming it, then the rest; --strict
 * makes it fatal (exit 4). baselines/ is not read. */
static void test_malformed_and_baselines(void **state)
{
    const char *root = make_step_folder("malformed");
    const char *args[] = {"history", root, NULL};
    const char *strict[] = {"history", root, "--strict", NULL};
    char path[1200];
    tp_proc p;

    (void)state;
    snprintf(path, sizeof(path), "%s/nightly/zz-broken.json", root);
    it_write(path, "{\"schema\": \"bhost.result/1\", \"run\": ");
    snprintf(path, sizeof(path), "%s/nightly/baselines", root);
    mkdir(path, 0755);
    write_day(path, "nightly", 28, 1000.0);
    it_run(&p, args);
    it_expect_code(&p, 0);
    assert_int_equal(it_count_lines(p.err), 1);
    it_assert_has(p.err, "warning: ");
    it_assert_has(p.err, "zz-broken.json");
    it_assert_has(p.out, "24 points");
    it_assert_has(p.out, "1 change point");
    tp_proc_free(&p);
    it_run(&p, strict);
    it_expect_code(&p, 4);
    it_assert_has(p.err, "zz-broken.json");
    assert_int_equal(strlen(p.out), 0);
    tp_proc_free(&p);
}

static void test_filters(void **state)
{
    const char *root = make_step_folder("filters");
    const char *bench[] = {"history", root, "--bench", "k/b*", "--json", NULL};
    const char *config[] = {"history", root, "--config", "other", "--json", NULL};
    char dir[1100];
    tp_proc p;
    cJSON *doc;

    (void)state;
    snprintf(dir, sizeof(dir), "%s/other", root);
    mkdir(dir, 0755);
    write_day(dir, "other", 1, 10.0);
    write_day(dir, "other", 2, 10.0);
    it_run(&p, bench);
    it_expect_code(&p, 0);
    doc = it_parse_json(p.out, "bhost history --json output");
    assert_int_equal(cJSON_GetArraySize(it_member(doc, "series")), 2); /* k/b of both configs */
    assert_string_equal(
        it_member(cJSON_GetArrayItem(it_member(doc, "series"), 0), "case")->valuestring, "k/b");
    cJSON_Delete(doc);
    tp_proc_free(&p);
    it_run(&p, config);
    it_expect_code(&p, 0);
    doc = it_parse_json(p.out, "bhost history --json output");
    assert_int_equal(it_member(it_member(doc, "files"), "read")->valueint, 2);
    assert_int_equal(it_member(it_member(doc, "files"), "other_config")->valueint, 24);
    assert_int_equal(cJSON_GetArraySize(it_member(doc, "series")), 2);
    /* two points: one reference point, too few for an interval */
    assert_string_equal(
        it_member(it_member(cJSON_GetArrayItem(it_member(doc, "series"), 0), "newest"), "status")
            ->valuestring,
        "none");
    cJSON_Delete(doc);
    tp_proc_free(&p);
}

static void test_errors(void **state)
{
    const char *missing[] = {"history", "/nonexistent/bhost-history", NULL};
    const char *noarg[] = {"history", NULL};
    const char *badwin[] = {"history", it_dir(), "--window", "4", NULL};
    const char *badpct[] = {"history", it_dir(), "--min-change", "abc", NULL};
    const char *badtest[] = {"history", it_dir(), "--test", "z", NULL};
    const char *help[] = {"history", "--help", NULL};
    tp_proc p;

    (void)state;
    it_run(&p, missing);
    it_expect_code(&p, 4);
    it_assert_has(p.err, "/nonexistent/bhost-history");
    assert_int_equal(it_count_lines(p.err), 1);
    tp_proc_free(&p);
    it_run(&p, noarg);
    it_expect_code(&p, 2);
    tp_proc_free(&p);
    it_run(&p, badwin);
    it_expect_code(&p, 2);
    it_assert_has(p.err, "--window");
    tp_proc_free(&p);
    it_run(&p, badpct);
    it_expect_code(&p, 2);
    it_assert_has(p.err, "--min-change");
    tp_proc_free(&p);
    it_run(&p, badtest);
    it_expect_code(&p, 2);
    tp_proc_free(&p);
    it_run(&p, help);
    it_expect_code(&p, 0);
    it_assert_has(p.out, "usage: bhost history RESULTS_DIR");
    tp_proc_free(&p);
}

/* Files written by `bhost run` read back: every ok case becomes a series
 * of two points, no warning. */
static void test_real_results(void **state)
{
    const char *root = it_path("real");
    char config[1100];
    const char *runargs[] = {"run", config, "--results-dir", root, "--quiet", NULL};
    const char *args[] = {"history", root, "--json", NULL};
    tp_proc p;
    cJSON *doc;
    const cJSON *s;
    int n = 0;

    (void)state;
    snprintf(config, sizeof(config), "%s/good.yaml", it_env("BHOST_ITEST_CONFIGS"));
    for (int i = 0; i < 2; i++) {
        it_run(&p, runargs);
        it_expect_code(&p, 0);
        tp_proc_free(&p);
    }
    it_run(&p, args);
    it_expect_code(&p, 0);
    assert_int_equal(strlen(p.err), 0);
    doc = it_parse_json(p.out, "bhost history --json output");
    assert_int_equal(it_member(it_member(doc, "files"), "read")->valueint, 2);
    cJSON_ArrayForEach(s, it_member(doc, "series")) {
        assert_string_equal(it_member(s, "config")->valuestring, "itest_good");
        assert_int_equal(it_member(s, "points")->valueint, 2);
        assert_int_equal(cJSON_GetArraySize(it_member(s, "change_points")), 0);
        n++;
    }
    assert_true(n >= 3);
    cJSON_Delete(doc);
    tp_proc_free(&p);
}

/* ---- fixture ---------------------------------------------------------- */

static int group_setup(void **state)
{
    (void)state;
    return it_setup("bhost_ihist", 0) ? 0 : -1;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_step_text),
        cmocka_unit_test(test_step_json_deterministic),
        cmocka_unit_test(test_malformed_and_baselines),
        cmocka_unit_test(test_filters),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_real_results),
    };

    return cmocka_run_group_tests(tests, group_setup, it_group_teardown);
}
