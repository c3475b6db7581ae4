// SPDX-License-Identifier: MIT
/* Leaks of host-API memory through the real bhost binary ($BHOST_EXE) and
 * the fixture fx_leak.so (tests/fixtures/fx_leak.c), whose leak benchmark
 * leaves 3 blocks of 1000, 2000 and 4096 bytes after destroy() in every
 * run and frees a fourth of 512: by default each run carries a warning and
 * the case stays ok; with leaks: fail the case is failed with the reason;
 * the figures are checked exactly in the runs, the case's memory object
 * and the console. Nothing here asserts a timing. */
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

#define LEAK_TEXT "leak: 7096 bytes in 3 host-API allocations not freed by destroy"

/* Writes a config of fx_leak's two cases, 2 runs each, with extra YAML
 * under the suite's defaults; returns its path. */
static const char *write_config(const char *name, const char *suite_defaults)
{
    char text[1024];

    snprintf(text, sizeof(text),
             "schema: 1\n"
             "name: leaks\n"
             "defaults: {warmup: 0, sample_time: 1ms, samples: 3, runs: 2, seed: 7}\n"
             "suites:\n"
             "  - plugin: fx_leak\n"
             "%s",
             suite_defaults ? suite_defaults : "");
    it_write(it_path(name), text);
    return it_path(name);
}

/* Runs bhost run on config into out; returns the finished process. */
static void run_config(tp_proc *p, const char *config, const char *out)
{
    const char *args[] = {"run", config, "--results-dir", it_path("res"), "--out", it_path(out),
                          NULL};

    it_run(p, args);
}

/* The number member key of o. */
static double num_of(const cJSON *o, const char *key)
{
    const cJSON *n = it_member(o, key);

    assert_true(cJSON_IsNumber(n));
    return n->valuedouble;
}

/* Asserts the leak figures of every run of case c and of its memory. */
static void expect_leaks(const cJSON *c, double bytes, double count)
{
    const cJSON *r;

    assert_int_equal(cJSON_GetArraySize(it_member(c, "runs")), 2);
    cJSON_ArrayForEach(r, it_member(c, "runs")) {
        const cJSON *a = it_member(r, "alloc");

        assert_true(num_of(a, "leaked_bytes") == bytes);
        assert_true(num_of(a, "leaked_count") == count);
    }
    assert_true(num_of(it_member(c, "memory"), "leaked_bytes") == bytes);
    assert_true(num_of(it_member(c, "memory"), "leaked_count") == count);
}

static int setup(void **state)
{
    (void)state;
    return it_setup("bh_itest_leaks", 0) ? 0 : -1;
}

/* By default a leak is a warning: the case is measured and ok, every run
 * says what it leaked, the console prints it, and "ok" (no host-API
 * allocation) reports none. */
static void test_leak_is_a_warning(void **state)
{
    tp_proc p;
    cJSON *doc;
    const cJSON *c, *r;

    (void)state;
    run_config(&p, write_config("warn.yaml", NULL), "warn.json");
    it_expect_code(&p, 0);
    it_assert_has(p.out, "fx_leak/leak: warning: " LEAK_TEXT);
    assert_null(strstr(p.out, "fx_leak/ok: warning"));
    doc = it_load_json(it_path("warn.json"));
    c = it_expect_case(doc, "fx_leak/leak", "ok", NULL);
    expect_leaks(c, 7096, 3);
    cJSON_ArrayForEach(r, it_member(c, "runs")) {
        const cJSON *a = it_member(r, "alloc");

        assert_string_equal(it_str_of(r, "status"), "ok");
        it_assert_has(it_str_of(r, "warning"), LEAK_TEXT " (a warning; leaks: fail fails the run)");
        /* the four blocks setup() asked for, the 512 freed one included */
        assert_true(num_of(a, "count") == 4);
        assert_true(num_of(a, "bytes") == 7608);
        assert_true(num_of(a, "peak_bytes") == 7608);
    }
    c = it_expect_case(doc, "fx_leak/ok", "ok", NULL);
    expect_leaks(c, 0, 0);
    cJSON_ArrayForEach(r, it_member(c, "runs"))
        assert_null(cJSON_GetObjectItemCaseSensitive(r, "warning"));
    cJSON_Delete(doc);
    tp_proc_free(&p);
}

/* leaks: fail in the suite's defaults fails the leaking case with the
 * reason (exit 1, cases failed); the clean case stays ok. */
static void test_leaks_fail(void **state)
{
    tp_proc p;
    cJSON *doc;
    const cJSON *c, *r;

    (void)state;
    run_config(&p, write_config("fail.yaml", "    defaults: {leaks: fail}\n"), "fail.json");
    it_expect_code(&p, 1);
    doc = it_load_json(it_path("fail.json"));
    c = it_expect_case(doc, "fx_leak/leak", "failed", LEAK_TEXT " (leaks: fail)");
    expect_leaks(c, 7096, 3);
    assert_string_equal(it_str_of(it_member(c, "settings"), "leaks"), "fail");
    cJSON_ArrayForEach(r, it_member(c, "runs")) {
        assert_string_equal(it_str_of(r, "status"), "failed");
        assert_null(cJSON_GetObjectItemCaseSensitive(r, "warning"));
    }
    it_expect_case(doc, "fx_leak/ok", "ok", NULL);
    cJSON_Delete(doc);
    tp_proc_free(&p);
}

/* A value other than warn or fail is one line naming the file, the line
 * and what was expected; exit 3 (a bad config). */
static void test_bad_leaks_value(void **state)
{
    tp_proc p;
    const char *path = write_config("bad.yaml", "    defaults: {leaks: maybe}\n");

    (void)state;
    run_config(&p, path, "bad.json");
    it_expect_code(&p, 3);
    it_assert_has(p.err, "bad.yaml:6:");
    it_assert_has(p.err, "'leaks' must be warn or fail, got 'maybe'");
    assert_int_equal(it_count_lines(p.err), 1);
    tp_proc_free(&p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_leak_is_a_warning),
        cmocka_unit_test(test_leaks_fail),
        cmocka_unit_test(test_bad_leaks_value),
    };

    return cmocka_run_group_tests(tests, setup, it_group_teardown);
}
