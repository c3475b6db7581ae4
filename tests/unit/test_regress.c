// SPDX-License-Identifier: MIT
/* Unit tests for host/regress (the comparison half): verdict rules on
 * synthetic run values, the power / run-count arithmetic, BH over a
 * report, the regression: section parser, case matching, per-run values,
 * confirmation schedules and paired decisions, the JSON form, and named
 * baselines (including concurrent saves). Nothing here measures time. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "baseline.h"
#include "bh_fs.h"
#include "confirm.h"
#include "regress_compare.h"
#include "regress_config.h"
#include "regress_json.h"
#include "result_read.h"
#include "verdict.h"

#define LEN(a) (sizeof(a) / sizeof((a)[0]))

#define ASSERT_NEAR(got, want, rel)                                                     \
    do {                                                                                \
        double g_ = (got), w_ = (want);                                                 \
        if (!(fabs(g_ - w_) <= (rel) * fabs(w_) + 1e-300))                              \
            fail_msg("%s = %.17g, want %.17g", #got, g_, w_);                           \
    } while (0)

/* base[i] = 100 + i * step; cand[i] = base[i] * factor. */
static void ramp(double *base, double *cand, size_t n, double step, double factor)
{
    for (size_t i = 0; i < n; i++) {
        base[i] = 100.0 + (double)i * step;
        cand[i] = base[i] * factor;
    }
}

/* Classifies one unpaired comparison with the default thresholds as the
 * only test of its report. */
static bh_regress_verdict classify_one(const double *b, size_t nb, const double *c, size_t nc,
                                       int direction, bh_regress_stat *st)
{
    bh_regress_config cfg;
    bh_regress_report r;
    bh_regress_verdict v;

    bh_regress_config_default(&cfg);
    memset(&r, 0, sizeof(r));
    bh_regress_report_add_values(&r, &cfg, "x/y", "time", direction, b, nb, c, nc);
    bh_regress_finalize(&r, &cfg);
    v = r.items[0].v;
    if (st)
        *st = r.items[0].st;
    bh_regress_report_free(&r);
    return v;
}

/* ---- verdict rules ----------------------------------------------------- */

static void test_verdict_regressed_severities(void **state)
{
    double b[10], c[10];
    bh_regress_stat st;
    bh_regress_verdict v;

    (void)state;
    /* +20%, no overlap: exact MWU p = 2 / C(20, 10). */
    ramp(b, c, 10, 0.1, 1.20);
    v = classify_one(b, 10, c, 10, 1, &st);
    assert_int_equal(v.kind, BH_VERDICT_REGRESSED);
    assert_int_equal(v.severity, BH_SEVERITY_CRITICAL);
    assert_int_equal(st.test, BH_REGRESS_TEST_MWU_EXACT);
    ASSERT_NEAR(st.p, 2.0 / 184756.0, 1e-9);
    ASSERT_NEAR(st.q, st.p, 1e-12);
    ASSERT_NEAR(st.change, 0.20, 1e-9);
    assert_true(st.change_lo > 0.01 && st.change_lo <= 0.20 && st.change_hi >= 0.20);
    /* +5%: warning; +2%: minor. */
    ramp(b, c, 10, 0.01, 1.05);
    v = classify_one(b, 10, c, 10, 1, NULL);
    assert_int_equal(v.kind, BH_VERDICT_REGRESSED);
    assert_int_equal(v.severity, BH_SEVERITY_WARNING);
    ramp(b, c, 10, 0.01, 1.02);
    v = classify_one(b, 10, c, 10, 1, NULL);
    assert_int_equal(v.kind, BH_VERDICT_REGRESSED);
    assert_int_equal(v.severity, BH_SEVERITY_MINOR);
    assert_int_equal(v.runs_needed, 0);
}

static void test_verdict_improved_noise_nochange(void **state)
{
    double b[10], c[10];
    bh_regress_verdict v;

    (void)state;
    ramp(b, c, 10, 0.1, 0.80);
    v = classify_one(b, 10, c, 10, 1, NULL);
    assert_int_equal(v.kind, BH_VERDICT_IMPROVED);
    assert_int_equal(v.severity, BH_SEVERITY_NONE);
    /* +0.5% with no overlap: significant, but the CI is inside the 1%
       floor. */
    ramp(b, c, 10, 0.001, 1.005);
    v = classify_one(b, 10, c, 10, 1, NULL);
    assert_int_equal(v.kind, BH_VERDICT_WITHIN_NOISE);
    /* Identical sides: p = 1, CI [0, 0]. */
    ramp(b, c, 10, 0.1, 1.0);
    v = classify_one(b, 10, c, 10, 1, NULL);
    assert_int_equal(v.kind, BH_VERDICT_NO_CHANGE);
    assert_string_equal(v.reason, "the whole interval lies within the noise floor");
}

static void test_verdict_direction(void **state)
{
    double b[10], c[10];
    bh_regress_stat st;
    bh_regress_verdict v;

    (void)state;
    /* tokens/s down 20% is a regression of a higher-is-better metric. */
    ramp(b, c, 10, 0.1, 0.80);
    v = classify_one(b, 10, c, 10, -1, &st);
    assert_int_equal(v.kind, BH_VERDICT_REGRESSED);
    assert_int_equal(v.severity, BH_SEVERITY_CRITICAL);
    ASSERT_NEAR(st.change, -0.20, 1e-9);
    ASSERT_NEAR(v.worse, 0.20, 1e-9);
    ASSERT_NEAR(v.worse_lo, -st.change_hi, 1e-12);
    ramp(b, c, 10, 0.1, 1.20);
    v = classify_one(b, 10, c, 10, -1, NULL);
    assert_int_equal(v.kind, BH_VERDICT_IMPROVED);
}

static void test_verdict_inconclusive(void **state)
{
    double b[3] = {100, 103, 98}, c[3] = {101, 104, 97};
    double b8[8], c8[8];
    bh_regress_verdict v;
    bh_regress_stat st;

    (void)state;
    /* 3 runs a side: the best exact p is 0.1 > fdr: never significant, and
       the 95% HL interval is unbounded. */
    v = classify_one(b, 3, c, 3, 1, &st);
    assert_int_equal(v.kind, BH_VERDICT_INCONCLUSIVE);
    assert_true(isinf(st.change_hi));
    assert_true(v.runs_needed >= 4); /* 2 / C(8, 4) = 0.029 is the first <= 0.05 */
    assert_int_equal(v.runs_needed, bh_regress_runs_needed(st.spread, log1p(0.01), 0, 1, 0.05));
    /* Noisy (about 3%) and not significant: settle needs more runs. */
    for (size_t i = 0; i < 8; i++) {
        b8[i] = 100.0 * exp(0.03 * sin(1.0 + (double)i * 2.1));
        c8[i] = 100.0 * exp(0.03 * sin(2.0 + (double)i * 1.3));
    }
    v = classify_one(b8, 8, c8, 8, 1, &st);
    assert_int_equal(v.kind, BH_VERDICT_INCONCLUSIVE);
    assert_true(v.runs_needed > 8 && v.runs_needed < BH_REGRESS_MAX_RUNS);
    assert_true(v.mde > 0.01);
    assert_true(bh_regress_mde(st.spread, v.runs_needed, v.runs_needed, 0, 1, 0.05) <=
                log1p(fmax(0.01, fabs(v.worse))) + 1e-12);
}

/* A hand-made unpaired MWU statistic on ln values for the readings. */
static bh_regress_stat mwu_stat(size_t n, double change, double lo, double hi, double p,
                                double spread)
{
    bh_regress_stat st;

    memset(&st, 0, sizeof(st));
    st.n_base = st.n_cand = n;
    st.log_scale = 1;
    st.change = change;
    st.change_lo = lo;
    st.change_hi = hi;
    st.level = 0.95;
    st.p = st.q = p;
    st.spread = spread;
    st.test = BH_REGRESS_TEST_MWU_EXACT;
    return st;
}

/* The three readings of an inconclusive verdict (docs/statistics.md
 * section 11.6): too few runs for the level, no change detected (the
 * interval within +-MDE), undecided. The verdict and runs_needed stay
 * those of the rules before the readings. */
static void test_verdict_readings(void **state)
{
    bh_regress_thresholds th = {0.01, 0.03, 0.10};
    double b[3] = {100, 103, 98}, c[3] = {101, 104, 97};
    bh_regress_stat st;
    bh_regress_verdict v;
    double mde;

    (void)state;
    /* the exact MWU reaches 0.05 at 4 a side, 0.05/38 at 7, 0.05/300 at
       8; Wilcoxon reaches 0.05 at 6 pairs (2/2^6 = 0.031) */
    assert_int_equal(bh_regress_runs_to_reach(0.05, 0), 4);
    assert_int_equal(bh_regress_runs_to_reach(0.05 / 38, 0), 7);
    assert_int_equal(bh_regress_runs_to_reach(0.05 / 300, 0), 8);
    assert_int_equal(bh_regress_runs_to_reach(0.05, 1), 6);
    /* 3 a side against one test: min p 0.1 > 0.05 */
    v = classify_one(b, 3, c, 3, 1, NULL);
    assert_int_equal(v.kind, BH_VERDICT_INCONCLUSIVE);
    assert_string_equal(v.reason, BH_REGRESS_REASON_TOO_FEW);
    /* 10 a side, 20% spread, 38 tests: MDE about 45% (ln 0.371); an
       interval of [-15%, +18%] lies within it: no change detected */
    st = mwu_stat(10, 0.01, -0.15, 0.18, 0.8, 0.2);
    mde = bh_regress_mde(0.2, 10, 10, 0, 1, 0.05 / 38);
    assert_true(mde > log1p(0.18) && mde < 0.5);
    bh_regress_classify(&st, 1, &th, 0.05, 38, &v);
    assert_int_equal(v.kind, BH_VERDICT_INCONCLUSIVE);
    assert_string_equal(v.reason, BH_REGRESS_REASON_UNDETECTED);
    ASSERT_NEAR(v.mde, expm1(mde), 1e-12);
    assert_true(v.runs_needed > 10);
    /* the same figures for a higher-is-better metric: the worse-direction
       interval [-18%, +15%] is within +-MDE too */
    bh_regress_classify(&st, -1, &th, 0.05, 38, &v);
    assert_string_equal(v.reason, BH_REGRESS_REASON_UNDETECTED);
    /* an upper end beyond the MDE (ln 1.5 = 0.405 > 0.371): undecided */
    st = mwu_stat(10, 0.2, 0.01, 0.5, 0.2, 0.2);
    bh_regress_classify(&st, 1, &th, 0.05, 38, &v);
    assert_int_equal(v.kind, BH_VERDICT_INCONCLUSIVE);
    assert_string_equal(v.reason, BH_REGRESS_REASON_UNDECIDED);
    /* a lower end beyond -MDE on the ln scale: -32% is ln 0.68 = -0.386 < -0.371 */
    st = mwu_stat(10, -0.1, -0.32, 0.05, 0.3, 0.2);
    bh_regress_classify(&st, 1, &th, 0.05, 38, &v);
    assert_string_equal(v.reason, BH_REGRESS_REASON_UNDECIDED);
    /* an unbounded interval is never within the MDE */
    st = mwu_stat(10, 0.0, -1.0, INFINITY, 0.9, 0.2);
    bh_regress_classify(&st, 1, &th, 0.05, 38, &v);
    assert_string_equal(v.reason, BH_REGRESS_REASON_UNDECIDED);
    /* the readings never soften a significant result: the same interval
       within +-MDE but q <= fdr and beyond the floor is a regression */
    st = mwu_stat(10, 0.1, 0.05, 0.18, 1e-5, 0.2);
    bh_regress_classify(&st, 1, &th, 0.05, 38, &v);
    assert_int_equal(v.kind, BH_VERDICT_REGRESSED);
    assert_int_equal(v.severity, BH_SEVERITY_CRITICAL);
}

static void test_verdict_untestable(void **state)
{
    double one[1] = {100}, b[4] = {1, 2, 3, 4};
    double zb[4] = {0, 0, 0, 0}, zc[4] = {0, 1, 2, 3};
    bh_regress_verdict v;
    bh_regress_stat st;

    (void)state;
    v = classify_one(one, 1, b, 4, 1, NULL);
    assert_int_equal(v.kind, BH_VERDICT_INCONCLUSIVE);
    assert_string_equal(v.reason, "fewer than 2 ok runs in the baseline");
    assert_int_equal(v.runs_needed, 4); /* fdr 0.05, one test */
    /* 300 tests: first BH level 0.05 / 300 needs 8 runs a side
       (docs/statistics.md section 10.8). */
    bh_regress_untestable(1, 1, 0.05, 300, "x", &v);
    assert_int_equal(v.runs_needed, 8);
    /* A zero baseline median gives no relative change. */
    v = classify_one(zb, 4, zc, 4, 1, NULL);
    assert_int_equal(v.kind, BH_VERDICT_INCONCLUSIVE);
    assert_int_equal(bh_regress_test_unpaired(zb, 4, zc, 4, BH_REGRESS_MWU, 0.95, &st), -1);
}

static void test_stats_edges(void **state)
{
    double b[4] = {1, 2, 3, 4}, c[4] = {2, 3, 4, 5};
    double nan4[4] = {1, NAN, 3, 4}, inf4[4] = {1, 2, INFINITY, 4};
    double zb[4] = {0, 2, 3, 4}, zc[4] = {1, 3, 4, 5};
    double eq[5] = {7, 7, 7, 7, 7}, eq2[5] = {8, 8, 8, 8, 8};
    double x49[49], y49[49], x50[50], y50[50];
    bh_regress_stat st;

    (void)state;
    assert_int_equal(bh_regress_test_unpaired(nan4, 4, c, 4, BH_REGRESS_MWU, 0.95, &st), -1);
    assert_true(isnan(st.p) && st.test == BH_REGRESS_TEST_NONE && st.n_base == 4);
    assert_int_equal(bh_regress_test_unpaired(b, 4, inf4, 4, BH_REGRESS_WELCH, 0.95, &st), -1);
    assert_int_equal(bh_regress_test_paired(b, inf4, 4, 0.95, &st), -1);
    assert_int_equal(bh_regress_test_unpaired(b, 1, c, 4, BH_REGRESS_MWU, 0.95, &st), -1);
    assert_int_equal(bh_regress_test_unpaired(b, 4, c, 4, BH_REGRESS_MWU, 1.0, &st), -1);
    /* Zeros: the additive scale, relative to |baseline median| 2.5. */
    assert_int_equal(bh_regress_test_unpaired(zb, 4, zc, 4, BH_REGRESS_MWU, 0.95, &st), 0);
    assert_int_equal(st.log_scale, 0);
    ASSERT_NEAR(st.change, 1.0 / 2.5, 1e-12);
    /* All equal on each side: ties -> asymptotic MWU; HL exact 1/7. */
    assert_int_equal(bh_regress_test_unpaired(eq, 5, eq2, 5, BH_REGRESS_MWU, 0.95, &st), 0);
    assert_int_equal(st.test, BH_REGRESS_TEST_MWU_NORMAL);
    ASSERT_NEAR(st.change, 8.0 / 7.0 - 1.0, 1e-12);
    ASSERT_NEAR(st.change_lo, st.change, 1e-12);
    assert_true(st.spread == 0.0);
    /* Welch with zero variance on both sides: certain. */
    assert_int_equal(bh_regress_test_unpaired(eq, 5, eq2, 5, BH_REGRESS_WELCH, 0.95, &st), 0);
    assert_true(st.p == 0.0);
    assert_int_equal(bh_regress_test_unpaired(eq, 5, eq, 5, BH_REGRESS_WELCH, 0.95, &st), 0);
    assert_true(st.p == 1.0);
    /* Exact up to 49 a side, asymptotic from 50 (no ties). */
    for (size_t i = 0; i < 50; i++) {
        if (i < 49) {
            x49[i] = 1000.0 + (double)i;
            y49[i] = 1000.5 + (double)i;
        }
        x50[i] = 1000.0 + (double)i;
        y50[i] = 1000.5 + (double)i;
    }
    assert_int_equal(bh_regress_test_unpaired(x49, 49, y49, 49, BH_REGRESS_MWU, 0.95, &st), 0);
    assert_int_equal(st.test, BH_REGRESS_TEST_MWU_EXACT);
    assert_int_equal(bh_regress_test_unpaired(x50, 50, y50, 50, BH_REGRESS_MWU, 0.95, &st), 0);
    assert_int_equal(st.test, BH_REGRESS_TEST_MWU_NORMAL);
}

static void test_welch_kat(void **state)
{
    /* Welch on ln values equals bh_stats_welch_t on ln values; the CI is
       the Welch t interval of the difference of mean logs. */
    double x[5] = {10.1, 10.3, 9.9, 10.0, 10.2}, y[5] = {10.6, 10.4, 10.8, 10.5, 10.7};
    bh_regress_stat st;
    double lx = 0, ly = 0;

    (void)state;
    assert_int_equal(bh_regress_test_unpaired(x, 5, y, 5, BH_REGRESS_WELCH, 0.95, &st), 0);
    assert_int_equal(st.test, BH_REGRESS_TEST_WELCH);
    for (int i = 0; i < 5; i++) {
        lx += log(x[i]) / 5;
        ly += log(y[i]) / 5;
    }
    ASSERT_NEAR(st.change, expm1(ly - lx), 1e-12);
    assert_true(st.p > 0.0005 && st.p < 0.002); /* ~0.00105 on the raw scale */
    assert_true(st.change_lo > 0 && st.change_lo < st.change && st.change < st.change_hi);
}

static void test_paired_kat(void **state)
{
    /* Differences of docs/statistics.md section 10.7: W+ = 33, exact
       two-sided p = 0.0390625. */
    const double d[8] = {0.5, 1.2, -0.3, 2.0, 0.8, 1.5, -0.1, 0.9};
    double b[8], c[8];
    bh_regress_stat st;

    (void)state;
    for (int i = 0; i < 8; i++) {
        b[i] = 100.0;
        c[i] = 100.0 * exp(d[i] / 100.0);
    }
    assert_int_equal(bh_regress_test_paired(b, c, 8, 0.95, &st), 0);
    assert_int_equal(st.test, BH_REGRESS_TEST_WILCOXON_EXACT);
    assert_int_equal(st.paired, 1);
    ASSERT_NEAR(st.p, 0.0390625, 1e-12);
    assert_true(st.change > 0);
    /* Identical pairs: p 1, no change. */
    assert_int_equal(bh_regress_test_paired(b, b, 8, 0.95, &st), 0);
    assert_true(st.p == 1.0 && st.change == 0.0);
}

static void test_mde_runs(void **state)
{
    (void)state;
    /* (z.975 + z.8) * s * sqrt(2/n): 2.8015852 * 0.01 * sqrt(0.2). */
    ASSERT_NEAR(bh_regress_mde(0.01, 10, 10, 0, 0, 0.05), 0.0125290, 1e-5);
    ASSERT_NEAR(bh_regress_mde(0.01, 10, 10, 1, 0, 0.05), 0.0088594, 1e-5);
    ASSERT_NEAR(bh_regress_mde(0.01, 10, 10, 0, 1, 0.05),
                0.0125290 * sqrt(M_PI / 3.0), 1e-5);
    assert_true(isnan(bh_regress_mde(-1, 10, 10, 0, 0, 0.05)));
    /* docs/statistics.md section 8.1, alpha 0.05: CV 1%, delta 1% -> 16
       per side. */
    assert_int_equal(bh_regress_runs_needed(0.01, 0.01, 0, 0, 0.05), 16);
    /* CV 5%, delta 5% -> 16 as well; alpha 0.01 CV 2% delta 5% -> 4 + the
       t-free normal formula. */
    assert_int_equal(bh_regress_runs_needed(0.05, 0.05, 0, 0, 0.05), 16);
    /* Rank tests: the exact floor at alpha 0.05/300 is 8 runs. */
    assert_int_equal(bh_regress_runs_needed(0.0, 1.0, 0, 1, 0.05 / 300), 8);
    assert_int_equal(bh_regress_runs_needed(0.0, 1.0, 1, 1, 0.05), 6); /* 2/2^6 < .05 */
    assert_int_equal(bh_regress_runs_needed(0.01, 0.0, 0, 1, 0.05), BH_REGRESS_MAX_RUNS);
    ASSERT_NEAR(bh_regress_min_p(8, 0), 2.0 / 12870.0, 1e-12);
    ASSERT_NEAR(bh_regress_min_p(10, 1), 2.0 / 1024.0, 1e-12);
}

static void test_bh_over_report(void **state)
{
    const double p[4] = {0.01, 0.04, 0.03, 0.005}, q[4] = {0.02, 0.04, 0.04, 0.02};
    const double shard_q[4] = {0.04, 0.08, 0.08, 0.04}; /* m = 8 */
    double b[6] = {1, 2, 3, 4, 5, 6};
    bh_regress_config cfg;
    bh_regress_report r;

    (void)state;
    bh_regress_config_default(&cfg);
    memset(&r, 0, sizeof(r));
    for (int i = 0; i < 4; i++) {
        char id[16];

        snprintf(id, sizeof(id), "c/%d", i);
        bh_regress_report_add_values(&r, &cfg, id, "time", 1, b, 6, b, 6);
    }
    bh_regress_report_add_values(&r, &cfg, "c/untested", "time", 1, b, 1, b, 6);
    for (int i = 0; i < 4; i++)
        r.items[i].st.p = p[i];
    bh_regress_finalize(&r, &cfg);
    assert_int_equal(r.m_tests, 4);
    for (int i = 0; i < 4; i++)
        ASSERT_NEAR(r.items[i].st.q, q[i], 1e-12);
    assert_true(isnan(r.items[4].st.q));
    assert_int_equal(r.items[4].tested, 0);
    assert_int_equal(r.counts[BH_VERDICT_INCONCLUSIVE] + r.counts[BH_VERDICT_WITHIN_NOISE] +
                         r.counts[BH_VERDICT_NO_CHANGE],
                     5);
    /* a shard: the other shards' 4 tests join the family with p = 1 */
    r.family_extra = 4;
    bh_regress_finalize(&r, &cfg);
    assert_int_equal(r.m_tests, 4);
    for (int i = 0; i < 4; i++)
        ASSERT_NEAR(r.items[i].st.q, shard_q[i], 1e-12);
    bh_regress_report_free(&r);
}

/* ---- the regression: section ------------------------------------------ */

static void test_config_defaults_and_full(void **state)
{
    bh_regress_config c;
    bh_regress_thresholds th;
    bh_error e = {""};
    const char *json =
        "{\"noise_floor\":\"1%\",\"warning\":\"3%\",\"critical\":\"10%\",\"fdr\":0.05,"
        "\"method\":\"welch\",\"confidence\":\"90%\",\"confirm\":false,\"confirm_runs\":8,"
        "\"metrics\":{\"tokens_per_s\":{\"direction\":\"higher\"},\"rss\":{\"ignore\":true}},"
        "\"overrides\":[{\"match\":\"tensor/gemm*\",\"noise_floor\":\"2%\","
        "\"critical\":\"5%\"}]}";

    (void)state;
    assert_int_equal(bh_regress_config_parse(NULL, NULL, NULL, &c, &e), 0);
    ASSERT_NEAR(c.th.noise_floor, 0.01, 1e-12);
    ASSERT_NEAR(c.th.critical, 0.10, 1e-12);
    assert_int_equal(c.method, BH_REGRESS_MWU);
    assert_int_equal(c.confirm_runs, 12);
    bh_regress_config_free(&c);
    assert_int_equal(bh_regress_config_parse(json, NULL, "s.yaml", &c, &e), 0);
    assert_int_equal(c.method, BH_REGRESS_WELCH);
    ASSERT_NEAR(c.confidence, 0.90, 1e-12);
    assert_int_equal(c.confirm, 0);
    assert_int_equal(c.confirm_runs, 8);
    assert_int_equal(bh_regress_metric_find(&c, "tokens_per_s")->direction, -1);
    assert_int_equal(bh_regress_metric_find(&c, "rss")->ignore, 1);
    assert_null(bh_regress_metric_find(&c, "time"));
    bh_regress_thresholds_for(&c, "tensor/gemm[m=64]@cpu:0", &th);
    ASSERT_NEAR(th.noise_floor, 0.02, 1e-12);
    ASSERT_NEAR(th.warning, 0.03, 1e-12);
    ASSERT_NEAR(th.critical, 0.05, 1e-12);
    bh_regress_thresholds_for(&c, "selftest/spin", &th);
    ASSERT_NEAR(th.noise_floor, 0.01, 1e-12);
    ASSERT_NEAR(th.critical, 0.10, 1e-12);
    bh_regress_config_free(&c);
}

/* Parses json expecting an error containing want. */
static void expect_config_error(const char *json, const char *pos, const char *want)
{
    bh_regress_config c;
    bh_error e = {""};

    if (bh_regress_config_parse(json, pos, "cfg.yaml", &c, &e) == 0)
        fail_msg("accepted %s", json);
    if (!strstr(e.msg, want))
        fail_msg("message '%s' lacks '%s'", e.msg, want);
    if (strchr(e.msg, '\n'))
        fail_msg("message '%s' is not one line", e.msg);
    bh_regress_config_free(&c);
}

static void test_config_errors(void **state)
{
    (void)state;
    expect_config_error("{\"noise_flor\":\"1%\"}", NULL,
                        "cfg.yaml: regression.noise_flor: unknown key 'noise_flor' (did you "
                        "mean 'noise_floor'?)");
    expect_config_error("{\"warning\":\"abc\"}",
                        "{\"warning\":\"c.yaml:4:12\"}", "c.yaml:4:12: regression.warning:");
    expect_config_error("{\"critical\":5}", NULL, "write 5% if that is meant");
    expect_config_error("{\"warning\":\"0.5%\"}", NULL,
                        "warning (0.5%) must not be below noise_floor (1%)");
    expect_config_error("{\"method\":\"ttest\"}", NULL,
                        "regression.method: expected mwu or welch, got 'ttest'");
    expect_config_error("{\"fdr\":0}", NULL, "regression.fdr: expected a value between");
    expect_config_error("{\"confirm\":\"yes\"}", NULL, "expected true or false");
    expect_config_error("{\"confirm_runs\":2}", NULL, "from 4 to 1000");
    expect_config_error("{\"metrics\":{\"tps\":{\"direction\":\"up\"}}}", NULL,
                        "regression.metrics.tps.direction: expected lower or higher");
    expect_config_error("{\"metrics\":{\"tps\":{\"directon\":\"up\"}}}", NULL,
                        "did you mean 'direction'");
    expect_config_error("{\"overrides\":[{\"noise_floor\":\"2%\"}]}",
                        "{\"overrides[0]\":\"c.yaml:7:7\"}",
                        "c.yaml:7:7: regression.overrides[0]: missing required key 'match'");
    expect_config_error("{\"overrides\":[{\"match\":\"a*\",\"critical\":\"2%\"}]}", NULL,
                        "regression.overrides[0]: critical (2%) must not be below warning");
    expect_config_error("{\"overrides\":{}}", NULL, "regression.overrides: expected a list");
    expect_config_error("[1]", NULL, "regression: expected a map");
}

static void test_config_noise_floor_position(void **state)
{
    bh_regress_config c;
    bh_error e = {""};

    (void)state;
    assert_int_not_equal(bh_regress_config_parse("{\"noise_floor\":\"x%\"}",
                                                 "{\"noise_floor\":\"c.yaml:10:16\"}", "c.yaml",
                                                 &c, &e),
                         0);
    assert_non_null(strstr(e.msg, "c.yaml:10:16: regression.noise_floor:"));
    bh_regress_config_free(&c);
}

/* ---- documents ----------------------------------------------------------- */

/* A result case with runs of the given per-run constant ns/iter values
 * (3 samples each) and, when metric is set, one metric value per run. */
static cJSON *make_case(const char *id, const double *ns, size_t n, const char *metric,
                        const char *direction, const double *mv)
{
    cJSON *c = cJSON_CreateObject();
    cJSON *runs;
    cJSON *params = cJSON_AddObjectToObject(c, "params");

    cJSON_AddStringToObject(c, "id", id);
    cJSON_AddStringToObject(c, "status", "ok");
    cJSON_AddNumberToObject(params, "work", 1000);
    cJSON_AddNumberToObject(params, "slowdown_pct", 5);
    runs = cJSON_AddArrayToObject(c, "runs");
    for (size_t i = 0; i < n; i++) {
        cJSON *r = cJSON_CreateObject();
        cJSON *s = cJSON_AddArrayToObject(r, "samples");

        cJSON_AddNumberToObject(r, "index", (double)i);
        cJSON_AddStringToObject(r, "status", i == n - 1 && n > 9 ? "failed" : "ok");
        for (int k = 0; k < 3; k++) {
            cJSON *pair = cJSON_CreateArray();

            cJSON_AddItemToArray(pair, cJSON_CreateNumber(10));
            cJSON_AddItemToArray(pair, cJSON_CreateNumber(10 * ns[i] * (1.0 + 0.001 * k)));
            cJSON_AddItemToArray(s, pair);
        }
        if (metric) {
            cJSON *ms = cJSON_AddArrayToObject(r, "metrics");
            cJSON *m = cJSON_CreateObject();

            cJSON_AddStringToObject(m, "name", metric);
            cJSON_AddNumberToObject(m, "value", mv[i]);
            cJSON_AddItemToArray(ms, m);
        }
        cJSON_AddItemToArray(runs, r);
    }
    if (metric) {
        cJSON *mo = cJSON_AddObjectToObject(c, "metrics");
        cJSON *m = cJSON_AddObjectToObject(mo, metric);

        cJSON_AddStringToObject(m, "unit", "tokens/s");
        cJSON_AddStringToObject(m, "direction", direction);
    }
    cJSON_AddNullToObject(c, "verdict");
    return c;
}

static cJSON *make_doc(const char *config)
{
    cJSON *d = cJSON_CreateObject();
    cJSON *run = cJSON_AddObjectToObject(d, "run");

    cJSON_AddStringToObject(d, "schema", "bhost.result/1");
    cJSON_AddStringToObject(cJSON_AddObjectToObject(run, "config"), "name", config);
    cJSON_AddNullToObject(d, "system");
    cJSON_AddArrayToObject(d, "cases");
    return d;
}

static void test_run_values(void **state)
{
    double ns[10] = {5, 4, 3, 2, 1, 6, 7, 8, 9, 10};
    cJSON *cj = make_case("a", ns, 10, "tok", "higher", ns);
    bh_rv_case c;
    double *v, *w;
    size_t n, m;

    (void)state;
    assert_int_equal(bh_rv_case_read(cj, &c), 1);
    bh_regress_run_values(&c, "time", &v, &n);
    bh_result_run_medians(cj, &w, &m);
    assert_int_equal(n, 9); /* the last run failed */
    assert_int_equal(m, n);
    for (size_t i = 0; i < n; i++)
        ASSERT_NEAR(v[i], w[i], 1e-12);
    ASSERT_NEAR(v[0], 5.005, 1e-12); /* median of 5, 5.005, 5.01 */
    free(v);
    free(w);
    bh_regress_run_values_indexed(&c, "tok", &v, &n);
    assert_int_equal(n, 10);
    ASSERT_NEAR(v[3], 2.0, 1e-12);
    assert_true(isnan(v[9]));
    free(v);
    bh_regress_run_values(&c, "absent", &v, &n);
    assert_null(v);
    assert_int_equal(n, 0);
    bh_rv_case_free(&c);
    cJSON_Delete(cj);
}

static void test_match_key(void **state)
{
    double ns[2] = {1, 2};
    cJSON *cj = make_case("selftest/spin[work=1000,slowdown_pct=5]@cpu:0", ns, 2, NULL, NULL,
                          NULL);
    char *ign[2] = {"slowdown_pct", "work"};
    bh_regress_match m1 = {ign, 1}, m2 = {ign, 2};
    bh_rv_case c;
    char *k;

    (void)state;
    assert_int_equal(bh_rv_case_read(cj, &c), 1);
    k = bh_regress_match_key(&c, &m1);
    assert_string_equal(k, "selftest/spin[work=1000]@cpu:0");
    free(k);
    k = bh_regress_match_key(&c, &m2);
    assert_string_equal(k, "selftest/spin@cpu:0");
    free(k);
    k = bh_regress_match_key(&c, NULL);
    assert_string_equal(k, "selftest/spin[work=1000,slowdown_pct=5]@cpu:0");
    free(k);
    k = bh_regress_id_key(c.id, c.params, &m2);
    assert_string_equal(k, "selftest/spin@cpu:0");
    free(k);
    bh_rv_case_free(&c);
    cJSON_Delete(cj);
}

static void test_compare_docs(void **state)
{
    double b[10], c[10], tb[10], tc[10];
    cJSON *base = make_doc("smoke"), *cand = make_doc("smoke");
    bh_regress_config cfg;
    bh_regress_report r;
    bh_regress_kind kind;
    bh_regress_severity sev;
    bh_regress_meta meta = {"base.json", "cand.json", NULL, NULL, 0};
    cJSON *v;
    char *sd, *cd;

    (void)state;
    ramp(b, c, 10, 0.1, 1.25);
    ramp(tb, tc, 10, 0.1, 0.70); /* tokens/s down 30% */
    cJSON_AddItemToArray(cJSON_GetObjectItem(base, "cases"),
                         make_case("p/slow", b, 10, "tok", "higher", tb));
    cJSON_AddItemToArray(cJSON_GetObjectItem(cand, "cases"),
                         make_case("p/slow", c, 10, "tok", "higher", tc));
    cJSON_AddItemToArray(cJSON_GetObjectItem(base, "cases"),
                         make_case("p/gone", b, 5, NULL, NULL, NULL));
    cJSON_AddItemToArray(cJSON_GetObjectItem(cand, "cases"),
                         make_case("p/fresh", c, 5, NULL, NULL, NULL));
    bh_regress_config_default(&cfg);
    cfg.noisier = BH_REGRESS_NOISIER_OFF; /* spread items: tests/unit/test_memgate.c */
    bh_regress_compare_docs(base, cand, &cfg, NULL, &r);
    assert_int_equal(r.n, 4);
    assert_string_equal(r.items[0].metric, "time");
    assert_int_equal(r.items[0].v.kind, BH_VERDICT_REGRESSED);
    assert_int_equal(r.items[0].st.n_base, 9);
    assert_string_equal(r.items[1].metric, "tok");
    assert_int_equal(r.items[1].direction, -1);
    assert_int_equal(r.items[1].v.kind, BH_VERDICT_REGRESSED);
    assert_int_equal(r.items[1].v.severity, BH_SEVERITY_CRITICAL);
    assert_string_equal(r.items[2].case_id, "p/fresh");
    assert_int_equal(r.items[2].v.kind, BH_VERDICT_NEW);
    assert_string_equal(r.items[3].case_id, "p/gone");
    assert_int_equal(r.items[3].v.kind, BH_VERDICT_MISSING);
    assert_int_equal(r.m_tests, 2);
    assert_int_equal(bh_regress_n_critical(&r), 2);
    assert_int_equal(r.n_suspects, 2);
    assert_int_equal(bh_regress_case_headline(&r, "p/slow", &kind, &sev), 0);
    assert_int_equal(kind, BH_VERDICT_REGRESSED);
    assert_int_equal(sev, BH_SEVERITY_CRITICAL);
    /* The verdict goes into the case and a summary on top. */
    bh_regress_attach(cand, &r, &meta);
    v = cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(cand, "cases"), 0),
                            "verdict");
    assert_string_equal(cJSON_GetObjectItem(v, "verdict")->valuestring, "regressed");
    assert_string_equal(cJSON_GetObjectItem(v, "severity")->valuestring, "critical");
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(v, "metrics")), 2);
    v = cJSON_GetObjectItem(cand, "comparison");
    assert_int_equal(cJSON_GetObjectItem(cJSON_GetObjectItem(v, "counts"), "missing")->valueint,
                     1);
    assert_string_equal(cJSON_GetArrayItem(cJSON_GetObjectItem(v, "missing"), 0)->valuestring,
                        "p/gone");
    v = bh_regress_report_json(&r, &meta);
    assert_string_equal(cJSON_GetObjectItem(v, "schema")->valuestring, "bhost.comparison/1");
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(v, "cases")), 3);
    assert_string_equal(
        cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(v, "cases"), 2), "id")
            ->valuestring,
        "p/gone");
    cJSON_Delete(v);
    bh_regress_report_free(&r);
    /* A config override of the direction and an ignored metric. */
    bh_regress_config_free(&cfg);
    assert_int_equal(bh_regress_config_parse("{\"metrics\":{\"tok\":{\"direction\":\"lower\"}}}",
                                             NULL, NULL, &cfg, NULL),
                     0);
    cfg.noisier = BH_REGRESS_NOISIER_OFF;
    bh_regress_compare_docs(base, cand, &cfg, NULL, &r);
    assert_int_equal(r.items[1].v.kind, BH_VERDICT_IMPROVED);
    bh_regress_report_free(&r);
    bh_regress_config_free(&cfg);
    assert_int_equal(bh_regress_config_parse("{\"metrics\":{\"tok\":{\"ignore\":true}}}", NULL,
                                             NULL, &cfg, NULL),
                     0);
    cfg.noisier = BH_REGRESS_NOISIER_OFF;
    bh_regress_compare_docs(base, cand, &cfg, NULL, &r);
    assert_int_equal(r.n, 3);
    bh_regress_report_free(&r);
    bh_regress_config_free(&cfg);
    /* An informational or correctness metric (ABI 1.1 kinds) is never
     * compared with the baseline, on either side. */
    {
        static const char *const kinds[] = {"informational", "correctness"};

        assert_int_equal(bh_regress_config_parse("{}", NULL, NULL, &cfg, NULL), 0);
        cfg.noisier = BH_REGRESS_NOISIER_OFF;
        for (int k = 0; k < 2; k++) {
            cJSON *tok = cJSON_GetObjectItem(
                cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(cand, "cases"), 0),
                                    "metrics"),
                "tok");

            assert_non_null(tok);
            cJSON_DeleteItemFromObject(tok, "kind");
            cJSON_AddStringToObject(tok, "kind", kinds[k]);
            bh_regress_compare_docs(base, cand, &cfg, NULL, &r);
            assert_int_equal(r.n, 3);
            for (size_t i = 0; i < r.n; i++)
                assert_string_not_equal(r.items[i].metric, "tok");
            bh_regress_report_free(&r);
            bh_regress_compare_docs(cand, base, &cfg, NULL, &r);
            assert_int_equal(r.n, 3);
            bh_regress_report_free(&r);
        }
        cJSON_DeleteItemFromObject(
            cJSON_GetObjectItem(
                cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(cand, "cases"), 0),
                                    "metrics"),
                "tok"),
            "kind");
        bh_regress_config_free(&cfg);
    }
    /* Comparability. */
    assert_int_equal(bh_regress_comparable(base, cand, &sd, &cd), 1);
    cJSON_ReplaceItemInObject(cJSON_GetObjectItem(cJSON_GetObjectItem(cand, "run"), "config"),
                              "name", cJSON_CreateString("nightly"));
    assert_int_equal(bh_regress_comparable(base, cand, &sd, &cd), 0);
    assert_null(sd);
    assert_string_equal(cd, "'smoke' != 'nightly'");
    free(cd);
    cJSON_Delete(base);
    cJSON_Delete(cand);
}

/* ---- confirmation -------------------------------------------------------- */

static void test_abba_schedule(void **state)
{
    size_t n, n2;
    bh_regress_slot *s = bh_regress_abba_schedule(3, 5, 42, &n);
    bh_regress_slot *s2 = bh_regress_abba_schedule(3, 5, 42, &n2);
    int seen[6][5] = {{0}};
    int ab = 0, ba = 0;

    (void)state;
    assert_int_equal(n, 30);
    assert_int_equal(n2, n);
    assert_memory_equal(s, s2, n * sizeof(*s));
    for (size_t i = 0; i < n; i++) {
        assert_true(s[i].clone < 6 && s[i].run < 5);
        seen[s[i].clone][s[i].run]++;
    }
    for (int c = 0; c < 6; c++)
        for (int r = 0; r < 5; r++)
            assert_int_equal(seen[c][r], 1);
    /* Both runs of a pair are adjacent and belong to the same case. */
    for (size_t i = 0; i < n; i += 2) {
        assert_int_equal(s[i].clone / 2, s[i + 1].clone / 2);
        assert_int_equal(s[i].run, s[i + 1].run);
        assert_int_not_equal(s[i].clone, s[i + 1].clone);
        if (s[i].clone % 2 == 0)
            ab++;
        else
            ba++;
    }
    assert_true(ab > 0 && ba > 0);
    free(s);
    free(s2);
    s = bh_regress_shuffled_schedule(2, 4, 7, &n);
    assert_int_equal(n, 8);
    free(s);
    assert_null(bh_regress_abba_schedule(0, 5, 1, &n));
    assert_int_equal(n, 0);
}

static void test_confirm_decide(void **state)
{
    double b[10], c[10], pb[12], pc[12];
    bh_regress_config cfg;
    bh_regress_report r;

    (void)state;
    bh_regress_config_default(&cfg);
    memset(&r, 0, sizeof(r));
    ramp(b, c, 10, 0.1, 1.2);
    bh_regress_report_add_values(&r, &cfg, "a/x", "time", 1, b, 10, c, 10);
    bh_regress_report_add_values(&r, &cfg, "a/y", "time", 1, b, 10, c, 10);
    bh_regress_finalize(&r, &cfg);
    assert_int_equal(r.n_suspects, 2);
    /* a/x: pairs show +6% with small wobble -> confirmed (warning);
       a/y: pairs identical -> not confirmed. */
    for (int i = 0; i < 12; i++) {
        pb[i] = 100.0 * (1.0 + 0.002 * (i % 5));
        pc[i] = pb[i] * (1.06 + 0.0001 * i);
    }
    bh_regress_confirm_paired(&r.items[0], pb, pc, 12, cfg.confidence);
    bh_regress_confirm_paired(&r.items[1], pb, pb, 12, cfg.confidence);
    bh_regress_confirm_decide(&r, &cfg);
    assert_int_equal(r.n_confirm_tests, 2);
    assert_int_equal(r.items[0].conf.confirmed, 1);
    assert_int_equal(r.items[0].v.kind, BH_VERDICT_REGRESSED);
    assert_int_equal(r.items[0].v.severity, BH_SEVERITY_WARNING);
    assert_int_equal(r.items[0].conf.initial, BH_VERDICT_REGRESSED);
    assert_int_equal(r.items[0].conf.initial_severity, BH_SEVERITY_CRITICAL);
    assert_int_equal(r.items[0].conf.st.test, BH_REGRESS_TEST_WILCOXON_EXACT);
    ASSERT_NEAR(r.items[0].conf.st.p, 2.0 / 4096.0, 1e-12);
    assert_int_equal(r.items[1].conf.confirmed, 0);
    assert_int_equal(r.items[1].v.kind, BH_VERDICT_NO_CHANGE);
    assert_int_equal(bh_regress_n_critical(&r), 0);
    /* Too few pairs: an error, and the first verdict stands. */
    pb[1] = NAN;
    bh_regress_confirm_paired(&r.items[1], pb, pc, 2, cfg.confidence);
    assert_non_null(r.items[1].conf.error);
    bh_regress_confirm_decide(&r, &cfg);
    assert_int_equal(r.items[1].v.kind, BH_VERDICT_REGRESSED);
    /* Unpaired: candidate reruns against the stored baseline. */
    bh_regress_confirm_unpaired(&r.items[1], b, 10, c, 10, cfg.method, cfg.confidence);
    bh_regress_confirm_decide(&r, &cfg);
    assert_int_equal(r.items[1].conf.paired, 0);
    assert_int_equal(r.items[1].conf.confirmed, 1);
    bh_regress_report_free(&r);
}

/* ---- baselines ----------------------------------------------------------- */

static void test_baseline_names_paths(void **state)
{
    char *p;

    (void)state;
    assert_true(bh_regress_baseline_name_ok("main"));
    assert_true(bh_regress_baseline_name_ok("v1.2_rc-3"));
    assert_false(bh_regress_baseline_name_ok(""));
    assert_false(bh_regress_baseline_name_ok(".hidden"));
    assert_false(bh_regress_baseline_name_ok("a/b"));
    assert_false(bh_regress_baseline_name_ok("a b"));
    p = bh_regress_baseline_resolve("main", "results", "smoke");
    assert_string_equal(p, "results/smoke/baselines/main.json");
    free(p);
    p = bh_regress_baseline_resolve("old.json", "results", "smoke");
    assert_string_equal(p, "old.json");
    free(p);
    p = bh_regress_baseline_resolve("./x", "results", "smoke");
    assert_string_equal(p, "./x");
    free(p);
}

static void test_baseline_concurrent_saves(void **state)
{
    char dir[] = "/tmp/bh_regress_testXXXXXX";
    char *path;
    bh_error e = {""};
    cJSON *doc;
    pid_t kids[4];

    (void)state;
    assert_non_null(mkdtemp(dir));
    /* Four writers save the same name 25 times each, with documents of
       different sizes; every read in between and after must parse. */
    for (int k = 0; k < 4; k++) {
        kids[k] = fork();
        assert_true(kids[k] >= 0);
        if (kids[k] == 0) {
            cJSON *d = make_doc("smoke");
            double ns[40];

            for (int i = 0; i < 40; i++)
                ns[i] = 100 + i;
            for (int i = 0; i <= k; i++)
                cJSON_AddItemToArray(cJSON_GetObjectItem(d, "cases"),
                                     make_case(i == 0 ? "a" : i == 1 ? "b" : i == 2 ? "c" : "d",
                                               ns, 40, NULL, NULL, NULL));
            for (int i = 0; i < 25; i++)
                if (bh_regress_baseline_save(d, dir, "smoke", "main", NULL, NULL) != 0)
                    _exit(1);
            _exit(0);
        }
    }
    path = bh_regress_baseline_path(dir, "smoke", "main");
    for (int i = 0; i < 50; i++) {
        doc = bh_result_read(path, &e);
        if (doc)
            cJSON_Delete(doc);
        else
            assert_non_null(strstr(e.msg, "No such file")); /* not yet written */
    }
    for (int k = 0; k < 4; k++) {
        int st = 0;

        assert_int_equal(waitpid(kids[k], &st, 0), kids[k]);
        assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    }
    doc = bh_result_read(path, &e);
    if (!doc)
        fail_msg("%s", e.msg);
    assert_true(cJSON_GetArraySize(cJSON_GetObjectItem(doc, "cases")) >= 1);
    cJSON_Delete(doc);
    unlink(path);
    free(path);
    path = bh_regress_baseline_path(dir, "smoke", "");
    *strrchr(path, '/') = '\0';
    rmdir(path);
    *strrchr(path, '/') = '\0';
    rmdir(path);
    free(path);
    rmdir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_verdict_regressed_severities),
        cmocka_unit_test(test_verdict_improved_noise_nochange),
        cmocka_unit_test(test_verdict_direction),
        cmocka_unit_test(test_verdict_inconclusive),
        cmocka_unit_test(test_verdict_readings),
        cmocka_unit_test(test_verdict_untestable),
        cmocka_unit_test(test_stats_edges),
        cmocka_unit_test(test_welch_kat),
        cmocka_unit_test(test_paired_kat),
        cmocka_unit_test(test_mde_runs),
        cmocka_unit_test(test_bh_over_report),
        cmocka_unit_test(test_config_defaults_and_full),
        cmocka_unit_test(test_config_errors),
        cmocka_unit_test(test_config_noise_floor_position),
        cmocka_unit_test(test_run_values),
        cmocka_unit_test(test_match_key),
        cmocka_unit_test(test_compare_docs),
        cmocka_unit_test(test_abba_schedule),
        cmocka_unit_test(test_confirm_decide),
        cmocka_unit_test(test_baseline_names_paths),
        cmocka_unit_test(test_baseline_concurrent_saves),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
