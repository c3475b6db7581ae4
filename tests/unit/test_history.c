// SPDX-License-Identifier: MIT
/* Unit tests for host/regress/history: the change-point detector and the
 * prediction interval on hand-computed series (docs/statistics.md
 * sections 5.2, 6, 10.6 and 10.16), edge cases, determinism, and the
 * results-folder loader on result files written here. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <dirent.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bh_mem.h"
#include "bh_rng.h"
#include "history.h"
#include "history_load.h"
#include "history_report.h"

#define LEN(a) (sizeof(a) / sizeof((a)[0]))

#define ASSERT_NEAR(got, want, rel)                                                     \
    do {                                                                                \
        double g_ = (got), w_ = (want);                                                 \
        if (!(fabs(g_ - w_) <= (rel) * fabs(w_)))                                       \
            fail_msg("%s = %.17g, want %.17g (rel %g)", #got, g_, w_, (double)(rel));   \
    } while (0)

#define ASSERT_ABS(got, want, tol)                                                      \
    do {                                                                                \
        double g_ = (got), w_ = (want);                                                 \
        if (!(fabs(g_ - w_) <= (tol)))                                                  \
            fail_msg("%s = %.17g, want %.17g (abs %g)", #got, g_, w_, (double)(tol));   \
    } while (0)

/* Options for hand-checkable runs: raw values, one window, min size 2. */
static bh_history_opts raw_opts(void)
{
    bh_history_opts o;

    bh_history_opts_default(&o);
    o.log_scale = 0;
    o.window = 0;
    o.min_size = 2;
    return o;
}

/* n lognormal values with coefficient of variation cv around level,
 * times factor from index step on (seeded). */
static void noisy(double *x, size_t n, uint64_t seed, double cv, double level, size_t step,
                  double factor)
{
    bh_rng r;

    bh_rng_seed(&r, seed);
    for (size_t i = 0; i < n; i++)
        x[i] = level * (i >= step ? factor : 1.0) * exp(sqrt(log1p(cv * cv)) * bh_rng_normal(&r));
}

/* ---- the detector ------------------------------------------------------ */

/* Hunter's analysis_test: [1.00 .. 0.98] | [0.80 .. 0.77]. Student t with
 * ddof 1 (docs/statistics.md section 5.2): |t| = 8.892, p = 2.025e-5;
 * medians 1.00 -> 0.80. */
static void test_detect_hunter_kat(void **state)
{
    static const double x[] = {1.00, 1.02, 1.05, 0.95, 0.98, 0.80, 0.82, 0.85, 0.79, 0.77};
    bh_history_opts o = raw_opts();
    bh_history_cp *cp = NULL;
    size_t k = 0;

    (void)state;
    assert_int_equal(bh_history_detect(x, LEN(x), NULL, &o, &cp, &k), 0);
    assert_int_equal(k, 1);
    assert_int_equal(cp[0].index, 5);
    assert_int_equal(cp[0].lo, 0);
    assert_int_equal(cp[0].hi, 10);
    ASSERT_NEAR(cp[0].t, -8.892, 5e-4);
    ASSERT_NEAR(cp[0].df, 8.0, 0.0);
    ASSERT_NEAR(cp[0].p, 2.025e-5, 5e-4);
    assert_int_equal(cp[0].candidates, 7);
    ASSERT_NEAR(cp[0].p_adjusted, 7 * cp[0].p, 1e-18);
    ASSERT_NEAR(cp[0].before, 1.00, 1e-15);
    ASSERT_NEAR(cp[0].after, 0.80, 1e-15);
    ASSERT_NEAR(cp[0].change, -0.2, 1e-14);
    ASSERT_NEAR(cp[0].magnitude, 0.25, 1e-14);
    free(cp);
}

/* The Welch KAT of docs/statistics.md section 10.6 across a split: t = 5,
 * df = 8, p = 0.0010528257933665, the best of 7 splits (10 points, 2 a
 * side at least): adjusted 0.0073697805535655. Above the default max_p
 * 0.001 it is merged away, and at 0.007 too; at max_p 0.008 it stays with
 * those exact statistics. */
static void test_detect_welch_kat_and_max_p(void **state)
{
    static const double x[] = {10.1, 10.3, 9.9, 10.0, 10.2, 10.6, 10.4, 10.8, 10.5, 10.7};
    bh_history_opts o = raw_opts();
    bh_history_cp *cp = NULL;
    size_t k = 0;

    (void)state;
    o.test = BH_HISTORY_WELCH;
    assert_int_equal(bh_history_detect(x, LEN(x), NULL, &o, &cp, &k), 0);
    assert_int_equal(k, 0);
    assert_null(cp);
    o.max_p = 0.007;
    assert_int_equal(bh_history_detect(x, LEN(x), NULL, &o, &cp, &k), 0);
    assert_int_equal(k, 0);
    o.max_p = 0.008;
    assert_int_equal(bh_history_detect(x, LEN(x), NULL, &o, &cp, &k), 0);
    assert_int_equal(k, 1);
    assert_int_equal(cp[0].index, 5);
    ASSERT_NEAR(cp[0].t, 5.0, 1e-12);
    ASSERT_NEAR(cp[0].df, 8.0, 1e-12);
    ASSERT_NEAR(cp[0].p, 0.0010528257933665, 1e-9);
    assert_int_equal(cp[0].candidates, 7);
    ASSERT_NEAR(cp[0].p_adjusted, 7 * 0.0010528257933665, 7e-9);
    ASSERT_NEAR(cp[0].before, 10.1, 1e-15);
    ASSERT_NEAR(cp[0].after, 10.6, 1e-15);
    free(cp);
}

/* docs/statistics.md section 10.16: E-Divisive puts the split of this
 * series at 5. */
static void test_detect_edivisive_location(void **state)
{
    static const double x[] = {10, 11, 10, 12, 11, 20, 21, 19, 20, 22};
    bh_history_opts o = raw_opts();
    bh_history_cp *cp = NULL;
    size_t k = 0;

    (void)state;
    assert_int_equal(bh_history_detect(x, LEN(x), NULL, &o, &cp, &k), 0);
    assert_int_equal(k, 1);
    assert_int_equal(cp[0].index, 5);
    ASSERT_NEAR(cp[0].before, 11.0, 1e-15);
    ASSERT_NEAR(cp[0].after, 20.0, 1e-15);
    assert_true(cp[0].t > 0.0);
    free(cp);
}

/* Two constant segments: zero spread on both sides gives p 0; a constant
 * series has no change point. */
static void test_detect_zero_spread(void **state)
{
    static const double step[] = {1, 1, 1, 5, 5, 5};
    static const double flat[] = {7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7};
    bh_history_opts o;
    bh_history_cp *cp = NULL;
    size_t k = 0;

    (void)state;
    bh_history_opts_default(&o);
    assert_int_equal(bh_history_detect(step, LEN(step), NULL, &o, &cp, &k), 0);
    assert_int_equal(k, 1);
    assert_int_equal(cp[0].index, 3);
    assert_true(cp[0].p == 0.0);
    assert_true(isinf(cp[0].t) && cp[0].t > 0.0);
    ASSERT_NEAR(cp[0].change, 4.0, 1e-15);
    free(cp);
    assert_int_equal(bh_history_detect(flat, LEN(flat), NULL, &o, &cp, &k), 0);
    assert_int_equal(k, 0);
    assert_null(cp);
}

/* A 10% step at 40 in 1% lognormal noise is found exactly there. */
static void test_detect_step_in_noise(void **state)
{
    double x[80];
    bh_history_cp *cp = NULL;
    size_t k = 0;

    (void)state;
    noisy(x, LEN(x), 7, 0.01, 1000.0, 40, 1.10);
    assert_int_equal(bh_history_detect(x, LEN(x), NULL, NULL, &cp, &k), 0);
    assert_int_equal(k, 1);
    assert_int_equal(cp[0].index, 40);
    assert_true(cp[0].change > 0.08 && cp[0].change < 0.12);
    assert_true(cp[0].p < 1e-10);
    free(cp);
    /* Pure 2% noise: the best of ~74 splits tested at an unadjusted p of
     * 0.001 gave about 3% of such series a false alarm (seed 6 of these
     * had one, p 1e-4 .. 1e-3); with the p adjusted for the choice none of
     * these 40 has one, and seed 6's best split is far from max_p. */
    for (uint64_t seed = 1; seed <= 40; seed++) {
        bh_history_opts o;

        noisy(x, LEN(x), seed, 0.02, 1000.0, LEN(x), 1.0);
        assert_int_equal(bh_history_detect(x, LEN(x), NULL, NULL, &cp, &k), 0);
        assert_int_equal(k, 0);
        if (seed != 6)
            continue;
        bh_history_opts_default(&o);
        o.max_p = 1.0;
        o.min_change = 0.0;
        assert_int_equal(bh_history_detect(x, LEN(x), NULL, &o, &cp, &k), 0);
        assert_true(k >= 1);
        for (size_t i = 0; i < k; i++) {
            assert_true(cp[i].p_adjusted >= cp[i].p * (double)cp[i].candidates * (1 - 1e-12) ||
                        cp[i].p_adjusted == 1.0);
            assert_true(cp[i].p_adjusted > 0.001);
        }
        free(cp);
    }
}

/* A long series: steps of +10% at 150 and -8% at 420 in 1% noise, seen
 * through 50-point windows; both found at their index, nothing else. */
static void test_detect_windowed_long_series(void **state)
{
    enum { N = 600 };
    double *x = bh_xmalloc(N * sizeof(double));
    bh_history_cp *cp = NULL;
    size_t k = 0;

    (void)state;
    noisy(x, N, 11, 0.01, 500.0, N, 1.0);
    for (size_t i = 150; i < N; i++)
        x[i] *= 1.10;
    for (size_t i = 420; i < N; i++)
        x[i] *= 0.92;
    assert_int_equal(bh_history_detect(x, N, NULL, NULL, &cp, &k), 0);
    assert_int_equal(k, 2);
    assert_int_equal(cp[0].index, 150);
    assert_int_equal(cp[1].index, 420);
    assert_int_equal(cp[0].lo, 0);
    assert_int_equal(cp[0].hi, 420);
    assert_int_equal(cp[1].lo, 150);
    assert_int_equal(cp[1].hi, N);
    assert_true(cp[0].change > 0.09 && cp[0].change < 0.11);
    assert_true(cp[1].change < -0.07 && cp[1].change > -0.09);
    free(cp);
    free(x);
}

/* A 0.5% step in 0.05% noise is highly significant but below the 1%
 * magnitude floor; a 0.4% floor keeps it. */
static void test_detect_magnitude_floor(void **state)
{
    double x[40];
    bh_history_opts o;
    bh_history_cp *cp = NULL;
    size_t k = 0;

    (void)state;
    noisy(x, LEN(x), 3, 0.0005, 100.0, 20, 1.005);
    bh_history_opts_default(&o);
    assert_int_equal(bh_history_detect(x, LEN(x), NULL, &o, &cp, &k), 0);
    assert_int_equal(k, 0);
    o.min_change = 0.004;
    assert_int_equal(bh_history_detect(x, LEN(x), NULL, &o, &cp, &k), 0);
    assert_int_equal(k, 1);
    assert_int_equal(cp[0].index, 20);
    assert_true(cp[0].p < 1e-10);
    free(cp);
}

/* Too short for two segments of min_size: nothing, even for a big step. */
static void test_detect_too_short(void **state)
{
    static const double x[] = {1, 1.01, 0.99, 5, 5.02};
    bh_history_cp *cp = (bh_history_cp *)1;
    size_t k = 7;

    (void)state;
    assert_int_equal(bh_history_detect(x, LEN(x), NULL, NULL, &cp, &k), 0);
    assert_int_equal(k, 0);
    assert_null(cp);
    assert_int_equal(bh_history_detect(NULL, 0, NULL, NULL, &cp, &k), 0);
    assert_int_equal(k, 0);
}

/* NaN, infinities, zero and negative values and bad options are refused. */
static void test_detect_rejects(void **state)
{
    double x[12];
    bh_history_opts o;
    bh_history_cp *cp = NULL;
    size_t k = 0;

    (void)state;
    for (size_t i = 0; i < LEN(x); i++)
        x[i] = 1.0 + 0.01 * (double)(i % 3);
    x[5] = NAN;
    assert_int_equal(bh_history_detect(x, LEN(x), NULL, NULL, &cp, &k), -1);
    x[5] = INFINITY;
    assert_int_equal(bh_history_detect(x, LEN(x), NULL, NULL, &cp, &k), -1);
    x[5] = 0.0;
    assert_int_equal(bh_history_detect(x, LEN(x), NULL, NULL, &cp, &k), -1);
    x[5] = -1.0;
    assert_int_equal(bh_history_detect(x, LEN(x), NULL, NULL, &cp, &k), -1);
    assert_null(cp);
    x[5] = 1.0;
    assert_int_equal(bh_history_detect(NULL, 3, NULL, NULL, &cp, &k), -1);
    bh_history_opts_default(&o);
    o.min_size = 1;
    assert_int_equal(bh_history_detect(x, LEN(x), NULL, &o, &cp, &k), -1);
    bh_history_opts_default(&o);
    o.window = 5; /* less than 2 min_size */
    assert_int_equal(bh_history_opts_check(&o), -1);
    o.window = 6;
    assert_int_equal(bh_history_opts_check(&o), 0);
    o.max_p = 0.0;
    assert_int_equal(bh_history_opts_check(&o), -1);
    bh_history_opts_default(&o);
    o.min_change = NAN;
    assert_int_equal(bh_history_opts_check(&o), -1);
    bh_history_opts_default(&o);
    o.unit = BH_HISTORY_UNIT_RUN; /* needs runs */
    assert_int_equal(bh_history_detect(x, LEN(x), NULL, &o, &cp, &k), -1);
}

/* Identical input gives identical output bytes, and the input is left
 * untouched. */
static void test_detect_deterministic(void **state)
{
    double x[300], copy[300];
    bh_history_cp *a = NULL, *b = NULL;
    size_t ka = 0, kb = 0;

    (void)state;
    noisy(x, LEN(x), 5, 0.02, 100.0, 120, 1.06);
    for (size_t i = 200; i < LEN(x); i++)
        x[i] *= 0.9;
    memcpy(copy, x, sizeof(x));
    assert_int_equal(bh_history_detect(x, LEN(x), NULL, NULL, &a, &ka), 0);
    assert_int_equal(bh_history_detect(x, LEN(x), NULL, NULL, &b, &kb), 0);
    assert_memory_equal(x, copy, sizeof(x));
    assert_int_equal(ka, kb);
    assert_true(ka >= 2);
    assert_memory_equal(a, b, ka * sizeof(*a));
    free(a);
    free(b);
}

/* Unit RUN: the t test pools the run values of each segment's points. */
static void test_detect_run_unit(void **state)
{
    /* 8 points of 3 runs each; the step is at point 4. */
    static const double rv[] = {100, 101, 99,  100, 102, 98,  101, 100, 99,  99,  100, 101,
                                110, 111, 109, 110, 112, 108, 111, 110, 109, 109, 110, 111};
    static const size_t off[] = {0, 3, 6, 9, 12, 15, 18, 21, 24};
    double x[8];
    bh_history_runs runs = {rv, off};
    bh_history_opts o = raw_opts();
    bh_history_cp *cp = NULL;
    size_t k = 0;
    size_t bad_off[9];

    (void)state;
    for (size_t i = 0; i < 8; i++)
        x[i] = i < 4 ? 100.0 + (double)(i % 2) : 110.0 + (double)(i % 2);
    o.unit = BH_HISTORY_UNIT_RUN;
    o.min_size = 2;
    assert_int_equal(bh_history_detect(x, 8, &runs, &o, &cp, &k), 0);
    assert_int_equal(k, 1);
    assert_int_equal(cp[0].index, 4);
    /* 12 run values a side with means 100 and 110 and squared deviations
     * summing to 14 on each side: Student df 22, pooled s^2 = 28/22, and
     * t = 10 / sqrt(s^2 (1/12 + 1/12)). */
    ASSERT_NEAR(cp[0].df, 22.0, 0.0);
    ASSERT_NEAR(cp[0].t, 10.0 / sqrt((28.0 / 22.0) / 6.0), 1e-12);
    free(cp);
    memcpy(bad_off, off, sizeof(off));
    bad_off[3] = bad_off[2]; /* a point without runs */
    runs.offset = bad_off;
    assert_int_equal(bh_history_detect(x, 8, &runs, &o, &cp, &k), -1);
}

/* ---- the prediction interval -------------------------------------------- */

/* Bencher's docs example (docs/statistics.md section 6): n 25, mean 100,
 * sd 10, upper boundary 0.977 -> [78.5391, 121.4609]. 12 x 90, 12 x 110
 * and one 100 have exactly that mean and sd. */
static void test_predict_bencher_kat(void **state)
{
    double ref[25];
    bh_history_pi pi;

    (void)state;
    for (size_t i = 0; i < 25; i++)
        ref[i] = i < 12 ? 90.0 : i < 24 ? 110.0 : 100.0;
    assert_int_equal(bh_history_predict(ref, 25, 120.0, 2 * 0.977 - 1, &pi), 0);
    assert_int_equal(pi.n, 25);
    ASSERT_NEAR(pi.center, 100.0, 1e-15);
    ASSERT_ABS(pi.lo, 78.5391, 6e-5);
    ASSERT_ABS(pi.hi, 121.4609, 6e-5);
    ASSERT_NEAR(pi.df, 24.0, 0.0);
    assert_int_equal(pi.status, BH_HISTORY_PI_INSIDE);
    assert_int_equal(bh_history_predict(ref, 25, 121.5, 2 * 0.977 - 1, &pi), 0);
    assert_int_equal(pi.status, BH_HISTORY_PI_ABOVE);
    assert_int_equal(bh_history_predict(ref, 25, 78.5, 2 * 0.977 - 1, &pi), 0);
    assert_int_equal(pi.status, BH_HISTORY_PI_BELOW);
    /* At the center: t 0, p 1. */
    assert_int_equal(bh_history_predict(ref, 25, 100.0, 0.99, &pi), 0);
    ASSERT_ABS(pi.t, 0.0, 0.0);
    ASSERT_NEAR(pi.p, 1.0, 1e-15);
}

/* Bencher's T_LIMIT(0.85, n 6) = t(0.85; 5) sqrt(7/6) = 1.2483714094976244:
 * the upper bound for a reference of mean 0 and sd 1 (three each of
 * +-sqrt(5/6)) at two-sided level 0.7; the newest at the bound has
 * p = 0.3. */
static void test_predict_tlimit_kat(void **state)
{
    double a = sqrt(5.0 / 6.0);
    double ref[6] = {a, -a, a, -a, a, -a};
    bh_history_pi pi;

    (void)state;
    assert_int_equal(bh_history_predict(ref, 6, 0.0, 0.7, &pi), 0);
    ASSERT_NEAR(pi.hi, 1.2483714094976244, 1e-10);
    ASSERT_NEAR(pi.lo, -1.2483714094976244, 1e-10);
    assert_int_equal(bh_history_predict(ref, 6, 1.2483714094976244, 0.7, &pi), 0);
    ASSERT_NEAR(pi.p, 0.3, 1e-9);
}

static void test_predict_edges(void **state)
{
    static const double flat[] = {5, 5, 5, 5};
    static const double two[] = {1, 3};
    double bad[] = {1, NAN, 3};
    bh_history_pi pi;

    (void)state;
    assert_int_equal(bh_history_predict(flat, 4, 6.0, 0.99, &pi), 0);
    assert_int_equal(pi.status, BH_HISTORY_PI_NONE);
    ASSERT_NEAR(pi.lo, 5.0, 0.0);
    assert_true(isnan(pi.p));
    assert_int_equal(bh_history_predict(two, 1, 2.0, 0.99, &pi), -1);
    assert_int_equal(pi.status, BH_HISTORY_PI_NONE);
    assert_int_equal(bh_history_predict(two, 2, NAN, 0.99, &pi), -1);
    assert_int_equal(bh_history_predict(two, 2, 2.0, 1.0, &pi), -1);
    assert_int_equal(bh_history_predict(bad, 3, 2.0, 0.99, &pi), -1);
    /* n 2: df 1 (Cauchy), t(0.995; 1) = tan(0.495 pi); sd sqrt 2. */
    assert_int_equal(bh_history_predict(two, 2, 2.0, 0.99, &pi), 0);
    ASSERT_NEAR(pi.hi, 2.0 + tan(0.495 * M_PI) * sqrt(2.0) * sqrt(1.5), 1e-10);
}

/* The newest-value check: reference = the points since the last change
 * (without the newest), at most max_ref of them, on log values. */
static void test_check_newest(void **state)
{
    static const double x[] = {100, 100, 100, 200, 210, 190, 200, 205};
    double ref[4], want_lo, want_hi;
    double *longx = bh_xmalloc(100 * sizeof(double));
    bh_history_pi pi, direct;

    (void)state;
    assert_int_equal(bh_history_check_newest(x, LEN(x), 3, 2, 64, 0.99, 1, &pi), 0);
    assert_int_equal(pi.n, 4);
    ASSERT_NEAR(pi.center, pow(200.0 * 210.0 * 190.0 * 200.0, 0.25), 1e-12);
    for (size_t i = 0; i < 4; i++)
        ref[i] = log(x[3 + i]);
    assert_int_equal(bh_history_predict(ref, 4, log(205.0), 0.99, &direct), 0);
    want_lo = exp(direct.lo);
    want_hi = exp(direct.hi);
    ASSERT_NEAR(pi.lo, want_lo, 1e-14);
    ASSERT_NEAR(pi.hi, want_hi, 1e-14);
    ASSERT_NEAR(pi.p, direct.p, 1e-14);
    assert_int_equal(pi.status, BH_HISTORY_PI_INSIDE);
    /* Right after a change only 1 reference point: no interval. */
    assert_int_equal(bh_history_check_newest(x, 5, 3, 2, 64, 0.99, 1, &pi), 0);
    assert_int_equal(pi.status, BH_HISTORY_PI_NONE);
    assert_int_equal(pi.n, 1);
    /* Capped at max_ref. */
    for (size_t i = 0; i < 100; i++)
        longx[i] = 50.0 + (double)(i % 7);
    assert_int_equal(bh_history_check_newest(longx, 100, 0, 2, 64, 0.99, 1, &pi), 0);
    assert_int_equal(pi.n, 64);
    assert_int_equal(bh_history_check_newest(longx, 100, 90, 2, 64, 0.99, 0, &pi), 0);
    assert_int_equal(pi.n, 9);
    assert_int_equal(bh_history_check_newest(longx, 100, 100, 2, 64, 0.99, 0, &pi), -1);
    assert_int_equal(bh_history_check_newest(longx, 100, 0, 1, 64, 0.99, 0, &pi), -1);
    assert_int_equal(bh_history_check_newest(longx, 100, 0, 5, 4, 0.99, 0, &pi), -1);
    /* 9 reference points but 10 wanted: no interval. */
    assert_int_equal(bh_history_check_newest(longx, 100, 90, 10, 64, 0.99, 0, &pi), 0);
    assert_int_equal(pi.status, BH_HISTORY_PI_NONE);
    assert_int_equal(pi.n, 9);
    free(longx);
}

/* ---- the loader ------------------------------------------------------- */

static char *make_tmpdir(void)
{
    const char *base = getenv("TMPDIR");
    char *dir = bh_xasprintf("%s/bh_history_XXXXXX", base && *base ? base : "/tmp");

    assert_non_null(mkdtemp(dir));
    return dir;
}

static void rm_rf(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *de;

    while (d && (de = readdir(d))) {
        char *p;
        struct stat st;

        if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
            continue;
        p = bh_xasprintf("%s/%s", dir, de->d_name);
        if (lstat(p, &st) == 0 && S_ISDIR(st.st_mode))
            rm_rf(p);
        else
            unlink(p);
        free(p);
    }
    if (d)
        closedir(d);
    rmdir(dir);
}

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");

    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* A minimal result document: one case "b/x" whose two ok runs have
 * samples (1 iteration each) v0,v1 and v2,v3 ns, plus a failed case. */
static void write_result(const char *path, const char *config, const char *started,
                         double v0, double v1, double v2, double v3)
{
    char *text = bh_xasprintf(
        "{\"schema\":\"bhost.result/1\",\"run\":{\"started_at\":\"%s\","
        "\"config\":{\"name\":\"%s\"}},\"cases\":["
        "{\"id\":\"b/x\",\"status\":\"ok\",\"runs\":["
        "{\"status\":\"ok\",\"samples\":[[1,%g],[1,%g]]},"
        "{\"status\":\"ok\",\"samples\":[[2,%g],[2,%g]]},"
        "{\"status\":\"failed\",\"samples\":[[1,1]]}]},"
        "{\"id\":\"b/y\",\"status\":\"failed\",\"runs\":[]}]}",
        started, config, v0, v1, 2 * v2, 2 * v3);

    write_text(path, text);
    free(text);
}

static int match_x(const char *id, void *ctx)
{
    (void)ctx;
    return strcmp(id, "b/x") == 0;
}

static void test_load_folder(void **state)
{
    char *dir = make_tmpdir();
    char *p;
    bh_history_set set;
    bh_history_filter f;
    bh_error e = {""};

    (void)state;
    p = bh_xasprintf("%s/nightly", dir);
    assert_int_equal(mkdir(p, 0755), 0);
    free(p);
    p = bh_xasprintf("%s/nightly/baselines", dir);
    assert_int_equal(mkdir(p, 0755), 0);
    free(p);
    /* Written out of time order; b.json and a.json share a time. */
    p = bh_xasprintf("%s/nightly/c.json", dir);
    write_result(p, "nightly", "2026-01-03T00:00:00Z", 30, 32, 34, 36);
    free(p);
    p = bh_xasprintf("%s/nightly/b.json", dir);
    write_result(p, "nightly", "2026-01-01T00:00:00Z", 20, 22, 24, 26);
    free(p);
    p = bh_xasprintf("%s/nightly/a.json", dir);
    write_result(p, "nightly", "2026-01-01T00:00:00Z", 10, 12, 14, 16);
    free(p);
    p = bh_xasprintf("%s/nightly/baselines/main.json", dir);
    write_result(p, "nightly", "2026-01-09T00:00:00Z", 1, 1, 1, 1);
    free(p);
    p = bh_xasprintf("%s/nightly/broken.json", dir);
    write_text(p, "{\"schema\":\"bhost.result/1\",");
    free(p);
    p = bh_xasprintf("%s/nightly/nodate.json", dir);
    write_text(p, "{\"schema\":\"bhost.result/1\",\"run\":{},\"cases\":[]}");
    free(p);
    p = bh_xasprintf("%s/other.json", dir);
    write_result(p, "smoke", "2026-01-02T00:00:00Z", 5, 5, 5, 5);
    free(p);
    p = bh_xasprintf("%s/notes.txt", dir);
    write_text(p, "not a result");
    free(p);

    memset(&set, 0, sizeof(set));
    assert_int_equal(bh_history_load(dir, NULL, &set, &e), 0);
    assert_int_equal(set.n_files, 4);
    assert_int_equal(set.n_skipped, 2);
    assert_int_equal(set.n_warnings, 2);
    assert_non_null(strstr(set.warnings[0], "broken.json"));
    assert_non_null(strstr(set.warnings[1], "nodate.json"));
    assert_non_null(strstr(set.warnings[1], "run.started_at"));
    assert_int_equal(set.n_series, 2);
    assert_string_equal(set.series[0].config, "nightly");
    assert_string_equal(set.series[0].case_id, "b/x");
    assert_string_equal(set.series[1].config, "smoke");
    assert_int_equal(set.series[0].n, 3);
    /* a.json before b.json (same time, by name), then c.json. Values: the
     * median of the run medians (11, 15) = 13, (21, 25) = 23, (31, 35). */
    assert_non_null(strstr(set.files[set.series[0].pts[0].file].path, "/a.json"));
    assert_non_null(strstr(set.files[set.series[0].pts[1].file].path, "/b.json"));
    ASSERT_NEAR(set.series[0].pts[0].value, 13.0, 1e-15);
    ASSERT_NEAR(set.series[0].pts[1].value, 23.0, 1e-15);
    ASSERT_NEAR(set.series[0].pts[2].value, 33.0, 1e-15);
    assert_int_equal(set.series[0].pts[2].n_runs, 2);
    ASSERT_NEAR(set.runs[set.series[0].pts[2].run_off], 31.0, 1e-15);
    ASSERT_NEAR(set.runs[set.series[0].pts[2].run_off + 1], 35.0, 1e-15);
    bh_history_set_free(&set);

    /* Config filter and case filter. */
    memset(&f, 0, sizeof(f));
    f.config = "nightly";
    f.match = match_x;
    memset(&set, 0, sizeof(set));
    assert_int_equal(bh_history_load(dir, &f, &set, &e), 0);
    assert_int_equal(set.n_series, 1);
    assert_int_equal(set.n_other_config, 1);
    bh_history_set_free(&set);

    /* Strict: the first malformed file is an error naming it. */
    f.strict = 1;
    memset(&set, 0, sizeof(set));
    assert_int_equal(bh_history_load(dir, &f, &set, &e), -1);
    assert_non_null(strstr(e.msg, "broken.json"));
    bh_history_set_free(&set);

    /* Unreadable root. */
    p = bh_xasprintf("%s/missing", dir);
    memset(&set, 0, sizeof(set));
    assert_int_equal(bh_history_load(p, NULL, &set, &e), -1);
    assert_non_null(strstr(e.msg, "missing"));
    bh_history_set_free(&set);
    free(p);
    rm_rf(dir);
    free(dir);
}

/* Load + analyze + JSON on a folder with a step: the change point carries
 * the date of its first point, and the output is identical twice. */
static void test_analyze_folder(void **state)
{
    char *dir = make_tmpdir();
    bh_history_set set;
    bh_history_analysis an;
    bh_history_analysis_opts o;
    bh_error e = {""};
    char *j1, *j2;
    cJSON *doc;

    (void)state;
    for (int day = 1; day <= 24; day++) {
        char *p = bh_xasprintf("%s/r%02d.json", dir, day);
        char *when = bh_xasprintf("2026-03-%02dT01:00:00Z", day);
        double level = day >= 13 ? 110.0 : 100.0;
        double w = 0.002 * (double)(day % 5) - 0.004;

        write_result(p, "nightly", when, level * (1 + w), level * (1 + w),
                     level * (1 + w), level * (1 + w));
        free(p);
        free(when);
    }
    memset(&set, 0, sizeof(set));
    memset(&an, 0, sizeof(an));
    bh_history_analysis_opts_default(&o);
    assert_int_equal(bh_history_load(dir, NULL, &set, &e), 0);
    assert_int_equal(bh_history_analyze(&set, &o, &an), 0);
    assert_int_equal(an.n, 1);
    assert_int_equal(an.r[0].n_cps, 1);
    assert_int_equal(an.r[0].cps[0].index, 12);
    assert_true(an.r[0].cps[0].change > 0.09 && an.r[0].cps[0].change < 0.11);
    assert_int_equal(an.r[0].newest.n, 11);
    assert_int_equal(an.r[0].newest.status, BH_HISTORY_PI_INSIDE);
    assert_true(an.r[0].newest_q >= an.r[0].newest.p);
    doc = bh_history_json(dir, &set, &o, &an);
    j1 = cJSON_PrintUnformatted(doc);
    assert_string_equal(cJSON_GetObjectItem(doc, "schema")->valuestring, BH_HISTORY_SCHEMA);
    cJSON_Delete(doc);
    assert_non_null(strstr(j1, "\"date\":\"2026-03-13T01:00:00Z\""));
    bh_history_analysis_free(&an);
    assert_int_equal(bh_history_analyze(&set, &o, &an), 0);
    doc = bh_history_json(dir, &set, &o, &an);
    j2 = cJSON_PrintUnformatted(doc);
    cJSON_Delete(doc);
    assert_string_equal(j1, j2);
    free(j1);
    free(j2);
    bh_history_analysis_free(&an);
    bh_history_set_free(&set);
    rm_rf(dir);
    free(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_detect_hunter_kat),
        cmocka_unit_test(test_detect_welch_kat_and_max_p),
        cmocka_unit_test(test_detect_edivisive_location),
        cmocka_unit_test(test_detect_zero_spread),
        cmocka_unit_test(test_detect_step_in_noise),
        cmocka_unit_test(test_detect_windowed_long_series),
        cmocka_unit_test(test_detect_magnitude_floor),
        cmocka_unit_test(test_detect_too_short),
        cmocka_unit_test(test_detect_rejects),
        cmocka_unit_test(test_detect_deterministic),
        cmocka_unit_test(test_detect_run_unit),
        cmocka_unit_test(test_predict_bencher_kat),
        cmocka_unit_test(test_predict_tlimit_kat),
        cmocka_unit_test(test_predict_edges),
        cmocka_unit_test(test_check_newest),
        cmocka_unit_test(test_load_folder),
        cmocka_unit_test(test_analyze_folder),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
