// SPDX-License-Identifier: MIT
/* Unit tests of host/ci: shard parsing and partitioning, the duration
 * history, merging shard documents (and every refusal), git metadata from
 * .git files and CI variables, the job matrix, run.git in results. */
#define _GNU_SOURCE
#include "bh_fs.h"
#include "bh_mem.h"
#include "gitmeta.h"
#include "matrix.h"
#include "merge.h"
#include "merge_gate.h"
#include "result_doc.h"
#include "result_read.h"
#include "shard.h"

#include <stdarg.h>
#include <setjmp.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ftw.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

static char tmp_root[256];

/* A fresh directory under the test's temporary root. */
static char *tmp_dir(const char *name)
{
    char *d = bh_xasprintf("%s/%s", tmp_root, name);

    assert_int_equal(bh_mkdir_p(d, NULL), 0);
    return d;
}

/* Writes text to dir/rel (creating folders). */
static void put_file(const char *dir, const char *rel, const char *text)
{
    char *p = bh_xasprintf("%s/%s", dir, rel);
    char *slash = strrchr(p, '/');

    *slash = '\0';
    assert_int_equal(bh_mkdir_p(p, NULL), 0);
    *slash = '/';
    assert_int_equal(bh_write_file_atomic(p, text, strlen(text), NULL), 0);
    free(p);
}

/* ---- shard specs and the partition ------------------------------------ */

static void test_shard_parse(void **state)
{
    static const char *const bad[] = {"0/4", "5/4", "a/4", "1/", "/4", "1/4x", "-1/4",
                                      " 1/4", "1/1001", "", "1", "1//4", "+1/4"};
    bh_shard_spec s;
    bh_error e = {""};

    (void)state;
    assert_int_equal(bh_shard_parse("1/1", &s, &e), 0);
    assert_int_equal(s.index, 1);
    assert_int_equal(s.count, 1);
    assert_int_equal(bh_shard_parse("4/4", &s, &e), 0);
    assert_int_equal(bh_shard_parse("17/1000", &s, &e), 0);
    assert_int_equal(s.index, 17);
    assert_int_equal(s.count, 1000);
    for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
        e.msg[0] = '\0';
        assert_int_equal(bh_shard_parse(bad[i], &s, &e), -1);
        assert_non_null(strstr(e.msg, "expected I/N"));
    }
}

/* Known answer: LPT on 10 9 8 7 6 5 over two shards. */
static void test_partition_known(void **state)
{
    const char *ids[] = {"f", "e", "d", "c", "b", "a"};
    uint64_t w[] = {5, 6, 7, 8, 9, 10};
    uint32_t a[6];
    uint64_t loads[2];

    (void)state;
    bh_shard_partition(ids, w, 6, 2, a, loads);
    /* a->0 (10), b->1 (9), c->1 (17), d->0 (17), e->0 (23, tie: lower), f->1 (22) */
    assert_int_equal(a[5], 0);
    assert_int_equal(a[4], 1);
    assert_int_equal(a[3], 1);
    assert_int_equal(a[2], 0);
    assert_int_equal(a[1], 0);
    assert_int_equal(a[0], 1);
    assert_int_equal(loads[0], 23);
    assert_int_equal(loads[1], 22);
}

/* Every case lands in exactly one shard, the same one whatever the input
 * order, and the loads differ by at most the largest weight (LPT). */
static void test_partition_cover(void **state)
{
    enum { N = 997 };
    char *ids[N];
    uint64_t w[N], w2[N], maxw = 0;
    const char *ids2[N];
    uint32_t a[N], a2[N];
    uint64_t loads[8];

    (void)state;
    for (size_t i = 0; i < N; i++) {
        ids[i] = bh_xasprintf("case/%04zu", i);
        w[i] = 1000 + (i * 7919u) % 50000u;
        maxw = w[i] > maxw ? w[i] : maxw;
    }
    for (uint32_t count = 1; count <= 8; count++) {
        uint64_t lo = UINT64_MAX, hi = 0, sum = 0, total = 0;

        bh_shard_partition((const char *const *)ids, w, N, count, a, loads);
        for (size_t i = 0; i < N; i++) { /* the same cases in reverse order */
            ids2[i] = ids[N - 1 - i];
            w2[i] = w[N - 1 - i];
        }
        bh_shard_partition(ids2, w2, N, count, a2, NULL);
        for (size_t i = 0; i < N; i++) {
            assert_true(a[i] < count);
            assert_int_equal(a[i], a2[N - 1 - i]);
            total += w[i];
        }
        for (uint32_t s = 0; s < count; s++) {
            lo = loads[s] < lo ? loads[s] : lo;
            hi = loads[s] > hi ? loads[s] : hi;
            sum += loads[s];
        }
        assert_int_equal(sum, total);
        assert_true(hi - lo <= maxw);
    }
    for (size_t i = 0; i < N; i++)
        w[i] = 1; /* case count: shard sizes differ by at most one */
    bh_shard_partition((const char *const *)ids, w, N, 4, a, loads);
    assert_true(loads[0] - loads[3] <= 1 && loads[0] >= loads[3]);
    for (size_t i = 0; i < N; i++)
        free(ids[i]);
}

/* A plan of n cases named "p/b[k=i]" (fields the planner would own). */
static void make_plan(bh_plan *p, size_t n)
{
    memset(p, 0, sizeof(*p));
    p->cases = bh_xcalloc(n, sizeof(*p->cases));
    p->n = p->cap = n;
    for (size_t i = 0; i < n; i++) {
        p->cases[i].id = bh_xasprintf("sel/spin[work=%zu]", i);
        p->cases[i].plugin = bh_xstrdup("sel");
        p->cases[i].params_plain = cJSON_CreateObject();
        if (i % 3 == 1)
            p->cases[i].backend = bh_xstrdup("cpu");
    }
}

/* The shards of a plan together hold each case once, agree on the
 * partition, and keep plan order. */
static void test_shard_apply_cover(void **state)
{
    enum { N = 23, K = 4 };
    bh_shard_history h = {NULL, NULL, 0, 0};
    int seen[N] = {0};
    char first_partition[65] = "";

    (void)state;
    for (uint32_t i = 1; i <= K; i++) {
        bh_plan p;
        bh_shard_info info;
        bh_shard_spec s = {i, K};
        cJSON *j;

        make_plan(&p, N);
        bh_shard_apply(&p, &s, &h, &info);
        assert_int_equal(info.cases_total, N);
        assert_int_equal(info.n_positions, p.n);
        assert_true(p.n == N / K || p.n == N / K + 1);
        assert_string_equal(info.balanced_by, "case count");
        for (size_t k = 0; k < p.n; k++) {
            char want[64];

            snprintf(want, sizeof(want), "sel/spin[work=%zu]", info.positions[k]);
            assert_string_equal(p.cases[k].id, want);
            assert_true(k == 0 || info.positions[k] > info.positions[k - 1]);
            seen[info.positions[k]]++;
        }
        if (i == 1)
            memcpy(first_partition, info.partition, sizeof(first_partition));
        assert_string_equal(info.partition, first_partition);
        j = bh_shard_json(&info);
        assert_int_equal(cJSON_GetObjectItem(j, "index")->valueint, (int)i);
        assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(j, "positions")), (int)p.n);
        cJSON_Delete(j);
        bh_shard_info_free(&info);
        bh_plan_free(&p);
    }
    for (size_t k = 0; k < N; k++)
        assert_int_equal(seen[k], 1);
}

/* --backend: "none" keeps host-only cases. */
static void test_select_backends(void **state)
{
    bh_plan p;
    char *cpu[] = {"cpu"}, *none[] = {"none"}, *both[] = {"none", "cpu"};

    (void)state;
    make_plan(&p, 9);
    bh_shard_select_backends(&p, cpu, 1);
    assert_int_equal(p.n, 3);
    for (size_t i = 0; i < p.n; i++)
        assert_string_equal(p.cases[i].backend, "cpu");
    bh_plan_free(&p);
    make_plan(&p, 9);
    bh_shard_select_backends(&p, none, 1);
    assert_int_equal(p.n, 6);
    bh_plan_free(&p);
    make_plan(&p, 9);
    bh_shard_select_backends(&p, both, 2);
    assert_int_equal(p.n, 9);
    bh_plan_free(&p);
}

/* ---- the duration history --------------------------------------------- */

/* A result document of config with cases id=ns... (one run each). */
static char *result_text(const char *config, const char *started, int shard, int n, ...)
{
    cJSON *doc = cJSON_CreateObject();
    cJSON *run = cJSON_AddObjectToObject(doc, "run");
    cJSON *cases = cJSON_CreateArray();
    va_list ap;
    char *text;

    cJSON_AddStringToObject(doc, "schema", BH_RESULT_SCHEMA);
    cJSON_AddStringToObject(cJSON_AddObjectToObject(run, "config"), "name", config);
    cJSON_AddStringToObject(run, "started_at", started);
    if (shard)
        cJSON_AddObjectToObject(run, "shard");
    va_start(ap, n);
    for (int i = 0; i < n; i++) {
        const char *id = va_arg(ap, const char *);
        double ns = va_arg(ap, double);
        cJSON *c = cJSON_CreateObject();
        cJSON *r = cJSON_CreateObject();

        cJSON_AddStringToObject(c, "id", id);
        cJSON_AddStringToObject(c, "status", "ok");
        cJSON_AddNumberToObject(r, "wall_ns", ns / 2);
        cJSON_AddItemToArray(cJSON_AddArrayToObject(c, "runs"), r);
        r = cJSON_CreateObject();
        cJSON_AddNumberToObject(r, "wall_ns", ns / 2);
        cJSON_AddItemToArray(cJSON_GetObjectItem(c, "runs"), r);
        cJSON_AddItemToArray(cases, c);
    }
    va_end(ap);
    cJSON_AddItemToObject(doc, "cases", cases);
    text = cJSON_Print(doc);
    cJSON_Delete(doc);
    return text;
}

static void test_history(void **state)
{
    char *root = tmp_dir("hist");
    bh_shard_history h;
    char *t;

    (void)state;
    bh_shard_history_load(root, "cfg", &h); /* nothing recorded */
    assert_int_equal(h.n, 0);
    assert_int_equal(bh_shard_history_find(&h, "a"), -1);
    bh_shard_history_free(&h);
    t = result_text("cfg", "2026-01-01T00:00:00Z", 0, 2, "a", 100.0, "b", 200.0);
    put_file(root, "cfg/20260101T000000Z-h.json", t);
    free(t);
    t = result_text("cfg", "2026-01-02T00:00:00Z", 0, 1, "a", 300.0);
    put_file(root, "cfg/20260102T000000Z-h.json", t);
    free(t);
    t = result_text("cfg", "2026-01-03T00:00:00Z", 1, 1, "a", 999.0); /* a shard */
    put_file(root, "cfg/20260103T000000Z-h.json", t);
    free(t);
    t = result_text("other", "2026-01-04T00:00:00Z", 0, 1, "a", 777.0); /* another config */
    put_file(root, "cfg/20260104T000000Z-h.json", t);
    free(t);
    put_file(root, "cfg/20260105T000000Z-h.json", "{not json"); /* skipped */
    t = result_text("cfg", "2025-12-01T00:00:00Z", 0, 1, "c", 50.0);
    put_file(root, "cfg/baselines/main.json", t);
    free(t);
    bh_shard_history_load(root, "cfg", &h);
    assert_int_equal(h.files, 3);
    assert_int_equal(bh_shard_history_find(&h, "a"), 300); /* the newest whole run */
    assert_int_equal(bh_shard_history_find(&h, "b"), 200);
    assert_int_equal(bh_shard_history_find(&h, "c"), 50);
    assert_int_equal(bh_shard_history_find(&h, "d"), -1);
    bh_shard_history_free(&h);
    free(root);
}

/* Durations steer the split: one heavy case gets a shard of its own. */
static void test_shard_apply_durations(void **state)
{
    char *ids[] = {"sel/spin[work=0]", "sel/spin[work=1]", "sel/spin[work=2]",
                   "sel/spin[work=3]"};
    uint64_t ns[] = {1000000, 10, 10, 10};
    bh_shard_history h = {ids, ns, 4, 1};
    bh_plan p;
    bh_shard_info info;
    bh_shard_spec s = {1, 2};

    (void)state;
    make_plan(&p, 4);
    bh_shard_apply(&p, &s, &h, &info);
    assert_string_equal(info.balanced_by, "durations");
    assert_int_equal(info.cases_with_history, 4);
    assert_int_equal(p.n, 1);
    assert_string_equal(p.cases[0].id, "sel/spin[work=0]");
    assert_int_equal(info.load_ns, 1000000);
    assert_int_equal(info.total_ns, 1000030);
    bh_shard_info_free(&info);
    bh_plan_free(&p);
}

/* ---- merging ----------------------------------------------------------- */

typedef struct shard_def {
    const char *config, *hash, *seed, *model, *commit, *partition;
    int index, count, total;
    int dirty;
    int n;
    int pos[8];
    const char *digest; /* baseline digest of the comparison; NULL: none */
    double fdr;
    int fail_on_regression;
    int bad_counts;
} shard_def;

static const char *const PART =
    "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";

/* The verdict a shard decided for the case at plan position p: c4
 * regressed (critical, confirmed), c6 improved, the rest no change. */
static cJSON *verdict_of(int p)
{
    cJSON *v = cJSON_CreateObject();

    cJSON_AddStringToObject(v, "verdict", p == 4 ? "regressed" : p == 6 ? "improved"
                                                                      : "no change");
    if (p == 4)
        cJSON_AddStringToObject(v, "severity", "critical");
    else
        cJSON_AddNullToObject(v, "severity");
    cJSON_AddArrayToObject(v, "metrics");
    return v;
}

/* The comparison summary of shard d as bhost run --baseline writes one:
 * one test per case, counts of verdict_of, the baseline case "gone" that
 * no shard runs listed missing, and the gate record. */
static cJSON *comparison_of(const shard_def *d)
{
    cJSON *o = cJSON_CreateObject();
    cJSON *counts, *sev, *gate;
    int reg = 0, imp = 0;

    for (int i = 0; i < d->n; i++)
        reg += d->pos[i] == 4, imp += d->pos[i] == 6;
    cJSON_AddStringToObject(o, "baseline", "base.json");
    cJSON_AddNullToObject(o, "candidate");
    cJSON_AddNumberToObject(o, "fdr", d->fdr);
    cJSON_AddNumberToObject(o, "tests", d->n);
    cJSON_AddNumberToObject(o, "family", 7);
    cJSON_AddNumberToObject(o, "suspects", reg);
    cJSON_AddNumberToObject(o, "confirm_tests", reg);
    counts = cJSON_AddObjectToObject(o, "counts");
    cJSON_AddNumberToObject(counts, "no change", d->n - reg - imp);
    cJSON_AddNumberToObject(counts, "improved", imp);
    if (d->bad_counts)
        cJSON_AddStringToObject(counts, "regressed", "one");
    else
        cJSON_AddNumberToObject(counts, "regressed", reg);
    cJSON_AddNumberToObject(counts, "missing", 1);
    sev = cJSON_AddObjectToObject(o, "regressed");
    cJSON_AddNumberToObject(sev, "minor", 0);
    cJSON_AddNumberToObject(sev, "critical", reg);
    cJSON_AddItemToArray(cJSON_AddArrayToObject(o, "missing"), cJSON_CreateString("gone"));
    gate = cJSON_AddObjectToObject(o, "gate");
    cJSON_AddStringToObject(gate, "baseline_sha256", d->digest);
    cJSON_AddNumberToObject(cJSON_AddObjectToObject(gate, "regression"), "fdr", d->fdr);
    cJSON_AddStringToObject(gate, "confirmation", "unpaired");
    cJSON_AddBoolToObject(gate, "fail_on_regression", d->fail_on_regression);
    return o;
}

/* A shard result document as bhost run --shard writes one. */
static cJSON *shard_doc(const shard_def *d)
{
    cJSON *doc = cJSON_CreateObject();
    cJSON *run = cJSON_AddObjectToObject(doc, "run");
    cJSON *cfg = cJSON_AddObjectToObject(run, "config");
    cJSON *sh = cJSON_AddObjectToObject(run, "shard");
    cJSON *pos = cJSON_AddArrayToObject(sh, "positions");
    cJSON *git = cJSON_AddObjectToObject(run, "git");
    cJSON *sys = cJSON_CreateObject();
    cJSON *cases = cJSON_CreateArray();
    cJSON *plugins = cJSON_AddArrayToObject(run, "plugins");
    cJSON *pl = cJSON_CreateObject();
    char stamp[32];

    cJSON_AddStringToObject(doc, "schema", BH_RESULT_SCHEMA);
    cJSON_AddStringToObject(cfg, "name", d->config);
    cJSON_AddStringToObject(cfg, "hash", d->hash);
    cJSON_AddStringToObject(run, "seed", d->seed);
    snprintf(stamp, sizeof(stamp), "2026-01-01T00:00:0%dZ", d->index);
    cJSON_AddStringToObject(run, "started_at", stamp);
    snprintf(stamp, sizeof(stamp), "2026-01-01T00:01:0%dZ", d->index);
    cJSON_AddStringToObject(run, "finished_at", stamp);
    cJSON_AddNumberToObject(run, "duration_s", 10);
    cJSON_AddBoolToObject(run, "complete", 1);
    cJSON_AddStringToObject(pl, "requested", d->index % 2 ? "selftest" : "backend-cpu");
    cJSON_AddItemToArray(plugins, pl);
    cJSON_AddStringToObject(git, "commit", d->commit);
    cJSON_AddStringToObject(git, "branch", "main");
    cJSON_AddBoolToObject(git, "dirty", d->dirty);
    cJSON_AddNumberToObject(sh, "index", d->index);
    cJSON_AddNumberToObject(sh, "count", d->count);
    cJSON_AddNumberToObject(sh, "cases_total", d->total);
    cJSON_AddStringToObject(sh, "partition", d->partition ? d->partition : PART);
    cJSON_AddStringToObject(cJSON_AddObjectToObject(sys, "cpu"), "model", d->model);
    cJSON_AddItemToObject(doc, "system", sys);
    for (int i = 0; i < d->n; i++) {
        cJSON *c = cJSON_CreateObject();
        char id[32];

        snprintf(id, sizeof(id), "c%d", d->pos[i]);
        cJSON_AddStringToObject(c, "id", id);
        cJSON_AddStringToObject(c, "status", "ok");
        if (d->digest)
            cJSON_AddItemToObject(c, "verdict", verdict_of(d->pos[i]));
        cJSON_AddItemToArray(cases, c);
        cJSON_AddItemToArray(pos, cJSON_CreateNumber(d->pos[i]));
    }
    cJSON_AddItemToObject(doc, "cases", cases);
    if (d->digest)
        cJSON_AddItemToObject(doc, "comparison", comparison_of(d));
    return doc;
}

/* Three good shards of a 7-case run. */
static void good_defs(shard_def d[3])
{
    shard_def base = {"cfg", "h1", "0x2a", "cpu-A", "abc1234", NULL, 1, 3, 7, 0, 0, {0},
                      "d1", 0.05, 0, 0};

    for (int i = 0; i < 3; i++)
        d[i] = base;
    d[0].index = 1, d[0].n = 3, d[0].pos[0] = 0, d[0].pos[1] = 3, d[0].pos[2] = 6;
    d[1].index = 2, d[1].n = 2, d[1].pos[0] = 1, d[1].pos[1] = 4;
    d[2].index = 3, d[2].n = 2, d[2].pos[0] = 2, d[2].pos[1] = 5;
}

/* A number member of o as an int (-1 when absent). */
static int num(const cJSON *o, const char *key)
{
    const cJSON *x = cJSON_GetObjectItem(o, key);

    return cJSON_IsNumber(x) ? (int)x->valuedouble : -1;
}

/* Merges defs (in the given order); returns the document or NULL with
 * why and msg set. */
static cJSON *merge_defs(const shard_def *d, size_t n, int *why, char *msg)
{
    cJSON *docs[8];
    const char *names[8] = {"s1.json", "s2.json", "s3.json", "s4.json",
                            "s5.json", "s6.json", "s7.json", "s8.json"};
    char *argv[] = {"merge", "out.json"};
    bh_error e = {""};
    cJSON *m;

    for (size_t i = 0; i < n; i++)
        docs[i] = shard_doc(&d[i]);
    m = bh_merge_shards(docs, names, n, 2, argv, why, &e);
    for (size_t i = 0; i < n; i++)
        cJSON_Delete(docs[i]);
    strcpy(msg, e.msg);
    return m;
}

static void test_merge_ok(void **state)
{
    shard_def d[3];
    shard_def r[3];
    int why = 0;
    char msg[1024];
    cJSON *m;
    const cJSON *c;
    int k = 0;
    const cJSON *run, *cmp;

    (void)state;
    good_defs(d);
    d[1].dirty = 1;
    d[2].fail_on_regression = 1; /* one shard asked: the merged gate fails */
    r[0] = d[2], r[1] = d[0], r[2] = d[1]; /* any order of files */
    m = merge_defs(r, 3, &why, msg);
    assert_non_null(m);
    cJSON_ArrayForEach(c, cJSON_GetObjectItem(m, "cases")) {
        char want[16];

        snprintf(want, sizeof(want), "c%d", k++);
        assert_string_equal(cJSON_GetObjectItem(c, "id")->valuestring, want);
        /* each case keeps the verdict its shard decided */
        assert_string_equal(cJSON_GetObjectItem(cJSON_GetObjectItem(c, "verdict"),
                                                "verdict")->valuestring,
                            k == 5 ? "regressed" : k == 7 ? "improved" : "no change");
    }
    assert_int_equal(k, 7);
    run = cJSON_GetObjectItem(m, "run");
    assert_null(cJSON_GetObjectItem(run, "shard"));
    cmp = cJSON_GetObjectItem(m, "comparison");
    assert_int_equal(num(cmp, "tests"), 7);
    assert_int_equal(num(cmp, "family"), 7);
    assert_int_equal(num(cmp, "suspects"), 1);
    assert_int_equal(num(cJSON_GetObjectItem(cmp, "counts"), "no change"), 5);
    assert_int_equal(num(cJSON_GetObjectItem(cmp, "counts"), "regressed"), 1);
    assert_int_equal(num(cJSON_GetObjectItem(cmp, "counts"), "improved"), 1);
    assert_int_equal(num(cJSON_GetObjectItem(cmp, "counts"), "missing"), 1); /* once */
    assert_int_equal(num(cJSON_GetObjectItem(cmp, "regressed"), "critical"), 1);
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(cmp, "missing")), 1);
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(cmp, "families")), 3);
    assert_true(cJSON_IsNull(cJSON_GetObjectItem(cmp, "candidate")));
    assert_true(cJSON_IsTrue(cJSON_GetObjectItem(cJSON_GetObjectItem(cmp, "gate"),
                                                 "fail_on_regression")));
    assert_int_equal(bh_merge_n_critical(m), 1);
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(cJSON_GetObjectItem(run, "merged"),
                                                            "shards")), 3);
    assert_string_equal(cJSON_GetObjectItem(run, "started_at")->valuestring,
                        "2026-01-01T00:00:01Z");
    assert_string_equal(cJSON_GetObjectItem(run, "finished_at")->valuestring,
                        "2026-01-01T00:01:03Z");
    assert_true(cJSON_GetObjectItem(run, "duration_s")->valuedouble == 30);
    assert_true(cJSON_IsTrue(cJSON_GetObjectItem(cJSON_GetObjectItem(run, "git"), "dirty")));
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(run, "plugins")), 2);
    assert_int_equal(bh_result_validate(m, "m", NULL), 0);
    cJSON_Delete(m);
}

/* Each mismatch is refused with one line naming it. */
static void test_merge_refusals(void **state)
{
    shard_def d[3];
    int why;
    char msg[1024];
    struct {
        const char *what;
        int expect_why;
    } cases[] = {
        {"configs", BH_MERGE_MISMATCH},       {"config files (hash)", BH_MERGE_MISMATCH},
        {"seeds", BH_MERGE_MISMATCH},         {"system fingerprints", BH_MERGE_MISMATCH},
        {"git commits", BH_MERGE_MISMATCH},   {"different splits", BH_MERGE_MISMATCH},
        {"different partitions", BH_MERGE_MISMATCH}, {"missing shard 2 of 3", BH_MERGE_MISMATCH},
        {"are both shard 3/3", BH_MERGE_MISMATCH},   {"overlapping shards", BH_MERGE_MISMATCH},
        {"run.shard.positions", BH_MERGE_MALFORMED},
        {"shards gated against different baselines", BH_MERGE_MISMATCH},
        {"s1.json has regression.fdr 0.05, s2.json has 0.1", BH_MERGE_MISMATCH},
        {"s1.json was compared with a baseline, s3.json was not", BH_MERGE_MISMATCH},
        {"s2.json: comparison", BH_MERGE_MALFORMED},
    };
    size_t n;

    (void)state;
    for (size_t t = 0; t < sizeof(cases) / sizeof(*cases); t++) {
        good_defs(d);
        n = 3;
        switch (t) {
        case 0: d[1].config = "other"; break;
        case 1: d[2].hash = "h2"; break;
        case 2: d[1].seed = "0x2b"; break;
        case 3: d[2].model = "cpu-B"; break;
        case 4: d[1].commit = "def5678"; break;
        case 5: d[2].count = 4; break;
        case 6: d[1].partition = "fedcba9876543210fedcba9876543210fedcba9876543210fedcba9876543210"; break;
        case 7: d[1] = d[2]; n = 2; break;
        case 8: d[1] = d[2]; break;
        case 9: d[1].pos[0] = 3; d[1].pos[1] = 4; break; /* case 3 twice, 1 nowhere */
        case 10: d[1].pos[0] = 4; d[1].pos[1] = 1; break; /* not ascending */
        case 11: d[2].digest = "d2"; break;
        case 12: d[1].fdr = 0.1; break;
        case 13: d[2].digest = NULL; break;
        case 14: d[1].bad_counts = 1; break;
        }
        why = 0;
        assert_null(merge_defs(d, n, &why, msg));
        if (!strstr(msg, cases[t].what))
            fail_msg("case %zu: '%s' does not name '%s'", t, msg, cases[t].what);
        assert_int_equal(why, cases[t].expect_why);
        assert_null(strchr(msg, '\n'));
    }
}

/* A whole run (no run.shard) is not a shard. */
static void test_merge_not_shard(void **state)
{
    shard_def d[3];
    cJSON *docs[3];
    const char *names[] = {"a.json", "b.json", "c.json"};
    bh_error e = {""};
    int why = 0;

    (void)state;
    good_defs(d);
    for (int i = 0; i < 3; i++)
        docs[i] = shard_doc(&d[i]);
    cJSON_DeleteItemFromObject(cJSON_GetObjectItem(docs[1], "run"), "shard");
    assert_null(bh_merge_shards(docs, names, 3, 0, NULL, &why, &e));
    assert_int_equal(why, BH_MERGE_MALFORMED);
    assert_non_null(strstr(e.msg, "b.json: not a shard result"));
    for (int i = 0; i < 3; i++)
        cJSON_Delete(docs[i]);
}

/* ---- git metadata -------------------------------------------------------- */

static const char *const CI_VARS[] = {
    "BHOST_GIT_COMMIT", "BHOST_GIT_BRANCH", "BHOST_GIT_DIRTY", "GITHUB_SHA", "GITHUB_HEAD_REF",
    "GITHUB_REF_NAME", "GITHUB_REF_TYPE", "CI_COMMIT_SHA", "CI_COMMIT_BRANCH",
    "CI_COMMIT_REF_NAME", "CI_MERGE_REQUEST_SOURCE_BRANCH_NAME", "BUILDKITE_COMMIT",
    "BUILDKITE_BRANCH", "CIRCLE_SHA1", "CIRCLE_BRANCH", "GIT_COMMIT", "GIT_BRANCH",
    "GIT_LOCAL_BRANCH", "GIT_DIR", "GIT_WORK_TREE"};

static void clear_ci_env(void)
{
    for (size_t i = 0; i < sizeof(CI_VARS) / sizeof(*CI_VARS); i++)
        unsetenv(CI_VARS[i]);
}

#define SHA1 "1111111111111111111111111111111111111111"
#define SHA2 "2222222222222222222222222222222222222222"

static void test_git_files(void **state)
{
    char *repo = tmp_dir("repo");
    char *sub;
    bh_git_meta g;

    (void)state;
    clear_ci_env();
    setenv("BHOST_GIT_DIRTY", "0", 1); /* no git spawned for the fake repo */
    put_file(repo, ".git/HEAD", "ref: refs/heads/feature/x\n");
    put_file(repo, ".git/refs/heads/feature/x", SHA1 "\n");
    sub = bh_xasprintf("%s/a/b", repo);
    assert_int_equal(bh_mkdir_p(sub, NULL), 0);
    bh_git_meta_collect(sub, 1000, &g); /* found from a subfolder */
    assert_string_equal(g.commit, SHA1);
    assert_string_equal(g.branch, "feature/x");
    assert_int_equal(g.dirty, 0);
    assert_string_equal(g.source, "git");
    bh_git_meta_free(&g);
    /* only in packed-refs */
    put_file(repo, ".git/HEAD", "ref: refs/heads/main\n");
    put_file(repo, ".git/packed-refs",
             "# pack-refs with: peeled fully-peeled sorted\n" SHA1 " refs/heads/mainline\n" SHA2
             " refs/heads/main\n^" SHA1 "\n");
    bh_git_meta_collect(repo, 1000, &g);
    assert_string_equal(g.commit, SHA2);
    assert_string_equal(g.branch, "main");
    bh_git_meta_free(&g);
    /* detached */
    put_file(repo, ".git/HEAD", SHA1 "\n");
    bh_git_meta_collect(repo, 1000, &g);
    assert_string_equal(g.commit, SHA1);
    assert_null(g.branch);
    bh_git_meta_free(&g);
    /* unborn branch: the branch without a commit */
    put_file(repo, ".git/HEAD", "ref: refs/heads/new\n");
    bh_git_meta_collect(repo, 1000, &g);
    assert_null(g.commit);
    assert_string_equal(g.branch, "new");
    bh_git_meta_free(&g);
    free(sub);
    free(repo);
}

/* A linked worktree: .git is a file, refs live in the common dir. */
static void test_git_worktree(void **state)
{
    char *main_repo = tmp_dir("wt-main");
    char *wt = tmp_dir("wt-linked");
    char *link = bh_xasprintf("gitdir: %s/.git/worktrees/wt\n", main_repo);
    bh_git_meta g;

    (void)state;
    clear_ci_env();
    setenv("BHOST_GIT_DIRTY", "1", 1);
    put_file(main_repo, ".git/HEAD", "ref: refs/heads/main\n");
    put_file(main_repo, ".git/refs/heads/topic", SHA2 "\n");
    put_file(main_repo, ".git/worktrees/wt/HEAD", "ref: refs/heads/topic\n");
    put_file(main_repo, ".git/worktrees/wt/commondir", "../..\n");
    put_file(wt, ".git", link);
    bh_git_meta_collect(wt, 1000, &g);
    assert_string_equal(g.commit, SHA2);
    assert_string_equal(g.branch, "topic");
    assert_int_equal(g.dirty, 1);
    bh_git_meta_free(&g);
    free(link);
    free(wt);
    free(main_repo);
}

/* CI variables win over the files; GitHub's PR head branch first. */
static void test_git_env(void **state)
{
    char *repo = tmp_dir("repo-env");
    bh_git_meta g;

    (void)state;
    clear_ci_env();
    setenv("BHOST_GIT_DIRTY", "0", 1);
    put_file(repo, ".git/HEAD", SHA1 "\n");
    setenv("GITHUB_SHA", SHA2, 1);
    setenv("GITHUB_REF_NAME", "42/merge", 1);
    setenv("GITHUB_HEAD_REF", "my-feature", 1);
    bh_git_meta_collect(repo, 1000, &g);
    assert_string_equal(g.commit, SHA2);
    assert_string_equal(g.branch, "my-feature");
    assert_string_equal(g.source, "GITHUB_SHA");
    bh_git_meta_free(&g);
    unsetenv("GITHUB_HEAD_REF");
    setenv("GITHUB_REF_NAME", "main", 1);
    setenv("GITHUB_REF_TYPE", "branch", 1);
    bh_git_meta_collect(repo, 1000, &g);
    assert_string_equal(g.branch, "main");
    bh_git_meta_free(&g);
    setenv("GITHUB_REF_TYPE", "tag", 1); /* a tag is not a branch */
    bh_git_meta_collect(repo, 1000, &g);
    assert_null(g.branch);
    bh_git_meta_free(&g);
    clear_ci_env();
    setenv("BHOST_GIT_DIRTY", "0", 1);
    setenv("CI_COMMIT_SHA", SHA2, 1);
    setenv("CI_COMMIT_REF_NAME", "gl-branch", 1);
    bh_git_meta_collect(repo, 1000, &g);
    assert_string_equal(g.branch, "gl-branch");
    assert_string_equal(g.source, "CI_COMMIT_SHA");
    bh_git_meta_free(&g);
    clear_ci_env();
    setenv("BHOST_GIT_DIRTY", "0", 1);
    setenv("GIT_COMMIT", "not-a-sha", 1); /* ignored: falls back to the files */
    setenv("GIT_BRANCH", "origin/jenkins", 1);
    bh_git_meta_collect(repo, 1000, &g);
    assert_string_equal(g.commit, SHA1);
    assert_string_equal(g.source, "git");
    bh_git_meta_free(&g);
    setenv("GIT_COMMIT", SHA2, 1);
    bh_git_meta_collect(repo, 1000, &g);
    assert_string_equal(g.branch, "jenkins");
    bh_git_meta_free(&g);
    clear_ci_env();
    free(repo);
}

/* No repository: everything unknown. */
static void test_git_none(void **state)
{
    char *dir = tmp_dir("no-repo");
    bh_git_meta g;

    (void)state;
    clear_ci_env();
    /* tmp_root is not inside a repository unless TMPDIR is; skip then */
    bh_git_meta_collect(dir, 1000, &g);
    if (strcmp(g.source, "none") == 0) {
        assert_null(g.commit);
        assert_null(g.branch);
        assert_int_equal(g.dirty, -1);
    }
    bh_git_meta_free(&g);
    free(dir);
}

/* run.git written, read back, and absent in old results. */
static void test_result_git(void **state)
{
    bh_run_git rg = {SHA1, "main", 1, "git"};
    cJSON *j = bh_result_git_json(&rg);
    cJSON *doc;
    const char *c, *b;
    int d;
    char *text;
    bh_error e = {""};

    (void)state;
    doc = cJSON_Parse("{\"schema\":\"bhost.result/1\",\"run\":{},\"cases\":[]}");
    bh_result_git(doc, &c, &b, &d); /* an old result */
    assert_null(c);
    assert_null(b);
    assert_int_equal(d, -1);
    assert_int_equal(bh_result_validate(doc, "old.json", &e), 0);
    cJSON_AddItemToObject(cJSON_GetObjectItem(doc, "run"), "git", j);
    text = cJSON_Print(doc);
    cJSON_Delete(doc);
    doc = bh_result_parse(text, strlen(text), "new.json", &e);
    assert_non_null(doc);
    bh_result_git(doc, &c, &b, &d);
    assert_string_equal(c, SHA1);
    assert_string_equal(b, "main");
    assert_int_equal(d, 1);
    cJSON_Delete(doc);
    free(text);
    j = bh_result_git_json(NULL);
    assert_true(cJSON_IsNull(cJSON_GetObjectItem(j, "commit")));
    assert_true(cJSON_IsNull(cJSON_GetObjectItem(j, "dirty")));
    cJSON_Delete(j);
    text = "{\"schema\":\"bhost.result/1\",\"run\":{\"git\":{\"dirty\":\"yes\"}},\"cases\":[]}";
    assert_null(bh_result_parse(text, strlen(text), "bad.json", &e));
    assert_non_null(strstr(e.msg, "bad.json: run.git: expected"));
}

/* ---- the job matrix ------------------------------------------------------ */

static const char *job_str(const cJSON *j, const char *k)
{
    const cJSON *v = cJSON_GetObjectItem(j, k);

    return cJSON_IsString(v) ? v->valuestring : "";
}

static void test_matrix(void **state)
{
    char *dir = tmp_dir("configs");
    char **files;
    size_t n;
    cJSON *m = NULL;
    bh_error e = {""};
    const cJSON *jobs;
    char *runners[] = {"cuda=self-hosted,cuda", "default=ubuntu-24.04"};
    char *filters[] = {"b*, solo"};
    bh_matrix_opts o = {NULL, 0, NULL, 0, 1};

    (void)state;
    put_file(dir, "a.yaml", "schema: 1\nname: solo\nsuites: []\n");
    put_file(dir, "b.yml",
             "schema: 1\nname: big\nbackends:\n  cpu: {required: true}\n"
             "  cuda: {required: false}\n  vulkan: {required: false}\nsuites: []\n");
    put_file(dir, "notes.txt", "not a config\n");
    files = bh_matrix_list_configs(dir, &n, &e);
    assert_int_equal(n, 2);
    /* no runner mapped: one job per config */
    assert_int_equal(bh_matrix_build(files, n, &o, &m, &e), 0);
    jobs = cJSON_GetObjectItem(m, "include");
    assert_int_equal(cJSON_GetArraySize(jobs), 2);
    assert_string_equal(job_str(cJSON_GetArrayItem(jobs, 0), "name"), "solo");
    assert_string_equal(job_str(cJSON_GetArrayItem(jobs, 1), "name"), "big");
    assert_string_equal(job_str(cJSON_GetArrayItem(jobs, 1), "args"), "");
    assert_string_equal(job_str(cJSON_GetArrayItem(jobs, 1), "runs_on"), "ubuntu-latest");
    cJSON_Delete(m);
    /* cuda has a runner: cpu (+ host-only, vulkan) and cuda jobs, sharded */
    o = (bh_matrix_opts){filters, 1, runners, 2, 2};
    assert_int_equal(bh_matrix_build(files, n, &o, &m, &e), 0);
    jobs = cJSON_GetObjectItem(m, "include");
    assert_int_equal(cJSON_GetArraySize(jobs), 6);
    assert_string_equal(job_str(cJSON_GetArrayItem(jobs, 2), "id"), "big-cpu-shard-1-of-2");
    assert_string_equal(job_str(cJSON_GetArrayItem(jobs, 2), "group"), "big-cpu");
    assert_string_equal(job_str(cJSON_GetArrayItem(jobs, 2), "args"),
                        "--backend none --backend cpu --backend vulkan --shard 1/2");
    assert_true(cJSON_IsTrue(cJSON_GetObjectItem(cJSON_GetArrayItem(jobs, 2), "required")));
    assert_string_equal(job_str(cJSON_GetArrayItem(jobs, 2), "runs_on"), "ubuntu-24.04");
    assert_string_equal(job_str(cJSON_GetArrayItem(jobs, 5), "name"), "big (cuda) [2/2]");
    assert_string_equal(job_str(cJSON_GetArrayItem(jobs, 5), "args"),
                        "--backend cuda --shard 2/2");
    assert_true(cJSON_IsFalse(cJSON_GetObjectItem(cJSON_GetArrayItem(jobs, 5), "required")));
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(cJSON_GetArrayItem(jobs, 5),
                                                            "runs_on")), 2);
    cJSON_Delete(m);
    /* a launcher's runner_label moves every job of its config there */
    put_file(dir, "m.yaml", "schema: 1\nname: multi\nbackends:\n  cpu: {required: true}\n"
                            "  cuda: {required: true}\nsuites:\n  - plugin: x\n"
                            "    launcher: {kind: mpirun, hosts: [a, b], "
                            "runner_label: multi-node}\n");
    {
        char *one[1];
        char *path = bh_xasprintf("%s/m.yaml", dir);

        one[0] = path;
        o = (bh_matrix_opts){NULL, 0, runners, 2, 1};
        assert_int_equal(bh_matrix_build(one, 1, &o, &m, &e), 0);
        jobs = cJSON_GetObjectItem(m, "include");
        assert_int_equal(cJSON_GetArraySize(jobs), 2);
        assert_string_equal(job_str(cJSON_GetArrayItem(jobs, 0), "runs_on"), "multi-node");
        assert_string_equal(job_str(cJSON_GetArrayItem(jobs, 1), "runs_on"), "multi-node");
        cJSON_Delete(m);
        unlink(path);
        free(path);
    }
    /* refusals */
    filters[0] = "nothing*";
    o = (bh_matrix_opts){filters, 1, NULL, 0, 1};
    assert_int_equal(bh_matrix_build(files, n, &o, &m, &e), -1);
    assert_non_null(strstr(e.msg, "--filter 'nothing*' matches no config"));
    runners[0] = "cuda";
    o = (bh_matrix_opts){NULL, 0, runners, 1, 1};
    assert_int_equal(bh_matrix_build(files, n, &o, &m, &e), -1);
    assert_non_null(strstr(e.msg, "expected BACKEND=LABEL"));
    put_file(dir, "c.yaml", "schema: 1\nname: solo\nsuites: []\n");
    for (size_t i = 0; i < n; i++)
        free(files[i]);
    free(files);
    files = bh_matrix_list_configs(dir, &n, &e);
    o = (bh_matrix_opts){NULL, 0, NULL, 0, 1};
    assert_int_equal(bh_matrix_build(files, n, &o, &m, &e), -1);
    assert_non_null(strstr(e.msg, "are both named 'solo'"));
    put_file(dir, "c.yaml", "schema: 1\nname: c\nsuits: []\n");
    assert_int_equal(bh_matrix_build(files, n, &o, &m, &e), BH_MATRIX_BAD_CONFIG);
    assert_non_null(strstr(e.msg, "c.yaml:3:"));
    for (size_t i = 0; i < n; i++)
        free(files[i]);
    free(files);
    free(dir);
}

/* nftw callback: removes one entry. */
static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *f)
{
    (void)st, (void)flag, (void)f;
    return remove(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_shard_parse),       cmocka_unit_test(test_partition_known),
        cmocka_unit_test(test_partition_cover),   cmocka_unit_test(test_shard_apply_cover),
        cmocka_unit_test(test_select_backends),   cmocka_unit_test(test_history),
        cmocka_unit_test(test_shard_apply_durations), cmocka_unit_test(test_merge_ok),
        cmocka_unit_test(test_merge_refusals),    cmocka_unit_test(test_merge_not_shard),
        cmocka_unit_test(test_git_files),         cmocka_unit_test(test_git_worktree),
        cmocka_unit_test(test_git_env),           cmocka_unit_test(test_git_none),
        cmocka_unit_test(test_result_git),        cmocka_unit_test(test_matrix),
    };
    const char *t = getenv("TMPDIR");
    int rc;

    snprintf(tmp_root, sizeof(tmp_root), "%s/bhost-ci-unit-XXXXXX", t && *t ? t : "/tmp");
    if (!mkdtemp(tmp_root))
        return 1;
    rc = cmocka_run_group_tests(tests, NULL, NULL);
    if (rc == 0) /* kept for inspection when a test failed */
        nftw(tmp_root, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
    return rc;
}
