// SPDX-License-Identifier: MIT
/* Scaling reports without running anything (docs/scaling.md): the
 * scaling: config and its errors, the figures of each mode, curves built
 * over hand-made result documents (gaps, a single point, a base that
 * failed, axis values out of order, two curves in one suite), the strict
 * reader's check of doc.scaling, and the console, Markdown and HTML
 * sections. Times are made up: only relationships are asserted. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "bh_strbuf.h"
#include "config.h"
#include "plan.h"
#include "report_scaling.h"
#include "result_read.h"
#include "scaling_build.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char path[] = "/tmp/bh_scaling_XXXXXX.yaml";

/* Writes text to the test's config file and loads it; NULL with *e set
 * when the config is refused. */
static bh_config *load(const char *text, bh_error *e)
{
    FILE *f = fopen(path, "w");

    assert_non_null(f);
    assert_int_equal(fputs(text, f) >= 0, 1);
    assert_int_equal(fclose(f), 0);
    memset(e, 0, sizeof(*e));
    return bh_config_load(path, e);
}

/* The config must be refused with a message that holds want, and starts
 * with the file's path and a line:column. */
static void refused(const char *text, const char *want)
{
    bh_error e;
    bh_config *c = load(text, &e);
    char prefix[64];

    if (c)
        fail_msg("accepted, wanted an error with '%s'", want);
    snprintf(prefix, sizeof(prefix), "%s:", path);
    if (strncmp(e.msg, prefix, strlen(prefix)) != 0 || !strstr(e.msg, want))
        fail_msg("got '%s', wanted '%s' after the file's position", e.msg, want);
    assert_null(strchr(e.msg, '\n'));
}

#define SUITE(params, scaling)                                                                     \
    "schema: 1\nsuites:\n  - plugin: selftest\n    params: " params "\n" scaling

static void test_config_errors(void **state)
{
    (void)state;
    refused(SUITE("{threads: [1, 2]}", "    scaling: [{axis: thread}]\n"),
            "suites[0].scaling[0].axis: expected a parameter swept in the suite's params "
            "(one of: threads), got 'thread'");
    refused(SUITE("{mode: [a, b]}", "    scaling: [{axis: mode}]\n"),
            "suites[0].params.mode[0]: expected a positive number (it is a scaling axis), got 'a'");
    refused(SUITE("{threads: [1, 0]}", "    scaling: [{axis: threads}]\n"),
            "suites[0].params.threads[1]: expected a positive number");
    refused(SUITE("{threads: [1, 2]}", "    scaling: [{axis: threads, min_efficiency: 1.5}]\n"),
            "suites[0].scaling[0].min_efficiency: expected an efficiency in (0, 1]");
    refused(SUITE("{threads: [1, 2]}", "    scaling: [{axis: threads, min_efficiency: 0}]\n"),
            "expected an efficiency in (0, 1]");
    refused(SUITE("{threads: [1, 2]}", "    scaling: [{axis: threads, mode: strongg}]\n"),
            "suites[0].scaling[0].mode: expected one of strong, weak, throughput, got 'strongg' "
            "(did you mean 'strong'?)");
    refused(SUITE("{threads: [1, 2]}", "    scaling: [{axis: threads, rate: items_per_s}]\n"),
            "suites[0].scaling[0].rate: expected only with mode: throughput");
    refused(SUITE("{threads: [1, 2]}", "    scaling: [{axis: threads, mod: weak}]\n"),
            "unknown key 'mod'");
    refused(SUITE("{threads: [1, 2]}", "    scaling: [{mode: weak}]\n"),
            "missing required key 'axis'");
    refused(SUITE("{threads: [1, 2]}", "    scaling: {axis: threads}\n"),
            "suites[0].scaling: expected a list");
    refused(SUITE("{threads: [1, 2]}", "    scaling: [{axis: threads}, {axis: threads}]\n"),
            "suites[0].scaling[1].axis: 'threads' is listed twice");
    refused(SUITE("{threads: [1, 2]}", "scaling: [{axis: ranks}]\n"),
            "scaling[0].axis: expected a parameter that a suite's params sweep, got 'ranks'");
}

static void test_config_binding(void **state)
{
    bh_error e;
    bh_config *c = load("schema: 1\n"
                        "scaling: [{axis: threads, mode: weak, min_efficiency: 90%}]\n"
                        "suites:\n"
                        "  - {plugin: selftest, params: {threads: [2, 1]}}\n"
                        "  - {plugin: selftest, params: {work: [1, 2]}}\n"
                        "  - plugin: selftest\n"
                        "    params: {threads: [1, 4], work: [8]}\n"
                        "    scaling: [{axis: work, mode: throughput, rate: flop_per_s}]\n",
                        &e);

    if (!c)
        fail_msg("%s", e.msg);
    assert_int_equal(c->n_scaling, 2);
    assert_int_equal(c->scaling[0].suite, 2); /* the suites' own lists come first */
    assert_string_equal(c->scaling[0].axis, "work");
    assert_int_equal(c->scaling[0].mode, BH_SCALING_THROUGHPUT);
    assert_string_equal(c->scaling[0].rate, "flop_per_s");
    assert_true(c->scaling[0].min_efficiency == BH_SCALING_MIN_EFFICIENCY);
    assert_int_equal(c->scaling[1].suite, 0); /* not suite 1 (no threads) nor 2 (its own) */
    assert_int_equal(c->scaling[1].mode, BH_SCALING_WEAK);
    assert_true(fabs(c->scaling[1].min_efficiency - 0.9) < 1e-12);
    bh_config_free(c);
}

static void test_figures(void **state)
{
    bh_scaling_figures f;

    (void)state;
    /* strong: T0 = 10, T(4) = 4: speedup 2.5 of an ideal 4, efficiency 0.625 */
    bh_scaling_figures_of(BH_SCALING_STRONG, 1, 4, 2.5, 2, 3, 1, &f);
    assert_true(f.speedup == 2.5 && f.ideal == 4 && f.efficiency == 0.625);
    assert_true(f.speedup_lo == 2 && f.speedup_hi == 3 && f.efficiency_hi == 0.75);
    /* weak from p0 = 2: T(2) / T(8) = 0.8 is the efficiency; scaled speedup 3.2 */
    bh_scaling_figures_of(BH_SCALING_WEAK, 2, 8, 0.8, 0.7, 0.9, 1, &f);
    assert_true(f.efficiency == 0.8 && f.speedup == 3.2 && f.ideal == 4);
    assert_true(fabs(f.efficiency_lo - 0.7) < 1e-15 && fabs(f.speedup_hi - 3.6) < 1e-12);
    /* throughput: 3x the work in 1.5x the time at p = 4: rate x2, efficiency 0.5 */
    bh_scaling_figures_of(BH_SCALING_THROUGHPUT, 1, 4, 1 / 1.5, 0.5, 0.8, 3, &f);
    assert_true(fabs(f.speedup - 2) < 1e-12 && fabs(f.efficiency - 0.5) < 1e-12);
}

/* A case of the made-up document: times[r] is run r's time per
 * iteration (ns; 0 ends the list), items its work per iteration (0:
 * none), failed: no runs and status failed. */
static cJSON *mk_case(const char *id, double threads, double n, const double *times, double items,
                      int failed)
{
    cJSON *c = cJSON_CreateObject(), *params, *runs;

    cJSON_AddStringToObject(c, "id", id);
    cJSON_AddStringToObject(c, "plugin", "selftest");
    cJSON_AddStringToObject(c, "benchmark", "spin");
    params = cJSON_AddObjectToObject(c, "params");
    cJSON_AddNumberToObject(params, "threads", threads);
    cJSON_AddNumberToObject(params, "n", n);
    cJSON_AddStringToObject(c, "status", failed ? "failed" : "ok");
    if (failed)
        cJSON_AddStringToObject(c, "message", "boom");
    runs = cJSON_AddArrayToObject(c, "runs");
    for (int r = 0; !failed && times[r] > 0; r++) {
        cJSON *run = cJSON_CreateObject(), *smp = cJSON_AddArrayToObject(run, "samples");

        cJSON_AddStringToObject(run, "status", "ok");
        if (items > 0)
            cJSON_AddNumberToObject(run, "items_per_iter", items);
        for (int k = 0; k < 5; k++) { /* 100 iterations; +-1% around the run's time */
            cJSON *pair = cJSON_CreateArray();

            cJSON_AddItemToArray(pair, cJSON_CreateNumber(100));
            cJSON_AddItemToArray(pair, cJSON_CreateNumber(100 * times[r] * (0.98 + 0.01 * k)));
            cJSON_AddItemToArray(smp, pair);
        }
        cJSON_AddItemToArray(runs, run);
    }
    return c;
}

/* A document and a plan of its cases, all in suite 0. */
typedef struct fixture {
    bh_config *cfg;
    cJSON *doc;
    bh_plan plan;
    bh_case cases[8];
} fixture;

/* Loads a one-suite config with the given scaling: entry. */
static bh_config *one_suite(const char *entry)
{
    char text[512];
    bh_error e;
    bh_config *c;

    snprintf(text, sizeof(text),
             "schema: 1\nsuites:\n  - plugin: selftest\n    params: {threads: [4, 1, 2, 8]}\n"
             "    scaling: [%s]\n",
             entry);
    c = load(text, &e);
    if (!c)
        fail_msg("%s", e.msg);
    return c;
}

static void add(fixture *fx, cJSON *c)
{
    cJSON_AddItemToArray(cJSON_GetObjectItemCaseSensitive(fx->doc, "cases"), c);
    fx->cases[fx->plan.n].suite = 0;
    fx->plan.n++;
}

/* An empty document and plan, and the config of one_suite(entry). */
static void fx_init(fixture *fx, const char *entry)
{
    memset(fx, 0, sizeof(*fx));
    fx->cfg = one_suite(entry);
    fx->doc = cJSON_CreateObject();
    cJSON_AddStringToObject(fx->doc, "schema", "bhost.result/1");
    cJSON_AddObjectToObject(fx->doc, "run");
    cJSON_AddArrayToObject(fx->doc, "cases");
    fx->plan.cases = fx->cases;
}

static void fx_free(fixture *fx)
{
    cJSON_Delete(fx->doc);
    bh_config_free(fx->cfg);
}

/* The points of curve k of the document after bh_scaling_apply. */
static const cJSON *points_of(const fixture *fx, int k)
{
    const cJSON *c = cJSON_GetArrayItem(cJSON_GetObjectItem(fx->doc, "scaling"), k);

    assert_non_null(c);
    return cJSON_GetObjectItem(c, "points");
}

static double num(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

    assert_non_null(v);
    return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

/* Checks every point with a figure of curve c against the document's
 * own medians: speedup x T(p) = T(p0) (strong), efficiency = speedup p0 /
 * p, the interval around the estimate, the flag against the threshold. */
static void check_strong(const cJSON *c)
{
    const cJSON *p, *base = NULL;
    double thr = num(c, "min_efficiency"), p0 = num(c, "base");
    int flagged = 0;

    cJSON_ArrayForEach(p, cJSON_GetObjectItemCaseSensitive(c, "points"))
        if (num(p, "value") == p0)
            base = p;
    assert_non_null(base);
    cJSON_ArrayForEach(p, cJSON_GetObjectItemCaseSensitive(c, "points")) {
        double s = num(p, "speedup"), e = num(p, "efficiency");

        if (isnan(s))
            continue;
        assert_true(fabs(s * num(p, "median_ns") / num(base, "median_ns") - 1) < 1e-12);
        assert_true(fabs(e - s * p0 / num(p, "value")) < 1e-12);
        assert_true(num(p, "speedup_lo") <= s && s <= num(p, "speedup_hi"));
        assert_int_equal(cJSON_IsTrue(cJSON_GetObjectItem(p, "below_threshold")), e < thr);
        flagged += e < thr;
    }
    assert_int_equal((int)num(c, "flagged"), flagged);
}

static void test_strong_with_gap(void **state)
{
    static const double t1[] = {1000, 1010, 990, 0}, t2[] = {520, 530, 510, 0},
                        t4[] = {400, 410, 390, 0};
    const cJSON *c, *pts;
    fixture fx;
    bh_error e;

    (void)state;
    fx_init(&fx, "{axis: threads, min_efficiency: 0.7}");
    add(&fx, mk_case("selftest/spin[threads=4]", 4, 1, t4, 0, 0));
    add(&fx, mk_case("selftest/spin[threads=1]", 1, 1, t1, 0, 0));
    add(&fx, mk_case("selftest/spin[threads=8]", 8, 1, NULL, 0, 1));
    add(&fx, mk_case("selftest/spin[threads=2]", 2, 1, t2, 0, 0));
    bh_scaling_apply(fx.doc, fx.cfg, &fx.plan, 42);
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(fx.doc, "scaling")), 1);
    c = cJSON_GetArrayItem(cJSON_GetObjectItem(fx.doc, "scaling"), 0);
    assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(c, "name")), "selftest/spin");
    assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(c, "mode")), "strong");
    assert_true(num(c, "base") == 1);
    pts = cJSON_GetObjectItem(c, "points");
    assert_int_equal(cJSON_GetArraySize(pts), 4);
    for (int i = 0; i < 4; i++) /* sorted by the axis whatever the plan order */
        assert_true(num(cJSON_GetArrayItem(pts, i), "value") == (double)(1 << i));
    assert_true(num(cJSON_GetArrayItem(pts, 0), "speedup") == 1);
    assert_true(num(cJSON_GetArrayItem(pts, 0), "speedup_lo") == 1);
    assert_true(isnan(num(cJSON_GetArrayItem(pts, 3), "speedup"))); /* a gap, not 0 */
    assert_true(cJSON_IsNull(cJSON_GetObjectItem(cJSON_GetArrayItem(pts, 3), "efficiency")));
    assert_non_null(
        strstr(cJSON_GetStringValue(cJSON_GetObjectItem(cJSON_GetArrayItem(pts, 3), "reason")),
               "failed: boom"));
    check_strong(c);
    /* T(4) = 400 of T(1) = 1000: efficiency 0.625, under 0.7; 2 threads is 0.96 */
    assert_true(cJSON_IsTrue(cJSON_GetObjectItem(cJSON_GetArrayItem(pts, 2), "below_threshold")));
    assert_true(cJSON_IsFalse(cJSON_GetObjectItem(cJSON_GetArrayItem(pts, 1), "below_threshold")));
    memset(&e, 0, sizeof(e));
    assert_int_equal(bh_result_validate(fx.doc, "doc.json", &e), 0);
    cJSON_ReplaceItemInObject(cJSON_GetArrayItem(pts, 2), "below_threshold", cJSON_CreateFalse());
    assert_int_equal(bh_result_validate(fx.doc, "doc.json", &e), -1);
    assert_non_null(strstr(e.msg, "doc.json: scaling[0].points[2].below_threshold: expected "
                                  "efficiency < min_efficiency, got false"));
    fx_free(&fx);
}

static void test_weak_and_base_failed(void **state)
{
    static const double t2[] = {100, 100, 100, 0}, t4[] = {125, 125, 125, 0};
    const cJSON *c, *pts;
    fixture fx;

    (void)state;
    fx_init(&fx, "{axis: threads, mode: weak}");
    add(&fx, mk_case("selftest/spin[threads=1]", 1, 1, NULL, 0, 1));
    add(&fx, mk_case("selftest/spin[threads=2]", 2, 1, t2, 0, 0));
    add(&fx, mk_case("selftest/spin[threads=4]", 4, 1, t4, 0, 0));
    bh_scaling_apply(fx.doc, fx.cfg, &fx.plan, 7);
    c = cJSON_GetArrayItem(cJSON_GetObjectItem(fx.doc, "scaling"), 0);
    pts = points_of(&fx, 0);
    assert_true(num(c, "base") == 2); /* the smallest point with a time */
    assert_true(isnan(num(cJSON_GetArrayItem(pts, 0), "efficiency")));
    assert_true(num(cJSON_GetArrayItem(pts, 0), "ideal_speedup") == 0.5);
    /* weak: efficiency T(2) / T(4) = 0.8, scaled speedup 0.8 x 4 / 2 */
    assert_true(fabs(num(cJSON_GetArrayItem(pts, 2), "efficiency") - 0.8) < 1e-12);
    assert_true(fabs(num(cJSON_GetArrayItem(pts, 2), "speedup") - 1.6) < 1e-12);
    assert_true(cJSON_IsFalse(cJSON_GetObjectItem(cJSON_GetArrayItem(pts, 2), "below_threshold")));
    fx_free(&fx);
}

static void test_throughput_two_curves(void **state)
{
    static const double t[] = {1000, 1000, 1000, 0}, t2[] = {1500, 1500, 1500, 0};
    const cJSON *list, *c;
    fixture fx;

    (void)state;
    fx_init(&fx, "{axis: threads, mode: throughput}");
    add(&fx, mk_case("selftest/spin[threads=1,n=1]", 1, 1, t, 100, 0));
    add(&fx, mk_case("selftest/spin[threads=1,n=2]", 1, 2, t, 100, 0));
    add(&fx, mk_case("selftest/spin[threads=2,n=1]", 2, 1, t2, 300, 0));
    add(&fx, mk_case("selftest/spin[threads=2,n=2]", 2, 2, NULL, 0, 1));
    bh_scaling_apply(fx.doc, fx.cfg, &fx.plan, 9);
    list = cJSON_GetObjectItem(fx.doc, "scaling");
    assert_int_equal(cJSON_GetArraySize(list), 2); /* n=1 and n=2 */
    c = cJSON_GetArrayItem(list, 0);
    assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(c, "name")), "selftest/spin[n=1]");
    assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(c, "rate")), "items_per_s");
    /* 3x the items in 1.5x the time: the rate doubles, efficiency 1 */
    c = cJSON_GetArrayItem(cJSON_GetObjectItem(c, "points"), 1);
    assert_true(fabs(num(c, "speedup") - 2) < 1e-12);
    assert_true(fabs(num(c, "rate") / 2e8 - 1) < 1e-12);
    assert_true(fabs(num(c, "efficiency") - 1) < 1e-12);
    c = cJSON_GetArrayItem(list, 1);
    assert_int_equal(cJSON_GetArraySize(points_of(&fx, 1)), 2);
    assert_true(isnan(num(cJSON_GetArrayItem(points_of(&fx, 1), 1), "speedup")));
    fx_free(&fx);
}

/* Everything the report sections need from one curve with a gap. */
static void test_single_point_and_reports(void **state)
{
    static const double t[] = {1000, 1010, 0}, t2[] = {900, 910, 0};
    const cJSON *c;
    bh_strbuf b = BH_STRBUF_INIT;
    char *text = NULL;
    size_t len = 0;
    FILE *mem;
    fixture fx;

    (void)state;
    fx_init(&fx, "{axis: threads, min_efficiency: 0.9}");
    add(&fx, mk_case("selftest/spin[threads=1]", 1, 1, t, 0, 0));
    bh_scaling_apply(fx.doc, fx.cfg, &fx.plan, 3);
    c = cJSON_GetArrayItem(points_of(&fx, 0), 0);
    assert_true(num(c, "speedup") == 1 && num(c, "efficiency") == 1);
    assert_true(num(c, "efficiency_lo") == 1 && num(c, "efficiency_hi") == 1);
    cJSON_DeleteItemFromObject(fx.doc, "scaling");
    add(&fx, mk_case("selftest/spin[threads=2]", 2, 1, t2, 0, 0));
    add(&fx, mk_case("selftest/spin[threads=4]", 4, 1, NULL, 0, 1));
    bh_scaling_apply(fx.doc, fx.cfg, &fx.plan, 3);
    mem = open_memstream(&text, &len);
    bh_report_console_scaling(mem, fx.doc);
    fclose(mem);
    assert_non_null(strstr(text, "selftest/spin: threads, strong scaling, min efficiency 0.90"));
    assert_non_null(strstr(text, "LOW"));
    assert_non_null(strstr(text, "gap: failed: selftest/spin[threads=4] failed: boom"));
    free(text);
    bh_report_markdown_scaling(fx.doc, &b);
    assert_non_null(strstr(b.data, "### Scaling"));
    assert_non_null(strstr(b.data, "| **LOW** |"));
    bh_strbuf_free(&b);
    bh_report_html_scaling(&b, fx.doc);
    assert_non_null(strstr(b.data, "<section id=\"scaling\">"));
    assert_non_null(strstr(b.data, "class=\"measured\""));
    assert_non_null(strstr(b.data, "class=\"ideal\""));
    assert_non_null(strstr(b.data, "class=\"threshold\""));
    assert_non_null(strstr(b.data, "class=\"gap\""));
    assert_null(strstr(b.data, "<script"));
    bh_strbuf_free(&b);
    fx_free(&fx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_config_errors),
        cmocka_unit_test(test_config_binding),
        cmocka_unit_test(test_figures),
        cmocka_unit_test(test_strong_with_gap),
        cmocka_unit_test(test_weak_and_base_failed),
        cmocka_unit_test(test_throughput_two_curves),
        cmocka_unit_test(test_single_point_and_reports),
    };
    int fd = mkstemps(path, 5), rc;

    if (fd < 0)
        return 1;
    close(fd);
    rc = cmocka_run_group_tests(tests, NULL, NULL);
    unlink(path);
    return rc;
}
