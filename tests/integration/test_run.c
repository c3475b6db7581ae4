// SPDX-License-Identifier: MIT
/* Integration tests: run the real bhost binary ($BHOST_EXE) on the configs
 * in $BHOST_ITEST_CONFIGS with the fault fixtures on BHOST_PLUGIN_PATH, and
 * assert on exit codes, messages and the result JSON. Nothing here depends
 * on timings: only statuses, ids, messages and document structure. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "bh_json_write.h"
#include "itest_util.h"

#include <bhost/plugin.h>
#include <cjson/cJSON.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>

/* ---- setup ------------------------------------------------------------ */

static int group_setup(void **state)
{
    (void)state;
    return it_setup("bh_itest", 0) ? 0 : -1;
}

/* ---- fault isolation -------------------------------------------------- */

static void test_fault_isolation(void **state)
{
    const char *out = it_path("faults.json");
    const char *args[] = {"run", it_config("faults.yaml"), "--out", out, NULL};
    tp_proc p;
    cJSON *doc;
    const cJSON *c, *r0, *log;

    (void)state;
    it_run(&p, args);
    it_expect_code(&p, 1); /* cases failed */
    doc = it_load_json(out);
    assert_string_equal(it_str_of(doc, "schema"), "bhost.result/1");
    assert_true(cJSON_IsTrue(it_member(it_member(doc, "run"), "complete")));
    assert_int_equal(cJSON_GetArraySize(it_member(doc, "cases")), 10);

    /* the well-behaved case is measured despite its neighbours */
    c = it_expect_case(doc, "fx_faults/ok", "ok", NULL);
    r0 = cJSON_GetArrayItem(it_member(c, "runs"), 0);
    assert_int_equal(cJSON_GetArraySize(it_member(r0, "samples")), 3);
    assert_true(cJSON_IsObject(it_member(c, "summary")));
    assert_true(cJSON_IsNumber(it_member(it_member(c, "summary"), "median")));
    assert_true(it_member(it_member(c, "summary"), "median")->valuedouble > 0);
    assert_true(it_member(it_member(c, "summary"), "n")->valuedouble == 3);

    it_expect_case(doc, "fx_faults/crash", "crashed", "SIGSEGV");
    it_expect_case(doc, "fx_faults/abort", "crashed", "SIGABRT");
    it_expect_case(doc, "fx_faults/hang", "timeout", "timeout");
    it_expect_case(doc, "fx_faults/exit", "failed", "before reporting");
    /* spew never returns: it times out, and its output is cut at the
     * log limit (64 KiB) and flagged */
    c = it_expect_case(doc, "fx_faults/spew", "timeout", "timeout");
    r0 = cJSON_GetArrayItem(it_member(c, "runs"), 0);
    assert_true(cJSON_IsTrue(it_member(r0, "log_truncated")));
    log = it_member(r0, "log");
    assert_true(cJSON_IsString(log));
    assert_true(strlen(log->valuestring) <= 64 * 1024);
    it_assert_has(log->valuestring, "fx_faults spew");
    it_expect_case(doc, "fx_faults/badverify", "invalid",
                   "checksum 1234 != expected 5678");
    it_expect_case(doc, "fx_faults/fail_setup", "failed", "setup refused");
    it_expect_case(doc, "fx_faults/skip", "skipped",
                   "fixture skip always skips");
    it_expect_case(doc, "fx_faults/unsupported", "unsupported",
                   "has no implementation");
    /* no failed case has a summary */
    assert_true(cJSON_IsNull(it_member(it_case_of(doc, "fx_faults/crash"),
                                       "summary")));

    /* the console agrees */
    it_assert_has(p.out, "10 cases: 1 ok 1 skipped 1 unsupported 2 failed "
                         "1 invalid 2 crashed 2 timeout");
    it_assert_has(p.out, "result: ");
    it_assert_has(p.out, out);
    cJSON_Delete(doc);
    tp_proc_free(&p);
}

/* ---- plugins that fail to load ---------------------------------------- */

static void test_load_failures(void **state)
{
    static const struct {
        const char *id;
        const char *status;
        const char *phrase;
    } want[] = {
        {"fx_bad_major/*", "failed", "plugin ABI major 2"},
        {"fx_no_entry/*", "failed", "no entry symbol bhost_entry_v1"},
        {"fx_init_fail/*", "failed", "init failed"},
        {"fx_abort_init/*", "crashed", "SIGABRT"},
        {"fx_not_elf/*", "failed", "not a shared object"},
        {"fx_small_struct/*", "failed", "smaller than the ABI 1.0 size"},
        {"fx_no_iface/*", "failed", "missing interfaces"},
    };
    size_t nw = sizeof(want) / sizeof(want[0]);
    const char *out = it_path("loadfail.json");
    const char *args[] = {"run", it_config("loadfail.yaml"), "--out", out,
                          "--quiet", NULL};
    tp_proc p;
    cJSON *doc;

    (void)state;
    it_run(&p, args);
    it_expect_code(&p, 1);
    doc = it_load_json(out);
    assert_true(cJSON_IsTrue(it_member(it_member(doc, "run"), "complete")));
    assert_int_equal(cJSON_GetArraySize(it_member(doc, "cases")), (int)nw + 1);
    for (size_t i = 0; i < nw; i++)
        it_expect_case(doc, want[i].id, want[i].status, want[i].phrase);
    it_expect_case(doc, "fx_init_fail/*", "failed", "license file missing");
    /* each message is its own */
    for (size_t i = 0; i < nw; i++)
        for (size_t j = 0; j < nw; j++)
            if (i != j)
                assert_null(strstr(
                    it_str_of(it_case_of(doc, want[j].id), "message"),
                    want[i].phrase));
    /* the run still completes: the good suite after them ran */
    it_expect_case(doc, "fx_faults/ok", "ok", NULL);
    assert_true(cJSON_IsObject(it_member(it_case_of(doc, "fx_faults/ok"),
                                         "summary")));
    /* the plugins section records each failure */
    {
        const cJSON *pl;
        int failed = 0;

        cJSON_ArrayForEach(pl, it_member(it_member(doc, "run"), "plugins"))
            if (strcmp(it_str_of(pl, "status"), "ok") != 0) {
                assert_true(strlen(it_str_of(pl, "error")) > 0);
                failed++;
            }
        assert_int_equal(failed, (int)nw);
    }
    cJSON_Delete(doc);
    tp_proc_free(&p);
}

static void test_future_plugin(void **state)
{
    const char *out = it_path("future.json");
    const char *args[] = {"run", it_config("future.yaml"), "--out", out,
                          "--quiet", NULL};
    tp_proc p;
    cJSON *doc;
    const cJSON *c, *pl;

    (void)state;
    it_run(&p, args);
    it_expect_code(&p, 0);
    doc = it_load_json(out);
    c = it_expect_case(doc, "fx_future/ok", "ok", NULL);
    assert_int_equal(cJSON_GetArraySize(it_member(
                         cJSON_GetArrayItem(it_member(c, "runs"), 0),
                         "samples")),
                     3);
    assert_true(cJSON_IsObject(it_member(c, "summary")));
    pl = cJSON_GetArrayItem(it_member(it_member(doc, "run"), "plugins"), 0);
    assert_string_equal(it_str_of(pl, "plugin_id"), "org.bhost.fx_future");
    /* the fixture is built one minor past the host's header */
    assert_true(it_member(pl, "abi_minor")->valuedouble == BHOST_ABI_MINOR + 1);
    cJSON_Delete(doc);
    tp_proc_free(&p);
}

/* ---- validate --------------------------------------------------------- */

static void expect_invalid(const char *file, const char *where,
                           const char *phrase)
{
    const char *path = it_config(file);
    const char *args[] = {"validate", path, NULL};
    char prefix[1200];
    tp_proc p;

    it_run(&p, args);
    it_expect_code(&p, 3);
    snprintf(prefix, sizeof(prefix), "bhost: %s:%s: ", path, where);
    if (strncmp(p.err, prefix, strlen(prefix)) != 0)
        fail_msg("stderr '%s' does not start with '%s'", p.err, prefix);
    assert_int_equal(it_count_lines(p.err), 1);
    it_assert_has(p.err, phrase);
    assert_string_equal(p.out, "");
    tp_proc_free(&p);
}

static void test_validate(void **state)
{
    const char *args[] = {"validate", it_config("good.yaml"), NULL};
    tp_proc p;

    (void)state;
    it_run(&p, args);
    it_expect_code(&p, 0);
    it_assert_has(p.out, "good.yaml: ok, 4 cases (4 runnable)");
    assert_string_equal(p.err, "");
    tp_proc_free(&p);

    expect_invalid("bad_param.yaml", "7:7", "did you mean 'work'");
    expect_invalid("bad_type.yaml", "7:18",
                   "parameter 'work' expects an integer, got 'lots'");
    expect_invalid("bad_include.yaml", "4:5",
                   "include pattern 'nosuchbench*' matches no benchmark");
    expect_invalid("bad_syntax.yaml", "6:11", "YAML syntax error");
    expect_invalid("bad_missing_plugin.yaml", "7:13",
                   "plugin 'no_such_plugin' not found");
}

/* ---- list and info ---------------------------------------------------- */

static const cJSON *plugin_named(const cJSON *arr, const char *name)
{
    const cJSON *p;

    cJSON_ArrayForEach(p, arr) {
        const cJSON *n = cJSON_GetObjectItemCaseSensitive(p, "name");
        if (cJSON_IsString(n) && strcmp(n->valuestring, name) == 0)
            return p;
    }
    fail_msg("no plugin named %s", name);
    return NULL;
}

static void test_list(void **state)
{
    const char *text_args[] = {"list", NULL};
    const char *json_args[] = {"list", "--json", NULL};
    const char *cfg_args[] = {"list", it_config("good.yaml"), NULL};
    tp_proc p;
    cJSON *arr;
    const cJSON *st, *b;
    int ids = 0;
    int failing = 0;

    (void)state;
    it_run(&p, text_args);
    it_expect_code(&p, 0);
    it_assert_has(p.out, "selftest ");
    it_assert_has(p.out, "(org.bhost.selftest)");
    it_assert_has(p.out, "    noop -- ");
    it_assert_has(p.out, "    spin -- ");
    it_assert_has(p.out, "    memcpy -- ");
    it_assert_has(p.out, "    device_copy [device] -- ");
    it_assert_has(p.out, "      work: i64 = 1000");
    it_assert_has(p.out, "      bytes: i64 = ");
    it_assert_has(p.out, "backend 'cpu'");
    /* the fixtures are on the path: failures are listed with reasons, and
     * the two files sharing a plugin id are reported */
    it_assert_has(p.out, "plugin ABI major 2");
    it_assert_has(p.err, "duplicate plugin id 'org.bhost.fx_dup'");
    tp_proc_free(&p);

    it_run(&p, json_args);
    it_expect_code(&p, 0);
    arr = it_parse_json(p.out, "bhost list --json");
    assert_true(cJSON_IsArray(arr));
    st = plugin_named(arr, "selftest");
    assert_string_equal(it_str_of(st, "plugin_id"), "org.bhost.selftest");
    cJSON_ArrayForEach(b, it_member(st, "benchmarks")) {
        const char *id = it_str_of(b, "id");

        if (strcmp(id, "spin") == 0) {
            const cJSON *pd = cJSON_GetArrayItem(it_member(b, "params"), 0);
            assert_string_equal(it_str_of(pd, "key"), "work");
            assert_string_equal(it_str_of(pd, "type"), "i64");
        }
        ids += strcmp(id, "noop") == 0 || strcmp(id, "spin") == 0 ||
               strcmp(id, "memcpy") == 0 || strcmp(id, "device_copy") == 0;
    }
    assert_int_equal(ids, 4);
    cJSON_ArrayForEach(b, arr)
        failing += cJSON_GetObjectItemCaseSensitive(b, "error") != NULL;
    assert_true(failing >= 6); /* the fixtures that cannot be described */
    cJSON_Delete(arr);
    tp_proc_free(&p);

    it_run(&p, cfg_args);
    it_expect_code(&p, 0);
    it_assert_has(p.out, "selftest/noop\n");
    it_assert_has(p.out, "selftest/spin[work=10]\n");
    it_assert_has(p.out, "selftest/spin[work=20]\n");
    it_assert_has(p.out, "selftest/memcpy[bytes=4096]\n");
    assert_int_equal(it_count_lines(p.out), 4);
    tp_proc_free(&p);
}

static void test_info(void **state)
{
    const char *args[] = {"info", "--json", NULL};
    tp_proc p;
    cJSON *doc;
    const cJSON *be, *cpu = NULL;

    (void)state;
    it_run(&p, args);
    it_expect_code(&p, 0);
    doc = it_parse_json(p.out, "bhost info --json");
    assert_true(cJSON_IsObject(it_member(doc, "system")));
    assert_true(cJSON_IsString(it_member(it_member(doc, "system"),
                                         "fingerprint_hash")));
    assert_true(cJSON_IsObject(it_member(it_member(doc, "system"), "cpu")));
    cJSON_ArrayForEach(be, it_member(doc, "backends"))
        if (strcmp(it_str_of(be, "id"), "cpu") == 0)
            cpu = be;
    assert_non_null(cpu);
    assert_true(it_member(cpu, "device_count")->valuedouble >= 1);
    assert_true(strlen(it_str_of(
                    cJSON_GetArrayItem(it_member(cpu, "devices"), 0),
                    "name")) > 0);
    it_assert_has(it_str_of(cpu, "path"), "backend-cpu.so");
    cJSON_Delete(doc);
    tp_proc_free(&p);
}

/* ---- the command line ------------------------------------------------- */

static void test_cli_usage(void **state)
{
    static const char *const cmds[] = {"run", "list", "info", "validate"};
    const char *unknown[] = {"frobnicate", NULL};
    const char *none[] = {NULL};
    const char *run_noarg[] = {"run", NULL};
    const char *runs_abc[] = {"run", it_config("good.yaml"), "--runs", "abc",
                              NULL};
    const char *runs_zero[] = {"run", it_config("good.yaml"), "--runs", "0",
                               NULL};
    const char *bad_opt[] = {"run", it_config("good.yaml"), "--bogus", NULL};
    const char *two_cfg[] = {"run", it_config("good.yaml"),
                             it_config("good.yaml"), NULL};
    const char *validate_noarg[] = {"validate", NULL};
    const char *missing_cfg[] = {"run", it_path("nope.yaml"), NULL};
    const char *top_help[] = {"--help", NULL};
    const char *version[] = {"--version", NULL};
    tp_proc p;

    (void)state;
    it_run(&p, unknown);
    it_expect_code(&p, 2);
    it_assert_has(p.err, "unknown command 'frobnicate'");
    tp_proc_free(&p);
    it_run(&p, none);
    it_expect_code(&p, 2);
    it_assert_has(p.err, "usage: bhost");
    tp_proc_free(&p);
    it_run(&p, run_noarg);
    it_expect_code(&p, 2);
    it_assert_has(p.err, "CONFIG");
    tp_proc_free(&p);
    it_run(&p, runs_abc);
    it_expect_code(&p, 2);
    it_assert_has(p.err, "--runs expects an integer");
    it_assert_has(p.err, "'abc'");
    assert_int_equal(it_count_lines(p.err), 1);
    tp_proc_free(&p);
    it_run(&p, runs_zero);
    it_expect_code(&p, 2);
    it_assert_has(p.err, "--runs expects an integer from 1");
    tp_proc_free(&p);
    it_run(&p, bad_opt);
    it_expect_code(&p, 2);
    it_assert_has(p.err, "--bogus");
    tp_proc_free(&p);
    it_run(&p, two_cfg);
    it_expect_code(&p, 2);
    tp_proc_free(&p);
    it_run(&p, validate_noarg);
    it_expect_code(&p, 2);
    tp_proc_free(&p);
    it_run(&p, missing_cfg);
    it_expect_code(&p, 3);
    it_assert_has(p.err, "nope.yaml");
    tp_proc_free(&p);

    for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
        const char *help[] = {cmds[i], "--help", NULL};
        char want[64];

        it_run(&p, help);
        it_expect_code(&p, 0);
        snprintf(want, sizeof(want), "usage: bhost %s", cmds[i]);
        it_assert_has(p.out, want);
        tp_proc_free(&p);
    }
    it_run(&p, top_help);
    it_expect_code(&p, 0);
    it_assert_has(p.out, "usage: bhost <command>");
    tp_proc_free(&p);
    it_run(&p, version);
    it_expect_code(&p, 0);
    it_assert_has(p.out, "bhost ");
    tp_proc_free(&p);
}

/* ---- determinism, filters, results directory -------------------------- */

/* Asserts the parts of two result documents that a seed must make equal:
 * config, seed, case order and ids, params, statuses, settings, run and
 * sample counts. Timings are never compared. */
static void expect_same_plan(const cJSON *a, const cJSON *b)
{
    const cJSON *ra = it_member(a, "run"), *rb = it_member(b, "run");
    int n = cJSON_GetArraySize(it_member(a, "cases"));

    assert_string_equal(it_str_of(ra, "seed"), it_str_of(rb, "seed"));
    assert_string_equal(it_str_of(it_member(ra, "config"), "hash"),
                        it_str_of(it_member(rb, "config"), "hash"));
    assert_int_equal(n, cJSON_GetArraySize(it_member(b, "cases")));
    for (int i = 0; i < n; i++) {
        const cJSON *ca = cJSON_GetArrayItem(it_member(a, "cases"), i);
        const cJSON *cb = cJSON_GetArrayItem(it_member(b, "cases"), i);
        int nr = cJSON_GetArraySize(it_member(ca, "runs"));

        assert_string_equal(it_str_of(ca, "id"), it_str_of(cb, "id"));
        assert_string_equal(it_str_of(ca, "status"), it_str_of(cb, "status"));
        assert_true(cJSON_Compare(it_member(ca, "params"),
                                  it_member(cb, "params"), 1));
        assert_true(cJSON_Compare(it_member(ca, "settings"),
                                  it_member(cb, "settings"), 1));
        assert_int_equal(nr, cJSON_GetArraySize(it_member(cb, "runs")));
        for (int r = 0; r < nr; r++)
            assert_int_equal(
                cJSON_GetArraySize(it_member(
                    cJSON_GetArrayItem(it_member(ca, "runs"), r), "samples")),
                cJSON_GetArraySize(it_member(
                    cJSON_GetArrayItem(it_member(cb, "runs"), r), "samples")));
    }
}

static void test_determinism(void **state)
{
    const char *a = it_path("seed_a.json");
    const char *b = it_path("seed_b.json");
    const char *c = it_path("seed_c.json");
    const char *args_a[] = {"run", it_config("good.yaml"), "--seed", "12345",
                            "--runs", "2", "--out", a, "--quiet", NULL};
    const char *args_b[] = {"run", it_config("good.yaml"), "--seed", "12345",
                            "--runs", "2", "--out", b, "--quiet", NULL};
    const char *args_c[] = {"run", it_config("good.yaml"), "--seed", "999",
                            "--runs", "2", "--out", c, "--quiet", NULL};
    tp_proc p;
    cJSON *da, *db, *dc;

    (void)state;
    it_run(&p, args_a);
    it_expect_code(&p, 0);
    tp_proc_free(&p);
    it_run(&p, args_b);
    it_expect_code(&p, 0);
    tp_proc_free(&p);
    it_run(&p, args_c);
    it_expect_code(&p, 0);
    tp_proc_free(&p);
    da = it_load_json(a);
    db = it_load_json(b);
    dc = it_load_json(c);
    assert_string_equal(it_str_of(it_member(da, "run"), "seed"), "0x3039");
    assert_string_equal(it_str_of(it_member(dc, "run"), "seed"), "0x3e7");
    expect_same_plan(da, db);
    /* the seed changes the run order, never the cases */
    assert_int_equal(cJSON_GetArraySize(it_member(da, "cases")), 4);
    for (int i = 0; i < 4; i++)
        assert_string_equal(
            it_str_of(cJSON_GetArrayItem(it_member(da, "cases"), i), "id"),
            it_str_of(cJSON_GetArrayItem(it_member(dc, "cases"), i), "id"));
    /* runs: 2 from the command line reached every case */
    assert_int_equal(
        cJSON_GetArraySize(it_member(
            cJSON_GetArrayItem(it_member(da, "cases"), 0), "runs")),
        2);
    cJSON_Delete(da);
    cJSON_Delete(db);
    cJSON_Delete(dc);
}

static void test_filter(void **state)
{
    const char *out = it_path("filter.json");
    const char *out2 = it_path("filter2.json");
    const char *args[] = {"run", it_config("good.yaml"), "--filter",
                          "selftest/spin*", "--out", out, "--quiet", NULL};
    const char *args2[] = {"run", it_config("good.yaml"), "--filter", "*noop",
                           "--filter", "*memcpy*", "--out", out2, "--quiet",
                           NULL};
    tp_proc p;
    cJSON *doc;
    const cJSON *c;
    int n = 0;

    (void)state;
    it_run(&p, args);
    it_expect_code(&p, 0);
    tp_proc_free(&p);
    doc = it_load_json(out);
    cJSON_ArrayForEach(c, it_member(doc, "cases")) {
        assert_int_equal(strncmp(it_str_of(c, "id"), "selftest/spin", 13), 0);
        assert_string_equal(it_str_of(c, "status"), "ok");
        n++;
    }
    assert_int_equal(n, 2);
    cJSON_Delete(doc);

    it_run(&p, args2);
    it_expect_code(&p, 0);
    tp_proc_free(&p);
    doc = it_load_json(out2);
    assert_int_equal(cJSON_GetArraySize(it_member(doc, "cases")), 2);
    it_case_of(doc, "selftest/noop");
    it_case_of(doc, "selftest/memcpy[bytes=4096]");
    cJSON_Delete(doc);
}

/* True when name is "<8 digits>T<6 digits>Z-<host>.json" or with "-N"
 * before ".json"; *stamp receives the stamp. */
static int result_name_ok(const char *name, const char *host, char stamp[17],
                          int *suffixed)
{
    size_t hl = strlen(host);
    const char *rest;

    if (strlen(name) < 16 + 1 + hl + 5)
        return 0;
    for (int i = 0; i < 16; i++) {
        char ch = name[i];
        if (i == 8 ? ch != 'T' : i == 15 ? ch != 'Z' : (ch < '0' || ch > '9'))
            return 0;
    }
    memcpy(stamp, name, 16);
    stamp[16] = '\0';
    if (name[16] != '-' || strncmp(name + 17, host, hl) != 0)
        return 0;
    rest = name + 17 + hl;
    *suffixed = 0;
    if (rest[0] == '-') {
        rest++;
        if (*rest < '1' || *rest > '9')
            return 0;
        while (*rest >= '0' && *rest <= '9')
            rest++;
        *suffixed = 1;
    }
    return strcmp(rest, ".json") == 0;
}

static void test_results_dir(void **state)
{
    const char *root = it_path("results");
    const char *args[] = {"run", it_config("good.yaml"), "--results-dir", root,
                          "--quiet", NULL};
    char dir[1200];
    char host[64];
    char names[2][256];
    char stamps[2][17];
    int suffixed[2];
    int n = 0;
    tp_proc p1, p2;
    DIR *d;
    struct dirent *de;

    (void)state;
    /* two runs started together: same second, same name wanted */
    it_start(&p1, args);
    it_start(&p2, args);
    tp_finish(&p1);
    tp_finish(&p2);
    it_expect_code(&p1, 0);
    it_expect_code(&p2, 0);
    it_assert_has(p1.err, "result: ");
    it_assert_has(p2.err, "result: ");

    if (gethostname(host, sizeof(host)) != 0)
        snprintf(host, sizeof(host), "host");
    host[63] = '\0';
    for (char *h = host; *h; h++)
        if (!((*h >= 'a' && *h <= 'z') || (*h >= 'A' && *h <= 'Z') ||
              (*h >= '0' && *h <= '9') || *h == '-' || *h == '_' ||
              *h == '.'))
            *h = '_';
    snprintf(dir, sizeof(dir), "%s/itest_good", root);
    d = opendir(dir);
    assert_non_null(d);
    while ((de = readdir(d))) {
        char path[1600];
        cJSON *doc;

        if (de->d_name[0] == '.')
            continue;
        if (n >= 2)
            fail_msg("more than two files in %s (%s)", dir, de->d_name);
        if (!result_name_ok(de->d_name, host, stamps[n], &suffixed[n]))
            fail_msg("unexpected result file name %s", de->d_name);
        snprintf(names[n], sizeof(names[n]), "%s", de->d_name);
        snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
        doc = it_load_json(path);
        assert_string_equal(it_str_of(doc, "schema"), "bhost.result/1");
        assert_string_equal(
            it_str_of(it_member(it_member(doc, "run"), "config"), "name"),
            "itest_good");
        cJSON_Delete(doc);
        /* each process reported the file it wrote */
        if (!strstr(p1.err, path) && !strstr(p2.err, path))
            fail_msg("%s was reported by neither run", path);
        n++;
    }
    closedir(d);
    assert_int_equal(n, 2);
    assert_string_not_equal(names[0], names[1]);
    /* the same second: exactly one of them got a numeric suffix */
    if (strcmp(stamps[0], stamps[1]) == 0)
        assert_int_equal(suffixed[0] + suffixed[1], 1);
    tp_proc_free(&p1);
    tp_proc_free(&p2);
}

/* ---- interruption ----------------------------------------------------- */

/* SIGINT while a case runs: its worker group is killed, partial results
 * are written and marked incomplete, exit 6. */
static void test_interrupt(void **state)
{
    const char *out = it_path("interrupt.json");
    const char *args[] = {"run", it_config("interrupt.yaml"), "--out", out,
                          NULL};
    struct timespec nap = {0, 100000000};
    pid_t w = 0, last = 0;
    int stable = 0;
    tp_proc p;
    cJSON *doc;

    (void)state;
    it_start(&p, args);
    /* wait for the hang worker: a worker child that stays the same
     * process across several looks (describe workers end at once) */
    for (int i = 0; i < 600 && stable < 5; i++) {
        nanosleep(&nap, NULL);
        w = tp_worker_child(p.pid);
        stable = w && w == last ? stable + 1 : 0;
        last = w;
    }
    if (stable < 5) {
        kill(p.pid, SIGKILL);
        tp_finish(&p);
        fail_msg("the hang worker never showed up");
    }
    assert_int_equal(kill(p.pid, SIGINT), 0);
    tp_finish(&p);
    it_expect_code(&p, 6);
    it_assert_has(p.err, "interrupted");
    /* the worker died with its supervisor's interruption */
    assert_int_equal(kill(w, 0), -1);
    assert_int_equal(errno, ESRCH);
    doc = it_load_json(out);
    assert_true(cJSON_IsFalse(it_member(it_member(doc, "run"), "complete")));
    it_expect_case(doc, "fx_faults/hang", "skipped", "interrupted");
    cJSON_Delete(doc);
    tp_proc_free(&p);
}

/* ---- catalog growth --------------------------------------------------- */

/* Freed memory is poisoned (no tcache, MALLOC_PERTURB_), so a read of a
 * stale pointer into the catalog crashes instead of passing silently. */
static void test_catalog_growth(void **state)
{
    const char *args[] = {"list", it_config("many_plugins.yaml"), NULL};
    tp_proc p;

    (void)state;
    setenv("GLIBC_TUNABLES", "glibc.malloc.tcache_count=0", 1);
    setenv("MALLOC_PERTURB_", "165", 1);
    it_run(&p, args);
    unsetenv("GLIBC_TUNABLES");
    unsetenv("MALLOC_PERTURB_");
    /* Regression: plan_suite() (host/supervisor/plan.c) kept `en`, a pointer into
     * the catalog's entry array, across add_point(), whose
     * bh_catalog_get("backend-cpu") may realloc that array; the include
     * check after the loop then reads en->info from freed memory. With 7
     * other plugin names before it, bhost validate dies of SIGSEGV (exit
     * 139) here; valgrind shows "Invalid read of size 8" at plan.c:477. */
    it_expect_code(&p, 0);
    it_assert_has(p.out, "fx_bad_major/*");
    it_assert_has(p.out, "selftest/device_copy@cpu:0");
    tp_proc_free(&p);
}

/* A plugin the config names that does not exist is a config error in run,
 * as in validate: exit 3 before anything runs, the file, line and column of
 * the name, and the closest plugin name on the search path. */
static void test_missing_plugin(void **state)
{
    const char *out = it_path("missing.json");
    const char *cfg = it_config("missing_plugin.yaml");
    const char *verbs[] = {"run", "validate"};

    (void)state;
    for (size_t v = 0; v < 2; v++) {
        const char *args[] = {verbs[v], cfg, v == 0 ? "--out" : NULL, out, NULL};
        tp_proc p;

        unlink(out);
        it_run(&p, args);
        it_expect_code(&p, 3);
        it_assert_has(p.err, "missing_plugin.yaml:12:13: plugin 'fx_faultz' not found");
        it_assert_has(p.err, "(did you mean 'fx_faults'?)");
        assert_int_equal(access(out, F_OK), -1);
        tp_proc_free(&p);
    }
}

/* The command line overrides the config's warm-up, sample time and
 * timeout; a --filter word without glob characters keeps the ids that
 * contain it; a filter that keeps nothing is a usage error with a hint of
 * what ids look like, and nothing is written. */
static void test_cli_overrides_and_filter(void **state)
{
    const char *out = it_path("overrides.json");
    const char *args[] = {"run", it_config("good.yaml"), "--out", out, "--no-store", "--quiet",
                          "--filter", "spin", "--warmup", "5ms", "--min-time", "2ms",
                          "--timeout", "7s", NULL};
    const char *none[] = {"run", it_config("good.yaml"), "--out", out, "--no-store",
                          "--filter", "no-such-bench", NULL};
    const char *bad[] = {"run", it_config("good.yaml"), "--sample-time", "0", NULL};
    const cJSON *c;
    tp_proc p;
    cJSON *doc;
    int n = 0;

    (void)state;
    it_run(&p, args);
    it_expect_code(&p, 0);
    doc = it_load_json(out);
    cJSON_ArrayForEach(c, it_member(doc, "cases")) {
        const cJSON *set = it_member(c, "settings");

        n++;
        assert_non_null(strstr(it_str_of(c, "id"), "selftest/spin["));
        assert_true(it_member(set, "warmup_ns")->valuedouble == 5e6);
        assert_true(it_member(set, "sample_time_ns")->valuedouble == 2e6);
        assert_true(it_member(set, "timeout_ns")->valuedouble == 7e9);
    }
    assert_int_equal(n, 2);
    cJSON_Delete(doc);
    tp_proc_free(&p);

    unlink(out);
    it_run(&p, none);
    it_expect_code(&p, 2);
    it_assert_has(p.err, "--filter 'no-such-bench' matches none of the 4 cases of ");
    it_assert_has(p.err, "ids look like 'selftest/noop', ");
    assert_int_equal(it_count_lines(p.err), 1);
    assert_int_equal(access(out, F_OK), -1);
    tp_proc_free(&p);

    it_run(&p, bad);
    it_expect_code(&p, 2);
    it_assert_has(p.err, "--sample-time '0': expected a duration above zero");
    tp_proc_free(&p);
}

/* Every number of a result file is written exactly (docs/results-schema.md
 * conventions): the file is a fixed point of parse and write, byte for
 * byte, so no number's text reads back as another double. */
static void test_numbers_exact(void **state)
{
    const char *out = it_path("exact.json");
    const char *args[] = {"run", it_config("good.yaml"), "--out", out, "--quiet", NULL};
    tp_proc p;
    FILE *f;
    char *text;
    long len;
    cJSON *doc;
    char *again;

    (void)state;
    it_run(&p, args);
    it_expect_code(&p, 0);
    tp_proc_free(&p);
    f = fopen(out, "rb");
    assert_non_null(f);
    assert_int_equal(fseek(f, 0, SEEK_END), 0);
    len = ftell(f);
    assert_true(len > 0);
    rewind(f);
    text = malloc((size_t)len + 1);
    assert_non_null(text);
    assert_int_equal(fread(text, 1, (size_t)len, f), (size_t)len);
    text[len] = '\0';
    fclose(f);
    doc = it_parse_json(text, out);
    again = bh_json_print(doc);
    assert_non_null(again);
    assert_int_equal(strlen(again) + 1, (size_t)len);
    assert_int_equal(text[len - 1], '\n');
    assert_memory_equal(again, text, (size_t)len - 1);
    free(again);
    cJSON_Delete(doc);
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fault_isolation),
        cmocka_unit_test(test_load_failures),
        cmocka_unit_test(test_future_plugin),
        cmocka_unit_test(test_validate),
        cmocka_unit_test(test_list),
        cmocka_unit_test(test_info),
        cmocka_unit_test(test_cli_usage),
        cmocka_unit_test(test_determinism),
        cmocka_unit_test(test_filter),
        cmocka_unit_test(test_results_dir),
        cmocka_unit_test(test_interrupt),
        cmocka_unit_test(test_catalog_growth),
        cmocka_unit_test(test_missing_plugin),
        cmocka_unit_test(test_cli_overrides_and_filter),
        cmocka_unit_test(test_numbers_exact),
    };

    return cmocka_run_group_tests(tests, group_setup, it_group_teardown);
}
