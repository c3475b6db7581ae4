// SPDX-License-Identifier: MIT
/* Unit tests of the results store and alert modules through their
 * interfaces: the compact JSON writer, put/get/idempotency/round trip on
 * a real SQLite file, history points, baseline selection, the alert
 * payload and the URL shown in messages. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "bh_strbuf.h"
#include "notify.h"
#include "result_read.h"
#include "store.h"
#include "store_json.h"
#include "store_query.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char dir[64];

/* A result document: config cfg, started at, two cases (spin: ok with
 * runs of per-iteration time ns_per_iter; gone: failed), branch main. */
static cJSON *make_doc(const char *cfg, const char *at, double ns_per_iter, const char *commit)
{
    char text[4096];

    snprintf(text, sizeof(text),
             "{\"schema\":\"bhost.result/1\","
             "\"run\":{\"config\":{\"name\":\"%s\",\"hash\":\"h1\"},\"seed\":\"0x2a\","
             "\"started_at\":\"%s\",\"complete\":true,"
             "\"git\":{\"commit\":\"%s\",\"branch\":\"main\",\"dirty\":false}},"
             "\"system\":{\"hostname\":\"h\",\"fingerprint_hash\":\"fp1\",\"x\":[1,2.5]},"
             "\"cases\":[{\"id\":\"p/spin[n=1]\",\"plugin\":\"p\",\"benchmark\":\"spin\","
             "\"params\":{\"n\":1},\"status\":\"ok\",\"settings\":{\"runs\":2},"
             "\"runs\":[{\"index\":0,\"status\":\"ok\",\"samples\":[[10,%.17g],[10,%.17g]],"
             "\"timing\":\"host\",\"metrics\":[{\"name\":\"tok\",\"value\":3.5}]},"
             "{\"index\":1,\"status\":\"ok\",\"samples\":[[10,%.17g],[10,%.17g]],"
             "\"timing\":\"host\"}],"
             "\"summary\":{\"unit\":\"ns/iter\",\"n\":4,\"runs\":2,\"median\":%.17g,"
             "\"median_ci_lo\":null,\"flags\":[\"high_cv\",\"too_few\"],"
             "\"tukey\":{\"low_mild\":0}},"
             "\"throughput\":{},\"memory\":{\"peak_rss_kb\":10},\"metrics\":{},"
             "\"verdict\":{\"verdict\":\"regressed\",\"severity\":\"critical\","
             "\"baseline_id\":\"p/spin[n=1]\",\"metrics\":[{\"metric\":\"time\","
             "\"unit\":\"ns/iter\",\"direction\":\"lower\",\"verdict\":\"regressed\","
             "\"severity\":\"critical\",\"change\":0.5,\"change_lo\":0.4,\"change_hi\":0.6,"
             "\"q\":0.001,\"baseline\":{\"n\":2,\"median\":2},\"candidate\":{\"n\":2,"
             "\"median\":3},\"suspect\":true,\"confirmation\":null}]}},"
             "{\"id\":\"p/gone\",\"status\":\"failed\",\"message\":\"it \\\"broke\\\"\\n\","
             "\"runs\":[],\"verdict\":null}]}",
             cfg, at, commit, 10 * ns_per_iter, 10 * ns_per_iter, 10 * ns_per_iter,
             10 * ns_per_iter, ns_per_iter);
    return cJSON_Parse(text);
}

static void test_json_text(void **state)
{
    const char *src = "{\"a\":[0,-1,123456789012,0.1,1e300,-2.5e-7,9007199254740993],"
                      "\"s\":\"q\\\"\\\\\\n\\u0001\xc3\xa9\",\"t\":true,\"f\":false,\"n\":null}";
    cJSON *in = cJSON_Parse(src);
    cJSON *back;
    bh_strbuf b = BH_STRBUF_INIT;
    const char *skip[] = {"t", NULL};

    (void)state;
    bh_store_json_append(&b, in);
    back = cJSON_Parse(b.data);
    assert_non_null(back);
    assert_true(cJSON_Compare(in, back, 1));
    assert_non_null(strstr(b.data, "[0,-1,123456789012,0.10000000000000001,1.0000000000000001e+300"));
    assert_non_null(strstr(b.data, "\"q\\\"\\\\\\n\\u0001\xc3\xa9\""));
    cJSON_Delete(back);
    b.len = 0;
    bh_store_json_append_except(&b, in, skip);
    assert_null(strstr(b.data, "\"t\""));
    assert_non_null(strstr(b.data, "\"f\":false"));
    b.len = 0;
    bh_store_json_number(&b, NAN);
    assert_string_equal(b.data, "null");
    bh_strbuf_free(&b);
    cJSON_Delete(in);
}

static void test_put_get(void **state)
{
    char path[128], key1[65], key2[65];
    bh_error e = {""};
    bh_store *s;
    cJSON *d1 = make_doc("cfg", "2026-01-01T00:00:00Z", 2.0, "aaaa");
    cJSON *d2 = make_doc("cfg", "2026-01-02T00:00:00Z", 3.0, "bbbb");
    cJSON *back;
    bh_store_counts c;
    int64_t id1 = 0, id2 = 0, id;

    (void)state;
    snprintf(path, sizeof(path), "%s/u.db", dir);
    s = bh_store_open(path, &e);
    assert_non_null(s);
    assert_int_equal(bh_store_opened_version(s), 0);
    assert_string_equal(bh_store_engine(s), "sqlite");
    assert_int_equal(bh_store_put(s, d1, "one.json", &id1, &e), 1);
    assert_int_equal(bh_store_put(s, d1, "again.json", &id, &e), 0);
    assert_int_equal(id, id1);
    assert_int_equal(bh_store_put(s, d2, NULL, &id2, &e), 1);
    assert_int_equal(bh_store_count(s, &c, &e), 0);
    assert_int_equal(c.runs, 2);
    assert_int_equal(c.series, 2);
    assert_int_equal(c.cases, 4);
    assert_int_equal(c.samples, 2); /* one row per case that has runs */
    assert_int_equal(c.summaries, 2);
    assert_int_equal(c.verdicts, 2);

    back = bh_store_load_doc(s, id1, &e);
    assert_non_null(back);
    assert_int_equal(bh_result_validate(back, "back", &e), 0);
    bh_store_run_key(d1, key1);
    bh_store_run_key(back, key2);
    assert_string_equal(key1, key2);
    {
        const cJSON *a = bh_result_find_case(d1, "p/spin[n=1]");
        const cJSON *b = bh_result_find_case(back, "p/spin[n=1]");
        const cJSON *g = bh_result_find_case(back, "p/gone");

        assert_true(cJSON_Compare(cJSON_GetObjectItem(a, "runs"), cJSON_GetObjectItem(b, "runs"), 1));
        assert_true(cJSON_Compare(cJSON_GetObjectItem(a, "params"), cJSON_GetObjectItem(b, "params"), 1));
        const cJSON *m;

        /* every member of the summary comes back (absent ones as null) */
        cJSON_ArrayForEach(m, cJSON_GetObjectItem(a, "summary"))
            assert_true(cJSON_Compare(m, cJSON_GetObjectItem(cJSON_GetObjectItem(b, "summary"),
                                                             m->string), 1));
        assert_true(cJSON_IsNull(cJSON_GetObjectItem(cJSON_GetObjectItem(b, "summary"), "mean")));
        assert_string_equal(cJSON_GetObjectItem(cJSON_GetObjectItem(b, "summary"), "flags")->child->valuestring, "high_cv");
        assert_true(cJSON_IsNull(cJSON_GetObjectItem(b, "verdict")));
        assert_string_equal(cJSON_GetObjectItem(g, "message")->valuestring, "it \"broke\"\n");
    }
    cJSON_Delete(back);
    assert_null(bh_store_load_doc(s, 99, &e));
    assert_non_null(strstr(e.msg, "no run 99"));

    /* history: the ok case only, oldest first, value = median of run medians */
    {
        bh_store_series *sr;
        bh_store_point *p;
        size_t n_sr, n_p;
        bh_store_history_opts ho = {NULL, 0};

        assert_int_equal(bh_store_list_series(s, "cfg", &sr, &n_sr, &e), 0);
        assert_int_equal(n_sr, 2);
        assert_string_equal(sr[0].case_id, "p/gone");
        assert_int_equal(bh_store_history(s, sr[1].id, &ho, &p, &n_p, &e), 0);
        assert_int_equal(n_p, 2);
        assert_string_equal(p[0].started_at, "2026-01-01T00:00:00Z");
        assert_true(fabs(p[0].value - 2.0) < 1e-12 && fabs(p[1].value - 3.0) < 1e-12);
        assert_int_equal(p[1].n_runs, 2);
        assert_string_equal(p[1].commit, "bbbb");
        bh_store_points_free(p, n_p);
        ho.last = 1;
        assert_int_equal(bh_store_history(s, sr[1].id, &ho, &p, &n_p, &e), 0);
        assert_int_equal(n_p, 1);
        assert_string_equal(p[0].started_at, "2026-01-02T00:00:00Z");
        bh_store_points_free(p, n_p);
        assert_int_equal(bh_store_history(s, sr[0].id, NULL, &p, &n_p, &e), 0);
        assert_int_equal(n_p, 0);
        bh_store_series_free(sr, n_sr);
    }
    /* baseline selection */
    {
        char *commits[] = {"zzzz", "aaaa", "bbbb"};
        size_t which = 9;

        assert_int_equal(bh_store_find_latest(s, "cfg", "main", "fp1", &id, &e), 1);
        assert_int_equal(id, id2);
        assert_int_equal(bh_store_find_latest(s, "cfg", "main", "fp2", &id, &e), 0);
        assert_int_equal(bh_store_find_commit(s, "cfg", "fp1", commits, 3, &id, &which, &e), 1);
        assert_int_equal(id, id1);
        assert_int_equal(which, 1);
        assert_int_equal(bh_store_find_commit(s, "cfg", "fp1", commits, 1, &id, &which, &e), 0);
    }
    bh_store_close(s);
    /* reopening finds the schema in place */
    s = bh_store_open(path, &e);
    assert_non_null(s);
    assert_int_equal(bh_store_opened_version(s), BH_STORE_SCHEMA_VERSION);
    bh_store_close(s);
    cJSON_Delete(d1);
    cJSON_Delete(d2);
}

static void test_open_errors(void **state)
{
    bh_error e = {""};

    (void)state;
    assert_null(bh_store_open("postgresql://user:s3cret@127.0.0.1:1/db", &e));
    assert_null(strstr(e.msg, "s3cret"));
    assert_non_null(strstr(e.msg, "postgresql://user:***@127.0.0.1:1/db"));
    assert_null(bh_store_open("postgres://127.0.0.1:1/db?password=s3cret&x=1", &e));
    assert_null(strstr(e.msg, "s3cret"));
    assert_null(bh_store_open("/proc/no/such/dir/x.db", &e));
    assert_non_null(strstr(e.msg, "/proc/no/such/dir/x.db"));
    assert_null(bh_store_open("", &e));
}

static void test_payload(void **state)
{
    cJSON *d = make_doc("cfg", "2026-01-01T00:00:00Z", 2.0, "0123456789abcdef0123");
    cJSON *p;
    size_t n = 9;
    const cJSON *regs;
    char *shown;

    (void)state;
    p = bh_notify_payload(d, "res.json", &n);
    assert_non_null(p);
    assert_int_equal(n, 1);
    assert_non_null(strstr(cJSON_GetObjectItem(p, "text")->valuestring,
                           "1 regression in cfg on h (main@0123456789ab)"));
    assert_true(cJSON_IsArray(cJSON_GetObjectItem(p, "blocks")));
    regs = cJSON_GetObjectItem(cJSON_GetObjectItem(p, "bhost"), "regressions");
    assert_int_equal(cJSON_GetArraySize(regs), 1);
    assert_string_equal(cJSON_GetObjectItem(regs->child, "case")->valuestring, "p/spin[n=1]");
    assert_string_equal(cJSON_GetObjectItem(regs->child, "severity")->valuestring, "critical");
    cJSON_Delete(p);
    /* not regressed: nothing to send */
    cJSON_SetValuestring(cJSON_GetObjectItem(cJSON_GetObjectItem(cJSON_GetObjectItem(
                             cJSON_GetObjectItem(d, "cases")->child, "verdict"), "metrics")->child,
                                             "verdict"),
                         "improved");
    assert_null(bh_notify_payload(d, NULL, &n));
    assert_int_equal(n, 0);
    cJSON_Delete(d);
    shown = bh_notify_url_display("https://u:pw@hooks.example.org:8443/services/T0/B0/SECRET?x");
    assert_string_equal(shown, "https://hooks.example.org:8443/...");
    free(shown);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_json_text),
        cmocka_unit_test(test_put_get),
        cmocka_unit_test(test_open_errors),
        cmocka_unit_test(test_payload),
    };
    int rc;

    snprintf(dir, sizeof(dir), "/tmp/bh_store_unitXXXXXX");
    if (!mkdtemp(dir))
        return 1;
    rc = cmocka_run_group_tests(tests, NULL, NULL);
    {
        char cmd_path[128];

        snprintf(cmd_path, sizeof(cmd_path), "%s/u.db", dir);
        unlink(cmd_path);
        snprintf(cmd_path, sizeof(cmd_path), "%s/u.db-wal", dir);
        unlink(cmd_path);
        snprintf(cmd_path, sizeof(cmd_path), "%s/u.db-shm", dir);
        unlink(cmd_path);
        rmdir(dir);
    }
    return rc;
}
