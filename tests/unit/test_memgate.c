// SPDX-License-Identifier: MIT
/* Unit tests for memory and variance in the gate (docs/statistics.md
 * section 11.8): the Brown-Forsythe ratio test behind the noisier verdict
 * (host/regress/variance.c) against known answers and in seeded
 * simulation (false alarms in A/A, at the ratio, with an outlying run;
 * power), the regression.memory and noisier keys, and memory metrics
 * compared from synthetic result documents (memory_compare.c): their own
 * floors, deterministic allocations, old results without per-run figures.
 *
 * Known answers, computed independently in Python with mpmath (40 digits)
 * from the definition, no statistics library:
 *
 *   import math, mpmath
 *   def spread(b, c, r):
 *       lb = [math.log(x) for x in b]; lc = [math.log(x) for x in c]
 *       med = lambda v: (sorted(v)[len(v)//2] if len(v) % 2 else
 *                        (sorted(v)[len(v)//2-1] + sorted(v)[len(v)//2]) / 2)
 *       db = [r*abs(x - med(lb)) for x in lb]; dc = [abs(x - med(lc)) for x in lc]
 *       mv = lambda v: (sum(v)/len(v),
 *                       sum((x - sum(v)/len(v))**2 for x in v)/(len(v)-1))
 *       (mb, vb), (mc, vc) = mv(db), mv(dc); df = len(b) + len(c) - 2
 *       sp2 = ((len(b)-1)*vb + (len(c)-1)*vc)/df
 *       t = (mc - mb)/math.sqrt(sp2*(1/len(b) + 1/len(c)))
 *       p2 = mpmath.betainc(df/2, 0.5, 0, df/(df + t*t), regularized=True)
 *       return t, df, p2/2 if t > 0 else 1 - p2/2
 *
 *   b = 100 102 98 101 99 103 97 100.5, c = 100 112 90 106 93 110 88 104 96
 *   sd of ln b = 0.0200893186951234, of ln c = 0.0873600510244668
 *   ratio 1: t = 3.72730511932018, df 15, one-sided p = 0.00101138372564795
 *   ratio 2: t = 2.48530469646684, df 15, one-sided p = 0.0126132561119145 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "bh_rng.h"
#include "distributions.h"
#include "memory_compare.h"
#include "regress_compare.h"
#include "regress_config.h"
#include "variance.h"
#include "verdict.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const double kat_b[] = {100, 102, 98, 101, 99, 103, 97, 100.5};
static const double kat_c[] = {100, 112, 90, 106, 93, 110, 88, 104, 96};

static void assert_rel(double got, double want, double tol)
{
    if (!(fabs(got - want) <= tol * fabs(want)))
        fail_msg("got %.17g, want %.17g (relative tolerance %g)", got, want, tol);
}

static void test_spread_known_answers(void **state)
{
    bh_regress_spread_stat s;

    (void)state;
    assert_int_equal(bh_regress_spread_test(kat_b, 8, kat_c, 9, 1.0, &s), 0);
    assert_rel(s.sd_base, 0.0200893186951234, 1e-12);
    assert_rel(s.sd_cand, 0.0873600510244668, 1e-12);
    assert_rel(s.t, 3.72730511932018, 1e-12);
    assert_true(s.df == 15);
    assert_rel(s.p, 0.00101138372564795, 1e-9);
    assert_int_equal(bh_regress_spread_test(kat_b, 8, kat_c, 9, 2.0, &s), 0);
    assert_rel(s.t, 2.48530469646684, 1e-12);
    assert_rel(s.p, 0.0126132561119145, 1e-9);
    assert_true(s.ratio == 2.0);
    /* the other way round the candidate is quieter: p near 1 */
    assert_int_equal(bh_regress_spread_test(kat_c, 9, kat_b, 8, 1.0, &s), 0);
    assert_true(s.t < 0 && s.p > 0.99);
}

static void test_spread_edges(void **state)
{
    static const double same[] = {5, 5, 5, 5};
    static const double bad[] = {5, 0, 5, 5};
    static const double nan3[] = {5, NAN, 5};
    bh_regress_spread_stat s;

    (void)state;
    assert_int_equal(bh_regress_spread_test(kat_b, 2, kat_c, 9, 2.0, &s), -1);
    assert_true(isnan(s.p));
    assert_int_equal(bh_regress_spread_test(kat_b, 8, kat_c, 2, 2.0, &s), -1);
    assert_int_equal(bh_regress_spread_test(bad, 4, kat_c, 9, 2.0, &s), -1);
    assert_int_equal(bh_regress_spread_test(kat_b, 8, nan3, 3, 2.0, &s), -1);
    assert_int_equal(bh_regress_spread_test(kat_b, 8, kat_c, 9, 0.5, &s), -1);
    assert_int_equal(bh_regress_spread_test(kat_b, 8, kat_c, 9, INFINITY, &s), -1);
    /* constant on both sides (counted instructions, say): not noisier */
    assert_int_equal(bh_regress_spread_test(same, 4, same, 4, 2.0, &s), 0);
    assert_true(s.p == 1.0 && s.sd_base == 0 && s.sd_cand == 0);
    /* a constant baseline and a varying candidate */
    assert_int_equal(bh_regress_spread_test(same, 4, kat_c, 9, 2.0, &s), 0);
    assert_true(s.p < 0.01);
}

/* n lognormal run values around 100 with sd sigma (of ln values); with
 * probability outlier a value is 8% higher (an outlying run). */
static void draw(bh_rng *g, double *x, size_t n, double sigma, double outlier)
{
    for (size_t i = 0; i < n; i++) {
        x[i] = 100.0 * exp(sigma * bh_rng_normal(g));
        if (outlier > 0 && bh_rng_uniform(g) < outlier)
            x[i] *= 1.08;
    }
}

/* The one-sided F test of var(cand) > ratio^2 var(base) on ln values,
 * for comparison with the Brown-Forsythe test in the simulation. */
static double f_test_p(const double *b, size_t nb, const double *c, size_t nc, double ratio)
{
    bh_regress_spread_stat s;

    bh_regress_spread_test(b, nb, c, nc, 1.0, &s);
    return bh_stats_f_sf(s.sd_cand * s.sd_cand / (s.sd_base * s.sd_base * ratio * ratio),
                         (double)nc - 1, (double)nb - 1);
}

/* The share of trials (of n runs a side) where the test rejects at alpha,
 * the candidate's sd being k times the baseline's (1%), with outlying runs
 * as draw() makes them; *f_rate gets the F test's share. */
static double rate(uint64_t seed, size_t n, double k, double outlier, double ratio, double alpha,
                   int trials, double *f_rate)
{
    bh_rng g;
    double b[30], c[30];
    int hits = 0, f_hits = 0;

    bh_rng_seed(&g, seed);
    for (int t = 0; t < trials; t++) {
        bh_regress_spread_stat s;

        draw(&g, b, n, 0.01, outlier);
        draw(&g, c, n, 0.01 * k, outlier);
        assert_int_equal(bh_regress_spread_test(b, n, c, n, ratio, &s), 0);
        hits += s.p <= alpha;
        f_hits += f_test_p(b, n, c, n, ratio) <= alpha;
    }
    *f_rate = (double)f_hits / trials;
    return (double)hits / trials;
}

/* False alarms and power in seeded simulation, 10 runs a side, ratio 2,
 * one test at level 0.05 (the figures of docs/statistics.md section 11.8
 * are printed). The bounds are the binomial 99% limits around what the
 * test is built to give, not tuned to the draws. */
static void test_spread_simulation(void **state)
{
    const int trials = 4000;
    double f_aa, f_edge, f_out, f_pow;
    double aa = rate(11, 10, 1.0, 0.0, 2.0, 0.05, trials, &f_aa);
    double edge = rate(12, 10, 2.0, 0.0, 2.0, 0.05, trials, &f_edge);
    double out = rate(13, 10, 1.0, 0.1, 2.0, 0.05, trials, &f_out);
    double pow4 = rate(14, 10, 4.0, 0.0, 2.0, 0.05, trials, &f_pow);
    double f_pow6, f_pow20;
    double pow6 = rate(15, 10, 6.0, 0.0, 2.0, 0.05, trials, &f_pow6);
    double pow20 = rate(16, 20, 4.0, 0.0, 2.0, 0.05, trials, &f_pow20);

    (void)state;
    print_message("spread test, 10 runs a side, ratio 2, alpha 0.05, %d trials each:\n"
                  "  A/A: %.4f (F test %.4f); sd x2 (the boundary): %.4f (F %.4f);\n"
                  "  A/A with 10%% outlying runs (+8%%): %.4f (F %.4f); sd x4: %.4f (F %.4f);\n"
                  "  sd x6: %.4f (F %.4f); sd x4 with 20 runs a side: %.4f (F %.4f)\n",
                  trials, aa, f_aa, edge, f_edge, out, f_out, pow4, f_pow, pow6, f_pow6, pow20,
                  f_pow20);
    /* A/A: far below alpha, the ratio is a wide margin */
    assert_true(aa <= 0.005);
    /* at the boundary of H0 the level holds (99% binomial limit of 0.05) */
    assert_true(edge <= 0.05 + 2.576 * sqrt(0.05 * 0.95 / trials));
    /* an outlying run now and then is not a doubled spread */
    assert_true(out <= 0.01);
    /* the test has power: a fourfold spread is found at least five times
       as often as the level, more with more runs or a larger spread */
    assert_true(pow4 >= 0.25);
    assert_true(pow6 > pow4 && pow20 > pow4);
}

/* A/A through the whole verdict path: 300 cases of 10 runs a side in one
 * report, noisier verdicts after BH; P(any noisier) over 200 such
 * comparisons must be at most 5%. */
static void test_spread_aa_suite(void **state)
{
    bh_regress_config cfg;
    bh_rng g;
    int any = 0;

    (void)state;
    bh_regress_config_default(&cfg);
    bh_rng_seed(&g, 0x5eed);
    for (int rep = 0; rep < 200; rep++) {
        bh_regress_report r;

        memset(&r, 0, sizeof(r));
        for (int k = 0; k < 300; k++) {
            double b[10], c[10];
            char id[32];

            snprintf(id, sizeof(id), "case%d", k);
            draw(&g, b, 10, 0.005 + 0.0001 * k, 0.05);
            draw(&g, c, 10, 0.005 + 0.0001 * k, 0.05);
            bh_regress_spread_add(&r, &cfg, id, id, b, 10, c, 10);
        }
        bh_regress_finalize(&r, &cfg);
        assert_int_equal(r.n_spread_tests, 300);
        assert_int_equal(r.m_tests, 0); /* its own family */
        any += r.counts[BH_VERDICT_NOISIER] > 0;
        bh_regress_report_free(&r);
    }
    print_message("A/A, 300 cases x 200 comparisons: %d with a noisier verdict\n", any);
    assert_true(any <= 10);
}

/* A case whose candidate is four times as noisy (deterministic values):
 * noisier, a warning by default, failing the gate with noisier: fail,
 * not tested with noisier: off. */
static void test_noisier_verdict_and_gate(void **state)
{
    static const double b[] = {100, 101, 99, 100.5, 99.5, 100, 101, 99, 100.5, 99.5};
    static const double c[] = {100, 104, 96, 102, 98, 100, 104, 96, 102, 98};
    const char *modes[] = {NULL, "{\"noisier\": \"fail\"}", "{\"noisier\": \"off\"}",
                           "{\"noisier_ratio\": 5}"};

    (void)state;
    for (int m = 0; m < 4; m++) {
        bh_regress_config cfg;
        bh_regress_report r;
        bh_error e = {""};

        if (bh_regress_config_parse(modes[m], NULL, "cfg.yaml", &cfg, &e) != 0)
            fail_msg("%s", e.msg);
        memset(&r, 0, sizeof(r));
        bh_regress_report_add_values(&r, &cfg, "x", BH_REGRESS_TIME, 1, b, 10, c, 10);
        bh_regress_spread_add(&r, &cfg, "x", "x", b, 10, c, 10);
        bh_regress_finalize(&r, &cfg);
        if (m == 2) {
            assert_int_equal(r.n, 1);
        } else {
            const bh_regress_item *it = &r.items[1];

            assert_int_equal(r.n, 2);
            assert_true(it->spread && it->tested);
            assert_string_equal(it->metric, BH_REGRESS_SPREAD);
            assert_rel(it->st.change + 1.0, it->st.cand_center / it->st.base_center, 1e-12);
            assert_int_equal(it->v.kind, m == 3 ? BH_VERDICT_NO_CHANGE : BH_VERDICT_NOISIER);
            assert_false(it->suspect);
            assert_int_equal(r.counts[BH_VERDICT_NOISIER], m == 3 ? 0 : 1);
            assert_int_equal(bh_regress_n_critical(&r), m == 1 ? 1 : 0);
        }
        assert_int_equal(r.m_tests, 1); /* time only */
        bh_regress_report_free(&r);
        bh_regress_config_free(&cfg);
    }
}

/* The regression keys of this feature, and their errors. */
static void test_config_keys(void **state)
{
    static const struct {
        const char *json, *error;
    } bad[] = {
        {"{\"noisier_ratio\": 1}",
         "regression.noisier_ratio: expected a ratio of spreads above 1"},
        {"{\"noisier_ratio\": \"2x\"}", "regression.noisier_ratio: expected a ratio"},
        {"{\"noisier\": \"maybe\"}",
         "regression.noisier: expected warn, fail or off, got 'maybe'"},
        {"{\"memory\": {\"rss_floor\": 2}}", "regression.memory.rss_floor: expected a percentage"},
        {"{\"memory\": {\"alloc_flor\": \"1%\"}}",
         "unknown key 'alloc_flor' (did you mean 'alloc_floor'?)"},
        {"{\"memory\": {\"compare\": 1}}", "regression.memory.compare: expected true or false"},
        {"{\"memory\": 3}", "regression.memory: expected a map"},
    };
    bh_regress_config cfg;
    bh_error e = {""};

    (void)state;
    assert_int_equal(bh_regress_config_parse(NULL, NULL, NULL, &cfg, &e), 0);
    assert_true(cfg.memory == 1 && cfg.rss_floor == 0.10 && cfg.alloc_floor == 0.001);
    assert_true(cfg.noisier_ratio == 2.0 && cfg.noisier == BH_REGRESS_NOISIER_WARN);
    bh_regress_config_free(&cfg);
    assert_int_equal(bh_regress_config_parse("{\"memory\": {\"rss_floor\": \"15%\", "
                                             "\"alloc_floor\": \"1%\", \"compare\": false}, "
                                             "\"noisier_ratio\": 3, \"noisier\": \"fail\"}",
                                             NULL, NULL, &cfg, &e),
                     0);
    assert_true(cfg.memory == 0 && cfg.rss_floor == 0.15 && cfg.alloc_floor == 0.01);
    assert_true(cfg.noisier_ratio == 3.0 && cfg.noisier == BH_REGRESS_NOISIER_FAIL);
    bh_regress_config_free(&cfg);
    for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
        const char *json = bad[i].json;

        e.msg[0] = '\0';
        if (bh_regress_config_parse(json, NULL, "cfg.yaml", &cfg, &e) != -1)
            fail_msg("%s was accepted", json);
        if (!strstr(e.msg, bad[i].error))
            fail_msg("%s: got '%s', want '%s'", json, e.msg, bad[i].error);
        bh_regress_config_free(&cfg);
    }
}

/* A run object with the memory figures rss, bytes and count (count < 0:
 * no alloc object, as in older results). */
static cJSON *make_run(int i, double ns, double rss, double bytes, double count)
{
    cJSON *r = cJSON_CreateObject();
    cJSON *pair = cJSON_CreateArray();

    cJSON_AddNumberToObject(r, "index", i);
    cJSON_AddStringToObject(r, "status", "ok");
    cJSON_AddItemToArray(pair, cJSON_CreateNumber(10));
    cJSON_AddItemToArray(pair, cJSON_CreateNumber(10 * ns));
    cJSON_AddItemToArray(cJSON_AddArrayToObject(r, "samples"), pair);
    if (rss >= 0)
        cJSON_AddNumberToObject(r, "peak_rss_kb", rss);
    if (count >= 0) {
        cJSON *a = cJSON_AddObjectToObject(r, "alloc");

        cJSON_AddNumberToObject(a, "count", count);
        cJSON_AddNumberToObject(a, "bytes", bytes);
        cJSON_AddNumberToObject(a, "peak_bytes", bytes);
    }
    return r;
}

/* A document of one case of 10 runs: time ~100 ns, peak RSS rss x (1 +
 * 2% noise), host-API allocations bytes and count in every run. */
static cJSON *make_doc(double rss, double bytes, double count)
{
    cJSON *d = cJSON_CreateObject();
    cJSON *c = cJSON_CreateObject();
    cJSON *runs;

    cJSON_AddStringToObject(d, "schema", "bhost.result/1");
    cJSON_AddStringToObject(cJSON_AddObjectToObject(cJSON_AddObjectToObject(d, "run"), "config"),
                            "name", "mem");
    cJSON_AddNullToObject(d, "system");
    cJSON_AddStringToObject(c, "id", "p/b");
    cJSON_AddStringToObject(c, "status", "ok");
    cJSON_AddObjectToObject(c, "params");
    runs = cJSON_AddArrayToObject(c, "runs");
    for (int i = 0; i < 10; i++)
        cJSON_AddItemToArray(runs, make_run(i, 100 + (i % 3), rss < 0 ? -1 : rss * (1 + 0.002 * i),
                                            bytes, count));
    cJSON_AddItemToArray(cJSON_AddArrayToObject(d, "cases"), c);
    return d;
}

static const bh_regress_item *item(const bh_regress_report *r, const char *metric)
{
    for (size_t i = 0; i < r->n; i++)
        if (strcmp(r->items[i].metric, metric) == 0)
            return &r->items[i];
    return NULL;
}

static void compare(cJSON *b, cJSON *c, const char *json, bh_regress_report *r)
{
    bh_regress_config cfg;
    bh_error e = {""};

    if (bh_regress_config_parse(json, NULL, "cfg.yaml", &cfg, &e) != 0)
        fail_msg("%s", e.msg);
    bh_regress_compare_docs(b, c, &cfg, NULL, r);
    bh_regress_config_free(&cfg);
    cJSON_Delete(b);
    cJSON_Delete(c);
}

static void test_memory_metrics(void **state)
{
    bh_regress_report r;
    const bh_regress_item *rss, *bytes, *count;

    (void)state;
    /* +25% RSS, +50% bytes in the same number of allocations */
    compare(make_doc(8000, 4096, 3), make_doc(10000, 6144, 3), NULL, &r);
    rss = item(&r, BH_REGRESS_RSS);
    bytes = item(&r, BH_REGRESS_ALLOC_BYTES);
    count = item(&r, BH_REGRESS_ALLOC_COUNT);
    assert_non_null(rss);
    assert_string_equal(rss->unit, "KiB");
    assert_true(rss->th.noise_floor == 0.10 && rss->th.warning == 0.10 &&
                rss->th.critical == 0.10);
    assert_int_equal(rss->v.kind, BH_VERDICT_REGRESSED);
    assert_int_equal(rss->v.severity, BH_SEVERITY_CRITICAL);
    assert_rel(rss->st.change, 0.25, 1e-9);
    assert_non_null(bytes);
    assert_true(bytes->th.noise_floor == 0.001 && bytes->th.critical == 0.10);
    assert_int_equal(bytes->v.kind, BH_VERDICT_REGRESSED);
    assert_int_equal(bytes->v.severity, BH_SEVERITY_CRITICAL);
    assert_rel(bytes->st.change, 0.5, 1e-12);
    assert_true(bytes->st.change_lo == bytes->st.change_hi);
    /* the same count in every run: no change, without a test */
    assert_non_null(count);
    assert_true(count->decided && !count->tested);
    assert_int_equal(count->v.kind, BH_VERDICT_NO_CHANGE);
    assert_string_equal(count->v.reason, BH_REGRESS_REASON_SAME_MEMORY);
    /* time in the main family, RSS and bytes in the memory family, the
       spread in its own; the count is not tested */
    assert_int_equal(r.m_tests, 1);
    assert_int_equal(r.n_memory_tests, 2);
    assert_int_equal(r.n_spread_tests, 1);
    assert_true(rss->memory && bytes->memory && !item(&r, BH_REGRESS_TIME)->memory);
    assert_int_equal(bh_regress_n_critical(&r), 2);
    bh_regress_report_free(&r);
}

static void test_memory_aa_and_floors(void **state)
{
    bh_regress_report r;
    const bh_regress_item *rss;

    (void)state;
    /* A/A: RSS within 2% of itself, the same allocations: nothing flagged */
    compare(make_doc(8000, 4096, 3), make_doc(8100, 4096, 3), NULL, &r);
    rss = item(&r, BH_REGRESS_RSS);
    assert_non_null(rss);
    assert_true(rss->v.kind == BH_VERDICT_NO_CHANGE || rss->v.kind == BH_VERDICT_WITHIN_NOISE);
    assert_int_equal(r.counts[BH_VERDICT_REGRESSED], 0);
    assert_int_equal(r.counts[BH_VERDICT_NOISIER], 0);
    bh_regress_report_free(&r);
    /* +5% RSS is beyond a 2% floor (warning 3%: regressed, warning) */
    compare(make_doc(8000, 4096, 3), make_doc(8400, 4096, 3),
            "{\"memory\": {\"rss_floor\": \"2%\"}}", &r);
    rss = item(&r, BH_REGRESS_RSS);
    assert_true(rss->th.noise_floor == 0.02);
    assert_int_equal(rss->v.kind, BH_VERDICT_REGRESSED);
    assert_int_equal(rss->v.severity, BH_SEVERITY_WARNING);
    bh_regress_report_free(&r);
    /* ...and within noise or unchanged under the default 10% floor */
    compare(make_doc(8000, 4096, 3), make_doc(8400, 4096, 3), NULL, &r);
    assert_int_not_equal(item(&r, BH_REGRESS_RSS)->v.kind, BH_VERDICT_REGRESSED);
    bh_regress_report_free(&r);
    /* one more allocation: +33% count, critical */
    compare(make_doc(8000, 4096, 3), make_doc(8000, 4096, 4), NULL, &r);
    assert_int_equal(item(&r, BH_REGRESS_ALLOC_COUNT)->v.kind, BH_VERDICT_REGRESSED);
    bh_regress_report_free(&r);
    /* memory: {compare: false}, and metrics: {peak_rss_kb: {ignore: true}} */
    compare(make_doc(8000, 4096, 3), make_doc(10000, 8192, 4), "{\"memory\": {\"compare\": false}}",
            &r);
    assert_null(item(&r, BH_REGRESS_RSS));
    assert_null(item(&r, BH_REGRESS_ALLOC_COUNT));
    bh_regress_report_free(&r);
    compare(make_doc(8000, 4096, 3), make_doc(10000, 8192, 4),
            "{\"metrics\": {\"peak_rss_kb\": {\"ignore\": true}}}", &r);
    assert_null(item(&r, BH_REGRESS_RSS));
    assert_non_null(item(&r, BH_REGRESS_ALLOC_COUNT));
    bh_regress_report_free(&r);
}

static void test_memory_absent_or_zero(void **state)
{
    bh_regress_report r;

    (void)state;
    /* a baseline from before per-run figures: memory not compared */
    compare(make_doc(-1, 0, -1), make_doc(10000, 8192, 4), NULL, &r);
    assert_null(item(&r, BH_REGRESS_RSS));
    assert_null(item(&r, BH_REGRESS_ALLOC_BYTES));
    assert_non_null(item(&r, BH_REGRESS_TIME));
    bh_regress_report_free(&r);
    /* no host-API allocation on either side: no allocation items */
    compare(make_doc(8000, 0, 0), make_doc(8000, 0, 0), NULL, &r);
    assert_null(item(&r, BH_REGRESS_ALLOC_BYTES));
    assert_null(item(&r, BH_REGRESS_ALLOC_COUNT));
    assert_non_null(item(&r, BH_REGRESS_RSS));
    bh_regress_report_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_spread_known_answers),
        cmocka_unit_test(test_spread_edges),
        cmocka_unit_test(test_spread_simulation),
        cmocka_unit_test(test_spread_aa_suite),
        cmocka_unit_test(test_noisier_verdict_and_gate),
        cmocka_unit_test(test_config_keys),
        cmocka_unit_test(test_memory_metrics),
        cmocka_unit_test(test_memory_aa_and_floors),
        cmocka_unit_test(test_memory_absent_or_zero),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
