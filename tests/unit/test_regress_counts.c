// SPDX-License-Identifier: MIT
/* Unit tests for how host/regress compares the counts of a counting run
 * (measure: instructions, docs/statistics.md section 11.7): their 0.1%
 * floor, a metric's configured noise_floor, time left out, and a count
 * that is 0 on both sides. Synthetic result documents. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "regress_compare.h"
#include "regress_config.h"
#include "verdict.h"

#include <math.h>
#include <string.h>

/* A case of n ok runs, each with timing, samples of ns[i] per iteration
 * and the metrics instructions = ir[i] and l1_misses = 0. */
static cJSON *make_case(const char *timing, const double *ns, const double *ir, size_t n)
{
    cJSON *c = cJSON_CreateObject();
    cJSON *runs = NULL;
    cJSON *mo;

    cJSON_AddStringToObject(c, "id", "selftest/spin[work=1000]");
    cJSON_AddStringToObject(c, "status", "ok");
    cJSON_AddObjectToObject(c, "params");
    runs = cJSON_AddArrayToObject(c, "runs");
    for (size_t i = 0; i < n; i++) {
        cJSON *r = cJSON_CreateObject();
        cJSON *s = cJSON_AddArrayToObject(r, "samples");
        cJSON *ms = cJSON_AddArrayToObject(r, "metrics");
        cJSON *pair = cJSON_CreateArray();
        cJSON *m = cJSON_CreateObject();
        cJSON *z = cJSON_CreateObject();

        cJSON_AddNumberToObject(r, "index", (double)i);
        cJSON_AddStringToObject(r, "status", "ok");
        cJSON_AddStringToObject(r, "timing", timing);
        cJSON_AddItemToArray(pair, cJSON_CreateNumber(10));
        cJSON_AddItemToArray(pair, cJSON_CreateNumber(10 * ns[i]));
        cJSON_AddItemToArray(s, pair);
        cJSON_AddStringToObject(m, "name", "instructions");
        cJSON_AddNumberToObject(m, "value", ir[i]);
        cJSON_AddItemToArray(ms, m);
        cJSON_AddStringToObject(z, "name", "l1_misses");
        cJSON_AddNumberToObject(z, "value", 0);
        cJSON_AddItemToArray(ms, z);
        cJSON_AddItemToArray(runs, r);
    }
    mo = cJSON_AddObjectToObject(c, "metrics");
    cJSON_AddStringToObject(cJSON_AddObjectToObject(mo, "instructions"), "direction", "lower");
    cJSON_AddStringToObject(cJSON_AddObjectToObject(mo, "l1_misses"), "direction", "lower");
    return c;
}

/* A result document with that one case. */
static cJSON *make_doc(const char *timing, const double *ns, const double *ir, size_t n)
{
    cJSON *d = cJSON_CreateObject();

    cJSON_AddStringToObject(d, "schema", "bhost.result/1");
    cJSON_AddStringToObject(cJSON_AddObjectToObject(cJSON_AddObjectToObject(d, "run"), "config"),
                            "name", "cnt");
    cJSON_AddNullToObject(d, "system");
    cJSON_AddItemToArray(cJSON_AddArrayToObject(d, "cases"), make_case(timing, ns, ir, n));
    return d;
}

/* The item of metric in r, or NULL. */
static const bh_regress_item *item(const bh_regress_report *r, const char *metric)
{
    for (size_t i = 0; i < r->n; i++)
        if (strcmp(r->items[i].metric, metric) == 0)
            return &r->items[i];
    return NULL;
}

/* Compares base and cand (timing each, instructions ir then ir * factor,
 * times noisy by 10%) under the regression section json. */
static void compare(const char *timing, double factor, const char *json, bh_regress_report *r)
{
    double ns_b[10], ns_c[10], ir_b[10], ir_c[10];
    bh_regress_config cfg;
    bh_error e = {""};
    cJSON *b, *c;

    for (int i = 0; i < 10; i++) {
        ns_b[i] = 100 + 10 * (i % 3);
        ns_c[i] = 130 - 10 * (i % 2);
        ir_b[i] = 12010.29;
        ir_c[i] = 12010.29 * factor;
    }
    b = make_doc(timing, ns_b, ir_b, 10);
    c = make_doc(timing, ns_c, ir_c, 10);
    if (bh_regress_config_parse(json, NULL, "cfg.yaml", &cfg, &e) != 0)
        fail_msg("%s", e.msg);
    bh_regress_compare_docs(b, c, &cfg, NULL, r);
    bh_regress_config_free(&cfg);
    cJSON_Delete(b);
    cJSON_Delete(c);
}

static void test_counted_floor_and_no_time(void **state)
{
    bh_regress_report r;
    const bh_regress_item *it;

    (void)state;
    /* +0.5% instructions: beyond the 0.1% floor of counts; the time under
       valgrind (+20% here) is not compared at all. */
    compare("instructions", 1.005, NULL, &r);
    assert_null(item(&r, "time"));
    it = item(&r, "instructions");
    assert_non_null(it);
    assert_true(it->th.noise_floor == BH_REGRESS_COUNT_FLOOR);
    assert_int_equal(it->v.kind, BH_VERDICT_REGRESSED);
    /* 0 misses on both sides: no change (no relative change exists). */
    it = item(&r, "l1_misses");
    assert_non_null(it);
    assert_true(it->tested);
    assert_int_equal(it->v.kind, BH_VERDICT_NO_CHANGE);
    bh_regress_report_free(&r);
    /* Identical counts: no change. */
    compare("instructions", 1.0, NULL, &r);
    assert_int_equal(item(&r, "instructions")->v.kind, BH_VERDICT_NO_CHANGE);
    assert_int_equal(r.counts[BH_VERDICT_REGRESSED], 0);
    bh_regress_report_free(&r);
}

static void test_configured_floor(void **state)
{
    bh_regress_report r;
    const bh_regress_item *it;

    (void)state;
    /* A configured floor replaces the default one: +0.5% is within 1%. */
    compare("instructions", 1.005, "{\"metrics\":{\"instructions\":{\"noise_floor\":\"1%\"}}}",
            &r);
    it = item(&r, "instructions");
    assert_true(it->th.noise_floor == 0.01);
    assert_int_not_equal(it->v.kind, BH_VERDICT_REGRESSED);
    bh_regress_report_free(&r);
    /* A timed run's metric named instructions (a plugin's own) keeps the
       case's floor, and its time is compared. */
    compare("host", 1.005, NULL, &r);
    assert_non_null(item(&r, "time"));
    assert_true(item(&r, "instructions")->th.noise_floor == 0.01);
    bh_regress_report_free(&r);
}

static void test_config_errors(void **state)
{
    bh_regress_config cfg;
    bh_error e = {""};

    (void)state;
    assert_int_not_equal(
        bh_regress_config_parse("{\"metrics\":{\"instructions\":{\"noise_floor\":\"5%\"}}}",
                                NULL, "cfg.yaml", &cfg, &e),
        0);
    assert_string_equal(e.msg, "cfg.yaml: regression.metrics.instructions.noise_floor: "
                               "noise_floor (5%) must not be above warning (3%)");
    assert_int_not_equal(
        bh_regress_config_parse("{\"metrics\":{\"instructions\":{\"noise_flor\":\"1%\"}}}",
                                NULL, "cfg.yaml", &cfg, &e),
        0);
    assert_string_equal(e.msg, "cfg.yaml: regression.metrics.instructions.noise_flor: unknown "
                               "key 'noise_flor' (did you mean 'noise_floor'?)");
    assert_int_equal(
        bh_regress_config_parse("{\"metrics\":{\"instructions\":{\"noise_floor\":0.002}}}",
                                NULL, "cfg.yaml", &cfg, &e),
        0);
    assert_true(cfg.metrics[0].noise_floor == 0.002);
    bh_regress_config_free(&cfg);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_counted_floor_and_no_time),
        cmocka_unit_test(test_configured_floor),
        cmocka_unit_test(test_config_errors),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
