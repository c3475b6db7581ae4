// SPDX-License-Identifier: MIT
/* Unit tests of bhost ab's pure parts: the ABBA schedule with pairs per
 * case (regress/confirm.c), the least pairs the signed-rank test needs
 * and the paired decision over two documents (regress/ab_decide.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ab_decide.h"
#include "confirm.h"
#include "regress_config.h"

/* Every (clone, run) of the cases' pairs appears once, the two runs of a
 * pair are adjacent, and a case with no pairs has no slot. */
static void test_schedule_each(void **state)
{
    const uint32_t pairs[4] = {3, 0, 2, 1};
    int seen[8][3] = {{0}};
    size_t n, n2;
    bh_regress_slot *s = bh_regress_abba_schedule_each(4, pairs, 9, &n);
    bh_regress_slot *s2 = bh_regress_abba_schedule_each(4, pairs, 9, &n2);

    (void)state;
    assert_int_equal(n, 12);
    assert_int_equal(n2, n);
    assert_memory_equal(s, s2, n * sizeof(*s));
    for (size_t i = 0; i < n; i++) {
        assert_true(s[i].clone < 8 && s[i].run < pairs[s[i].clone / 2]);
        seen[s[i].clone][s[i].run]++;
    }
    for (uint32_t k = 0; k < 4; k++)
        for (uint32_t j = 0; j < pairs[k]; j++)
            assert_true(seen[2 * k][j] == 1 && seen[2 * k + 1][j] == 1);
    for (size_t i = 0; i < n; i += 2) {
        assert_int_equal(s[i].clone / 2, s[i + 1].clone / 2);
        assert_int_equal(s[i].run, s[i + 1].run);
        assert_int_not_equal(s[i].clone, s[i + 1].clone);
    }
    free(s);
    free(s2);
}

/* With one count for every case it is the confirmation's schedule. */
static void test_schedule_each_same(void **state)
{
    const uint32_t pairs[3] = {5, 5, 5};
    size_t n, n2;
    bh_regress_slot *s = bh_regress_abba_schedule(3, 5, 42, &n);
    bh_regress_slot *s2 = bh_regress_abba_schedule_each(3, pairs, 42, &n2);

    (void)state;
    assert_int_equal(n, n2);
    assert_memory_equal(s, s2, n * sizeof(*s));
    free(s);
    free(s2);
    assert_null(bh_regress_abba_schedule_each(0, pairs, 1, &n));
    assert_int_equal(n, 0);
}

/* log2(2 m / fdr) rounded up: 2/2^n <= fdr/m first at these n. */
static void test_least_pairs(void **state)
{
    (void)state;
    assert_int_equal(bh_regress_ab_least_pairs(0.05, 1), 6);
    assert_int_equal(bh_regress_ab_least_pairs(0.05, 2), 7);
    assert_int_equal(bh_regress_ab_least_pairs(0.05, 100), 12);
    assert_int_equal(bh_regress_ab_least_pairs(0.05, 300), 14);
    assert_int_equal(bh_regress_ab_least_pairs(0.5, 1), 2);
}

/* A document of one case "x/y" whose run i has three samples of ns[i]
 * ns/iter; run bad (if < n) crashed. */
static cJSON *doc_of(const double *ns, size_t n, size_t bad)
{
    cJSON *d = cJSON_CreateObject();
    cJSON *c = cJSON_CreateObject();
    cJSON *runs = cJSON_AddArrayToObject(c, "runs");

    cJSON_AddStringToObject(d, "schema", "bhost.result/1");
    cJSON_AddStringToObject(cJSON_AddObjectToObject(cJSON_AddObjectToObject(d, "run"), "config"),
                            "name", "ab");
    cJSON_AddStringToObject(c, "id", "x/y");
    cJSON_AddStringToObject(c, "status", "ok");
    for (size_t i = 0; i < n; i++) {
        cJSON *r = cJSON_CreateObject();
        cJSON *s = cJSON_AddArrayToObject(r, "samples");

        cJSON_AddNumberToObject(r, "index", (double)i);
        cJSON_AddStringToObject(r, "status", i == bad ? "crashed" : "ok");
        for (int k = 0; k < 3; k++) {
            cJSON *pair = cJSON_CreateArray();

            cJSON_AddItemToArray(pair, cJSON_CreateNumber(100));
            cJSON_AddItemToArray(pair, cJSON_CreateNumber(100 * ns[i]));
            cJSON_AddItemToArray(s, pair);
        }
        cJSON_AddItemToArray(runs, r);
    }
    cJSON_AddItemToArray(cJSON_AddArrayToObject(d, "cases"), c);
    return d;
}

/* The time item of r. */
static const bh_regress_item *time_item(const bh_regress_report *r)
{
    for (size_t i = 0; i < r->n; i++)
        if (strcmp(r->items[i].metric, "time") == 0)
            return &r->items[i];
    fail_msg("no time item");
    return NULL;
}

/* The machine drifts over the invocation (a ramp both sides share) and B
 * is 20% slower in every pair: regressed on the pairs. */
static void test_decide_regressed(void **state)
{
    double a[12], b[12];
    bh_regress_config cfg;
    bh_regress_report r;
    bh_error e = {""};
    cJSON *da, *db;
    const bh_regress_item *it;

    (void)state;
    for (size_t i = 0; i < 12; i++) {
        a[i] = 1000.0 * (1.0 + 0.05 * (double)i) * (1.0 + 0.002 * (double)(i % 3));
        b[i] = a[i] * 1.2 * (1.0 + 0.001 * (double)(i % 2));
    }
    assert_int_equal(bh_regress_config_parse(NULL, NULL, "t", &cfg, &e), 0);
    da = doc_of(a, 12, 99);
    db = doc_of(b, 12, 4);
    bh_regress_ab_decide(da, db, &cfg, &r);
    it = time_item(&r);
    assert_true(it->conf.done && it->conf.paired && !it->conf.error);
    assert_int_equal(it->conf.n_cand_values, 11); /* the crashed pair left out */
    assert_int_equal(it->v.kind, BH_VERDICT_REGRESSED);
    assert_int_equal(it->v.severity, BH_SEVERITY_CRITICAL);
    assert_true(fabs(it->conf.st.change - 0.2) < 0.005);
    assert_true(it->conf.st.change_lo > 0.19 && it->conf.st.change_hi < 0.21);
    bh_regress_report_free(&r);
    cJSON_Delete(db);
    /* A/A: the same values on both sides are no change, paired */
    db = doc_of(a, 12, 99);
    bh_regress_ab_decide(da, db, &cfg, &r);
    it = time_item(&r);
    assert_true(it->conf.paired && !it->conf.error);
    assert_int_not_equal(it->v.kind, BH_VERDICT_REGRESSED);
    bh_regress_report_free(&r);
    cJSON_Delete(da);
    cJSON_Delete(db);
    bh_regress_config_free(&cfg);
}

/* One side with fewer than 2 ok runs: no pairs, the error says so. */
static void test_decide_too_few_pairs(void **state)
{
    double a[3] = {100, 101, 102}, b[3] = {110, 111, 112};
    bh_regress_config cfg;
    bh_regress_report r;
    bh_error e = {""};
    cJSON *da, *db;

    (void)state;
    assert_int_equal(bh_regress_config_parse(NULL, NULL, "t", &cfg, &e), 0);
    da = doc_of(a, 3, 99);
    db = doc_of(b, 2, 0);
    bh_regress_ab_decide(da, db, &cfg, &r);
    for (size_t i = 0; i < r.n; i++)
        assert_false(r.items[i].conf.done && !r.items[i].conf.error &&
                     strcmp(r.items[i].metric, "time") == 0);
    bh_regress_report_free(&r);
    cJSON_Delete(da);
    cJSON_Delete(db);
    bh_regress_config_free(&cfg);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_schedule_each),        cmocka_unit_test(test_schedule_each_same),
        cmocka_unit_test(test_least_pairs),          cmocka_unit_test(test_decide_regressed),
        cmocka_unit_test(test_decide_too_few_pairs),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
