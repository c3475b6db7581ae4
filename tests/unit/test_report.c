// SPDX-License-Identifier: MIT
/* Unit tests for host/report: unit formatting, the console table, escaping
 * and every export format, on a small result document written inline. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "bh_fs.h"
#include "bh_mem.h"
#include "compare_console.h"
#include "console.h"
#include "html.h"
#include "report.h"
#include "result_view.h"
#include "report_text.h"
#include "result_read.h"
#include "units.h"
#include "verdict.h"

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- units ------------------------------------------------------------ */

static void expect_time(double ns, const char *want)
{
    char buf[64];

    bh_fmt_time(ns, buf, sizeof(buf));
    if (strcmp(buf, want) != 0)
        fail_msg("bh_fmt_time(%g) = '%s', expected '%s'", ns, buf, want);
}

static void expect_rate(double v, const char *unit, const char *want)
{
    char buf[64];

    bh_fmt_rate(v, unit, buf, sizeof(buf));
    if (strcmp(buf, want) != 0)
        fail_msg("bh_fmt_rate(%g, %s) = '%s', expected '%s'", v, unit, buf,
                 want);
}

static void expect_pct(double v, const char *want)
{
    char buf[64];

    bh_fmt_pct(v, buf, sizeof(buf));
    if (strcmp(buf, want) != 0)
        fail_msg("bh_fmt_pct(%g) = '%s', expected '%s'", v, buf, want);
}

static void test_fmt_time(void **state)
{
    (void)state;
    expect_time(0.5, "500 ps");
    expect_time(0.812, "812 ps");
    expect_time(1, "1.00 ns");
    expect_time(12.3, "12.3 ns");
    expect_time(999, "999 ns");
    expect_time(1000, "1.00 us");
    expect_time(4560, "4.56 us");
    expect_time(45600, "45.6 us");
    expect_time(7.89e6, "7.89 ms");
    expect_time(1.23e9, "1.23 s");
    expect_time(123e9, "123 s");
    expect_time(NAN, "-");
    expect_time(INFINITY, "-");
}

static void test_fmt_rate(void **state)
{
    (void)state;
    expect_rate(1.5e11, "FLOP/s", "150 GFLOP/s");
    expect_rate(2.53e10, "B/s", "25.3 GB/s");
    expect_rate(999, "items/s", "999 items/s");
    expect_rate(1000, "items/s", "1.00 kitems/s");
    expect_rate(4.2e6, "tokens/s", "4.20 Mtokens/s");
    expect_rate(7.5e12, "FLOP/s", "7.50 TFLOP/s");
    expect_rate(NAN, "B/s", "-");
}

static void test_fmt_pct(void **state)
{
    (void)state;
    expect_pct(0.0321, "3.21%");
    expect_pct(0, "0.00%");
    expect_pct(1.5, "150.00%");
    expect_pct(NAN, "-");
}

/* "three significant digits": values that round up across a unit or a
 * digit boundary must be rescaled. */
static void test_fmt_rounding_boundaries(void **state)
{
    (void)state;
    /* Regression: sig3() once picked the precision before rounding, so 999.7 ns printed
     * "1000 ns" (should be "1.00 us"), 9.996 ns prints "10.00 ns" (should
     * be "10.0 ns") and 999.95 GFLOP/s prints "1000 GFLOP/s". */
    expect_time(999.7, "1.00 us");
    expect_time(9.996, "10.0 ns");
    expect_time(0.9996, "1.00 ns");
    expect_rate(999.95e9, "FLOP/s", "1.00 TFLOP/s");
}

/* ---- a result document with every kind of case ------------------------ */

/* Turns the JSON written as macro arguments into a C string. */
#define J(...) #__VA_ARGS__

static const char fixture[] = J({
    "schema": "bhost.result/1",
    "run": {"config": {"name": "fx", "path": "cfg/fx.yaml", "hash": "h1"},
            "started_at": "2026-01-01T00:00:00Z", "duration_s": 2.5,
            "host_version": "0.1.0", "seed": "0x1", "complete": true},
    "system": {"hostname": "box", "cpu": {"logical_cores": 4},
               "caches": [{"level": 1, "type": "data", "size_bytes": 32768, "count": 4}]},
    "cases": [
      {"id": "fx/memcpy[bytes=1]@cpu:0", "plugin": "fx", "benchmark": "memcpy",
       "params": {"bytes": 1}, "backend": "cpu", "device": 0, "status": "ok",
       "runs": [{"index": 0, "status": "ok", "samples": [[10, 1000], [10, 1200], [10, 1100]],
                 "wall_ns": 1000000000, "bytes_per_iter": 64},
                {"index": 1, "status": "ok", "samples": [[10, 1300], [10, 1000]],
                 "wall_ns": 500000000, "bytes_per_iter": 64}],
       "summary": {"median": 110.25, "median_ci_lo": 100, "median_ci_hi": 120.25,
                   "median_ci_level": 0.99, "runs": 2, "n": 5, "cv": 0.1,
                   "between_run_cv": 0.0321, "q1": 100, "q3": 120, "p5": 90, "p95": 130},
       "throughput": {"bytes_per_s": 579185520.36199093},
       "roofline": {"fraction": 0.5, "bound": "memory", "attainable": 1.2e9, "unit": "B/s"},
       "metrics": {},
       "verdict": {"verdict": "regressed", "severity": "critical", "metrics": [
         {"metric": "time", "unit": "ns/iter", "direction": "lower", "verdict": "regressed",
          "severity": "critical", "change": 0.12, "change_lo": 0.1, "change_hi": null,
          "p": 0.001, "q": 0.002, "baseline": {"median": 98.4375},
          "candidate": {"median": 110.25}, "thresholds": {"noise_floor": 0.01}}]}},
      {"id": "fx/memcpy[bytes=1]@cuda:0", "plugin": "fx", "benchmark": "memcpy",
       "params": {"bytes": 1}, "backend": "cuda", "device": 0, "status": "ok",
       "runs": [{"index": 0, "status": "ok", "samples": [[10, 500], [10, 600]]}],
       "summary": {"median": 55, "median_ci_lo": 50, "median_ci_hi": 60, "runs": 1, "n": 2,
                   "cv": 0.05},
       "metrics": {},
       "verdict": {"verdict": "improved", "change": -0.2, "lo": -0.25, "hi": -0.15}},
      {"id": "fx/crash", "plugin": "fx", "benchmark": "crash", "params": {},
       "status": "crashed", "message": "killed by SIGSEGV <x> & \"q\"",
       "runs": [{"index": 0, "status": "crashed", "samples": [], "log":
         "line01\nline02\nline03\nline04\nline05\nline06\nline07\nline08\nline09\nline10\nline11\nline12\nline13\nline14\nline15\nline16\nline17\nline18\nline19\nline20\n"}],
       "summary": null, "verdict": null},
      {"id": "fx/skip", "plugin": "fx", "benchmark": "skip", "params": {},
       "status": "skipped", "message": "not here, sorry", "runs": [], "summary": null,
       "verdict": null},
      {"id": "fx/llm[model=a,b]", "plugin": "fx", "benchmark": "llm",
       "params": {"model": "a,b"}, "status": "ok",
       "runs": [{"index": 0, "status": "ok", "samples": [[1, 2000], [1, 2200]]},
                {"index": 1, "status": "ok", "samples": [[1, 2100], [1, 2300]]},
                {"index": 2, "status": "failed", "samples": []}],
       "summary": {"median": 2150, "median_ci_lo": 2000, "median_ci_hi": 2300, "runs": 2,
                   "n": 4, "cv": 0.06, "between_run_cv": 0.04},
       "metrics": {"tokens_per_s": {"unit": "tokens/s", "direction": "higher",
                                     "values": [1000, 1200, 1100]}},
       "verdict": {"verdict": "regressed", "severity": "warning", "metrics": [
         {"metric": "time", "verdict": "no change", "change": 0.001, "change_lo": -0.01,
          "change_hi": 0.01},
         {"metric": "tokens_per_s", "unit": "tokens/s", "direction": "higher",
          "verdict": "regressed", "severity": "warning", "change": -0.05,
          "change_lo": -0.07, "change_hi": -0.03, "q": 0.01}]}}
    ]
});

static cJSON *load_fixture(void)
{
    cJSON *doc = cJSON_Parse(fixture);
    bh_error e = {""};

    if (!doc)
        fail_msg("fixture is not JSON near: %.40s", cJSON_GetErrorPtr());
    if (bh_result_validate(doc, "fixture", &e) != 0)
        fail_msg("%s", e.msg);
    return doc;
}

static void assert_has(const char *hay, const char *needle)
{
    if (!hay || !strstr(hay, needle))
        fail_msg("'%s' lacks '%s'", hay ? hay : "(null)", needle);
}

/* Not inlined, for count_of()'s reason below. */
__attribute__((noinline)) static void assert_before(const char *hay, const char *a,
                                                  const char *b)
{
    const char *pa = strstr(hay, a), *pb = strstr(hay, b);

    if (!pa || !pb || pa >= pb)
        fail_msg("expected '%s' before '%s'", a, b);
}

/* How many times needle occurs in hay. Not inlined: gcc 12 at -O3 takes
 * hay for a dangling open_memstream buffer (-Wdangling-pointer). */
__attribute__((noinline)) static size_t count_of(const char *hay, const char *needle)
{
    size_t n = 0;

    for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle))
        n++;
    return n;
}

/* The line of text that starts with prefix, or NULL (free() it). */
static char *line_starting(const char *text, const char *prefix)
{
    const char *p = text;

    while (p && *p) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) : strlen(p);

        if (strncmp(p, prefix, strlen(prefix)) == 0)
            return bh_xstrndup(p, n);
        p = nl ? nl + 1 : NULL;
    }
    return NULL;
}

static char *render(bh_report_format f, const cJSON *doc)
{
    bh_strbuf b = BH_STRBUF_INIT;

    bh_report_render(f, doc, NULL, &b);
    return bh_strbuf_detach(&b);
}

/* ---- the view of the fixture, as the formats read it ------------------ */

static void test_rows(void **state)
{
    cJSON *doc = load_fixture();
    bh_result_view v;
    const bh_rv_case *r;

    (void)state;
    bh_result_view_load(doc, &v);
    assert_int_equal(v.n_cases, 5);
    assert_int_equal(v.n_verdicts, 3);
    assert_int_equal(v.n_roofline, 1);
    r = &v.cases[0];
    assert_string_equal(r->group, "fx/memcpy");
    assert_string_equal(r->rest, "[bytes=1]@cpu:0");
    assert_string_equal(r->op, "fx/memcpy[bytes=1]");
    assert_string_equal(r->at, "@cpu:0");
    assert_true(r->head != NULL);
    assert_true(r->head->hi == INFINITY); /* null end: unbounded */
    assert_true(r->head->change == 0.12);
    assert_string_equal(r->rate_unit, "B/s");
    assert_true(fabs(r->wall_s - 1.5) < 1e-12);
    /* a flat verdict object */
    r = &v.cases[1];
    assert_string_equal(r->verdict, "improved");
    assert_true(r->head && r->head->lo == -0.25 && r->head->hi == -0.15);
    /* the headline comes from the metric with the headline verdict */
    r = &v.cases[4];
    assert_string_equal(r->head->metric, "tokens_per_s");
    assert_true(r->head->higher_better);
    assert_string_equal(r->rate_unit, "tokens/s");
    assert_true(r->rate == 1100);
    assert_string_equal(r->at, "");
    assert_string_equal(r->op, r->id);
    assert_false(v.cases[2].summary.present);
    assert_int_equal(bh_rv_verdict_rank("regressed", "critical"), 0);
    assert_int_equal(bh_rv_verdict_rank("improved", NULL), 3);
    assert_int_equal(bh_rv_verdict_rank("noisier", NULL), 9);
    assert_int_equal(bh_rv_verdict_rank(NULL, NULL), 10);
    bh_result_view_free(&v);
    cJSON_Delete(doc);
}

/* ---- console ---------------------------------------------------------- */

static char *console(const cJSON *doc, int color, int verbose)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    bh_report_console_opts o = {color, verbose};

    assert_non_null(f);
    bh_report_console(f, doc, &o);
    fclose(f);
    return text;
}

static void test_console_table(void **state)
{
    cJSON *doc = load_fixture();
    char *out = console(doc, 0, 0);
    char *row;

    (void)state;
    assert_null(strchr(out, '\033'));
    row = line_starting(out, "case");
    assert_non_null(row);
    assert_has(row, "median");
    assert_has(row, "95% CI");
    assert_has(row, "throughput");
    assert_has(row, "roofline");
    assert_has(row, "verdict");
    free(row);
    /* grouped: a group line, then the rest of each id indented */
    assert_has(out, "\nfx/memcpy\n  [bytes=1]@cpu:0 ");
    row = line_starting(out, "  [bytes=1]@cpu:0");
    assert_non_null(row);
    assert_has(row, " ok ");
    /* the median of the run medians (110 and 115 ns), not the median of
       all samples (110.25); two runs give no 95% interval of it */
    assert_has(row, "112 ns  -  ");
    assert_null(strstr(row, "[100 ns"));
    assert_has(row, "3.21%  ");
    assert_null(strstr(row, "noisy"));
    assert_has(row, "579 MB/s");
    assert_has(row, "50% mem");
    assert_has(row, "regressed (critical) +12.0%");
    free(row);
    row = line_starting(out, "  [bytes=1]@cuda:0");
    assert_has(row, "improved -20.0%");
    free(row);
    /* a group of one case stays on one line */
    row = line_starting(out, "fx/llm[model=a,b] ");
    assert_non_null(row);
    assert_has(row, "1.10 ktokens/s");
    assert_has(row, "regressed (warning) -5.0%");
    free(row);
    row = line_starting(out, "fx/crash ");
    assert_has(row, "crashed");
    free(row);
    assert_has(out, "  fx/crash: crashed: killed by SIGSEGV <x> & \"q\"\n");
    /* a skipped case is no row of the table, but a grouped reason line */
    assert_null(line_starting(out, "fx/skip "));
    assert_has(out, "skipped 1 case fx/skip: not here, sorry\n");
    assert_has(out, "5 cases: 3 ok 1 skipped 1 crashed\n");
    /* the legend under the table: per what, at what confidence */
    assert_has(out, "\nmedian: median of the run medians, time per iteration; 95% CI: ");
    assert_before(out, "  [bytes=1]@cuda:0", "\nmedian: median of the run medians");
    assert_null(strstr(out, "line20")); /* logs only with verbose */
    free(out);

    out = console(doc, 1, 0);
    assert_has(out, "\033[31mregressed (critical) +12.0%\033[0m");
    assert_has(out, "\033[32mimproved -20.0%");
    assert_has(out, "\033[31mcrashed");
    assert_has(out, "\033[33mskipped");
    free(out);
    cJSON_Delete(doc);
}

/* Three inconclusive verdicts, one per reading (docs/statistics.md
 * section 11.6): too few runs (3 runs a side against 38 tests, noisy),
 * no change detected (6 runs, a 95% interval of the median, above its
 * ceiling) and undecided (one run, latency-bound). */
static cJSON *readings_doc(void)
{
    return cJSON_Parse(J({"schema": "bhost.result/1", "run": {},
        "comparison": {"fdr": 0.05, "family": 38, "confidence": 0.95},
        "cases": [
        {"id": "a/few", "plugin": "a", "benchmark": "few", "status": "ok",
         "runs": [{"index": 0, "status": "ok", "samples": [[1, 100]]},
                  {"index": 1, "status": "ok", "samples": [[1, 130]]},
                  {"index": 2, "status": "ok", "samples": [[1, 120]]}],
         "summary": {"median": 120, "runs": 3, "n": 3, "cv": 0.1, "between_run_cv": 0.4,
                     "flags": ["high_cv", "too_few"]},
         "verdict": {"verdict": "inconclusive", "metrics": [
           {"metric": "time", "verdict": "inconclusive", "change": -0.509, "change_lo": -1,
            "change_hi": null, "confidence": 0.95, "p": 0.4, "q": 0.85, "mde": 3.2,
            "runs_needed": 2877, "baseline": {"n": 3, "median": 240},
            "candidate": {"n": 3, "median": 120},
            "reason": "too few runs: at this number of runs the test cannot reach its significance level"}]}},
        {"id": "a/same", "plugin": "a", "benchmark": "same", "status": "ok",
         "runs": [{"index": 0, "status": "ok", "samples": [[1, 100]]},
                  {"index": 1, "status": "ok", "samples": [[1, 104]]},
                  {"index": 2, "status": "ok", "samples": [[1, 96]]},
                  {"index": 3, "status": "ok", "samples": [[1, 101]]},
                  {"index": 4, "status": "ok", "samples": [[1, 99]]},
                  {"index": 5, "status": "ok", "samples": [[1, 103]]}],
         "summary": {"median": 100.2, "runs": 6, "n": 6, "cv": 0.03, "between_run_cv": 0.03,
                     "flags": []},
         "roofline": {"fraction": 1.131, "bound": "memory", "level": "L1",
                      "memory_ceiling": "L1 read x1", "above_ceiling": true,
                      "attainable": 3.5e11, "unit": "B/s"},
         "verdict": {"verdict": "inconclusive", "metrics": [
           {"metric": "time", "verdict": "inconclusive", "change": 0.01, "change_lo": -0.15,
            "change_hi": 0.18, "confidence": 0.95, "p": 0.8, "q": 0.9, "mde": 0.412,
            "runs_needed": 900, "baseline": {"n": 10, "median": 99},
            "candidate": {"n": 10, "median": 100},
            "reason": "not significant, and the interval rules out a change as large as the minimum detectable effect"}]}},
        {"id": "a/open", "plugin": "a", "benchmark": "open", "status": "ok",
         "runs": [{"index": 0, "status": "ok", "samples": [[1, 100]]}],
         "summary": {"median": 100, "runs": 1, "n": 1, "cv": 0.01},
         "roofline": {"fraction": 0.03, "bound": "latency", "attainable": 1e9, "unit": "B/s"},
         "verdict": {"verdict": "inconclusive", "metrics": [
           {"metric": "time", "verdict": "inconclusive", "change": 0.05, "change_lo": -0.01,
            "change_hi": 0.6, "confidence": 0.95, "p": 0.3, "q": 0.6, "mde": 0.3,
            "baseline": {"n": 10, "median": 95}, "candidate": {"n": 10, "median": 100},
            "reason": "not significant, and too few runs to rule out a change beyond the noise floor"}]}}]}));
}

/* The verdict column in words (docs/statistics.md section 11.6), the
 * noisy mark, the 95% interval of the median of the run medians, the
 * roofline's ceiling and the above-ceiling flag; -v prints each verdict's
 * reason and the ceiling's name and level. */
static void test_console_readings(void **state)
{
    cJSON *doc = readings_doc();
    char *out, *row;

    (void)state;
    assert_non_null(doc);
    out = console(doc, 0, 0);
    /* 3 a side against 38 tests: the exact test reaches 0.05/38 at 7 */
    row = line_starting(out, "a/few ");
    assert_has(row, "120 ns  -  ");
    assert_has(row, "40.00% noisy");
    assert_has(row, "too few runs to judge (3 a side, 7 needed)");
    assert_null(strstr(row, "inconclusive"));
    assert_null(strstr(row, "-50.9%"));
    free(row);
    /* six runs reach a 95% interval of the median: [x(1), x(6)] */
    row = line_starting(out, "a/same ");
    assert_has(row, "100 ns  [96.0 ns, 104 ns]");
    assert_has(row, "3.00%  ");
    assert_null(strstr(row, "noisy"));
    assert_has(row, "113% mem above");
    assert_has(row, "no change detected (MDE 41.2%)");
    free(row);
    row = line_starting(out, "a/open ");
    assert_has(row, "3% latency");
    assert_has(row, "inconclusive +5.0%");
    free(row);
    assert_has(out, "  a/same: warning: 113% of L1 read x1: above its ceiling: check the "
                    "bytes/FLOP accounting or the ceiling\n");
    assert_int_equal(count_of(out, "above its ceiling"), 1);
    free(out);
    out = console(doc, 1, 0);
    assert_has(out, "\033[33m113% mem above");
    assert_has(out, "\033[33mnoisy");
    free(out);
    /* -v: the reasons and the ceiling with its level */
    out = console(doc, 0, 1);
    assert_has(out, "  time: inconclusive -50.9%, MDE 320.0%: too few runs: at this number "
                    "of runs the test cannot reach its significance level\n");
    assert_has(out, "  time: inconclusive [-15.0% +1.0% +18.0%] (95% CI), MDE 41.2%: not "
                    "significant, and the interval rules out a change as large as the minimum "
                    "detectable effect\n");
    assert_has(out, "  roofline: 113.1% of L1 read x1, memory-bound, working set in L1; above "
                    "its ceiling: check the bytes/FLOP accounting or the ceiling\n");
    assert_has(out, "  roofline: 3.0% of its ceiling, latency-bound\n");
    free(out);
    cJSON_Delete(doc);
}

/* The comparison lines: the interval labelled with its level, each
 * verdict's reason, "too few runs to judge" with the estimate and no
 * interval, and the readings counted in the summary line. */
static void test_compare_console_readings(void **state)
{
    double b3[3] = {100, 103, 98}, c3[3] = {101, 104, 97};
    double b10[10], c10[10];
    bh_regress_config cfg;
    bh_regress_report r;
    char *text = NULL;
    size_t len = 0;
    FILE *f;

    (void)state;
    /* the readings are told apart by these exact reasons in documents */
    assert_string_equal(BH_REGRESS_REASON_TOO_FEW, "too few runs: at this number of runs the "
                                                   "test cannot reach its significance level");
    assert_string_equal(BH_REGRESS_REASON_UNDETECTED,
                        "not significant, and the interval rules out a change as large as "
                        "the minimum detectable effect");
    for (int i = 0; i < 10; i++) {
        b10[i] = 100.0 + i;
        c10[i] = 120.0 + i;
    }
    bh_regress_config_default(&cfg);
    memset(&r, 0, sizeof(r));
    bh_regress_report_add_values(&r, &cfg, "x/few", "time", 1, b3, 3, c3, 3);
    bh_regress_report_add_values(&r, &cfg, "x/slow", "time", 1, b10, 10, c10, 10);
    bh_regress_finalize(&r, &cfg);
    f = open_memstream(&text, &len);
    assert_non_null(f);
    bh_compare_print(f, &r, 0, 0);
    bh_compare_print_summary(f, &r);
    fclose(f);
    /* two tests: the exact test reaches 0.05/2 at 5 a side */
    assert_has(text, "x/few\n  time: 100 ns -> 101 ns (3 vs 3 runs)\n"
                     "    change: +1.0% (p=1.0000, q=1.0000) too few runs to judge "
                     "(3 a side, 5 needed)\n      why: " BH_REGRESS_REASON_TOO_FEW "\n");
    assert_has(text, "    change: [+");
    assert_has(text, "] (95% CI, p=");
    assert_has(text, "regressed (critical)\n      why: significant, and the whole interval is "
                     "beyond the noise floor\n");
    assert_has(text, "1 inconclusive (1 too few runs to judge, 0 no change detected, 0 "
                     "undecided)");
    free(text);
    bh_regress_report_free(&r);
}

/* Skips are one line per status and reason, with the count and a glob
 * over the ids, in order of first appearance; failures stay per case. */
static void test_console_skips_grouped(void **state)
{
    cJSON *doc = cJSON_Parse(J({"schema": "bhost.result/1", "run": {}, "cases": [
        {"id": "a/b[n=1]@vulkan", "plugin": "a", "status": "skipped", "message": "no vk"},
        {"id": "tok/encode[vocab=gpt2]", "plugin": "tok", "status": "skipped",
         "message": "vocab missing"},
        {"id": "a/b[n=2]@vulkan", "plugin": "a", "status": "skipped", "message": "no vk"},
        {"id": "c/d@vulkan", "plugin": "c", "status": "skipped", "message": "no vk"},
        {"id": "tok/encode[vocab=bert]", "plugin": "tok", "status": "skipped",
         "message": "vocab missing"},
        {"id": "tok/decode", "plugin": "tok", "status": "unsupported", "message": "vocab missing"},
        {"id": "e/f", "plugin": "e", "status": "failed", "message": "boom"},
        {"id": "e/g", "plugin": "e", "status": "failed", "message": "boom"}]}));
    char *out = console(doc, 0, 0);

    (void)state;
    assert_has(out, "skipped 3 cases *@vulkan: no vk\n");
    assert_has(out, "skipped 2 cases tok/encode[*: vocab missing\n");
    assert_has(out, "unsupported 1 case tok/decode: vocab missing\n");
    assert_before(out, "*@vulkan: no vk", "tok/encode[*");
    assert_int_equal(count_of(out, "no vk"), 1);
    assert_null(line_starting(out, "a/b"));
    assert_null(line_starting(out, "tok/encode"));
    /* failures keep a row and a line each */
    assert_has(out, "  e/f: failed: boom\n");
    assert_has(out, "  e/g: failed: boom\n");
    assert_has(out, "8 cases: 5 skipped 1 unsupported 2 failed\n");
    free(out);
    /* verbose lists every case again */
    out = console(doc, 0, 1);
    assert_has(out, "  a/b[n=1]@vulkan: skipped: no vk\n");
    assert_null(strstr(out, "skipped 3 cases"));
    free(out);
    cJSON_Delete(doc);
}

static void test_console_verbose(void **state)
{
    cJSON *doc = load_fixture();
    char *out = console(doc, 0, 1);

    (void)state;
    assert_has(out, "fx/crash: crashed\n");
    assert_has(out, "    run 0: crashed, 0 samples");
    assert_has(out, "      plugin log (last lines):\n      | ...\n      | line09\n");
    assert_has(out, "      | line20\n");
    assert_null(strstr(out, "line08"));
    assert_has(out, "    run 1: ok, 2 samples, median 115 ns");
    /* ok runs show no log */
    assert_int_equal(count_of(out, "plugin log"), 1);
    free(out);
    cJSON_Delete(doc);
}

/* Plugin metrics: one line under the row, the median over runs with its
 * unit; a metric already shown as the throughput is not repeated. */
static void test_console_metrics(void **state)
{
    cJSON *doc = cJSON_Parse(J({"schema": "bhost.result/1", "run": {}, "cases": [
        {"id": "w/k[m=64]", "plugin": "w", "benchmark": "k", "status": "ok",
         "summary": {"median": 100, "median_ci_lo": 90, "median_ci_hi": 110, "runs": 3,
                     "n": 3, "cv": 0.01},
         "metrics": {"ratio_to_native": {"unit": "x", "direction": "lower",
                                         "values": [1.5, 1.25, 2]},
                     "err": {"unit": "", "direction": "lower", "values": [0.001]},
                     "rate": {"unit": "tokens/s", "direction": "higher",
                              "values": [10, 30, 20]}}},
        {"id": "w/plain", "plugin": "w", "benchmark": "plain", "status": "ok",
         "summary": {"median": 100, "median_ci_lo": 90, "median_ci_hi": 110, "runs": 3,
                     "n": 3, "cv": 0.01}}]}));
    char *out = console(doc, 0, 0);

    (void)state;
    assert_has(out, "\nw/k[m=64] ");
    assert_has(out, " 20.0 tokens/s");
    assert_has(out, "\n    metrics: ratio_to_native 1.5 x, err 0.001\n");
    assert_int_equal(count_of(out, "metrics:"), 1);
    assert_before(out, "w/k[m=64] ", "metrics: ratio_to_native");
    assert_before(out, "metrics: ratio_to_native", "w/plain ");
    free(out);
    cJSON_Delete(doc);
    /* the fixture's only metric is its row's throughput: no metrics line */
    doc = load_fixture();
    out = console(doc, 0, 0);
    assert_null(strstr(out, "metrics:"));
    free(out);
    cJSON_Delete(doc);
}

static void test_console_empty_and_no_color(void **state)
{
    cJSON *doc = cJSON_Parse(J({"schema": "bhost.result/1", "run": {}, "cases": []}));
    char *out = console(doc, 0, 0);

    (void)state;
    assert_has(out, "0 cases:\n");
    assert_null(strstr(out, "verdict"));
    free(out);
    cJSON_Delete(doc);
    setenv("NO_COLOR", "1", 1);
    assert_false(bh_report_use_color(1));
    unsetenv("NO_COLOR");
    setenv("TERM", "dumb", 1);
    assert_false(bh_report_use_color(1));
}

/* ---- escaping --------------------------------------------------------- */

static char *esc(void (*fn)(bh_strbuf *, const char *), const char *s)
{
    bh_strbuf b = BH_STRBUF_INIT;

    fn(&b, s);
    return bh_strbuf_detach(&b);
}

static void expect_esc(void (*fn)(bh_strbuf *, const char *), const char *in, const char *want)
{
    char *got = esc(fn, in);

    if (strcmp(got, want) != 0)
        fail_msg("escaped '%s' as '%s', expected '%s'", in, got, want);
    free(got);
}

static void test_escaping(void **state)
{
    (void)state;
    expect_esc(bh_report_xml_escape, "a<b>&\"'", "a&lt;b&gt;&amp;&quot;&#39;");
    expect_esc(bh_report_xml_escape, "tab\tnl\ncr\r", "tab\tnl\ncr\r");
    expect_esc(bh_report_xml_escape, "c\x01z", "c\xef\xbf\xbdz");  /* control: U+FFFD */
    expect_esc(bh_report_xml_escape, "b\xffz", "b\xef\xbf\xbdz");  /* invalid UTF-8 */
    expect_esc(bh_report_xml_escape, "\xc3\xbc\xe6\xbc\xa2", "\xc3\xbc\xe6\xbc\xa2");
    expect_esc(bh_report_xml_escape, "\xed\xa0\x80", "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd");
    expect_esc(bh_report_csv_field, "plain", "plain");
    expect_esc(bh_report_csv_field, "a,b", "\"a,b\"");
    expect_esc(bh_report_csv_field, "say \"hi\"", "\"say \"\"hi\"\"\"");
    expect_esc(bh_report_csv_field, "l1\nl2", "\"l1\nl2\"");
    expect_esc(bh_report_md_escape, "a|b<c>&d_e\nf", "a\\|b&lt;c&gt;&amp;d\\_e f");
}

/* ---- Markdown --------------------------------------------------------- */

static void test_markdown(void **state)
{
    cJSON *doc = load_fixture();
    char *md = render(BH_REPORT_MARKDOWN, doc);

    (void)state;
    assert_has(md, "## bhost: fx \xe2\x80\x94 5 cases, 2 regressed (1 critical), 1 improved, "
                   "1 failed\n");
    assert_before(md, "### Regressions (2)", "### Improvements (1)");
    assert_before(md, "### Improvements (1)", "### Not ok (2)");
    assert_before(md, "### Not ok (2)", "<details><summary>All 5 cases</summary>");
    /* critical before warning */
    assert_before(md, "| fx/memcpy[bytes=1]@cpu:0 | time | **+12.0%** | [+10.0%, +inf%] |",
                  "| fx/llm[model=a,b] | tokens\\_per\\_s | **-5.0%** |");
    assert_has(md, "98.4 ns | 110 ns | critical |");
    /* all cases: the median of the run medians (110 and 115 ns), not of
       all samples (110.25), and no 95% interval from two runs */
    assert_has(md, "| fx/memcpy[bytes=1]@cpu:0 | ok | 112 ns | - | 3.21% | 579 MB/s | "
                   "regressed (critical) +12.0% |\n");
    assert_has(md, "| fx/crash | **crashed** | killed by SIGSEGV &lt;x&gt; &amp; \"q\" |");
    assert_null(strstr(md, "<x>"));
    assert_has(md, "\n</details>\n");
    free(md);
    /* without verdicts */
    cJSON_ReplaceItemInObjectCaseSensitive(cJSON_GetArrayItem(
                                               cJSON_GetObjectItem(doc, "cases"), 0),
                                           "verdict", cJSON_CreateNull());
    cJSON_ReplaceItemInObjectCaseSensitive(cJSON_GetArrayItem(
                                               cJSON_GetObjectItem(doc, "cases"), 1),
                                           "verdict", cJSON_CreateNull());
    cJSON_ReplaceItemInObjectCaseSensitive(cJSON_GetArrayItem(
                                               cJSON_GetObjectItem(doc, "cases"), 4),
                                           "verdict", cJSON_CreateNull());
    md = render(BH_REPORT_MARKDOWN, doc);
    assert_has(md, "No baseline comparison in this result.");
    assert_null(strstr(md, "### Regressions"));
    free(md);
    cJSON_Delete(doc);
}

/* The Markdown roofline table names each case's ceiling and flags one
 * above it; a code span holds its text verbatim (CommonMark takes no
 * escapes there), fenced past the backticks it holds. */
static void test_markdown_roofline_code(void **state)
{
    cJSON *doc = load_fixture();
    cJSON *c0 = cJSON_GetArrayItem(cJSON_GetObjectItem(doc, "cases"), 0);
    cJSON *roof = cJSON_GetObjectItem(c0, "roofline");
    char *md = render(BH_REPORT_MARKDOWN, doc);

    (void)state;
    assert_has(md, "config `cfg/fx.yaml` \xc2\xb7");
    assert_has(md, "### Roofline\n\n1 case against 0 ceilings measured in this run, none above "
                   "its ceiling.\n");
    assert_has(md, "| fx/memcpy[bytes=1]@cpu:0 | - | - | 50.0% | memory |  |\n");
    free(md);
    cJSON_ReplaceItemInObjectCaseSensitive(cJSON_GetObjectItem(cJSON_GetObjectItem(doc, "run"),
                                                               "config"),
                                           "path", cJSON_CreateString("cfg/ux_slow`x`.yaml"));
    cJSON_ReplaceItemInObjectCaseSensitive(roof, "fraction", cJSON_CreateNumber(1.3));
    cJSON_AddStringToObject(roof, "level", "L1");
    cJSON_AddStringToObject(roof, "memory_ceiling", "L1 read x1");
    cJSON_AddTrueToObject(roof, "above_ceiling");
    md = render(BH_REPORT_MARKDOWN, doc);
    assert_has(md, "config ``cfg/ux_slow`x`.yaml`` \xc2\xb7");
    assert_null(strstr(md, "ux\\_slow"));
    assert_has(md, "; **1 above its ceiling**: above its ceiling: check the bytes/FLOP "
                   "accounting or the ceiling.\n\n| case | level | ceiling | of ceiling |");
    assert_int_equal(count_of(md, "| fx/memcpy[bytes=1]@cpu:0 | L1 | L1 read x1 | **130.0%** | "
                                  "memory | above its ceiling |\n"),
                     2);
    free(md);
    cJSON_Delete(doc);
}

/* ---- JUnit ------------------------------------------------------------ */

static void test_junit(void **state)
{
    cJSON *doc = load_fixture();
    char *x = render(BH_REPORT_JUNIT, doc);

    (void)state;
    assert_has(x, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites");
    assert_has(x, "<testsuite name=\"fx\" tests=\"5\" failures=\"1\" errors=\"1\" "
                  "skipped=\"1\" time=\"2.500\"");
    assert_has(x, "<testcase classname=\"fx/memcpy\" name=\"fx/memcpy[bytes=1]@cpu:0\" "
                  "time=\"1.500000\">\n      <failure type=\"regression\" "
                  "message=\"regressed (critical): time +12.0% [+10.0%, +inf%], q=0.0020, "
                  "98.4 ns -&gt; 110 ns\">");
    assert_has(x, "<error type=\"crashed\" message=\"crashed: killed by SIGSEGV &lt;x&gt; "
                  "&amp; &quot;q&quot;\">");
    assert_has(x, "<skipped message=\"not here, sorry\"/>");
    /* a warning regression passes */
    assert_int_equal(count_of(x, "<failure"), 1);
    assert_int_equal(count_of(x, "<testcase "), 5);
    assert_int_equal(count_of(x, "</testcase>"), 5);
    assert_null(strstr(x, "<x>"));
    free(x);
    cJSON_Delete(doc);
}

/* ---- CSV -------------------------------------------------------------- */

/* Splits one RFC 4180 record at *p into fields (at most max); advances *p
 * past its CRLF. Returns the number of fields (each a new string). */
static size_t csv_record(const char **p, char **fields, size_t max)
{
    size_t n = 0;
    const char *s = *p;

    while (*s && n < max) {
        bh_strbuf f = BH_STRBUF_INIT;

        if (*s == '"') {
            for (s++; *s; s++) {
                if (*s == '"' && s[1] == '"') {
                    bh_strbuf_append(&f, "\"", 1);
                    s++;
                } else if (*s == '"') {
                    s++;
                    break;
                } else {
                    bh_strbuf_append(&f, s, 1);
                }
            }
        } else {
            size_t k = strcspn(s, ",\r");
            bh_strbuf_append(&f, s, k);
            s += k;
        }
        fields[n++] = bh_strbuf_detach(&f);
        if (*s == ',') {
            s++;
            continue;
        }
        if (s[0] == '\r' && s[1] == '\n')
            s += 2;
        break;
    }
    *p = s;
    return n;
}

static void test_csv(void **state)
{
    cJSON *doc = load_fixture();
    char *csv = render(BH_REPORT_CSV, doc);
    const char *p = csv;
    char *f[32];
    size_t rows = 0, n;
    int seen_time = 0, seen_rate = 0, seen_tokens = 0, seen_crash = 0;

    (void)state;
    n = csv_record(&p, f, 32);
    assert_int_equal(n, 21);
    assert_string_equal(f[0], "id");
    assert_string_equal(f[10], "value");
    for (size_t i = 0; i < n; i++)
        free(f[i]);
    while (*p) {
        n = csv_record(&p, f, 32);
        assert_int_equal(n, 21);
        rows++;
        if (strcmp(f[0], "fx/memcpy[bytes=1]@cpu:0") == 0 && strcmp(f[7], "time") == 0) {
            /* the median of the run medians (110 and 115 ns); two runs
             * bound no 95% interval */
            assert_true(strtod(f[10], NULL) == 112.5);
            assert_string_equal(f[11], "");
            assert_string_equal(f[12], "");
            assert_string_equal(f[14], "regressed");
            assert_true(strtod(f[16], NULL) == 0.12);
            assert_string_equal(f[18], ""); /* unbounded */
            seen_time = 1;
        }
        if (strcmp(f[7], "bytes_per_s") == 0 && strcmp(f[5], "0") == 0 &&
            strcmp(f[4], "cpu") == 0) {
            assert_true(strtod(f[10], NULL) == 579185520.36199093);
            seen_rate = 1;
        }
        if (strcmp(f[7], "tokens_per_s") == 0) {
            assert_string_equal(f[0], "fx/llm[model=a,b]");
            assert_string_equal(f[3], "{\"model\":\"a,b\"}");
            assert_true(strtod(f[10], NULL) == 1100);
            assert_true(strtod(f[11], NULL) == 1000 && strtod(f[12], NULL) == 1200);
            assert_string_equal(f[15], "warning");
            seen_tokens = 1;
        }
        if (strcmp(f[0], "fx/crash") == 0) {
            assert_string_equal(f[7], "");
            assert_string_equal(f[20], "killed by SIGSEGV <x> & \"q\"");
            seen_crash = 1;
        }
        for (size_t i = 0; i < n; i++)
            free(f[i]);
    }
    assert_true(seen_time && seen_rate && seen_tokens && seen_crash);
    assert_int_equal(count_of(csv, "\r\n"), rows + 1);
    free(csv);
    cJSON_Delete(doc);
}

/* ---- Google Benchmark JSON and BMF ------------------------------------ */

static const cJSON *gb_entry(const cJSON *arr, const char *name, int rep)
{
    const cJSON *b;

    cJSON_ArrayForEach(b, arr) {
        const cJSON *ri = cJSON_GetObjectItem(b, "repetition_index");

        if (strcmp(cJSON_GetObjectItem(b, "name")->valuestring, name) == 0 &&
            (rep < 0 || (ri && ri->valuedouble == rep)))
            return b;
    }
    fail_msg("no entry %s", name);
    return NULL;
}

static double num(const cJSON *o, const char *k)
{
    const cJSON *it = cJSON_GetObjectItem(o, k);

    if (!cJSON_IsNumber(it))
        fail_msg("no number '%s'", k);
    return it->valuedouble;
}

static void test_gbench(void **state)
{
    cJSON *doc = load_fixture();
    char *text = render(BH_REPORT_GBENCH, doc);
    cJSON *gb = cJSON_Parse(text);
    const cJSON *arr = cJSON_GetObjectItem(gb, "benchmarks");
    const cJSON *e;
    const char *id = "fx/memcpy[bytes=1]@cpu:0";

    (void)state;
    assert_non_null(gb);
    assert_string_equal(cJSON_GetObjectItem(cJSON_GetObjectItem(gb, "context"), "host_name")
                            ->valuestring,
                        "box");
    /* 2 + 4, 1 + 4, 1, 1, 2 + 4 */
    assert_int_equal(cJSON_GetArraySize(arr), 19);
    e = gb_entry(arr, id, 0);
    assert_string_equal(cJSON_GetObjectItem(e, "run_type")->valuestring, "iteration");
    assert_string_equal(cJSON_GetObjectItem(e, "run_name")->valuestring, id);
    assert_true(num(e, "real_time") == 110 && num(e, "cpu_time") == 110);
    assert_true(num(e, "iterations") == 30 && num(e, "repetitions") == 2);
    assert_true(num(e, "bytes_per_second") == 64 / (110 * 1e-9));
    assert_string_equal(cJSON_GetObjectItem(e, "time_unit")->valuestring, "ns");
    assert_true(num(gb_entry(arr, id, 1), "real_time") == 115);
    e = gb_entry(arr, "fx/memcpy[bytes=1]@cpu:0_mean", -1);
    assert_string_equal(cJSON_GetObjectItem(e, "aggregate_name")->valuestring, "mean");
    assert_true(num(e, "real_time") == 112.5);
    e = gb_entry(arr, "fx/memcpy[bytes=1]@cpu:0_stddev", -1);
    assert_true(fabs(num(e, "real_time") - sqrt(12.5)) < 1e-12);
    e = gb_entry(arr, "fx/memcpy[bytes=1]@cpu:0_cv", -1);
    assert_string_equal(cJSON_GetObjectItem(e, "aggregate_unit")->valuestring, "percentage");
    e = gb_entry(arr, "fx/crash", 0);
    assert_true(cJSON_IsTrue(cJSON_GetObjectItem(e, "error_occurred")));
    assert_string_equal(cJSON_GetObjectItem(e, "error_message")->valuestring,
                        "crashed: killed by SIGSEGV <x> & \"q\"");
    /* the failed run of fx/llm is not a repetition */
    assert_true(num(gb_entry(arr, "fx/llm[model=a,b]", 0), "repetitions") == 2);
    cJSON_Delete(gb);
    free(text);
    cJSON_Delete(doc);
}

static void test_bmf(void **state)
{
    cJSON *doc = load_fixture();
    char *text = render(BH_REPORT_BMF, doc);
    cJSON *bmf = cJSON_Parse(text);
    const cJSON *b, *m;

    (void)state;
    assert_non_null(bmf);
    assert_int_equal(cJSON_GetArraySize(bmf), 3); /* cases with a summary */
    b = cJSON_GetObjectItem(bmf, "fx/memcpy[bytes=1]@cpu:0");
    m = cJSON_GetObjectItem(b, "latency");
    /* the median of the run medians (110 and 115 ns); two runs bound no
     * 95% interval, so BMF gets none */
    assert_true(num(m, "value") == 112.5);
    assert_null(cJSON_GetObjectItem(m, "lower_value"));
    assert_null(cJSON_GetObjectItem(m, "upper_value"));
    assert_true(num(cJSON_GetObjectItem(b, "bytes_per_s"), "value") == 579185520.36199093);
    assert_true(num(cJSON_GetObjectItem(b, "roofline_fraction"), "value") == 0.5);
    m = cJSON_GetObjectItem(cJSON_GetObjectItem(bmf, "fx/llm[model=a,b]"), "tokens_per_s");
    assert_true(num(m, "value") == 1100 && num(m, "lower_value") == 1000 &&
                num(m, "upper_value") == 1200);
    assert_null(cJSON_GetObjectItem(bmf, "fx/crash"));
    cJSON_Delete(bmf);
    free(text);
    cJSON_Delete(doc);
}

/* ---- HTML ------------------------------------------------------------- */

static void test_html(void **state)
{
    cJSON *doc = load_fixture();
    char *h = render(BH_REPORT_HTML, doc);

    (void)state;
    assert_true(strncmp(h, "<!DOCTYPE html>\n", 16) == 0);
    assert_has(h, "Content-Security-Policy");
    /* one inline script, allowed by its hash */
    assert_int_equal(count_of(h, "<script"), 1);
    assert_has(h, "script-src 'sha256-");
    assert_null(strstr(h, "src="));
    assert_null(strstr(h, "<link"));
    assert_null(strstr(h, "<x>"));
    assert_has(h, "killed by SIGSEGV &lt;x&gt; &amp; &quot;q&quot;");
    for (size_t i = 0; i < 6; i++) {
        static const char *const ids[] = {"summary", "changes", "distributions",
                                          "roofline", "backends", "system"};
        char want[64];

        snprintf(want, sizeof(want), "<section id=\"%s\">", ids[i]);
        assert_has(h, want);
    }
    assert_int_equal(count_of(h, "<svg "), count_of(h, "</svg>"));
    /* changes, 3 distribution groups, roofline bars */
    assert_true(count_of(h, "<svg ") >= 5);
    /* the same op on cpu and cuda side by side, cuda the faster */
    assert_has(h, "<th class=\"id\">cpu:0</th><th class=\"id\">cuda:0</th>");
    assert_has(h, "<td class=\"n best\">55.0 ns");
    /* the medians of the run medians: 112.5 ns (110 and 115) against 55 ns,
       not the all-sample 110.25 ns (2x) */
    assert_has(h, "2.05&times; slower");
    assert_int_equal(count_of(h, "<section"), count_of(h, "</section>"));
    free(h);
    cJSON_Delete(doc);
}

/* The row of the HTML summary table of case id, or NULL (free() it). */
static char *html_row(const char *h, const char *id)
{
    char *want = bh_xasprintf("<td class=\"id\">%s</td>", id);
    const char *p = strstr(h, want), *start, *end;

    free(want);
    if (!p)
        return NULL;
    start = p;
    while (start > h && strncmp(start, "<tr ", 4) != 0)
        start--;
    end = strstr(p, "</tr>");
    return end ? bh_xstrndup(start, (size_t)(end - start)) : NULL;
}

/* The HTML and Markdown reports say what the console says: the median of
 * the run medians with its 95% interval, noisy, the roofline's ceiling,
 * the verdict readings in words with the reason, the readings offered by
 * the verdict filter. */
static void test_html_markdown_readings(void **state)
{
    cJSON *doc = readings_doc();
    char *h, *md, *row;

    (void)state;
    assert_non_null(doc);
    h = render(BH_REPORT_HTML, doc);
    assert_has(h, "<th data-sort=\"n\">median</th><th data-sort=\"n\">95% CI</th>");
    assert_null(strstr(h, "99% CI"));
    assert_has(h, "<option>too few runs to judge</option><option>no change detected</option>"
                  "<option>inconclusive</option></select>");
    row = html_row(h, "a/few");
    assert_non_null(row);
    assert_has(row, "data-verdict=\"too few runs to judge\"");
    /* 3 run medians (100, 130, 120): their median, no 95% interval */
    assert_has(row, "<td class=\"n\" data-v=\"120\">120 ns</td><td class=\"n\">-</td>");
    assert_has(row, ">40.00%<div class=\"why warn\">noisy</div></td>");
    assert_has(row, ">too few runs to judge (3 a side, 7 needed)</span><div class=\"why\">"
                    "too few runs: at this number of runs the test cannot reach its "
                    "significance level</div>");
    assert_null(strstr(row, "inconclusive"));
    assert_null(strstr(row, "-50.9%"));
    free(row);
    row = html_row(h, "a/same");
    assert_has(row, "data-verdict=\"no change detected\"");
    /* 6 run medians: median 100.5, 95% interval [x(1), x(6)] */
    assert_has(row, "data-v=\"100.5\">100 ns</td><td class=\"n\" data-v=\"96\">[96.0 ns, "
                    "104 ns]</td><td class=\"n\" data-v=\"0.03\">3.00%</td>");
    assert_has(row, ">113.1% mem<div class=\"why\">of L1 read x1</div><div class=\"why "
                    "warn\">above its ceiling</div></td>");
    assert_has(row, ">no change detected (MDE 41.2%)</span><div class=\"why\">not significant, "
                    "and the interval rules out");
    assert_null(strstr(row, "noisy"));
    free(row);
    row = html_row(h, "a/open");
    assert_has(row, "data-verdict=\"inconclusive\"");
    assert_has(row, ">3.0% lat</td>");
    assert_has(row, ">inconclusive +5.0%</span><div class=\"why\">not significant, and too "
                    "few runs to rule out a change beyond the noise floor</div>");
    free(row);
    /* the distribution labels and the changes chart */
    assert_has(h, ">120 ns  (3 runs: no 95% CI)</text>");
    assert_has(h, ">100 ns  95% CI [96.0 ns, 104 ns]</text>");
    assert_has(h, "(no interval) too few runs to judge (3 a side, 7 needed)</text>");
    assert_has(h, " no change detected (MDE 41.2%)</text>");
    free(h);

    md = render(BH_REPORT_MARKDOWN, doc);
    assert_has(md, "| case | status | median | 95% CI | CV | throughput | verdict |\n");
    assert_has(md, "| a/few | ok | 120 ns | - | 40.00% noisy | - | too few runs to judge (3 a "
                   "side, 7 needed)<br>why: too few runs: at this number of runs the test "
                   "cannot reach its significance level |\n");
    assert_has(md, "| a/same | ok | 100 ns | [96.0 ns, 104 ns] | 3.00% | - | no change "
                   "detected (MDE 41.2%)<br>why: not significant, and the interval rules out a "
                   "change as large as the minimum detectable effect |\n");
    assert_has(md, "| a/open | ok | 100 ns | - | 1.00% | - | inconclusive +5.0%<br>why: not "
                   "significant, and too few runs to rule out a change beyond the noise floor "
                   "|\n");
    assert_has(md, "\nmedian: the median of the run medians, time per iteration; 95% CI: its "
                   "interval from the run medians (- under 6 runs)");
    assert_null(strstr(md, "99% CI"));
    free(md);
    cJSON_Delete(doc);
}

/* Chart labels drop the parameters all rows share and keep the rest
 * whole: f32 and bf16 rows of one optimizer read apart. */
static void test_html_labels(void **state)
{
    const char *ids[] = {"optimizer/step[optimizer=adamw,params=16777216,dtype=f32]",
                         "optimizer/step[optimizer=adamw,params=16777216,dtype=bf16]@cpu:0",
                         "optimizer/step[optimizer=adamw,params=16777216,vocab=bpe,32k]"};
    const char *one[] = {"tensor/matmul[n=64]"};
    char **l;
    char buf[64];

    (void)state;
    l = bh_html_labels(ids, 3, 0);
    assert_string_equal(l[0], "optimizer/step[dtype=f32]");
    assert_string_equal(l[1], "optimizer/step[dtype=bf16]@cpu:0");
    assert_string_equal(l[2], "optimizer/step[vocab=bpe,32k]");
    bh_html_labels_free(l, 3);
    l = bh_html_labels(ids, 2, 1);
    assert_string_equal(l[0], "[dtype=f32]");
    assert_string_equal(l[1], "[dtype=bf16]@cpu:0");
    bh_html_labels_free(l, 2);
    l = bh_html_labels(one, 1, 1);
    assert_string_equal(l[0], "tensor/matmul[n=64]");
    bh_html_labels_free(l, 1);
    /* a label too long for any chart loses its end, never its middle */
    bh_svg_clip("abcdefghij", 6, buf, sizeof(buf));
    assert_string_equal(buf, "abcde\xe2\x80\xa6");
    bh_svg_clip("abc", 6, buf, sizeof(buf));
    assert_string_equal(buf, "abc");
}

/* ---- writing ---------------------------------------------------------- */

static void test_formats_and_paths(void **state)
{
    char *p;

    (void)state;
    assert_int_equal(bh_report_format_parse("markdown"), BH_REPORT_MARKDOWN);
    assert_int_equal(bh_report_format_parse("gbench"), BH_REPORT_GBENCH);
    assert_int_equal(bh_report_format_parse("nope"), -1);
    assert_string_equal(bh_report_format_ext(BH_REPORT_JUNIT), ".xml");
    p = bh_report_sibling_path("results/a/x.json", BH_REPORT_GBENCH);
    assert_string_equal(p, "results/a/x.gbench.json");
    free(p);
    p = bh_report_sibling_path("x", BH_REPORT_MARKDOWN);
    assert_string_equal(p, "x.md");
    free(p);
}

static void test_write_outputs(void **state)
{
    char dir[] = "/tmp/bh_report_XXXXXX";
    char *names[] = {"json", "markdown", "html", "junit", "csv", "gbench", "bmf"};
    static const char *const want[] = {"r.md", "r.html", "r.xml", "r.csv", "r.gbench.json",
                                       "r.bmf.json"};
    cJSON *doc = load_fixture();
    char **written = NULL;
    size_t n_written = 0;
    bh_error e = {""};
    char *result;
    DIR *d;
    struct dirent *de;
    size_t entries = 0;

    (void)state;
    assert_non_null(mkdtemp(dir));
    result = bh_xasprintf("%s/r.json", dir);
    assert_int_equal(bh_report_write_outputs(doc, result, names, 7, NULL, &written,
                                             &n_written, &e),
                     0);
    assert_int_equal(n_written, 6);
    for (size_t i = 0; i < 6; i++) {
        char *path = bh_xasprintf("%s/%s", dir, want[i]);

        assert_string_equal(written[i], path);
        assert_true(bh_is_regular_file(path));
        unlink(path);
        free(path);
        free(written[i]);
    }
    free(written);
    d = opendir(dir);
    while ((de = readdir(d)))
        entries += de->d_name[0] != '.';
    closedir(d);
    assert_int_equal(entries, 0); /* no temporary files left behind */
    rmdir(dir);
    free(result);
    /* a folder that does not exist: an error naming the file */
    written = NULL;
    n_written = 0;
    assert_int_equal(bh_report_write_outputs(doc, "/nonexistent/dir/r.json", names + 1, 1,
                                             NULL, &written, &n_written, &e),
                     -1);
    assert_int_equal(n_written, 0);
    assert_has(e.msg, "/nonexistent/dir/r.md");
    cJSON_Delete(doc);
}
int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fmt_time),
        cmocka_unit_test(test_fmt_rate),
        cmocka_unit_test(test_fmt_pct),
        cmocka_unit_test(test_fmt_rounding_boundaries),
        cmocka_unit_test(test_rows),
        cmocka_unit_test(test_console_table),
        cmocka_unit_test(test_console_readings),
        cmocka_unit_test(test_compare_console_readings),
        cmocka_unit_test(test_console_skips_grouped),
        cmocka_unit_test(test_console_verbose),
        cmocka_unit_test(test_console_metrics),
        cmocka_unit_test(test_console_empty_and_no_color),
        cmocka_unit_test(test_escaping),
        cmocka_unit_test(test_markdown),
        cmocka_unit_test(test_markdown_roofline_code),
        cmocka_unit_test(test_junit),
        cmocka_unit_test(test_csv),
        cmocka_unit_test(test_gbench),
        cmocka_unit_test(test_bmf),
        cmocka_unit_test(test_html),
        cmocka_unit_test(test_html_markdown_readings),
        cmocka_unit_test(test_html_labels),
        cmocka_unit_test(test_formats_and_paths),
        cmocka_unit_test(test_write_outputs),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
