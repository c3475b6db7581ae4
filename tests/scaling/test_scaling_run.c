// SPDX-License-Identifier: MIT
/* Scaling reports through the real bhost (docs/scaling.md): the tensor
 * plugin's STREAM triad swept over its threads parameter, one suite in
 * strong mode and one in throughput mode; the result's scaling section is
 * checked against the document's own figures (speedup x T(p) = T(p0),
 * efficiency = speedup p0 / p, the flags against the configured
 * threshold), then the console, HTML and Markdown reports, the strict
 * reader refusing an inconsistent flag, and a config error. Nothing here
 * depends on timings: only relationships between the figures. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "itest_util.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define THRESHOLD "0.95"

static const char config[] =
    "schema: 1\n"
    "name: scaling-itest\n"
    "defaults: {warmup: 5ms, sample_time: 2ms, samples: 5, runs: 3, timeout: 60s}\n"
    "suites:\n"
    "  - plugin: tensor\n"
    "    name: triad-strong\n"
    "    include: [stream.triad]\n"
    "    params: {elements: [4096], threads: [2, 1]}\n"
    "    scaling: [{axis: threads, mode: strong, min_efficiency: " THRESHOLD "}]\n"
    "  - plugin: tensor\n"
    "    name: triad-rate\n"
    "    include: [stream.triad]\n"
    "    params: {elements: [2048], threads: [1, 2]}\n"
    "    scaling: [{axis: threads, mode: throughput}]\n"
    "output: [json, html]\n";

static cJSON *doc;

static int group_setup(void **state)
{
    tp_proc p;
    const char *args[] = {"run", NULL, "--out", NULL, NULL};

    (void)state;
    unsetenv("BHOST_STORE");
    if (!it_setup("bh_itest_scaling", 0))
        return -1;
    it_write(it_path("scaling.yaml"), config);
    args[1] = it_path("scaling.yaml");
    args[3] = it_path("r.json");
    it_run(&p, args);
    it_expect_code(&p, 0);
    it_assert_has(p.out, "tensor/stream.triad[elements=4096]: threads, strong scaling, min "
                         "efficiency " THRESHOLD " (base threads=1)");
    tp_proc_free(&p);
    doc = it_load_json(it_path("r.json"));
    return 0;
}

static int group_teardown(void **state)
{
    cJSON_Delete(doc);
    return it_group_teardown(state);
}

static double num(const cJSON *o, const char *key)
{
    const cJSON *v = it_member(o, key);

    return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

/* The curve of doc.scaling named name. */
static const cJSON *curve(const char *name)
{
    const cJSON *c;

    cJSON_ArrayForEach(c, it_member(doc, "scaling"))
        if (strcmp(it_str_of(c, "name"), name) == 0)
            return c;
    fail_msg("no scaling curve '%s'", name);
    return NULL;
}

/* Asserts a == b to 1e-9 relative. */
static void near(double a, double b, const char *what)
{
    if (!(fabs(a - b) <= 1e-9 * fabs(b)))
        fail_msg("%s: %.17g, expected %.17g", what, a, b);
}

/* Every point of c: in axis order, its case in the document with that
 * threads value and ok, speedup and efficiency consistent with the
 * medians, the flag with the threshold, the interval around the figure. */
static void check_points(const cJSON *c, int throughput)
{
    const cJSON *pts = it_member(c, "points"), *p;
    const cJSON *base = cJSON_GetArrayItem(pts, 0);
    double thr = num(c, "min_efficiency"), prev = 0;
    int flagged = 0;

    assert_int_equal(cJSON_GetArraySize(pts), 2);
    assert_true(num(c, "base") == num(base, "value"));
    cJSON_ArrayForEach(p, pts) {
        const cJSON *cs = it_case_of(doc, it_str_of(p, "case"));
        double v = num(p, "value"), s = num(p, "speedup"), e = num(p, "efficiency");

        assert_true(v > prev);
        prev = v;
        assert_true(num(it_member(cs, "params"), "threads") == v);
        assert_string_equal(it_str_of(p, "status"), "ok");
        near(num(p, "median_ns"), num(it_member(cs, "summary"), "median"), "median");
        if (throughput)
            near(s, num(p, "rate") / num(base, "rate"), "speedup = R(p) / R(p0)");
        else
            near(s * num(p, "median_ns"), num(base, "median_ns"), "speedup x T(p) = T(p0)");
        near(e, s * num(c, "base") / v, "efficiency = speedup p0 / p");
        near(num(p, "ideal_speedup"), v / num(c, "base"), "ideal");
        assert_true(num(p, "speedup_lo") <= s && s <= num(p, "speedup_hi"));
        assert_int_equal(cJSON_IsTrue(it_member(p, "below_threshold")), e < thr);
        flagged += e < thr;
    }
    assert_true(num(base, "speedup") == 1 && num(base, "efficiency") == 1);
    assert_int_equal((int)num(c, "flagged"), flagged);
}

static void test_strong_curve(void **state)
{
    const cJSON *c = curve("tensor/stream.triad[elements=4096]");

    (void)state;
    assert_int_equal(cJSON_GetArraySize(it_member(doc, "scaling")), 2);
    assert_string_equal(it_str_of(c, "suite"), "triad-strong");
    assert_string_equal(it_str_of(c, "axis"), "threads");
    assert_string_equal(it_str_of(c, "mode"), "strong");
    assert_true(num(c, "min_efficiency") == atof(THRESHOLD));
    check_points(c, 0);
}

static void test_throughput_curve(void **state)
{
    const cJSON *c = curve("tensor/stream.triad[elements=2048]");

    (void)state;
    assert_string_equal(it_str_of(c, "mode"), "throughput");
    assert_true(num(c, "min_efficiency") == 0.8); /* the default */
    assert_non_null(it_str_of(c, "rate"));
    check_points(c, 1);
}

static void test_reports(void **state)
{
    const char *md[] = {"report", NULL, "--markdown", NULL, NULL};
    const char *con[] = {"report", NULL, NULL};
    char *html = NULL, *text = NULL;
    tp_proc p;

    (void)state;
    html = tp_slurp(it_path("r.html"));
    it_assert_has(html, "<section id=\"scaling\">");
    it_assert_has(html, "aria-label=\"speedup of tensor/stream.triad[elements=4096]");
    it_assert_has(html, "aria-label=\"efficiency of tensor/stream.triad[elements=4096]");
    it_assert_has(html, "<polyline class=\"measured\"");
    it_assert_has(html, "<polyline class=\"ideal\"");
    it_assert_has(html, "<line class=\"threshold\"");
    free(html);
    con[1] = it_path("r.json");
    it_run(&p, con);
    it_expect_code(&p, 0);
    it_assert_has(p.out, "scaling (speedup and parallel efficiency");
    it_assert_has(p.out, "tensor/stream.triad[elements=2048]: threads, throughput scaling");
    tp_proc_free(&p);
    md[1] = it_path("r.json");
    md[3] = it_path("r.md");
    it_run(&p, md);
    it_expect_code(&p, 0);
    tp_proc_free(&p);
    text = tp_slurp(it_path("r.md"));
    it_assert_has(text, "### Scaling");
    it_assert_has(text, "| threads | median | speedup | 95% CI | efficiency | 95% CI | flag |");
    free(text);
}

static void test_reader_checks_flags(void **state)
{
    cJSON *bad = cJSON_Duplicate(doc, 1);
    cJSON *pt = cJSON_GetArrayItem(
        cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(bad, "scaling"), 0), "points"),
        1);
    const char *args[] = {"report", NULL, NULL};
    char *text;
    tp_proc p;

    (void)state;
    cJSON_ReplaceItemInObject(
        pt, "below_threshold",
        cJSON_CreateBool(!cJSON_IsTrue(cJSON_GetObjectItem(pt, "below_threshold"))));
    text = cJSON_Print(bad);
    it_write(it_path("bad.json"), text);
    free(text);
    cJSON_Delete(bad);
    args[1] = it_path("bad.json");
    it_run(&p, args);
    it_expect_code(&p, 4);
    it_assert_has(p.err, "bad.json: scaling[0].points[1].below_threshold: expected efficiency < "
                         "min_efficiency");
    tp_proc_free(&p);
}

static void test_config_error(void **state)
{
    const char *args[] = {"validate", NULL, NULL};
    tp_proc p;

    (void)state;
    it_write(it_path("bad.yaml"), "schema: 1\nsuites:\n  - plugin: tensor\n"
                                  "    include: [stream.triad]\n"
                                  "    params: {threads: [1, 2]}\n"
                                  "    scaling: [{axis: thread}]\n");
    args[1] = it_path("bad.yaml");
    it_run(&p, args);
    it_expect_code(&p, 3);
    it_assert_has(p.err, "bad.yaml:6:22: suites[0].scaling[0].axis: expected a parameter swept "
                         "in the suite's params (one of: threads), got 'thread'");
    assert_int_equal(it_count_lines(p.err), 1);
    tp_proc_free(&p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_strong_curve), cmocka_unit_test(test_throughput_curve),
        cmocka_unit_test(test_reports),      cmocka_unit_test(test_reader_checks_flags),
        cmocka_unit_test(test_config_error),
    };

    return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
