// SPDX-License-Identifier: MIT
/* What a plugin hands the host, through the real bhost binary with
 * tests/fixtures/fx_hostile.so: infinite metrics, megabytes of host-API
 * text, impossible timings and work, ids that are not ids, a 10 MB
 * default, hangs and failures that must name their stage, a crash at
 * exit in check-plugin, and a property test of random host-API calls
 * (issue 20, rows 2, 3, 4, 5, 10 and 12). `run` and `check-plugin` must
 * give the same reasons (host/worker/rules.h). */
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
#include <time.h>

/* The settings every config here uses; %s is the suites. */
static const char head[] =
    "schema: 1\n"
    "name: itest_hostile\n"
    "defaults: {warmup: 0, sample_time: 1ms, samples: 3, runs: 1, seed: 5,\n"
    "           timeout: %s}\n"
    "suites:\n%s";

/* Runs the suites with the given timeout into out (exit code want);
 * returns the result document. */
static cJSON *run_suites(const char *name, const char *timeout,
                         const char *suites, int want)
{
    char yaml[8192];
    char cfg[64], out[64];
    tp_proc p;
    cJSON *doc;

    snprintf(cfg, sizeof(cfg), "%s.yaml", name);
    snprintf(out, sizeof(out), "%s.json", name);
    snprintf(yaml, sizeof(yaml), head, timeout, suites);
    it_write(it_path(cfg), yaml);
    {
        const char *args[] = {"run", it_path(cfg), "--out", it_path(out),
                              "--quiet", "--no-store", NULL};

        it_run(&p, args);
    }
    it_expect_code(&p, want);
    if (strstr(p.out, "protocol error") || strstr(p.err, "protocol error"))
        fail_msg("protocol error in the output:\n%s\n%s", p.out, p.err);
    tp_proc_free(&p);
    doc = it_load_json(it_path(out));
    return doc;
}

/* The check-plugin report of fx_hostile (--json), parsed. */
static cJSON *check_plugin(void)
{
    static cJSON *report;
    const char *args[] = {"check-plugin", NULL, "--timeout", "3", "--json",
                          NULL};
    char path[1024];
    tp_proc p;

    if (report)
        return report;
    snprintf(path, sizeof(path), "%s/fx_hostile.so",
             it_env("BHOST_PLUGIN_PATH"));
    args[1] = path;
    it_run(&p, args);
    it_expect_code(&p, 7);
    report = it_parse_json(p.out, "check-plugin --json");
    tp_proc_free(&p);
    return report;
}

/* Asserts that check id has result and (when set) a reason containing
 * phrase, and that it is the only verdict with that id. */
static void expect_verdict(const char *id, const char *result,
                         const char *phrase)
{
    const cJSON *c;
    const cJSON *found = NULL;

    cJSON_ArrayForEach(c, it_member(check_plugin(), "checks")) {
        if (strcmp(it_str_of(c, "id"), id) != 0)
            continue;
        if (found)
            fail_msg("check %s has two verdicts", id);
        found = c;
    }
    if (!found)
        fail_msg("no check %s", id);
    assert_string_equal(it_str_of(found, "result"), result);
    if (phrase)
        it_assert_has(it_str_of(found, "reason"), phrase);
}

/* The first run of case id. */
static const cJSON *run0(const cJSON *doc, const char *id)
{
    return cJSON_GetArrayItem(it_member(it_case_of(doc, id), "runs"), 0);
}

/* The value of metric name in run r, or NAN when it is absent. */
static double metric(const cJSON *r, const char *name)
{
    const cJSON *m;

    cJSON_ArrayForEach(m, cJSON_GetObjectItemCaseSensitive(r, "metrics"))
        if (strcmp(it_str_of(m, "name"), name) == 0)
            return it_member(m, "value")->valuedouble;
    return NAN;
}

/* Rows 2 and 3: infinite metrics are refused (never a fake 0) and said
 * in the log; megabytes of log, unit and control characters are capped,
 * flagged, and the samples survive. */
static void test_host_api_text(void **state)
{
    cJSON *doc = run_suites("text", "60s",
                            "  - plugin: fx_hostile\n"
                            "    include: [inf_metric, big_text]\n",
                            1);
    const cJSON *r;
    const char *log;

    (void)state;
    it_expect_case(doc, "fx_hostile/inf_metric", "ok", NULL);
    r = run0(doc, "fx_hostile/inf_metric");
    assert_int_equal(cJSON_GetArraySize(it_member(r, "samples")), 3);
    assert_true(isnan(metric(r, "pinf")));
    assert_true(isnan(metric(r, "ninf")));
    assert_true(metric(r, "fin") == 2);
    it_assert_has(it_str_of(r, "log"),
                  "report_metric(\"pinf\", inf) refused: the value is not "
                  "finite");
    it_expect_case(doc, "fx_hostile/big_text", "ok", NULL);
    r = run0(doc, "fx_hostile/big_text");
    assert_int_equal(cJSON_GetArraySize(it_member(r, "samples")), 3);
    assert_true(cJSON_IsTrue(it_member(r, "log_truncated")));
    assert_true(metric(r, "after") == 1);
    assert_true(isnan(metric(r, "unit")));
    log = it_str_of(r, "log");
    assert_true(strlen(log) <= 64 * 1024);
    it_assert_has(log, "[cut: 9437184 bytes in all]");
    it_assert_has(log, "bhost: more than 61440 bytes of log() text in this "
                       "run; the rest is dropped");
    assert_null(strchr(log, '\x1b'));
    cJSON_Delete(doc);
}

/* Row 4: impossible manual timings and work figures make the run invalid
 * with the reason, in run and in check-plugin alike. */
static void test_impossible_timings(void **state)
{
    cJSON *doc = run_suites("timing", "60s",
                            "  - plugin: fx_hostile\n"
                            "    include: [manual_zero, manual_max, "
                            "manual_long, work_nan, work_neg]\n",
                            1);

    (void)state;
    it_expect_case(doc, "fx_hostile/manual_zero", "invalid",
                   "run: manual timing: set_iteration_time_ns(0): a sample "
                   "cannot take 0 ns");
    it_expect_case(doc, "fx_hostile/manual_max", "invalid",
                   "run: manual timing: 18446744073709551615 ns reported for "
                   "a run() call that took");
    it_expect_case(doc, "fx_hostile/manual_long", "invalid",
                   "run: manual timing: 10000000000 ns reported");
    it_expect_case(doc, "fx_hostile/work_nan", "invalid",
                   "verify: flops_per_iter returned nan (work per iteration "
                   "must be finite and >= 0)");
    it_expect_case(doc, "fx_hostile/work_neg", "invalid",
                   "verify: bytes_per_iter returned -1");
    expect_verdict("bench[manual_zero].cycle", "FAIL", "cannot take 0 ns");
    expect_verdict("bench[manual_max].cycle", "FAIL",
                 "18446744073709551615 ns reported for a run() call");
    expect_verdict("bench[manual_long].cycle", "FAIL",
                 "10000000000 ns reported for a run() call");
    expect_verdict("bench[work_nan].cycle", "FAIL",
                 "flops_per_iter returned nan");
    expect_verdict("bench[work_neg].cycle", "FAIL",
                 "bytes_per_iter returned -1");
    cJSON_Delete(doc);
}

/* Row 5: ids with a newline, ESC, brackets, '@' or '/' are refused at
 * describe time: the cases are "#N", failed with the reason, and nothing
 * of the id reaches the output unescaped. check-plugin FAILs them with
 * the same reason. */
static void test_bad_ids(void **state)
{
    cJSON *doc = run_suites("ids", "60s",
                            "  - plugin: fx_hostile\n"
                            "    include: [ok]\n",
                            1);
    static const char *const shown[] = {"bad\\x0aid", "esc\\x1b[31m",
                                        "br[ack]", "at@x", "sl/ash"};
    const char *args[] = {"list", "--json", NULL};
    const cJSON *c;
    tp_proc p;
    char id[64], want[128];

    (void)state;
    for (int i = 0; i < 5; i++) {
        snprintf(id, sizeof(id), "fx_hostile/#%d", 15 + i);
        snprintf(want, sizeof(want), "describe: id '%s' does not match "
                 "[a-z0-9_.-]+", shown[i]);
        it_expect_case(doc, id, "failed", want);
        snprintf(id, sizeof(id), "bench[#%d].id", 15 + i);
        expect_verdict(id, "FAIL", want + strlen("describe: "));
    }
    cJSON_ArrayForEach(c, it_member(doc, "cases")) {
        const char *cid = it_str_of(c, "id");

        if (strpbrk(cid, "\n\x1b@") || strstr(cid, "ack]"))
            fail_msg("a raw id reached the result: %s", cid);
    }
    it_expect_case(doc, "fx_hostile/ok", "ok", NULL);
    it_run(&p, args);
    if (strstr(p.out, "\\u001b") || strstr(p.out, "at@x\"") ||
        strstr(p.out, "\"sl/ash"))
        fail_msg("list shows a raw id:\n%s", p.out);
    tp_proc_free(&p);
    cJSON_Delete(doc);
}

/* Row 10: every failure names its stage; the config's timeout governs
 * describe workers too (a hanging describe ends after 2 s, not 30). */
static void test_stages(void **state)
{
    cJSON *doc = run_suites("stages", "2s",
                            "  - plugin: fx_hostile\n"
                            "    include: [fail_run, hang_setup]\n",
                            1);
    struct timespec t0, t1;

    (void)state;
    it_expect_case(doc, "fx_hostile/fail_run", "failed",
                   "run: returned BHOST_E_INTERNAL (-6) without a message "
                   "(the plugin did not call set_error)");
    it_expect_case(doc, "fx_hostile/hang_setup", "timeout",
                   "worker killed after 2.0 s timeout (during setup)");
    cJSON_Delete(doc);
    setenv("FX_HOSTILE_HANG_DESCRIBE", "1", 1);
    clock_gettime(CLOCK_MONOTONIC, &t0);
    doc = run_suites("describe", "2s",
                     "  - plugin: fx_hostile\n"
                     "    include: [ok]\n",
                     1);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    unsetenv("FX_HOSTILE_HANG_DESCRIBE");
    it_expect_case(doc, "fx_hostile/*", "timeout",
                   "worker killed after 2.0 s timeout (during describe)");
    assert_true(t1.tv_sec - t0.tv_sec < 20);
    cJSON_Delete(doc);
}

/* Row 12: what run refuses, check-plugin FAILs; a huge struct_size is a
 * WARN; a crash at exit is one FAIL of its own, not a PASS and a FAIL
 * blamed on another call. */
static void test_check_plugin(void **state)
{
    cJSON *doc = run_suites("refused", "60s",
                            "  - plugin: fx_hostile\n"
                            "    include: [huge_struct]\n",
                            1);

    (void)state;
    it_expect_case(doc, "fx_hostile/huge_default", "failed",
                   "describe: parameter #0: default of 10000000 bytes is "
                   "longer than 4096");
    it_expect_case(doc, "fx_hostile/huge_struct", "ok", NULL);
    expect_verdict("bench[huge_default].param[text]", "FAIL",
                 "default of 10000000 bytes is longer than 4096");
    expect_verdict("bench[huge_default].cycle", "FAIL", "not run");
    expect_verdict("bench[huge_struct].descriptor", "WARN",
                 "struct_size 1048576 is implausibly large");
    expect_verdict("bench[huge_struct].cycle", "PASS", NULL);
    expect_verdict("bench[exit_crash].cycle", "PASS", NULL);
    expect_verdict("bench[exit_crash].exit", "FAIL", "SIGSEGV");
    expect_verdict("bench[hang_setup].cycle", "FAIL", "timeout");
    cJSON_Delete(doc);
}

/* Must-deliver 2: 80 seeds of 200 random host-API calls (random sizes up
 * to 9 MB, random bytes, NaN/Inf/huge values, bad names, units, levels,
 * alignments, keys) each, with host and manual timing: every case ends ok
 * or with a clear status and stage, never a protocol error, a timeout or
 * a fake value; every metric kept is finite with a valid name and unit,
 * and the seed metric is exact. */
static void test_property(void **state)
{
    char suites[2048];
    size_t k;
    cJSON *doc;
    const cJSON *c;
    int ok = 0;

    (void)state;
    k = (size_t)snprintf(suites, sizeof(suites),
                         "  - plugin: fx_hostile\n"
                         "    include: [random, random_manual]\n"
                         "    params: {calls: [200], seed: [");
    for (int s = 1; s <= 80; s++)
        k += (size_t)snprintf(suites + k, sizeof(suites) - k, "%s%d",
                              s > 1 ? ", " : "", s);
    snprintf(suites + k, sizeof(suites) - k, "]}\n");
    doc = run_suites("property", "20s", suites, 1);
    cJSON_ArrayForEach(c, it_member(doc, "cases")) {
        const char *id = it_str_of(c, "id");
        const char *status = it_str_of(c, "status");
        const cJSON *r = cJSON_GetArrayItem(it_member(c, "runs"), 0);
        const cJSON *m;
        const char *seed = strstr(id, "seed=");

        if (strncmp(id, "fx_hostile/random", 17) != 0)
            continue;
        if (strcmp(status, "ok") == 0) {
            ok++;
            assert_int_equal(cJSON_GetArraySize(it_member(r, "samples")), 3);
            assert_non_null(seed);
            assert_true(metric(r, "prop.seed") == atof(seed + 5));
            cJSON_ArrayForEach(m, cJSON_GetObjectItemCaseSensitive(r,
                                                                   "metrics")) {
                const char *unit = it_str_of(m, "unit");

                assert_true(isfinite(it_member(m, "value")->valuedouble));
                assert_true(strlen(it_str_of(m, "name")) <= 64);
                assert_true(strlen(unit) <= 64);
                for (const char *u = unit; *u; u++)
                    assert_true((unsigned char)*u >= 0x20 && *u != 0x7f);
            }
        } else if (strcmp(status, "invalid") == 0) {
            it_assert_has(it_str_of(c, "message"), "run: manual timing: ");
            assert_non_null(strstr(id, "random_manual"));
        } else {
            fail_msg("%s: %s: %s", id, status,
                     cJSON_GetStringValue(cJSON_GetObjectItem(c, "message")));
        }
    }
    assert_true(ok >= 80);
    cJSON_Delete(doc);
}

static int group_setup(void **state)
{
    (void)state;
    return it_setup("bh_hostile", 1) ? 0 : -1;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_host_api_text),
        cmocka_unit_test(test_impossible_timings),
        cmocka_unit_test(test_bad_ids),
        cmocka_unit_test(test_stages),
        cmocka_unit_test(test_check_plugin),
        cmocka_unit_test(test_property),
    };

    return cmocka_run_group_tests(tests, group_setup, it_group_teardown);
}
