// SPDX-License-Identifier: MIT
/* Unit tests of budgets (expect:): the config's parser (good values in
 * every unit, bad ones with their exact file:line:col message, inheritance
 * from defaults through suite defaults to the suite), the decision on a
 * known interval (host/regress/expect.h), and the check of a result
 * document: time, a rate from the declared work, a plugin metric, an
 * unknown metric and a case without an ok run. Configs are written into a
 * temporary directory the test runs in, so positions are short. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "config.h"
#include "expect.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char dir[] = "/tmp/bh_test_expect_XXXXXX";

/* Writes text as name in the test directory (the working directory). */
static void put_file(const char *name, const char *text)
{
    FILE *f = fopen(name, "w");

    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* A config of one selftest suite with expect_yaml as the suite's
 * "expect:" value (line 6, column 13). */
static const char *suite_config(const char *name, const char *expect_yaml)
{
    char text[1024];

    snprintf(text, sizeof(text),
             "schema: 1\n"
             "name: t\n"
             "suites:\n"
             "  - plugin: selftest\n"
             "    include: [spin]\n"
             "    expect: %s\n",
             expect_yaml);
    put_file(name, text);
    return name;
}

/* The budget of key in s, or a failure. */
static const bh_expect *budget(const bh_settings *s, const char *key)
{
    for (size_t i = 0; i < s->n_expect; i++)
        if (strcmp(s->expect[i].key, key) == 0)
            return &s->expect[i];
    fail_msg("no budget '%s'", key);
    return NULL;
}

/* Loading path fails with exactly msg on one line. */
static void load_fails(const char *path, const char *msg)
{
    bh_error e = {{0}};
    bh_config *c = bh_config_load(path, &e);

    if (c) {
        bh_config_free(c);
        fail_msg("%s loaded; expected: %s", path, msg);
    }
    if (strcmp(e.msg, msg) != 0)
        fail_msg("\n  got      %s\n  expected %s", e.msg, msg);
}

static int setup(void **state)
{
    (void)state;
    if (!mkdtemp(dir) || chdir(dir) != 0)
        return -1;
    return 0;
}

static int teardown(void **state)
{
    static const char *const files[] = {"good.yaml", "layer.yaml", "bad1.yaml", "bad2.yaml",
                                        "bad3.yaml", "bad4.yaml",  "bad5.yaml", "bad6.yaml"};

    (void)state;
    /* only the files this test wrote, in its own directory */
    for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++)
        unlink(files[i]);
    if (chdir("/") != 0)
        return -1;
    return rmdir(dir);
}

/* Every unit and operator reads to the target in its canonical unit. */
static void test_parse_good(void **state)
{
    bh_error e = {{0}};
    bh_config *c;
    const bh_settings *s;
    const bh_expect *x;

    (void)state;
    suite_config("good.yaml", "{time: \"< 10us\", gflops: \"> 100\", "
                              "bytes_per_second: \">= 20 GB/s\", items_per_s: \"<= 2.5e6\", "
                              "tokens_per_s: \"> 12.5 tokens/s\", flops: \">1.5T\"}");
    c = bh_config_load("good.yaml", &e);
    if (!c)
        fail_msg("%s", e.msg);
    s = &c->suites[0].settings;
    assert_int_equal(s->n_expect, 5); /* gflops and flops are one key */
    x = budget(s, "time");
    assert_int_equal(x->op, BH_EXPECT_LT);
    assert_true(x->target == 10000.0);
    assert_string_equal(x->text, "< 10us");
    assert_int_equal(x->pos.line, 6);
    x = budget(s, "flop_per_s");
    /* flops: ">1.5T" came after gflops and replaced it */
    assert_int_equal(x->op, BH_EXPECT_GT);
    assert_true(x->target == 1.5e12);
    assert_string_equal(x->name, "flops");
    x = budget(s, "bytes_per_s");
    assert_int_equal(x->op, BH_EXPECT_GE);
    assert_true(x->target == 20e9);
    x = budget(s, "items_per_s");
    assert_int_equal(x->op, BH_EXPECT_LE);
    assert_true(x->target == 2.5e6);
    x = budget(s, "tokens_per_s");
    assert_true(x->target == 12.5);
    assert_string_equal(bh_expect_op_text(BH_EXPECT_GE), ">=");
    bh_config_free(c);
}

/* defaults < suite defaults < the suite's expect:, merged by key; gflops
 * is FLOP/s in units of 1e9. */
static void test_layers(void **state)
{
    bh_error e = {{0}};
    bh_config *c;
    const bh_settings *s;

    (void)state;
    put_file("layer.yaml", "schema: 1\n"
                           "defaults:\n"
                           "  expect: {time: \"< 1s\", gflops: \"> 100\"}\n"
                           "suites:\n"
                           "  - plugin: selftest\n"
                           "    defaults: {expect: {time: \"< 5ms\"}}\n"
                           "    expect: {bytes_per_s: \"> 1 GiB/s\"}\n"
                           "  - plugin: selftest\n");
    c = bh_config_load("layer.yaml", &e);
    if (!c)
        fail_msg("%s", e.msg);
    s = &c->suites[0].settings;
    assert_int_equal(s->n_expect, 3);
    assert_true(budget(s, "time")->target == 5e6);
    assert_true(budget(s, "flop_per_s")->target == 100e9);
    assert_true(budget(s, "bytes_per_s")->target == 1073741824.0);
    s = &c->suites[1].settings;
    assert_int_equal(s->n_expect, 2);
    assert_true(budget(s, "time")->target == 1e9);
    bh_config_free(c);
}

/* Bad budgets: one line naming the file, line and column, the key and
 * what was expected. */
static void test_parse_bad(void **state)
{
    bh_error e = {{0}};
    bh_settings s;

    (void)state;
    load_fails(suite_config("bad1.yaml", "{time: fast}"),
               "bad1.yaml:6:20: suites[0].expect.time: expected \"< DURATION\" or "
               "\"> DURATION\" (also <=, >=; a duration such as 10us), got \"fast\"");
    load_fails(suite_config("bad2.yaml", "{time: \"< 10 parsecs\"}"),
               "bad2.yaml:6:20: suites[0].expect.time: expected \"< DURATION\" or "
               "\"> DURATION\" (also <=, >=; a duration such as 10us), got \"< 10 parsecs\"");
    load_fails(suite_config("bad3.yaml", "{bytes_per_s: \"= 20 GB/s\"}"),
               "bad3.yaml:6:27: suites[0].expect.bytes_per_s: expected \"> SIZE/s\" or "
               "\"< SIZE/s\" (also <=, >=; a size such as 20GB or 4GiB), got \"= 20 GB/s\"");
    load_fails(suite_config("bad4.yaml", "{gflops: \"> lots\"}"),
               "bad4.yaml:6:22: suites[0].expect.gflops: expected \"> NUMBER\" or "
               "\"< NUMBER\" (also <=, >=; in the metric's unit), got \"> lots\"");
    load_fails(suite_config("bad5.yaml", "[time]"),
               "bad5.yaml:6:13: suites[0].expect: expected a map, got a list");
    load_fails(suite_config("bad6.yaml", "{Time: \"< 1s\"}"),
               "bad6.yaml:6:14: suites[0].expect: key 'Time' must be time, a throughput "
               "(flop_per_s, gflops, bytes_per_s, items_per_s) or a metric name of "
               "[a-z0-9_.]");
    /* not a command-line setting */
    bh_settings_default(&s);
    assert_int_equal(bh_settings_set(&s, "expect", "time<1s", &e), -1);
    assert_non_null(strstr(e.msg, "'expect' is a map of budgets"));
    bh_settings_free(&s);
}

/* The decision on known intervals: met when the whole interval is on the
 * right side, missed when the whole interval is on the wrong side, at
 * risk when it straddles; without an interval the median decides. */
static void test_decide(void **state)
{
    (void)state;
    /* time < 10: interval [8, 9] met, [11, 12] missed, [9, 11] at risk */
    assert_int_equal(bh_expect_decide(BH_EXPECT_LT, 10, 8.5, 8, 9), BH_BUDGET_MET);
    assert_int_equal(bh_expect_decide(BH_EXPECT_LT, 10, 11.5, 11, 12), BH_BUDGET_MISSED);
    assert_int_equal(bh_expect_decide(BH_EXPECT_LT, 10, 9.5, 9, 11), BH_BUDGET_AT_RISK);
    /* a median on the right side with the interval straddling: at risk */
    assert_int_equal(bh_expect_decide(BH_EXPECT_LT, 10, 9.9, 9, 10.5), BH_BUDGET_AT_RISK);
    /* the bounds: < is strict, <= is not */
    assert_int_equal(bh_expect_decide(BH_EXPECT_LT, 10, 9, 8, 10), BH_BUDGET_AT_RISK);
    assert_int_equal(bh_expect_decide(BH_EXPECT_LE, 10, 9, 8, 10), BH_BUDGET_MET);
    assert_int_equal(bh_expect_decide(BH_EXPECT_LT, 10, 11, 10, 12), BH_BUDGET_MISSED);
    assert_int_equal(bh_expect_decide(BH_EXPECT_LE, 10, 11, 10, 12), BH_BUDGET_AT_RISK);
    /* > 100 */
    assert_int_equal(bh_expect_decide(BH_EXPECT_GT, 100, 120, 110, 130), BH_BUDGET_MET);
    assert_int_equal(bh_expect_decide(BH_EXPECT_GT, 100, 90, 80, 95), BH_BUDGET_MISSED);
    assert_int_equal(bh_expect_decide(BH_EXPECT_GT, 100, 101, 95, 105), BH_BUDGET_AT_RISK);
    assert_int_equal(bh_expect_decide(BH_EXPECT_GE, 100, 101, 100, 105), BH_BUDGET_MET);
    assert_int_equal(bh_expect_decide(BH_EXPECT_GT, 100, 101, 100, 105), BH_BUDGET_AT_RISK);
    /* no interval: the median alone */
    assert_int_equal(bh_expect_decide(BH_EXPECT_LT, 10, 9, NAN, NAN), BH_BUDGET_MET);
    assert_int_equal(bh_expect_decide(BH_EXPECT_LT, 10, 10, NAN, NAN), BH_BUDGET_MISSED);
    assert_int_equal(bh_expect_decide(BH_EXPECT_GE, 10, 10, NAN, NAN), BH_BUDGET_MET);
    /* no value at all */
    assert_int_equal(bh_expect_decide(BH_EXPECT_LT, 10, NAN, NAN, NAN), BH_BUDGET_MISSED);
}

/* A case object with n ok runs whose one sample each is [1 iteration,
 * ns[i]], declaring items_per_iter 100 and a metric "acc" per run. */
static cJSON *fake_case(const char *id, const double *ns, size_t n, const char *specs)
{
    cJSON *c = cJSON_CreateObject();
    cJSON *runs = cJSON_AddArrayToObject(c, "runs");
    cJSON *m = cJSON_AddObjectToObject(cJSON_AddObjectToObject(c, "metrics"), "acc");
    cJSON *vals;

    cJSON_AddStringToObject(c, "id", id);
    cJSON_AddStringToObject(c, "status", n ? "ok" : "failed");
    cJSON_AddStringToObject(m, "unit", "%");
    vals = cJSON_AddArrayToObject(m, "values");
    for (size_t i = 0; i < n; i++) {
        cJSON *r = cJSON_CreateObject();
        cJSON *pair = cJSON_CreateArray();
        cJSON *samples = cJSON_AddArrayToObject(r, "samples");

        cJSON_AddStringToObject(r, "status", "ok");
        cJSON_AddNumberToObject(r, "items_per_iter", 100);
        cJSON_AddItemToArray(pair, cJSON_CreateNumber(1));
        cJSON_AddItemToArray(pair, cJSON_CreateNumber(ns[i]));
        cJSON_AddItemToArray(samples, pair);
        cJSON_AddItemToArray(runs, r);
        cJSON_AddItemToArray(vals, cJSON_CreateNumber(90 + (double)i));
    }
    cJSON_AddItemToObject(cJSON_AddObjectToObject(c, "settings"), "expect", cJSON_Parse(specs));
    return c;
}

/* The budget i of case c of doc. */
static const cJSON *checked(const cJSON *doc, int c, int i)
{
    const cJSON *x = cJSON_GetArrayItem(
        cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(doc, "cases"), c), "expect"), i);

    assert_non_null(x);
    return x;
}

static const char *status_of(const cJSON *x)
{
    return cJSON_GetStringValue(cJSON_GetObjectItem(x, "status"));
}

/* The check of a document: the median of run medians with its 95%
 * order-statistic interval (10 runs: the 2nd and 9th values), a rate as
 * work over that interval turned over, a metric's values, an unknown
 * metric and a case without an ok run. */
static void test_apply(void **state)
{
    static const double ns[10] = {100, 101, 102, 103, 104, 105, 106, 107, 108, 109};
    cJSON *doc = cJSON_CreateObject();
    cJSON *cases = cJSON_AddArrayToObject(doc, "cases");
    const cJSON *x, *ci;

    (void)state;
    cJSON_AddItemToArray(cases, fake_case("a", ns, 10,
                                          "[{\"key\":\"time\",\"name\":\"time\",\"op\":\"<\","
                                          "\"target\":105,\"text\":\"< 105ns\"},"
                                          "{\"key\":\"time\",\"name\":\"time\",\"op\":\"<\","
                                          "\"target\":200,\"text\":\"< 200ns\"},"
                                          "{\"key\":\"items_per_s\",\"name\":\"items_per_s\","
                                          "\"op\":\">\",\"target\":1.2e9,\"text\":\"> 1.2e9\"},"
                                          "{\"key\":\"acc\",\"name\":\"acc\",\"op\":\">=\","
                                          "\"target\":99,\"text\":\">= 99\"},"
                                          "{\"key\":\"gflopz\",\"name\":\"gflopz\",\"op\":\">\","
                                          "\"target\":1,\"text\":\"> 1\"}]"));
    cJSON_AddItemToArray(cases, fake_case("b", NULL, 0,
                                          "[{\"key\":\"time\",\"name\":\"time\",\"op\":\"<\","
                                          "\"target\":1,\"text\":\"< 1ns\"}]"));
    /* time < 105 on 104.5 [101, 108]: at risk; < 200: met; items_per_s
       > 1.2e9: missed; acc >= 99 on 94.5 [91, 98]: missed; gflopz: unknown;
       b: no value (its case failed, which fails the run on its own) */
    assert_int_equal(bh_expect_apply(doc), 3);
    assert_int_equal(bh_expect_n_failed(doc), 3);
    x = checked(doc, 0, 0);
    assert_string_equal(status_of(x), "at risk");
    assert_true(cJSON_GetObjectItem(x, "value")->valuedouble == 104.5);
    ci = cJSON_GetObjectItem(x, "ci");
    assert_true(cJSON_GetArrayItem(ci, 0)->valuedouble == 101);
    assert_true(cJSON_GetArrayItem(ci, 1)->valuedouble == 108);
    assert_string_equal(status_of(checked(doc, 0, 1)), "met");
    /* 100 items per iteration at [101, 108] ns: [0.926e9, 0.990e9] < 1.2e9 */
    x = checked(doc, 0, 2);
    assert_string_equal(status_of(x), "missed");
    ci = cJSON_GetObjectItem(x, "ci");
    assert_true(fabs(cJSON_GetArrayItem(ci, 0)->valuedouble - 100 / 108e-9) < 1);
    assert_true(fabs(cJSON_GetArrayItem(ci, 1)->valuedouble - 100 / 101e-9) < 1);
    assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(x, "unit")), "items/s");
    x = checked(doc, 0, 3);
    assert_string_equal(status_of(x), "missed");
    assert_true(cJSON_GetObjectItem(x, "value")->valuedouble == 94.5);
    x = checked(doc, 0, 4);
    assert_string_equal(status_of(x), "unknown metric");
    assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(x, "reason")),
                        "the case reports no metric 'gflopz' (it reports: time, acc)");
    x = checked(doc, 1, 0);
    assert_string_equal(status_of(x), "no value");
    assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(x, "reason")),
                        "no ok run to judge (case failed)");
    /* applied twice: replaced, not appended */
    assert_int_equal(bh_expect_apply(doc), 3);
    assert_int_equal(
        cJSON_GetArraySize(cJSON_GetObjectItem(cJSON_GetArrayItem(cases, 0), "expect")), 5);
    cJSON_Delete(doc);
}

/* Under 6 runs there is no interval: the median decides, and says so. */
static void test_apply_few_runs(void **state)
{
    static const double ns[3] = {100, 110, 120};
    cJSON *doc = cJSON_CreateObject();
    const cJSON *x;

    (void)state;
    cJSON_AddItemToArray(cJSON_AddArrayToObject(doc, "cases"),
                         fake_case("a", ns, 3,
                                   "[{\"key\":\"time\",\"name\":\"time\",\"op\":\"<\","
                                   "\"target\":115,\"text\":\"< 115ns\"}]"));
    assert_int_equal(bh_expect_apply(doc), 0);
    x = checked(doc, 0, 0);
    assert_string_equal(status_of(x), "met");
    assert_true(cJSON_IsNull(cJSON_GetObjectItem(x, "ci")));
    assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(x, "reason")),
                        "decided on the median alone: 3 runs give no 95% interval (6 do)");
    cJSON_Delete(doc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_good), cmocka_unit_test(test_layers),
        cmocka_unit_test(test_parse_bad),  cmocka_unit_test(test_decide),
        cmocka_unit_test(test_apply),      cmocka_unit_test(test_apply_few_runs),
    };

    return cmocka_run_group_tests(tests, setup, teardown);
}
