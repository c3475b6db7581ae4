// SPDX-License-Identifier: MIT
/* Unit tests for host/results: the "bhost.result/1" document and the
 * write that never overwrites a result (unless asked) and never leaves a
 * partial file. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "bh_fs.h"
#include "bh_mem.h"
#include "executor.h"
#include "result_build.h"

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* ---- helpers ---------------------------------------------------------- */

static char *make_tmpdir(void)
{
    const char *base = getenv("TMPDIR");
    char *dir = bh_xasprintf("%s/bh_results_XXXXXX",
                             base && *base ? base : "/tmp");

    assert_non_null(mkdtemp(dir));
    return dir;
}

static void rm_rf(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *de;

    while (d && (de = readdir(d))) {
        char *p;
        struct stat st;

        if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
            continue;
        p = bh_xasprintf("%s/%s", dir, de->d_name);
        if (lstat(p, &st) == 0 && S_ISDIR(st.st_mode))
            rm_rf(p);
        else
            unlink(p);
        free(p);
    }
    if (d)
        closedir(d);
    rmdir(dir);
}

static int count_entries(const char *dir, const char *needle)
{
    DIR *d = opendir(dir);
    struct dirent *de;
    int n = 0;

    assert_non_null(d);
    while ((de = readdir(d)))
        if (strcmp(de->d_name, ".") != 0 && strcmp(de->d_name, "..") != 0 &&
            strstr(de->d_name, needle))
            n++;
    closedir(d);
    return n;
}

/* Parses a whole file as one JSON value with nothing after it, failing the
 * test otherwise. */
static cJSON *read_json(const char *path)
{
    char *text = NULL;
    size_t len = 0;
    bh_error e = {""};
    const char *end = NULL;
    cJSON *doc;

    if (bh_read_file(path, 64u << 20, &text, &len, &e) != 0)
        fail_msg("%s", e.msg);
    assert_true(len > 0);
    assert_int_equal(text[len - 1], '\n');
    doc = cJSON_ParseWithOpts(text, &end, 1);
    if (!doc)
        fail_msg("%s is not one complete JSON document", path);
    free(text);
    return doc;
}

static cJSON *member(const cJSON *o, const char *key)
{
    cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

    if (!v)
        fail_msg("missing key \"%s\"", key);
    return v;
}

static const char *str_member(const cJSON *o, const char *key)
{
    cJSON *v = member(o, key);

    if (!cJSON_IsString(v))
        fail_msg("\"%s\" is not a string", key);
    return v->valuestring;
}

static double num_member(const cJSON *o, const char *key)
{
    cJSON *v = member(o, key);

    if (!cJSON_IsNumber(v))
        fail_msg("\"%s\" is not a number", key);
    return v->valuedouble;
}

/* A small document with one marker value. */
static cJSON *tiny_doc(int marker)
{
    cJSON *d = cJSON_CreateObject();

    cJSON_AddStringToObject(d, "schema", BH_RESULT_SCHEMA);
    cJSON_AddNumberToObject(d, "marker", marker);
    return d;
}

/* ---- writing ---------------------------------------------------------- */

static void test_write_never_overwrites(void **state)
{
    char *dir = make_tmpdir();
    char *sub = bh_xasprintf("%s/smoke/deeper", dir);
    char *path = bh_xasprintf("%s/20260101T000000Z-host.json", sub);
    char *want1 = bh_xasprintf("%s/20260101T000000Z-host-1.json", sub);
    char *want2 = bh_xasprintf("%s/20260101T000000Z-host-2.json", sub);
    cJSON *d1 = tiny_doc(1), *d2 = tiny_doc(2), *d3 = tiny_doc(3);
    cJSON *got;
    char *used = NULL;
    bh_error e = {""};

    (void)state;
    /* parents are created */
    assert_int_equal(bh_result_write(d1, path, 0, &used, &e), 0);
    assert_string_equal(used, path);
    free(used);
    got = read_json(path);
    assert_true(cJSON_Compare(got, d1, 1));
    cJSON_Delete(got);

    /* the second write of the same name gets "-1", the first stays */
    assert_int_equal(bh_result_write(d2, path, 0, &used, &e), 0);
    assert_string_equal(used, want1);
    free(used);
    got = read_json(path);
    assert_true(num_member(got, "marker") == 1);
    cJSON_Delete(got);
    got = read_json(want1);
    assert_true(num_member(got, "marker") == 2);
    cJSON_Delete(got);

    assert_int_equal(bh_result_write(d3, path, 0, &used, &e), 0);
    assert_string_equal(used, want2);
    free(used);

    /* allow_replace overwrites the named file in place */
    assert_int_equal(bh_result_write(d3, path, 1, &used, &e), 0);
    assert_string_equal(used, path);
    free(used);
    got = read_json(path);
    assert_true(num_member(got, "marker") == 3);
    cJSON_Delete(got);

    assert_int_equal(count_entries(sub, ".tmp"), 0);
    assert_int_equal(count_entries(sub, ""), 3);
    cJSON_Delete(d1), cJSON_Delete(d2), cJSON_Delete(d3);
    rm_rf(dir);
    free(dir), free(sub), free(path), free(want1), free(want2);
}

static void test_write_suffix_without_json_extension(void **state)
{
    char *dir = make_tmpdir();
    char *path = bh_xasprintf("%s/result", dir);
    char *want = bh_xasprintf("%s/result-1", dir);
    cJSON *d = tiny_doc(1);
    char *used = NULL;
    bh_error e = {""};

    (void)state;
    assert_int_equal(bh_result_write(d, path, 0, NULL, &e), 0);
    assert_int_equal(bh_result_write(d, path, 0, &used, &e), 0);
    assert_string_equal(used, want);
    free(used);
    cJSON_Delete(d);
    rm_rf(dir);
    free(dir), free(path), free(want);
}

static void test_write_failure_leaves_nothing(void **state)
{
    char *dir = make_tmpdir();
    char *file = bh_xasprintf("%s/plain", dir);
    char *path = bh_xasprintf("%s/plain/x.json", dir);
    cJSON *d = tiny_doc(1);
    char *used = NULL;
    bh_error e = {""};

    (void)state;
    assert_int_equal(bh_write_file_atomic(file, "x", 1, &e), 0);
    e.msg[0] = '\0';
    assert_int_equal(bh_result_write(d, path, 0, &used, &e), -1);
    assert_null(used);
    assert_true(e.msg[0] != '\0');
    assert_non_null(strstr(e.msg, "plain"));
    assert_int_equal(count_entries(dir, ""), 1);
    cJSON_Delete(d);
    rm_rf(dir);
    free(dir), free(file), free(path);
}

/* Several processes writing one name at once: every document lands in its
 * own complete file. */
static void test_write_concurrent_writers(void **state)
{
    enum { WRITERS = 6 };
    char *dir = make_tmpdir();
    char *path = bh_xasprintf("%s/same.json", dir);
    pid_t pids[WRITERS];
    int seen[WRITERS] = {0};

    (void)state;
    fflush(NULL);
    for (int i = 0; i < WRITERS; i++) {
        pids[i] = fork();
        assert_true(pids[i] >= 0);
        if (pids[i] == 0) {
            cJSON *d = tiny_doc(i);
            bh_error e = {""};
            char *pad = bh_xcalloc(200001, 1);
            int rc;

            memset(pad, 'p', 200000); /* big enough to need several writes */
            cJSON_AddStringToObject(d, "pad", pad);
            rc = bh_result_write(d, path, 0, NULL, &e) == 0 ? 0 : 1;
            free(pad);
            cJSON_Delete(d);
            free(path);
            free(dir);
            _exit(rc);
        }
    }
    for (int i = 0; i < WRITERS; i++) {
        int st = 0;

        assert_int_equal(waitpid(pids[i], &st, 0), pids[i]);
        assert_true(WIFEXITED(st));
        assert_int_equal(WEXITSTATUS(st), 0);
    }
    assert_int_equal(count_entries(dir, ".json"), WRITERS);
    assert_int_equal(count_entries(dir, ".tmp"), 0);
    for (int k = 0; k < WRITERS; k++) {
        char *name = k ? bh_xasprintf("%s/same-%d.json", dir, k)
                       : bh_xstrdup(path);
        cJSON *got = read_json(name);
        int m = (int)num_member(got, "marker");

        assert_true(m >= 0 && m < WRITERS);
        seen[m]++;
        assert_int_equal(strlen(str_member(got, "pad")), 200000);
        cJSON_Delete(got);
        free(name);
    }
    for (int i = 0; i < WRITERS; i++)
        assert_int_equal(seen[i], 1);
    rm_rf(dir);
    free(dir), free(path);
}

static void test_default_path(void **state)
{
    char *p = bh_result_default_path("results", "smoke", "20261122T010203Z",
                                     "myhost");

    (void)state;
    assert_string_equal(p, "results/smoke/20261122T010203Z-myhost.json");
    free(p);
}

/* ---- the document ----------------------------------------------------- */

static bh_case *add_case(bh_plan *plan, const char *id, const char *bench)
{
    bh_case c;

    memset(&c, 0, sizeof(c));
    c.id = bh_xstrdup(id);
    c.plugin = bh_xstrdup("fx_faults");
    c.bench = bh_xstrdup(bench);
    c.plugin_path = bh_xstrdup("/x/fx_faults.so");
    c.params = cJSON_Parse("{\"n\":{\"type\":\"i64\",\"value\":\"16\"}}");
    c.params_plain = cJSON_Parse("{\"n\":16}");
    c.device = -1;
    bh_settings_default(&c.settings);
    BH_PUSH(plan->cases, plan->n, plan->cap, c);
    return &plan->cases[plan->n - 1];
}

static void add_run(bh_case *c, bh_status st, const char *msg,
                    const char *samples, const char *result)
{
    uint32_t r = c->n_runs++;

    c->runs = bh_xreallocarray(c->runs, c->n_runs, sizeof(bh_run));
    memset(&c->runs[r], 0, sizeof(bh_run));
    c->runs[r].index = r;
    c->runs[r].status = st;
    c->runs[r].message = msg ? bh_xstrdup(msg) : NULL;
    c->runs[r].samples = cJSON_Parse(samples);
    c->runs[r].result = result ? cJSON_Parse(result) : NULL;
    c->runs[r].done = 1;
    c->runs[r].wall_ns = 1000000;
}

/* A heap copy of a catalog entry (the catalog owns entries by pointer). */
static bh_catalog_entry *bh_xmemdup_entry(const bh_catalog_entry *en)
{
    bh_catalog_entry *p = bh_xmalloc(sizeof(*p));

    *p = *en;
    return p;
}

static void build_fixture(bh_plan *plan, bh_catalog *cat)
{
    static const char ok_result[] =
        "{\"t\":\"result\",\"status\":\"ok\",\"timing\":\"host\","
        "\"iters_per_sample\":1000,\"items_per_iter\":16,"
        "\"alloc\":{\"count\":2,\"bytes\":64,\"peak_bytes\":64},"
        "\"peak_rss_kb\":5000,"
        "\"metrics\":[{\"name\":\"ok.scale\",\"unit\":\"\","
        "\"direction\":\"higher\",\"value\":1.5}]}";
    bh_case *c;
    bh_catalog_entry en;

    memset(plan, 0, sizeof(*plan));
    c = add_case(plan, "fx_faults/ok[n=16]", "ok");
    add_run(c, BH_ST_OK, NULL,
            "[[1000,5000000],[1000,5100000],[1000,4900000]]", ok_result);
    add_run(c, BH_ST_OK, NULL,
            "[[1000,5050000],[1000,5000000],[1000,4950000]]", ok_result);
    bh_case_finish(c, 42);

    c = add_case(plan, "fx_faults/crash", "crash");
    add_run(c, BH_ST_CRASHED, "killed by SIGSEGV (Segmentation fault)", "[]",
            NULL);
    c->runs[0].log = bh_xstrdup("some output\n");
    c->runs[0].log_truncated = 1;
    bh_case_finish(c, 42);

    c = add_case(plan, "fx_missing/*", "");
    free(c->bench);
    c->bench = NULL;
    c->pre_status = BH_ST_SKIPPED;
    c->pre_reason = bh_xstrdup("plugin 'fx_missing' not found");
    bh_case_finish(c, 42);

    bh_catalog_init(cat, NULL, 0);
    memset(&en, 0, sizeof(en));
    en.key = bh_xstrdup("fx_faults");
    en.path = bh_xstrdup("/x/fx_faults.so");
    en.status = BH_ST_OK;
    en.info = cJSON_Parse("{\"t\":\"describe\",\"plugin_id\":"
                          "\"org.bhost.fx_faults\",\"name\":\"fx_faults\","
                          "\"version\":\"0.0.1\",\"sha256\":\"abc\","
                          "\"abi_major\":1,\"abi_minor\":0,"
                          "\"benchmarks\":[]}");
    BH_PUSH(cat->entries, cat->n, cat->cap, bh_xmemdup_entry(&en));
    memset(&en, 0, sizeof(en));
    en.key = bh_xstrdup("fx_missing");
    en.status = BH_ST_SKIPPED;
    en.error = bh_xstrdup("plugin 'fx_missing' not found");
    BH_PUSH(cat->entries, cat->n, cat->cap, bh_xmemdup_entry(&en));
}

static const cJSON *case_by_id(const cJSON *doc, const char *id)
{
    const cJSON *c;

    cJSON_ArrayForEach(c, member(doc, "cases"))
        if (strcmp(str_member(c, "id"), id) == 0)
            return c;
    fail_msg("no case %s", id);
    return NULL;
}

static void test_document_shape(void **state)
{
    char *dir = make_tmpdir();
    char *cfg_path = bh_xasprintf("%s/itest.yaml", dir);
    char *out = bh_xasprintf("%s/out.json", dir);
    static const char cfg_text[] = "schema: 1\nname: itest\nsuites: []\n";
    char *argv[] = {"run", "itest.yaml", "--seed", "42"};
    bh_error e = {""};
    bh_config *cfg;
    bh_plan plan;
    bh_catalog cat;
    bh_run_meta meta;
    cJSON *doc, *back;
    const cJSON *run, *c, *s, *r0;
    char *text;

    (void)state;
    assert_int_equal(bh_write_file_atomic(cfg_path, cfg_text,
                                          strlen(cfg_text), &e), 0);
    cfg = bh_config_load(cfg_path, &e);
    if (!cfg)
        fail_msg("%s", e.msg);
    build_fixture(&plan, &cat);
    memset(&meta, 0, sizeof(meta));
    meta.cfg = cfg;
    meta.argc = 4;
    meta.argv = argv;
    meta.seed = 42;
    snprintf(meta.started_at, sizeof(meta.started_at), "2026-01-01T00:00:00Z");
    snprintf(meta.finished_at, sizeof(meta.finished_at),
             "2026-01-01T00:00:05Z");
    meta.duration_s = 5;
    meta.system = cJSON_Parse("{\"hostname\":\"h\",\"fingerprint_hash\":\"x\"}");
    doc = bh_result_build(&meta, &plan, &cat);

    assert_string_equal(str_member(doc, "schema"), "bhost.result/1");
    run = member(doc, "run");
    assert_string_equal(str_member(member(run, "config"), "path"), cfg_path);
    assert_string_equal(str_member(member(run, "config"), "name"), "itest");
    assert_int_equal(strlen(str_member(member(run, "config"), "hash")), 64);
    assert_true(strlen(str_member(run, "host_version")) > 0);
    assert_true(num_member(run, "abi_major") == 1);
    assert_true(cJSON_IsNumber(member(run, "abi_minor")));
    assert_int_equal(cJSON_GetArraySize(member(run, "command_line")), 4);
    assert_string_equal(
        cJSON_GetArrayItem(member(run, "command_line"), 3)->valuestring, "42");
    assert_string_equal(str_member(run, "seed"), "0x2a");
    assert_string_equal(str_member(run, "started_at"),
                        "2026-01-01T00:00:00Z");
    assert_string_equal(str_member(run, "finished_at"),
                        "2026-01-01T00:00:05Z");
    assert_true(num_member(run, "duration_s") == 5);
    assert_true(cJSON_IsTrue(member(run, "complete")));
    /* every plugin the run asked for, with its hash or its error */
    assert_int_equal(cJSON_GetArraySize(member(run, "plugins")), 2);
    s = cJSON_GetArrayItem(member(run, "plugins"), 0);
    assert_string_equal(str_member(s, "requested"), "fx_faults");
    assert_string_equal(str_member(s, "status"), "ok");
    assert_string_equal(str_member(s, "sha256"), "abc");
    assert_string_equal(str_member(s, "plugin_id"), "org.bhost.fx_faults");
    s = cJSON_GetArrayItem(member(run, "plugins"), 1);
    assert_string_equal(str_member(s, "status"), "skipped");
    assert_non_null(strstr(str_member(s, "error"), "not found"));
    assert_string_equal(str_member(member(doc, "system"), "hostname"), "h");

    /* cases, in plan order */
    assert_int_equal(cJSON_GetArraySize(member(doc, "cases")), 3);
    c = cJSON_GetArrayItem(member(doc, "cases"), 0);
    assert_string_equal(str_member(c, "id"), "fx_faults/ok[n=16]");
    assert_string_equal(str_member(c, "plugin"), "fx_faults");
    assert_string_equal(str_member(c, "benchmark"), "ok");
    assert_true(num_member(member(c, "params"), "n") == 16);
    assert_string_equal(str_member(c, "status"), "ok");
    assert_null(cJSON_GetObjectItemCaseSensitive(c, "message"));
    s = member(c, "settings");
    assert_true(num_member(s, "runs") == 10); /* as configured, not as run */
    assert_true(cJSON_IsNumber(member(s, "timeout_ns")));
    assert_string_equal(str_member(s, "pin"), "none");
    assert_int_equal(cJSON_GetArraySize(member(c, "runs")), 2);
    r0 = cJSON_GetArrayItem(member(c, "runs"), 0);
    assert_string_equal(str_member(r0, "status"), "ok");
    assert_int_equal(cJSON_GetArraySize(member(r0, "samples")), 3);
    assert_string_equal(str_member(r0, "timing"), "host");
    assert_true(num_member(r0, "iters_per_sample") == 1000);
    s = member(c, "summary");
    assert_true(cJSON_IsObject(s));
    assert_string_equal(str_member(s, "unit"), "ns/iter");
    assert_true(num_member(s, "n") == 6);
    assert_true(num_member(s, "runs") == 2);
    assert_true(num_member(s, "median") == 5000);
    assert_true(num_member(s, "min") == 4900);
    assert_true(num_member(s, "max") == 5100);
    /* infinite or undefined statistics are null, never NaN text */
    assert_true(cJSON_IsNull(member(s, "median_ci_lo")) ||
                cJSON_IsNumber(member(s, "median_ci_lo")));
    assert_true(cJSON_IsObject(member(s, "tukey")));
    assert_true(cJSON_IsArray(member(s, "flags")));
    assert_true(fabs(num_member(member(c, "throughput"), "items_per_s") -
                     16 / 5000e-9) < 1e-3);
    assert_true(num_member(member(c, "memory"), "alloc_count") == 2);
    assert_true(num_member(member(c, "memory"), "peak_rss_kb") == 5000);
    assert_int_equal(cJSON_GetArraySize(member(member(member(c, "metrics"),
                                                      "ok.scale"),
                                               "values")),
                     2);
    assert_true(cJSON_IsNull(member(c, "verdict")));

    c = case_by_id(doc, "fx_faults/crash");
    assert_string_equal(str_member(c, "status"), "crashed");
    assert_non_null(strstr(str_member(c, "message"), "SIGSEGV"));
    assert_true(cJSON_IsNull(member(c, "summary")));
    r0 = cJSON_GetArrayItem(member(c, "runs"), 0);
    assert_string_equal(str_member(r0, "log"), "some output\n");
    assert_true(cJSON_IsTrue(member(r0, "log_truncated")));

    c = case_by_id(doc, "fx_missing/*");
    assert_string_equal(str_member(c, "status"), "skipped");
    assert_non_null(strstr(str_member(c, "message"), "not found"));
    assert_int_equal(cJSON_GetArraySize(member(c, "runs")), 0);
    assert_null(cJSON_GetObjectItemCaseSensitive(c, "benchmark"));

    /* printed, it is plain JSON that reads back identically */
    text = cJSON_Print(doc);
    assert_null(strstr(text, "nan"));
    assert_null(strstr(text, "inf"));
    free(text);
    assert_int_equal(bh_result_write(doc, out, 1, NULL, &e), 0);
    back = read_json(out);
    assert_true(cJSON_Compare(back, doc, 1));
    cJSON_Delete(back);

    /* an interrupted run is marked incomplete */
    cJSON_Delete(doc);
    meta.interrupted = 1;
    doc = bh_result_build(&meta, &plan, &cat);
    assert_true(cJSON_IsFalse(member(member(doc, "run"), "complete")));

    cJSON_Delete(doc);
    cJSON_Delete(meta.system);
    bh_plan_free(&plan);
    bh_catalog_free(&cat);
    bh_config_free(cfg);
    rm_rf(dir);
    free(dir), free(cfg_path), free(out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_write_never_overwrites),
        cmocka_unit_test(test_write_suffix_without_json_extension),
        cmocka_unit_test(test_write_failure_leaves_nothing),
        cmocka_unit_test(test_write_concurrent_writers),
        cmocka_unit_test(test_default_path),
        cmocka_unit_test(test_document_shape),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
