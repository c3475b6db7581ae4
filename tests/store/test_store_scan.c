// SPDX-License-Identifier: MIT
/* Unit tests of the fast reader of result files (store_scan.c): on every
 * text it reads it must give the tree cJSON gives (members, order, keys,
 * strings, the exact double and valueint of every number, the prev links),
 * it must give up on what it does not read exactly, the compact "runs"
 * texts it keeps must hold the same JSON, and a document read either way
 * must turn into the same rows (store_prep.c). */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "bh_mem.h"
#include "bh_strbuf.h"
#include "result_read.h"
#include "store_arena.h"
#include "store_internal.h"
#include "store_scan.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Asserts that a (the reader's) and b (cJSON's) are the same tree. */
static void assert_same_tree(const cJSON *a, const cJSON *b)
{
    const cJSON *x, *y;

    assert_int_equal(a->type & 0xff, b->type & 0xff);
    if (b->string)
        assert_string_equal(a->string, b->string);
    else
        assert_null(a->string);
    if (cJSON_IsString(b))
        assert_string_equal(a->valuestring, b->valuestring);
    if (cJSON_IsNumber(b)) {
        if (memcmp(&a->valuedouble, &b->valuedouble, sizeof(double)) != 0)
            fail_msg("number %.17g read as %.17g", b->valuedouble, a->valuedouble);
        assert_int_equal(a->valueint, b->valueint);
    }
    for (x = a->child, y = b->child; x && y; x = x->next, y = y->next)
        assert_same_tree(x, y);
    assert_true(x == NULL && y == NULL);
    if (b->child) {
        const cJSON *last = a->child;

        while (last->next)
            last = last->next;
        assert_ptr_equal(a->child->prev, last);
    }
}

/* Reads text with the fast reader: when accept, it must read it as cJSON
 * does; else it must give up (and not crash). */
static void check_text(const char *text, int accept)
{
    size_t len = strlen(text);
    char *copy = bh_xmalloc(len + 1);
    cJSON *want = accept ? cJSON_ParseWithLength(text, len) : NULL;
    bh_store_scan sc = {BH_STRBUF_INIT, NULL, 0, 0};
    cJSON *got;

    assert_true(!accept || want);
    memcpy(copy, text, len + 1);
    bh_store_arena_begin();
    got = bh_store_scan_doc(copy, len, &sc);
    if (accept && !got)
        fail_msg("the fast reader gave up on: %.200s", text);
    if (!accept && got)
        fail_msg("the fast reader accepted: %.200s", text);
    if (got)
        assert_same_tree(got, want);
    bh_store_arena_end();
    bh_store_scan_free(&sc);
    cJSON_Delete(want);
    free(copy);
}

static void test_reads_as_cjson(void **state)
{
    static const char *const texts[] = {
        "{}",
        " \n\t{ \"a\" : [ ] , \"b\" : { } , \"c\" : [ [ ] , { } ] }\r\n",
        "{\"t\":true,\"f\":false,\"n\":null,\"s\":\"\",\"e\":\"q\\\"b\\\\s\\/b\\bf\\fn\\nr\\rt\\t\"}",
        "{\"dup\":1,\"dup\":2,\"x\":{\"dup\":[1,2,3]},\"dup\":\"three\"}",
        "{\"utf8\":\"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80 plain long string with no escapes at all\"}",
        "{\"n\":[0,-0,1,-1,0.5,-0.5,1e5,1E5,1e+5,1e-5,-2.5e-7,0.1,0.2,0.3,1e22,1e23,1e-22]}",
        "{\"n\":[123456789012345678,1234567890123456789,12345678901234567890,9007199254740993]}",
        "{\"n\":[9007199254740992,9007199254740991,18446744073709551615,18446744073709551616]}",
        "{\"n\":[1.7976931348623157e308,2.2250738585072014e-308,5e-324,4.9e-324,1e-400]}",
        "{\"n\":[2147483647,2147483648,-2147483648,-2147483649,1e10,-1e10,2147483647.5]}",
        "{\"n\":[0.000001,0.0000000000000000000001234,123.456e-10,1.5e+300,100000000000000000000000]}",
        "{\"n\":[0.11052804105456039,0.6555581331449732,21.02043,3.0000000000000004]}",
        "{\"deep\":[[[[[[[[[[[[1]]]]]]]]]]]],\"o\":{\"a\":{\"b\":{\"c\":[{}]}}}}",
        "{\"cases\":[{\"id\":\"a\",\"runs\":[{\"samples\":[[1, 2], [3, 4]], \"s\": \"x \\\"y\\\" z\"}]},"
        " {\"id\":\"b\",\"runs\":[]},{\"id\":\"c\",\"runs\":null}],\"runs\":[1]}",
    };

    (void)state;
    for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++)
        check_text(texts[i], 1);
}

/* Appends v as printf form k writes it. */
static void print_number(bh_strbuf *b, int k, double v)
{
    switch (k) {
    case 0: bh_strbuf_printf(b, "%.17g", v); break;
    case 1: bh_strbuf_printf(b, "%.15g", v); break;
    case 2: bh_strbuf_printf(b, "%.16g", v); break;
    case 3: bh_strbuf_printf(b, "%g", v); break;
    case 4: bh_strbuf_printf(b, "%.3e", v); break;
    default: bh_strbuf_printf(b, "%.0f", v); break; /* not for large v */
    }
}

/* Random numbers in the forms writers use: every one must read to
 * strtod's double. */
static void test_random_numbers(void **state)
{
    bh_strbuf b = BH_STRBUF_INIT;
    uint64_t x = 0x9e3779b97f4a7c15ull;

    (void)state;
    for (int round = 0; round < 20; round++) {
        b.len = 0;
        bh_strbuf_puts(&b, "{\"n\":[");
        for (int i = 0; i < 1000; i++) {
            uint64_t bits;
            double v;
            int form = i % 6;

            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            bits = x;
            if (i % 3 == 0) {
                memcpy(&v, &bits, sizeof(v)); /* any double, with an exponent */
                form = i % 5;
            } else {
                v = (double)(bits >> 11) / (double)(1ull << 53); /* [0, 1) */
                v = ldexp(v, (int)(x % 80) - 40) * (i % 2 ? -1 : 1);
            }
            if (!isfinite(v))
                v = 1.0;
            if (i)
                bh_strbuf_append(&b, ",", 1);
            if (i % 7 == 0)
                bh_strbuf_printf(&b, "%llu", (unsigned long long)(x >> (x % 64)));
            else
                print_number(&b, form, v);
        }
        bh_strbuf_puts(&b, "]}");
        check_text(b.data, 1);
    }
    bh_strbuf_free(&b);
}

static void test_gives_up(void **state)
{
    static const char *const texts[] = {
        "",
        "[1]",
        "\"s\"",
        "\xef\xbb\xbf{}",
        "{} x",
        "{}{}",
        "{\"a\":1,}",
        "{\"a\":[1,]}",
        "{\"a\" 1}",
        "{a:1}",
        "{\"a\":\"\\u00e9\"}",
        "{\"a\":\"\\x\"}",
        "{\"a\":\"tab\there\"}",
        "{\"a\":\"unterminated}",
        "{\"a\":01}",
        "{\"a\":1.}",
        "{\"a\":.5}",
        "{\"a\":+1}",
        "{\"a\":-}",
        "{\"a\":1e}",
        "{\"a\":0x10}",
        "{\"a\":NaN}",
        "{\"a\":1e999}",
        "{\"a\":-1e400}",
        "{\"a\":tru}",
        "{\"a\":nul}",
        "{\"a\":1",
        "{\"a\":[1,2",
        "{\"a\":0.00000000000000000000000000000000000000000000000000000000000000001}",
    };
    char deep[200];
    size_t k = 0;

    (void)state;
    for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++)
        check_text(texts[i], 0);
    /* deeper than BH_RESULT_MAX_DEPTH */
    deep[k++] = '{';
    memcpy(deep + k, "\"a\":", 4);
    k += 4;
    for (int i = 0; i < BH_RESULT_MAX_DEPTH; i++)
        deep[k++] = '[';
    for (int i = 0; i < BH_RESULT_MAX_DEPTH; i++)
        deep[k++] = ']';
    deep[k++] = '}';
    deep[k] = '\0';
    check_text(deep, 0);
    /* a NUL inside the text */
    {
        char text[] = "{\"a\":1}";
        bh_store_scan sc = {BH_STRBUF_INIT, NULL, 0, 0};

        text[3] = '\0';
        bh_store_arena_begin();
        assert_null(bh_store_scan_doc(text, sizeof(text) - 1, &sc));
        bh_store_arena_end();
        bh_store_scan_free(&sc);
    }
}

static void test_runs_text(void **state)
{
    const char *text =
        "{\n\t\"runs\": [9],\n\t\"cases\": [{\n\t\t\"id\": \"a\",\n\t\t\"runs\": [{\n\t\t\t\"s\": "
        "[[1, 2.50], [3, -4e0]],\n\t\t\t\"log\": \"a \\\"quoted\\\"\\n line\", \"ok\": true,"
        " \"no\": false, \"x\": null, \"e\": { }\n\t\t}]\n\t}, {\n\t\t"
        "\"id\": \"b\",\n\t\t\"x\": {\"runs\": [7]},\n\t\t\"runs\": [ ]\n\t}, {\"id\": \"c\", "
        "\"runs\": {}}]\n}";
    size_t len = strlen(text), cursor = 0, n = 0;
    char *copy = bh_xstrdup(text);
    bh_store_scan sc = {BH_STRBUF_INIT, NULL, 0, 0};
    cJSON *doc, *want = cJSON_Parse(text), *kept;
    const cJSON *cases, *a, *b;
    const char *t;

    (void)state;
    bh_store_arena_begin();
    doc = bh_store_scan_doc(copy, len, &sc);
    assert_non_null(doc);
    cases = cJSON_GetObjectItemCaseSensitive(doc, "cases");
    a = cJSON_GetArrayItem(cases, 0);
    b = cJSON_GetArrayItem(cases, 1);
    /* only the runs arrays of the root's cases are kept, in order */
    assert_int_equal(sc.n_runs, 2);
    assert_null(bh_store_scan_runs_text(&sc, cJSON_GetObjectItemCaseSensitive(doc, "runs"),
                                        &cursor, &n));
    t = bh_store_scan_runs_text(&sc, cJSON_GetObjectItemCaseSensitive(a, "runs"), &cursor, &n);
    assert_non_null(t);
    assert_int_equal(n, strlen(t));
    assert_string_equal(t, "[{\"s\":[[1,2.50],[3,-4e0]],\"log\":\"a \\\"quoted\\\"\\n line\","
                          "\"ok\":true,\"no\":false,\"x\":null,\"e\":{}}]");
    kept = cJSON_Parse(t);
    assert_true(cJSON_Compare(kept, cJSON_GetObjectItemCaseSensitive(
                                        cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(want,
                                                                                            "cases"),
                                                           0),
                                        "runs"),
                              1));
    cJSON_Delete(kept);
    t = bh_store_scan_runs_text(&sc, cJSON_GetObjectItemCaseSensitive(b, "runs"), &cursor, &n);
    assert_string_equal(t, "[]");
    assert_null(bh_store_scan_runs_text(
        &sc, cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(cases, 2), "runs"), &cursor, &n));
    assert_null(bh_store_scan_runs_text(NULL, a, &cursor, &n));
    bh_store_arena_end();
    bh_store_scan_free(&sc);
    cJSON_Delete(want);
    free(copy);
}

/* The text of value v of prep p, or NULL. */
static const char *val_text(const bh_store_prep *p, const bh_store_val *v)
{
    return v->type == BH_SV_TEXT || v->type == BH_SV_SERIES ? p->text.data + v->off : NULL;
}

/* A result document read both ways gives the same rows; the raw samples
 * may differ in spelling only (the same JSON). */
static void test_same_rows(void **state)
{
    char *text, *copy;
    size_t len = 0;
    bh_error e = {""};
    bh_store_scan sc = {BH_STRBUF_INIT, NULL, 0, 0};
    cJSON *slow, *fast;
    bh_store_prep *ps, *pf;

    (void)state;
    text = bh_xasprintf(
        "{\"schema\":\"bhost.result/1\",\n \"run\": {\"config\": {\"name\": \"c\", \"hash\": "
        "\"h\"}, \"started_at\": \"2026-01-01T00:00:00Z\", \"duration_s\": 1.25, \"seed\": 42,"
        " \"git\": {\"commit\": \"abc\", \"branch\": \"main\", \"dirty\": false}},\n"
        " \"system\": {\"hostname\": \"h\", \"fingerprint_hash\": \"fp\", \"x\": [0.1, 2]},\n"
        " \"cases\": [{\"id\": \"p/a[n=1]\", \"plugin\": \"p\", \"benchmark\": \"a\", "
        "\"status\": \"ok\", \"params\": {\"n\": 1}, \"runs\": [{\"index\": 0, \"status\": "
        "\"ok\", \"samples\": [[10, 21.5], [10, 19.25], [10, 30]], \"timer_overhead_ns\": "
        "21.02043}, {\"index\": 1, \"status\": \"ok\", \"samples\": [[10, 22], [10, 23]]}], "
        "\"summary\": {\"unit\": \"ns/iter\", \"n\": 5, \"runs\": 2, \"median\": "
        "2.2000000000000002, \"q1\": 0.1, \"tukey\": {\"low_mild\": 0}, \"flags\": "
        "[\"high_cv\"]}, \"verdict\": {\"metrics\": [{\"metric\": \"time\", \"verdict\": "
        "\"same\", \"change\": -0.015}]}},\n {\"id\": \"p/b\", \"status\": \"failed\", "
        "\"message\": \"it \\\"broke\\\"\", \"runs\": []}]}");
    len = strlen(text);
    slow = bh_result_parse(text, len, "sample", &e);
    assert_non_null(slow);
    copy = bh_xmalloc(len + 1);
    memcpy(copy, text, len);
    bh_store_arena_begin();
    fast = bh_store_scan_doc(copy, len, &sc);
    assert_non_null(fast);
    assert_same_tree(fast, slow);
    ps = bh_store_prep_doc(slow, "f.json", NULL, &e);
    pf = bh_store_prep_doc(fast, "f.json", &sc, &e);
    assert_non_null(ps);
    assert_non_null(pf);
    assert_string_equal(ps->key, pf->key);
    assert_string_equal(ps->config, pf->config);
    assert_int_equal(ps->n_rows, pf->n_rows);
    assert_int_equal(ps->n_vals, pf->n_vals);
    for (size_t r = 0; r < ps->n_rows; r++) {
        assert_int_equal(ps->rows[r].slot, pf->rows[r].slot);
        assert_int_equal(ps->rows[r].n, pf->rows[r].n);
        for (int k = 0; k < ps->rows[r].n; k++) {
            const bh_store_val *a = &ps->vals[ps->rows[r].first + (size_t)k];
            const bh_store_val *b = &pf->vals[pf->rows[r].first + (size_t)k];
            const char *ta = val_text(ps, a), *tb = val_text(pf, b);

            assert_int_equal(a->type, b->type);
            assert_true(a->i == b->i);
            assert_memory_equal(&a->d, &b->d, sizeof(double));
            if (ps->rows[r].slot == BH_STMT_RUN_INSERT && k == 18)
                continue; /* ingested_at: the time of the prep */
            if (ps->rows[r].slot == BH_STMT_SAMPLES_INSERT && k == 3) {
                cJSON *x = cJSON_Parse(ta), *y = cJSON_Parse(tb);

                assert_true(cJSON_Compare(x, y, 1));
                cJSON_Delete(x);
                cJSON_Delete(y);
            } else if (ta || tb) {
                assert_non_null(ta);
                assert_non_null(tb);
                assert_string_equal(ta, tb);
            }
        }
    }
    bh_store_prep_free(ps);
    bh_store_prep_free(pf);
    bh_store_arena_end();
    bh_store_scan_free(&sc);
    cJSON_Delete(slow);
    free(copy);
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reads_as_cjson),
        cmocka_unit_test(test_random_numbers),
        cmocka_unit_test(test_gives_up),
        cmocka_unit_test(test_runs_text),
        cmocka_unit_test(test_same_rows),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);

    bh_store_arena_release();
    return rc;
}
