// SPDX-License-Identifier: MIT
/* Integration tests of bhost run --profile (docs/profiling.md): the
 * real bhost binary profiles the selftest spin benchmark under callgrind,
 * massif and (where perf record works) perf, and the test reads back what
 * it wrote: the profile files (callgrind's spin_run with its Ir, massif's
 * peak snapshot), the flame graph SVGs (well-formed XML, parsed here by a
 * small checker, with spin_run's frame), the result's case.profile and
 * run.profile, the HTML report with the SVG inline; then the usage errors
 * (a tool that does not exist, a tool not on PATH, several cases), a
 * profiler that refuses (a fake perf on PATH), and the gate's and the
 * history's refusal to use a profiled case's times. Nothing asserts on
 * timings. Not built in sanitizer builds (Valgrind cannot run them;
 * bhost says so). */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "itest_util.h"

#include <cjson/cJSON.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

static int have_valgrind;

/* True when an executable called name is in a folder of PATH. */
static int on_path(const char *name)
{
    const char *path = getenv("PATH");
    char buf[4096];

    while (path && *path) {
        size_t len = strcspn(path, ":");

        snprintf(buf, sizeof(buf), "%.*s/%s", (int)len, path, name);
        if (len && access(buf, X_OK) == 0)
            return 1;
        path += len + (path[len] == ':');
    }
    return 0;
}

/* The whole file at path (free() it); fails the test when unreadable. */
static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    char *text;
    long n;

    if (!f)
        fail_msg("cannot open %s", path);
    fseek(f, 0, SEEK_END);
    n = ftell(f);
    fseek(f, 0, SEEK_SET);
    text = malloc((size_t)n + 1);
    assert_non_null(text);
    assert_int_equal(fread(text, 1, (size_t)n, f), (size_t)n);
    text[n] = '\0';
    fclose(f);
    return text;
}

/* Checks that text is well-formed XML as the flame graphs are written:
 * one root element, every tag closed in order, attributes quoted, only
 * the five predefined entities and numeric references. 0, or fails. */
static void check_xml(const char *text)
{
    char stack[64][64];
    int depth = 0, roots = 0;
    const char *p = text;

    while (*p) {
        if (*p == '<') {
            const char *q = p + 1;
            int closing = *q == '/';
            size_t n;

            q += closing;
            n = strcspn(q, " \t\n/>");
            if (n == 0 || n >= 64)
                fail_msg("bad tag at offset %td", p - text);
            p = q + n;
            while (*p && *p != '>') {
                if (*p == '"') {
                    const char *e = strchr(p + 1, '"');

                    if (!e || memchr(p + 1, '<', (size_t)(e - p - 1)))
                        fail_msg("unquoted or broken attribute at offset %td", p - text);
                    p = e;
                }
                p++;
            }
            if (!*p)
                fail_msg("unterminated tag");
            if (closing) {
                if (depth == 0 || strncmp(stack[depth - 1], q, n) != 0 ||
                    stack[depth - 1][n] != '\0')
                    fail_msg("</%.*s> closes nothing open", (int)n, q);
                depth--;
            } else if (p[-1] != '/') {
                if (depth == 0)
                    roots++;
                memcpy(stack[depth], q, n);
                stack[depth++][n] = '\0';
                if (depth == 64)
                    fail_msg("nested too deep");
            }
            p++;
        } else if (*p == '&') {
            if (strncmp(p, "&amp;", 5) && strncmp(p, "&lt;", 4) && strncmp(p, "&gt;", 4) &&
                strncmp(p, "&quot;", 6) && strncmp(p, "&#", 2))
                fail_msg("bad entity at offset %td", p - text);
            p++;
        } else {
            p++;
        }
    }
    assert_int_equal(depth, 0);
    assert_int_equal(roots, 1);
}

/* A spin config named prof: work 2000 and 4000 (two cases), 2 samples,
 * the HTML report beside the result. */
static void write_config(void)
{
    it_write(it_path("prof.yaml"), "schema: 1\n"
                                   "name: prof\n"
                                   "defaults: {runs: 3, samples: 2, iterations: 20, seed: 7}\n"
                                   "output: [html]\n"
                                   "suites:\n"
                                   "  - plugin: selftest\n"
                                   "    include: [spin]\n"
                                   "    params: {work: [2000, 4000]}\n");
}

/* bhost run prof.yaml --filter 'work=2000' --profile tool --out OUT. */
static void profile(const char *tool, const char *out, int want)
{
    tp_proc p;
    const char *args[] = {"run",         it_path("prof.yaml"), "--filter",
                          "*work=2000*", "--profile",          tool,
                          "--out",       it_path(out),         NULL};

    it_run(&p, args);
    it_expect_code(&p, want);
    tp_proc_free(&p);
}

static int setup(void **state)
{
    (void)state;
    if (!it_setup("bh_itest_profile", 0))
        return -1;
    write_config();
    have_valgrind = on_path("valgrind");
    if (have_valgrind) {
        profile("callgrind", "cg.json", 0);
        profile("massif", "ms.json", 0);
    }
    return 0;
}

/* The profile record of the only case of result file name, checked
 * against run.profile and the files on disk; returns the document. */
static cJSON *profiled_case(const char *name, const char *tool, const cJSON **rec)
{
    cJSON *d = it_load_json(it_path(name));
    const cJSON *c = it_expect_case(d, "selftest/spin[work=2000]", "ok", NULL);
    char want[256];

    assert_string_equal(it_str_of(it_member(d, "run"), "profile"), tool);
    *rec = it_member(c, "profile");
    assert_string_equal(it_str_of(*rec, "tool"), tool);
    assert_int_equal(cJSON_GetArraySize(it_member(c, "runs")), 1); /* a profile is one run */
    snprintf(want, sizeof(want), "%.*s-profiles/", (int)(strlen(name) - 5), name);
    assert_memory_equal(it_str_of(*rec, "path"), want, strlen(want));
    return d;
}

static void test_callgrind_profile(void **state)
{
    const cJSON *rec;
    cJSON *d;
    char *text, *svg;
    const char *fn;
    unsigned long long ir = 0;

    (void)state;
    if (!have_valgrind)
        skip();
    d = profiled_case("cg.json", "callgrind", &rec);
    assert_string_equal(it_str_of(rec, "region"), "samples");
    text = slurp(it_path(it_str_of(rec, "path")));
    assert_non_null(strstr(text, "events: Ir"));
    /* spin_run's own cost line follows its fn= line: Ir above zero */
    fn = strstr(text, " spin_run\n");
    assert_non_null(fn);
    fn = strchr(fn, '\n') + 1;
    while (*fn && !(*fn >= '0' && *fn <= '9') && *fn != '+')
        fn = strchr(fn, '\n') + 1;
    assert_int_equal(sscanf(fn, "%*s %llu", &ir), 1);
    assert_true(ir > 0);
    free(text);
    svg = slurp(it_path(it_str_of(rec, "svg")));
    check_xml(svg);
    assert_non_null(strstr(svg, "<title>spin_run ("));
    assert_non_null(strstr(svg, " Ir, "));
    free(svg);
    /* the instruction counts of the samples came with it */
    it_assert_has(
        cJSON_PrintUnformatted(it_member(it_case_of(d, "selftest/spin[work=2000]"), "runs")),
        "\"instructions\"");
    cJSON_Delete(d);
    /* the HTML report beside the result embeds the flame graph */
    text = slurp(it_path("cg.html"));
    assert_non_null(strstr(text, "<section id=\"profiles\">"));
    assert_non_null(strstr(text, "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"bh-flame\""));
    assert_non_null(strstr(text, "<title>spin_run ("));
    free(text);
}

static void test_massif_profile(void **state)
{
    const cJSON *rec;
    cJSON *d;
    char *text, *svg, *peak;
    long long heap = -1;

    (void)state;
    if (!have_valgrind)
        skip();
    d = profiled_case("ms.json", "massif", &rec);
    assert_string_equal(it_str_of(rec, "region"), "worker");
    text = slurp(it_path(it_str_of(rec, "path")));
    peak = strstr(text, "heap_tree=peak");
    assert_non_null(peak);
    /* the peak snapshot's mem_heap_B comes a few lines before its mark */
    while (peak > text && strncmp(peak, "mem_heap_B=", 11) != 0)
        peak--;
    assert_int_equal(sscanf(peak, "mem_heap_B=%lld", &heap), 1);
    assert_true(heap > 0);
    assert_true(it_member(rec, "peak_heap_bytes")->valuedouble == (double)heap);
    free(text);
    /* the run stage's ends, marked by the worker's snapshots */
    text = slurp(it_path(it_str_of(rec, "region_begin")));
    assert_non_null(strstr(text, "heap_tree=detailed"));
    free(text);
    text = slurp(it_path(it_str_of(rec, "region_end")));
    assert_non_null(strstr(text, "mem_heap_B="));
    free(text);
    svg = slurp(it_path(it_str_of(rec, "svg")));
    check_xml(svg);
    assert_non_null(strstr(svg, "<title>heap allocation functions ("));
    free(svg);
    cJSON_Delete(d);
}

/* True when perf record works here: it records cpu-clock samples of
 * /bin/true (perf installed and allowed to open the event). */
static int perf_works(void)
{
    char out[700];
    char *argv[] = {(char *)"perf",
                    (char *)"record",
                    (char *)"-q",
                    (char *)"-e",
                    (char *)"cpu-clock",
                    (char *)"-o",
                    out,
                    (char *)"--",
                    (char *)"/bin/true",
                    NULL};
    posix_spawn_file_actions_t fa;
    pid_t pid;
    int st = 0;

    if (!on_path("perf"))
        return 0;
    snprintf(out, sizeof(out), "%s", it_path("probe.perf.data"));
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
    if (posix_spawnp(&pid, "perf", &fa, NULL, argv, environ) != 0) {
        posix_spawn_file_actions_destroy(&fa);
        return 0;
    }
    posix_spawn_file_actions_destroy(&fa);
    if (waitpid(pid, &st, 0) != pid)
        return 0;
    return WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

static void test_perf_profile(void **state)
{
    const cJSON *rec;
    cJSON *d;
    char *svg;

    (void)state;
    if (!perf_works())
        skip();
    profile("perf", "perf.json", 0);
    d = profiled_case("perf.json", "perf", &rec);
    /* events on only around the run stage, through perf's control FIFO */
    assert_string_equal(it_str_of(rec, "region"), "run");
    assert_string_equal(it_str_of(rec, "svg_unit"), "samples");
    assert_int_equal(access(it_path(it_str_of(rec, "path")), R_OK), 0);
    svg = slurp(it_path(it_str_of(rec, "svg")));
    check_xml(svg);
    assert_non_null(strstr(svg, "<title>spin_run ("));
    free(svg);
    cJSON_Delete(d);
}

static void test_usage_errors(void **state)
{
    tp_proc p;
    const char *bad[] = {
        "run", it_path("prof.yaml"), "--filter", "*work=2000*", "--profile", "gprof", NULL};
    const char *two[] = {"run",   it_path("prof.yaml"), "--profile", "massif",
                         "--out", it_path("two.json"),  NULL};
    const char *nsys[] = {"run",         it_path("prof.yaml"), "--filter",
                          "*work=2000*", "--profile",          "nsys",
                          "--out",       it_path("nsys.json"), NULL};
    char *path = getenv("PATH") ? strdup(getenv("PATH")) : NULL;

    (void)state;
    it_run(&p, bad);
    it_expect_code(&p, 2);
    it_assert_has(p.err, "--profile 'gprof': expected one of perf, callgrind, massif, "
                         "heaptrack, nsys, rocprofv3");
    assert_int_equal(it_count_lines(p.err), 1);
    tp_proc_free(&p);
    it_run(&p, two);
    it_expect_code(&p, 2);
    it_assert_has(p.err, "--profile profiles exactly one case, and 2 are selected");
    assert_int_equal(it_count_lines(p.err), 1);
    tp_proc_free(&p);
    setenv("PATH", "/nonexistent-bin", 1);
    it_run(&p, nsys);
    if (path)
        setenv("PATH", path, 1);
    free(path);
    it_expect_code(&p, 2);
    it_assert_has(p.err, "--profile nsys: nsys not found on PATH");
    assert_int_equal(it_count_lines(p.err), 1);
    tp_proc_free(&p);
    assert_int_equal(access(it_path("nsys.json"), F_OK), -1);
}

static void test_profiler_refuses(void **state)
{
    char *path = getenv("PATH") ? strdup(getenv("PATH")) : NULL;
    char *fake = NULL;
    cJSON *d;

    (void)state;
    /* a perf that refuses as perf does where the kernel forbids it */
    mkdir(it_path("fakebin"), 0700);
    it_write(it_path("fakebin/perf"), "#!/bin/sh\n"
                                      "echo 'Error: perf_event_open: Permission denied' >&2\n"
                                      "exit 255\n");
    chmod(it_path("fakebin/perf"), 0700);
    assert_true(asprintf(&fake, "%s:%s", it_path("fakebin"), path ? path : "") > 0);
    setenv("PATH", fake, 1);
    profile("perf", "refused.json", 1);
    if (path)
        setenv("PATH", path, 1);
    free(path);
    free(fake);
    d = it_load_json(it_path("refused.json"));
    it_expect_case(d, "selftest/spin[work=2000]", "failed",
                   "--profile perf: Error: perf_event_open: Permission denied");
    assert_null(
        cJSON_GetObjectItemCaseSensitive(it_case_of(d, "selftest/spin[work=2000]"), "profile"));
    cJSON_Delete(d);
}

static void test_never_gated(void **state)
{
    tp_proc p;
    const char *base[] = {"run",   it_path("prof.yaml"), "--filter", "*work=2000*",
                          "--out", it_path("base.json"), "--quiet",  NULL};
    const char *cmp[] = {"compare", it_path("base.json"), it_path("cg.json"),
                         "--out",   it_path("cmp.json"),  NULL};
    cJSON *d;
    const cJSON *m;

    (void)state;
    if (!have_valgrind)
        skip();
    it_run(&p, base);
    it_expect_code(&p, 0);
    tp_proc_free(&p);
    it_run(&p, cmp);
    it_expect_code(&p, 0);
    tp_proc_free(&p);
    d = it_load_json(it_path("cmp.json"));
    m = cJSON_GetArrayItem(it_member(cJSON_GetArrayItem(it_member(d, "cases"), 0), "metrics"), 0);
    assert_int_equal(
        cJSON_GetArraySize(it_member(cJSON_GetArrayItem(it_member(d, "cases"), 0), "metrics")), 1);
    assert_string_equal(it_str_of(m, "metric"), "time");
    assert_string_equal(it_str_of(m, "verdict"), "inconclusive");
    it_assert_has(it_str_of(m, "reason"), "not compared: profiled");
    assert_int_equal(it_member(it_member(d, "counts"), "regressed")->valueint, 0);
    cJSON_Delete(d);
}

/* A budget no run can meet (time < 1ns) is not checked on a profiled
 * case: its times are the profiler's. The run passes the gate with the
 * budget's status no value and the reason; without --profile the same
 * config fails it (exit 5). */
static void test_budget_not_checked(void **state)
{
    tp_proc p;
    const char *prof[] = {
        "run",    it_path("budget.yaml"), "--filter", "*work=2000*",          "--profile",
        "massif", "--fail-on-regression", "--out",    it_path("bud-ms.json"), NULL};
    const char *plain[] = {"run",         it_path("budget.yaml"), "--filter",
                           "*work=2000*", "--fail-on-regression", "--quiet",
                           "--out",       it_path("bud.json"),    NULL};
    cJSON *d;
    const cJSON *x;

    (void)state;
    if (!have_valgrind)
        skip();
    it_write(it_path("budget.yaml"), "schema: 1\n"
                                     "name: budget\n"
                                     "defaults: {runs: 3, samples: 2, seed: 7,"
                                     " expect: {time: \"< 1ns\"}}\n"
                                     "suites:\n"
                                     "  - plugin: selftest\n"
                                     "    include: [spin]\n"
                                     "    params: {work: [2000]}\n");
    it_run(&p, prof);
    it_expect_code(&p, 0);
    tp_proc_free(&p);
    d = it_load_json(it_path("bud-ms.json"));
    x = cJSON_GetArrayItem(
        it_member(it_expect_case(d, "selftest/spin[work=2000]", "ok", NULL), "expect"), 0);
    assert_string_equal(it_str_of(x, "status"), "no value");
    it_assert_has(it_str_of(x, "reason"), "profiler");
    cJSON_Delete(d);
    it_run(&p, plain);
    it_expect_code(&p, 5);
    tp_proc_free(&p);
}

static void test_history_skips_profiles(void **state)
{
    tp_proc p;
    const char *plain[] = {"run",   it_path("prof.yaml"),       "--filter", "*work=2000*",
                           "--out", it_path("hist/plain.json"), "--quiet",  NULL};
    const char *hist[] = {"history", it_path("hist"), "--json", NULL};
    cJSON *d;
    const cJSON *s;

    (void)state;
    if (!have_valgrind)
        skip();
    mkdir(it_path("hist"), 0700);
    it_run(&p, plain);
    it_expect_code(&p, 0);
    tp_proc_free(&p);
    profile("massif", "hist/profiled.json", 0);
    it_run(&p, hist);
    it_expect_code(&p, 0);
    d = it_parse_json(p.out, "bhost history --json");
    /* one series, one point: the plain run's; the profiled run's times are
       no point of the case's history */
    assert_int_equal(cJSON_GetArraySize(it_member(d, "series")), 1);
    s = cJSON_GetArrayItem(it_member(d, "series"), 0);
    assert_int_equal(it_member(s, "points")->valueint, 1);
    it_assert_has(it_str_of(it_member(s, "newest"), "file"), "plain.json");
    cJSON_Delete(d);
    tp_proc_free(&p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_callgrind_profile),      cmocka_unit_test(test_massif_profile),
        cmocka_unit_test(test_perf_profile),           cmocka_unit_test(test_usage_errors),
        cmocka_unit_test(test_profiler_refuses),       cmocka_unit_test(test_never_gated),
        cmocka_unit_test(test_history_skips_profiles), cmocka_unit_test(test_budget_not_checked),
    };

    return cmocka_run_group_tests(tests, setup, it_group_teardown);
}
