// SPDX-License-Identifier: MIT
/* The command line as a person meets it (issue 23 items 3 to 5), through
 * the real bhost: one-benchmark runs without a config and their "did you
 * mean" errors, list --filter and integer ranges, the text of bhost info,
 * -V and -q in the help, --out writing nothing elsewhere, plurals, and the
 * progress lines of a run whose stderr is not a terminal. Nothing here
 * depends on timings. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "itest_util.h"

#include <cjson/cJSON.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int group_setup(void **state)
{
    (void)state;
    unsetenv("BHOST_STORE");
    return it_setup("bh_itest_cli", 0) ? 0 : -1;
}

/* Makes and enters the folder name under the temporary directory: bhost
 * then runs there, so what it creates in its working directory shows. */
static const char *enter(const char *name)
{
    const char *d = it_path(name);

    assert_int_equal(mkdir(d, 0755), 0);
    assert_int_equal(chdir(d), 0);
    return d;
}

/* The one file in folder dir (a failure unless there is exactly one),
 * loaded as JSON. */
static cJSON *only_json_in(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *de;
    char path[1400] = "";
    int n = 0;

    assert_non_null(d);
    while ((de = readdir(d)) != NULL) {
        if (strstr(de->d_name, ".json")) {
            snprintf(path, sizeof(path), "%.1000s/%.255s", dir, de->d_name);
            n++;
        }
    }
    closedir(d);
    assert_int_equal(n, 1);
    return it_load_json(path);
}

/* Runs args, expects exit 2 and one line on stderr holding want. */
static void expect_usage_error(const char *const *args, const char *want)
{
    tp_proc p;

    it_run(&p, args);
    it_expect_code(&p, 2);
    it_assert_has(p.err, want);
    assert_int_equal(it_count_lines(p.err), 1);
    tp_proc_free(&p);
}

/* bhost run PLUGIN/BENCH[k=v] -p k=v: one case with the benchmark's
 * defaults, written under results/PLUGIN/; a second run of the same
 * request compares with the first (two commands, no config file). */
static void test_one_case_run(void **state)
{
    const char *save[] = {"run", "selftest/spin[work=50]", "-p", "slowdown_pct=0", "--runs",
                          "2", "--samples", "2", "--warmup", "0", "--sample-time", "1ms",
                          "--no-store", "--quiet", "--save-baseline", "first", NULL};
    const char *again[] = {"run", "selftest/spin[work=50]", "-p", "slowdown_pct=0", "--runs",
                           "2", "--samples", "2", "--warmup", "0", "--sample-time", "1ms",
                           "--no-store", "--quiet", "--baseline", "first", "--no-confirm",
                           "--out", "again.json", NULL};
    const char *dir = enter("one_case");
    char results[1100];
    const cJSON *c;
    cJSON *doc;
    tp_proc p;

    (void)state;
    it_run(&p, save);
    it_expect_code(&p, 0);
    tp_proc_free(&p);
    snprintf(results, sizeof(results), "%.1000s/results/selftest", dir);
    doc = only_json_in(results);
    assert_string_equal(it_str_of(it_member(it_member(doc, "run"), "config"), "name"),
                        "selftest");
    assert_int_equal(cJSON_GetArraySize(it_member(doc, "cases")), 1);
    c = it_case_of(doc, "selftest/spin[work=50,slowdown_pct=0]");
    assert_string_equal(it_str_of(c, "status"), "ok");
    assert_int_equal(cJSON_GetArraySize(it_member(c, "runs")), 2);
    cJSON_Delete(doc);

    it_run(&p, again);
    it_expect_code(&p, 0);
    tp_proc_free(&p);
    doc = it_load_json("again.json");
    assert_non_null(cJSON_GetObjectItemCaseSensitive(doc, "comparison"));
    cJSON_Delete(doc);
    assert_int_equal(chdir(it_dir()), 0);
}

/* Every wrong name in a one-case run is one line with the closest name,
 * exit 2, and nothing runs. */
static void test_one_case_errors(void **state)
{
    const char *plugin[] = {"run", "selftst/spin", NULL};
    const char *bench[] = {"run", "selftest/spn", NULL};
    const char *key[] = {"run", "selftest/spin[wrk=3]", NULL};
    const char *pkey[] = {"run", "selftest/spin", "-p", "wrok=5", NULL};
    const char *far[] = {"run", "selftest/spin", "-p", "x=5", NULL};
    const char *range[] = {"run", "selftest/spin", "-p", "work=0", NULL};
    const char *bare[] = {"run", "selftest", NULL};
    const char *open[] = {"run", "selftest/spin[work=10", NULL};
    const char *p_cfg[] = {"run", it_config("good.yaml"), "-p", "work=1", NULL};

    (void)state;
    enter("errors");
    expect_usage_error(plugin, "no plugin 'selftst' on the plugin path (did you mean 'selftest'?)");
    expect_usage_error(bench, "plugin 'selftest' has no benchmark 'spn' (did you mean 'spin'?)");
    expect_usage_error(key, "selftest/spin has no parameter 'wrk' (did you mean 'work'?)");
    expect_usage_error(pkey, "has no parameter 'wrok' (did you mean 'work'?)");
    expect_usage_error(far, "has no parameter 'x'; its parameters: work, slowdown_pct");
    expect_usage_error(range, "run: parameter 'work' must be >= 1, got 0");
    expect_usage_error(bare, "'selftest' is neither a config file nor a benchmark PLUGIN/BENCH");
    expect_usage_error(open, "expected PLUGIN/BENCH[KEY=VALUE,...]");
    expect_usage_error(p_cfg, "-p/--param KEY=VALUE is for a benchmark PLUGIN/BENCH");
    assert_int_equal(access("results", F_OK), -1);
    assert_int_equal(chdir(it_dir()), 0);
}

/* list --filter keeps the matching benchmarks or cases; integer ranges
 * read as integers, an open end as ">= 1". */
static void test_list_filter(void **state)
{
    const char *plugins[] = {"list", "--filter", "selftest/spin", NULL};
    const char *json[] = {"list", "--filter", "selftest/*", "--json", NULL};
    const char *none[] = {"list", "--filter", "no-such-bench", NULL};
    const char *cases[] = {"list", it_config("good.yaml"), "-f", "spin", NULL};
    const char *no_case[] = {"list", it_config("good.yaml"), "-f", "nope", NULL};
    cJSON *arr;
    tp_proc p;

    (void)state;
    it_run(&p, plugins);
    it_expect_code(&p, 0);
    it_assert_has(p.out, "    spin -- ");
    it_assert_has(p.out, "      work: i64 = 1000  >= 1  -- ");
    it_assert_has(p.out, "      slowdown_pct: f64 = 0  [0, 1000]  -- ");
    assert_null(strstr(p.out, "noop"));
    assert_null(strstr(p.out, "e+"));
    tp_proc_free(&p);

    it_run(&p, json);
    it_expect_code(&p, 0);
    arr = it_parse_json(p.out, "bhost list --filter --json");
    assert_int_equal(cJSON_GetArraySize(arr), 1);
    /* noop, spin, memcpy, device_copy, fixed */
    assert_int_equal(cJSON_GetArraySize(it_member(cJSON_GetArrayItem(arr, 0), "benchmarks")), 5);
    cJSON_Delete(arr);
    tp_proc_free(&p);

    it_run(&p, none); /* the fixtures' duplicate plugin ids add a line */
    it_expect_code(&p, 2);
    it_assert_has(p.err, "list: --filter 'no-such-bench' matches no benchmark");
    tp_proc_free(&p);
    it_run(&p, cases);
    it_expect_code(&p, 0);
    assert_string_equal(p.out, "selftest/spin[work=10]\nselftest/spin[work=20]\n");
    tp_proc_free(&p);
    expect_usage_error(no_case, "list: --filter 'nope' matches none of the 4 cases of ");
}

/* bhost info is text by default; JSON only with --json (test_run). */
static void test_info_text(void **state)
{
    const char *args[] = {"info", NULL};
    tp_proc p;

    (void)state;
    it_run(&p, args);
    it_expect_code(&p, 0);
    assert_true(strncmp(p.out, "system:\n  host ", 15) == 0);
    it_assert_has(p.out, "\n  cpu ");
    it_assert_has(p.out, "\n  fingerprint ");
    it_assert_has(p.out, "\nbackends:\n");
    it_assert_has(p.out, "  cpu (");
    assert_null(strchr(p.out, '{'));
    assert_null(strstr(p.out, "device(s)"));
    tp_proc_free(&p);
}

/* -V and -q are in the help; bhost help CMD is CMD --help; a count of one
 * is singular. */
static void test_help_and_plurals(void **state)
{
    const char *top[] = {"--help", NULL};
    const char *v[] = {"-V", NULL};
    const char *run_help[] = {"run", "--help", NULL};
    const char *help_run[] = {"help", "run", NULL};
    const char *one[] = {"validate", it_path("one.yaml"), NULL};
    tp_proc p, q;

    (void)state;
    it_run(&p, top);
    it_expect_code(&p, 0);
    it_assert_has(p.out, "  -V, --version ");
    it_assert_has(p.out, "  -h, --help ");
    it_assert_has(p.out, "run CONFIG|PLUGIN/BENCH");
    tp_proc_free(&p);
    it_run(&p, v);
    it_expect_code(&p, 0);
    it_assert_has(p.out, "bhost ");
    it_assert_has(p.out, "(plugin ABI ");
    tp_proc_free(&p);
    it_run(&p, run_help);
    it_run(&q, help_run);
    it_expect_code(&p, 0);
    it_assert_has(p.out, "  -q, --quiet ");
    it_assert_has(p.out, "  -p, --param KEY=VALUE");
    assert_string_equal(p.out, q.out);
    tp_proc_free(&p);
    tp_proc_free(&q);
    it_write(it_path("one.yaml"), "schema: 1\nsuites:\n  - plugin: selftest\n"
                                  "    include: [noop]\n");
    it_run(&p, one);
    it_expect_code(&p, 0);
    it_assert_has(p.out, ": ok, 1 case (1 runnable)");
    tp_proc_free(&p);
}

/* --out FILE writes that file and nothing in the working directory: no
 * results/bhost.db unless --store names a store. */
static void test_out_writes_nothing_else(void **state)
{
    const char *args[] = {"run", it_config("good.yaml"), "--out", "o.json", "--quiet", NULL};
    const char *stored[] = {"run", it_config("good.yaml"), "--out", "s.json", "--quiet",
                            "--store", "s.db", NULL};
    tp_proc p;

    (void)state;
    enter("out");
    it_run(&p, args);
    it_expect_code(&p, 0);
    assert_null(strstr(p.err, "store:"));
    tp_proc_free(&p);
    assert_int_equal(access("o.json", F_OK), 0);
    assert_int_equal(access("results", F_OK), -1);
    it_run(&p, stored);
    it_expect_code(&p, 0);
    it_assert_has(p.err, "store: s.db run 1");
    tp_proc_free(&p);
    assert_int_equal(access("s.db", F_OK), 0);
    assert_int_equal(access("results", F_OK), -1);
    assert_int_equal(chdir(it_dir()), 0);
}

/* The number of lines of text that contain needle. */
static int lines_with(const char *text, const char *needle)
{
    int n = 0;

    for (const char *l = text; l && *l;) {
        const char *end = strchr(l, '\n');
        size_t len = end ? (size_t)(end - l) : strlen(l);
        char *line = strndup(l, len);

        n += strstr(line, needle) != NULL;
        free(line);
        l = end ? end + 1 : NULL;
    }
    return n;
}

/* Without a terminal (the test's files), run prints one progress line
 * per finished suite with the counts; --quiet prints none. */
static void test_progress_lines(void **state)
{
    const char *cfg = it_path("two_suites.yaml");
    const char *args[] = {"run", cfg, "--out", it_path("progress.json"), "--no-store", NULL};
    const char *quiet[] = {"run", cfg, "--out", it_path("quiet.json"), "--no-store", "-q", NULL};
    tp_proc p;

    (void)state;
    it_write(cfg, "schema: 1\nname: two_suites\n"
                  "defaults: {warmup: 0, sample_time: 1ms, samples: 2, runs: 2, timeout: 10s}\n"
                  "suites:\n"
                  "  - plugin: selftest\n    include: [noop]\n"
                  "  - plugin: selftest\n    include: [spin]\n    params: {work: [10, 20]}\n");
    it_run(&p, args);
    it_expect_code(&p, 0);
    assert_int_equal(lines_with(p.err, "progress: suite "), 2);
    it_assert_has(p.err, "progress: suite 1 (selftest) finished: ");
    it_assert_has(p.err, "progress: suite 2 (selftest) finished: ");
    it_assert_has(p.err, "3/3 cases done, 2/2 suites, ");
    it_assert_has(p.err, " elapsed, ~");
    assert_int_equal(lines_with(p.err, "\r"), 0);
    tp_proc_free(&p);
    it_run(&p, quiet);
    it_expect_code(&p, 0);
    assert_null(strstr(p.err, "progress:"));
    tp_proc_free(&p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_one_case_run),
        cmocka_unit_test(test_one_case_errors),
        cmocka_unit_test(test_list_filter),
        cmocka_unit_test(test_info_text),
        cmocka_unit_test(test_help_and_plurals),
        cmocka_unit_test(test_out_writes_nothing_else),
        cmocka_unit_test(test_progress_lines),
    };

    return cmocka_run_group_tests(tests, group_setup, it_group_teardown);
}
