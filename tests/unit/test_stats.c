// SPDX-License-Identifier: MIT
/* Unit tests for host/stats: known-answer vectors from
 * docs/statistics.md section 10 (and high-precision references
 * computed with mpmath at 40 digits), edge cases, and determinism. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "bh_rng.h"
#include "bootstrap.h"
#include "compare.h"
#include "descriptive.h"
#include "distributions.h"
#include "quantile.h"
#include "runs.h"
#include "summary.h"

#define LEN(a) (sizeof(a) / sizeof((a)[0]))

static bool near(double got, double want, double rel)
{
    if (isnan(want))
        return isnan(got);
    if (isinf(want))
        return got == want;
    if (want == 0.0)
        return fabs(got) <= rel;
    return fabs(got - want) <= rel * fabs(want);
}

#define ASSERT_ABS(got, want, tol)                                                      \
    do {                                                                                \
        double g_ = (got), w_ = (want);                                                 \
        if (!(fabs(g_ - w_) <= (tol)))                                                  \
            fail_msg("%s = %.17g, want %.17g (abs %g)", #got, g_, w_, (double)(tol));   \
    } while (0)

#define ASSERT_NEAR(got, want, rel)                                                     \
    do {                                                                                \
        double g_ = (got), w_ = (want);                                                 \
        if (!near(g_, w_, (rel)))                                                       \
            fail_msg("%s = %.17g, want %.17g (rel %g)", #got, g_, w_, (double)(rel));   \
    } while (0)

/* The asv test vector (from R quantile(type = 7)), already sorted. */
static const double asv_x[12] = {-2.47946614, -1.49595963, -1.02812482, -0.76592323,
                                 -0.09452743, 0.10732743,  0.27798342,  0.50173779,
                                 0.57829823,  0.60474948,  0.94695675,  1.20159789};

/* ---- descriptive ----------------------------------------------------- */

static void test_variance_kat(void **state)
{
    const double x[] = {1e9 + 4, 1e9 + 7, 1e9 + 13, 1e9 + 16};
    double m, v;
    bh_stats_welford w;

    (void)state;
    assert_int_equal(bh_stats_mean_var(x, LEN(x), &m, &v), 0);
    ASSERT_NEAR(m, 1e9 + 10, 1e-15);
    ASSERT_NEAR(v, 30.0, 1e-12);
    bh_stats_welford_init(&w);
    for (size_t i = 0; i < LEN(x); i++)
        bh_stats_welford_push(&w, x[i]);
    ASSERT_NEAR(w.mean, 1e9 + 10, 1e-15);
    ASSERT_NEAR(bh_stats_welford_var(&w), 30.0, 1e-12);
}

static void test_variance_edges(void **state)
{
    const double one = 7.5, eq[] = {3, 3, 3, 3, 3};
    double m, v;
    bh_stats_welford w = {0};

    (void)state;
    assert_int_equal(bh_stats_mean_var(NULL, 0, &m, &v), -1);
    assert_true(isnan(m) && isnan(v));
    assert_true(isnan(bh_stats_mean(NULL, 0)));
    assert_int_equal(bh_stats_mean_var(&one, 1, &m, &v), 0);
    ASSERT_NEAR(m, 7.5, 0);
    assert_true(isnan(v));
    assert_int_equal(bh_stats_mean_var(eq, LEN(eq), &m, &v), 0);
    ASSERT_NEAR(m, 3.0, 0);
    ASSERT_NEAR(v, 0.0, 0);
    assert_true(isnan(bh_stats_welford_var(&w)));
    bh_stats_welford_push(&w, 1.0);
    assert_true(isnan(bh_stats_welford_var(&w)));
}

static void test_all_finite(void **state)
{
    double x[] = {1, 2, 3};

    (void)state;
    assert_true(bh_stats_all_finite(NULL, 0));
    assert_true(bh_stats_all_finite(x, 3));
    x[1] = NAN;
    assert_false(bh_stats_all_finite(x, 3));
    x[1] = -INFINITY;
    assert_false(bh_stats_all_finite(x, 3));
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;

    return (x > y) - (x < y);
}

static void test_sort_and_select(void **state)
{
    enum { N = 1000 };
    double *x = malloc(N * sizeof(*x)), *ref = malloc(N * sizeof(*ref));
    double *y = malloc(N * sizeof(*y));
    double z[] = {0.0, -0.0, 1.0, -0.0, 0.0};
    bh_rng r;

    (void)state;
    bh_rng_seed(&r, 42);
    /* Many ties, a sorted run and a reversed run: the quicksort's bad cases. */
    for (size_t i = 0; i < N; i++)
        x[i] = i < 300 ? (double)bh_rng_below(&r, 7) : i < 600 ? (double)i : (double)(N - i);
    memcpy(ref, x, N * sizeof(*x));
    qsort(ref, N, sizeof(*ref), cmp_double);
    memcpy(y, x, N * sizeof(*x));
    bh_stats_sort(y, N);
    assert_memory_equal(y, ref, N * sizeof(*y));
    for (size_t k = 0; k < N; k += 37) {
        memcpy(y, x, N * sizeof(*x));
        ASSERT_NEAR(bh_stats_select(y, N, k), ref[k], 0);
    }
    assert_true(isnan(bh_stats_select(y, N, N)));
    /* -0 sorts before +0, so the bytes never depend on the input order. */
    bh_stats_sort(z, LEN(z));
    assert_true(signbit(z[0]) && signbit(z[1]) && !signbit(z[2]) && !signbit(z[3]));
    free(x);
    free(ref);
    free(y);
}

static void test_quantile_kat(void **state)
{
    const double a[] = {1, 2, 3, 4};

    (void)state;
    ASSERT_NEAR(bh_stats_quantile_sorted(a, 4, 0.25), 1.75, 1e-15);
    ASSERT_ABS(bh_stats_quantile_sorted(asv_x, 12, 0.2), -0.9756845, 5e-8);
    ASSERT_ABS(bh_stats_quantile_sorted(asv_x, 12, 0.5), 0.1926554, 5e-8);
    ASSERT_ABS(bh_stats_quantile_sorted(asv_x, 12, 0.8), 0.5994592, 5e-8);
    ASSERT_NEAR(bh_stats_quantile_sorted(a, 4, 0.0), 1.0, 0);
    ASSERT_NEAR(bh_stats_quantile_sorted(a, 4, 1.0), 4.0, 0);
    ASSERT_NEAR(bh_stats_quantile_sorted(a, 1, 0.7), 1.0, 0);
    assert_true(isnan(bh_stats_quantile_sorted(a, 0, 0.5)));
    assert_true(isnan(bh_stats_quantile_sorted(a, 4, 1.5)));
    assert_true(isnan(bh_stats_quantile_sorted(a, 4, NAN)));
}

static double brute_mad(const double *x, size_t n)
{
    double *d = malloc(n * sizeof(*d)), *s = malloc(n * sizeof(*s)), med, r;

    memcpy(s, x, n * sizeof(*s));
    qsort(s, n, sizeof(*s), cmp_double);
    med = bh_stats_median_sorted(s, n);
    for (size_t i = 0; i < n; i++)
        d[i] = fabs(x[i] - med);
    qsort(d, n, sizeof(*d), cmp_double);
    r = BH_STATS_MAD_SCALE * bh_stats_median_sorted(d, n);
    free(d);
    free(s);
    return r;
}

static void test_median_mad(void **state)
{
    const double a[] = {1, 2, 3, 4, 100}, b[] = {1, 2, 3, 4}, one[] = {5};
    const double eq[] = {2, 2, 2, 2};
    double x[40];
    bh_rng r;

    (void)state;
    ASSERT_NEAR(bh_stats_median_sorted(a, 5), 3.0, 0);
    ASSERT_NEAR(bh_stats_mad_sorted(a, 5, 3.0), 1.4826, 1e-15);
    ASSERT_NEAR(bh_stats_median_sorted(b, 4), 2.5, 0);
    ASSERT_NEAR(bh_stats_mad_sorted(b, 4, 2.5), 1.4826, 1e-15);
    ASSERT_NEAR(bh_stats_mad_sorted(one, 1, 5.0), 0.0, 0);
    ASSERT_NEAR(bh_stats_mad_sorted(eq, 4, 2.0), 0.0, 0);
    assert_true(isnan(bh_stats_median_sorted(a, 0)));
    assert_true(isnan(bh_stats_mad_sorted(a, 0, 0.0)));
    bh_rng_seed(&r, 7);
    for (size_t n = 1; n <= LEN(x); n++) {
        for (size_t i = 0; i < n; i++)
            x[i] = (double)bh_rng_below(&r, 10) + (i % 3 ? 0.0 : bh_rng_uniform(&r));
        qsort(x, n, sizeof(*x), cmp_double);
        ASSERT_NEAR(bh_stats_mad_sorted(x, n, bh_stats_median_sorted(x, n)), brute_mad(x, n),
                    1e-15);
    }
}

static void test_tukey_kat(void **state)
{
    const double x[] = {10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 40, 100};
    const double eq[] = {5, 5, 5};
    bh_stats_tukey t;

    (void)state;
    assert_int_equal(bh_stats_tukey_sorted(x, LEN(x), &t), 0);
    ASSERT_NEAR(t.q1, 12.75, 1e-15);
    ASSERT_NEAR(t.q3, 18.25, 1e-15);
    ASSERT_NEAR(t.iqr, 5.5, 1e-15);
    ASSERT_NEAR(t.low_mild_fence, 4.5, 1e-15);
    ASSERT_NEAR(t.high_mild_fence, 26.5, 1e-15);
    ASSERT_NEAR(t.low_severe_fence, -3.75, 1e-15);
    ASSERT_NEAR(t.high_severe_fence, 34.75, 1e-15);
    assert_int_equal(t.high_severe, 2);
    assert_int_equal(t.high_mild + t.low_mild + t.low_severe, 0);
    assert_int_equal(bh_stats_tukey_sorted(eq, LEN(eq), &t), 0);
    assert_int_equal(t.low_severe + t.low_mild + t.high_mild + t.high_severe, 0);
    assert_int_equal(bh_stats_tukey_sorted(x, 0, &t), -1);
}

/* ---- order-statistic CI ---------------------------------------------- */

static void test_order_ci_kat(void **state)
{
    double lo, hi, cov;
    size_t r, s;

    (void)state;
    assert_int_equal(bh_stats_quantile_ci_sorted(asv_x, 12, 0.5, 0.8, &lo, &hi, &cov), 0);
    ASSERT_NEAR(lo, -0.76592323, 0);
    ASSERT_NEAR(hi, 0.57829823, 0);
    /* F(8) - F(3) for Bin(12, 1/2) = (3797 - 299) / 4096. */
    ASSERT_NEAR(cov, 3498.0 / 4096.0, 1e-14);
    assert_int_equal(bh_stats_quantile_ci_sorted(asv_x, 12, 0.2, 0.8, &lo, &hi, NULL), 0);
    ASSERT_NEAR(lo, -2.47946614, 0);
    ASSERT_NEAR(hi, -0.09452743, 0);
    /* 99%: n <= 7 cannot reach the level, n = 8 gives [x(1), x(8)]. */
    for (size_t n = 1; n <= 7; n++) {
        assert_int_equal(bh_stats_order_ci_ranks(n, 0.5, 0.99, &r, &s, &cov), 0);
        assert_int_equal(r, 0);
        assert_int_equal(s, 0);
        ASSERT_NEAR(cov, 1.0, 0);
    }
    assert_int_equal(bh_stats_quantile_ci_sorted(asv_x, 6, 0.5, 0.99, &lo, &hi, NULL), 0);
    assert_true(isinf(lo) && lo < 0 && isinf(hi) && hi > 0);
    assert_int_equal(bh_stats_order_ci_ranks(8, 0.5, 0.99, &r, &s, &cov), 0);
    assert_int_equal(r, 1);
    assert_int_equal(s, 8);
    ASSERT_NEAR(cov, 1.0 - 2.0 / 256.0, 1e-15);
    /* Large n: the interval is about n/2 -+ z sqrt(n)/2 and covers >= level. */
    assert_int_equal(bh_stats_order_ci_ranks(100000, 0.5, 0.99, &r, &s, &cov), 0);
    assert_true(r > 49580 && r < 49600 && s == 100001 - r);
    assert_true(cov >= 0.99 && cov < 0.9905);
    assert_int_equal(bh_stats_order_ci_ranks(0, 0.5, 0.99, &r, &s, &cov), -1);
    assert_int_equal(bh_stats_order_ci_ranks(10, 1.0, 0.99, &r, &s, &cov), -1);
    assert_int_equal(bh_stats_order_ci_ranks(10, 0.5, 1.0, &r, &s, &cov), -1);
    assert_int_equal(bh_stats_quantile_ci_sorted(asv_x, 12, 0.5, NAN, &lo, &hi, NULL), -1);
    assert_true(isnan(lo) && isnan(hi));
}

/* ---- distributions --------------------------------------------------- */

static void test_normal(void **state)
{
    (void)state;
    ASSERT_NEAR(bh_stats_norm_quantile(0.85), 1.0364333894937896, 1e-14);
    ASSERT_NEAR(bh_stats_norm_quantile(0.975), 1.959963984540054, 1e-14);
    ASSERT_NEAR(bh_stats_norm_quantile(0.977), 1.9953933101678, 1e-12);
    ASSERT_NEAR(bh_stats_norm_quantile(0.3), -0.52440051270804078, 1e-14);
    ASSERT_NEAR(bh_stats_norm_quantile(1e-20), -9.2623400897984076, 1e-14);
    ASSERT_NEAR(bh_stats_norm_quantile(1e-300), -37.047096299361199, 1e-14);
    ASSERT_NEAR(bh_stats_norm_quantile(0.5), 0.0, 0);
    ASSERT_NEAR(bh_stats_norm_quantile(0.0), -INFINITY, 0);
    ASSERT_NEAR(bh_stats_norm_quantile(1.0), INFINITY, 0);
    assert_true(isnan(bh_stats_norm_quantile(-0.1)));
    assert_true(isnan(bh_stats_norm_quantile(NAN)));
    for (double p = 1e-15; p < 0.5; p *= 1.7)
        ASSERT_NEAR(bh_stats_norm_cdf(bh_stats_norm_quantile(p)), p, 1e-13);
    ASSERT_NEAR(bh_stats_norm_cdf(0.0), 0.5, 0);
    ASSERT_NEAR(bh_stats_norm_sf(1.959963984540054), 0.025, 1e-14);
    ASSERT_NEAR(bh_stats_norm_pdf(0.0), 0.3989422804014327, 1e-15);
}

static void test_beta(void **state)
{
    (void)state;
    ASSERT_NEAR(bh_stats_betainc(2.5, 3.5, 0.3), 0.29675298929566640, 1e-13);
    ASSERT_NEAR(bh_stats_betainc(200, 300, 0.41), 0.67762816477217935, 1e-12);
    ASSERT_NEAR(bh_stats_betainc(0.5, 0.5, 0.999), 0.97986495836662251, 1e-13);
    ASSERT_NEAR(bh_stats_betainc(1000, 1000, 0.45), 3.6831988690075610e-06, 1e-11);
    ASSERT_NEAR(bh_stats_betainc(5000, 0.5, 0.9999), 0.31731050725792680, 1e-11);
    ASSERT_NEAR(bh_stats_betainc_upper(1000, 1000, 0.55), 3.6831988690075610e-06, 1e-11);
    ASSERT_NEAR(bh_stats_betainc(3, 3, 0.5), 0.5, 1e-15);
    ASSERT_NEAR(bh_stats_betainc(1, 1, 0.3), 0.3, 1e-15);
    ASSERT_NEAR(bh_stats_betainc(4, 1, 0.6), pow(0.6, 4), 1e-14);
    ASSERT_NEAR(bh_stats_betainc(1, 2.5, 0.2), 1.0 - pow(0.8, 2.5), 1e-14);
    ASSERT_NEAR(bh_stats_betainc(2, 3, 0.0), 0.0, 0);
    ASSERT_NEAR(bh_stats_betainc(2, 3, 1.0), 1.0, 0);
    assert_true(isnan(bh_stats_betainc(0, 3, 0.5)));
    assert_true(isnan(bh_stats_betainc(2, 3, 1.5)));
    ASSERT_NEAR(bh_stats_lbeta(0.5, 0.5), 1.1447298858494002, 1e-15);
    ASSERT_NEAR(bh_stats_lbeta(3, 12), -6.9957661563048504, 1e-14);
    ASSERT_NEAR(bh_stats_lbeta(10000.5, 0.5), -4.0328177430633861, 1e-13);
    ASSERT_NEAR(bh_stats_lbeta(12.5, 3e5), -138.91011398868173, 1e-13);
    ASSERT_NEAR(bh_stats_lbeta(1e5, 2e5), -190958.88527911685, 1e-14);
}

static void test_student_t(void **state)
{
    (void)state;
    ASSERT_NEAR(bh_stats_t_cdf(2.1, 7), 0.9630644018935, 1e-12);
    ASSERT_NEAR(bh_stats_t_cdf(2.1, 7), 0.96306440189353866, 1e-14);
    /* Two-sided p of the section 10.6 t tests, from the listed t and nu. */
    ASSERT_NEAR(bh_stats_t_p2(-5.0, 8.0), 0.0010528257933665, 1e-12);
    ASSERT_NEAR(bh_stats_t_p2(-2.3763541031440, 6.9722557297949), 0.0492843382067, 1e-11);
    ASSERT_NEAR(bh_stats_t_p2(-2.2156468376280, 9), 0.0539459205094, 1e-11);
    ASSERT_NEAR(bh_stats_t_p2(-2.455356398286, 24.98852929), 0.021378001462867, 1e-9);
    ASSERT_NEAR(bh_stats_t_p2(-2.455356398286, 28), 0.020544522734126, 1e-11);
    ASSERT_NEAR(bh_stats_t_p2(10, 1e6), 1.5278610768178250e-23, 1e-10);
    ASSERT_NEAR(bh_stats_t_cdf(-40, 3), 1.7190340394579264e-05, 1e-13);
    ASSERT_NEAR(bh_stats_t_cdf(0.1, 2.5), 0.53609672796875521, 1e-14);
    ASSERT_NEAR(bh_stats_t_cdf(-3, 1e5), 0.0013502304420323596, 1e-11);
    ASSERT_NEAR(bh_stats_t_cdf(0.0, 3), 0.5, 0);
    ASSERT_NEAR(bh_stats_t_cdf(1.3, INFINITY), bh_stats_norm_cdf(1.3), 0);
    ASSERT_NEAR(bh_stats_t_pdf(0.0, 1), 1.0 / 3.14159265358979323846, 1e-15);
    assert_true(isnan(bh_stats_t_cdf(1.0, 0.0)));
    assert_true(isnan(bh_stats_t_cdf(NAN, 3)));
    /* Far tails, where t^2 overflows: Cauchy F(x) ~ 1 / (pi |x|). */
    ASSERT_NEAR(bh_stats_t_cdf(-1e200, 1), 1.0 / (3.14159265358979323846 * 1e200), 1e-14);
    ASSERT_NEAR(bh_stats_t_cdf(-1e160, 1), 1.0 / (3.14159265358979323846 * 1e160), 1e-14);
    ASSERT_NEAR(bh_stats_t_cdf(1e200, 1), 1.0, 0);
    ASSERT_NEAR(bh_stats_t_cdf(-INFINITY, 2), 0.0, 0);
}

static void test_student_t_quantile(void **state)
{
    static const double nus[] = {0.5, 1, 1.5, 2, 3.7, 5, 30, 1e3, 1e6};
    static const double ps[] = {1e-12, 1e-5, 0.01, 0.2, 0.45, 0.55, 0.9, 0.999};

    (void)state;
    ASSERT_NEAR(bh_stats_t_quantile(0.85, 5) * sqrt(7.0 / 6.0), 1.2483714094976244, 1e-12);
    ASSERT_NEAR(bh_stats_t_quantile(0.975, 1), 12.706204736174705, 1e-13);
    ASSERT_NEAR(bh_stats_t_quantile(0.975, 2), 4.3026527297494639, 1e-13);
    ASSERT_NEAR(bh_stats_t_quantile(0.995, 3.5), 5.0857022230912584, 1e-12);
    ASSERT_NEAR(bh_stats_t_quantile(1e-10, 4), -416.17514032960413, 1e-12);
    ASSERT_NEAR(bh_stats_t_quantile(0.05, 30), -1.6972608865939578, 1e-13);
    ASSERT_NEAR(bh_stats_t_quantile(0.3, 0.7), -0.83544115570696231, 1e-13);
    ASSERT_NEAR(bh_stats_t_quantile(1e-5, 1.5), -1124.5001233812076, 1e-12);
    ASSERT_NEAR(bh_stats_t_quantile(0.5, 4), 0.0, 0);
    ASSERT_NEAR(bh_stats_t_quantile(0.0, 4), -INFINITY, 0);
    ASSERT_NEAR(bh_stats_t_quantile(1.0, 4), INFINITY, 0);
    ASSERT_NEAR(bh_stats_t_quantile(0.975, INFINITY), 1.959963984540054, 1e-14);
    ASSERT_NEAR(bh_stats_t_quantile(1e-300, 1), -1.0 / (3.14159265358979323846 * 1e-300), 1e-13);
    ASSERT_NEAR(bh_stats_t_quantile(1e-300, 0.1), -INFINITY, 0); /* beyond DBL_MAX */
    ASSERT_NEAR(bh_stats_t_quantile(1e-20, 1e30), bh_stats_norm_quantile(1e-20), 0);
    assert_true(isnan(bh_stats_t_quantile(0.5, -1)));
    assert_true(isnan(bh_stats_t_quantile(2.0, 3)));
    for (size_t i = 0; i < LEN(nus); i++) {
        for (size_t j = 0; j < LEN(ps); j++) {
            double x = bh_stats_t_quantile(ps[j], nus[i]);

            /* Compare on the smaller tail, where the digits are. */
            if (ps[j] < 0.5)
                ASSERT_NEAR(bh_stats_t_cdf(x, nus[i]), ps[j], 1e-12);
            else
                ASSERT_NEAR(bh_stats_t_cdf(-x, nus[i]), 1.0 - ps[j], 1e-12);
        }
    }
}

static void test_f_distribution(void **state)
{
    (void)state;
    ASSERT_NEAR(bh_stats_f_sf(4, 9, 40), 0.0010485799526438563, 1e-12);
    ASSERT_NEAR(bh_stats_f_sf(2.5, 3, 7), 0.14350945627893922, 1e-13);
    /* d1 = 2 has a closed form: 1 - (1 + 2x/d2)^(-d2/2). */
    ASSERT_NEAR(bh_stats_f_cdf(1.7, 2, 11), 1.0 - pow(1.0 + 2.0 * 1.7 / 11.0, -5.5), 1e-14);
    ASSERT_NEAR(bh_stats_f_cdf(0.0, 2, 5), 0.0, 0);
    ASSERT_NEAR(bh_stats_f_sf(INFINITY, 2, 5), 0.0, 0);
    assert_true(isnan(bh_stats_f_cdf(1.0, 0, 5)));
}

static void test_binomial(void **state)
{
    /* C(2m, m) / 4^m = (1 - 1/8m + 1/128m^2 + 5/1024m^3) / sqrt(pi m). */
    double m = 50000.0;
    double central = (1.0 - 1.0 / (8 * m) + 1.0 / (128 * m * m) + 5.0 / (1024 * m * m * m)) /
                     sqrt(3.14159265358979323846 * m);

    (void)state;
    ASSERT_NEAR(bh_stats_binom_cdf(3, 12, 0.5), 299.0 / 4096.0, 1e-15);
    ASSERT_NEAR(bh_stats_binom_cdf(4, 12, 0.5), 794.0 / 4096.0, 1e-15);
    ASSERT_NEAR(bh_stats_binom_cdf(8, 12, 0.5), 3797.0 / 4096.0, 1e-15);
    ASSERT_NEAR(bh_stats_binom_sf(8, 12, 0.5), 299.0 / 4096.0, 1e-14);
    ASSERT_NEAR(bh_stats_binom_cdf(5, 20, 0.3), 0.41637082944748138, 1e-14);
    ASSERT_NEAR(bh_stats_binom_sf(10, 20, 0.3), 0.017144816431258436, 1e-13);
    ASSERT_NEAR(bh_stats_binom_cdf(80, 1000, 0.1), 0.017611574675836086, 1e-13);
    ASSERT_NEAR(bh_stats_binom_sf(150, 1000, 0.1), 2.7744409009960003e-07, 1e-12);
    ASSERT_NEAR(bh_stats_binom_logpmf(50000, 100000, 0.5), -5.9822565851298416, 1e-14);
    ASSERT_NEAR(exp(bh_stats_binom_logpmf(50000, 100000, 0.5)), central, 1e-13);
    ASSERT_NEAR(bh_stats_binom_logpmf(9000, 1000000, 0.01), -57.727156968824699, 1e-13);
    ASSERT_NEAR(bh_stats_binom_cdf(49999, 100000, 0.5), 0.49873843689290163, 1e-13);
    ASSERT_NEAR(bh_stats_binom_cdf(49500, 100000, 0.5), 7.9117993942579782e-04, 1e-12);
    ASSERT_NEAR(bh_stats_binom_sf(50600, 100000, 0.5), 7.2952415113248883e-05, 1e-12);
    ASSERT_NEAR(bh_stats_binom_cdf(48000, 100000, 0.5), 5.7654693333614882e-37, 1e-11);
    /* Log space survives where the probability underflows. */
    ASSERT_NEAR(bh_stats_binom_logcdf(0, 2000, 0.5), -2000.0 * log(2.0), 1e-14);
    ASSERT_NEAR(bh_stats_binom_logcdf(1999, 2000, 0.5), log1p(-pow(0.5, 2000)), 1e-14);
    /* Edges. */
    ASSERT_NEAR(bh_stats_binom_cdf(-1, 10, 0.5), 0.0, 0);
    ASSERT_NEAR(bh_stats_binom_cdf(10, 10, 0.5), 1.0, 0);
    ASSERT_NEAR(bh_stats_binom_cdf(0, 10, 0.0), 1.0, 0);
    ASSERT_NEAR(bh_stats_binom_cdf(9, 10, 1.0), 0.0, 0);
    ASSERT_NEAR(bh_stats_binom_sf(9, 10, 1.0), 1.0, 0);
    ASSERT_NEAR(bh_stats_binom_cdf(0, 0, 0.3), 1.0, 0);
    assert_true(isnan(bh_stats_binom_cdf(1, 10, 1.5)));
    assert_true(isnan(bh_stats_binom_cdf(1, -1, 0.5)));
    for (int64_t k = 0; k < 30; k++)
        ASSERT_NEAR(bh_stats_binom_cdf(k, 30, 0.37) + bh_stats_binom_sf(k, 30, 0.37), 1.0,
                    2e-15);
    ASSERT_NEAR(bh_stats_lchoose(66, 33), log(7219428434016265740.0), 1e-14);
    assert_true(isnan(bh_stats_lchoose(3, 4)));
}

/* ---- bootstrap ------------------------------------------------------- */

static void normal_sample(double *x, size_t n, uint64_t seed)
{
    bh_rng r;

    bh_rng_seed(&r, seed);
    for (size_t i = 0; i < n; i++)
        x[i] = bh_rng_normal(&r);
    bh_stats_sort(x, n);
}

static void test_bootstrap_determinism(void **state)
{
    enum { N = 1000 };
    double *x = malloc(N * sizeof(*x));
    bh_stats_boot a, b, c;

    (void)state;
    normal_sample(x, N, 1);
    assert_int_equal(bh_stats_bootstrap(x, N, 2000, 0.95, 99, &a), 0);
    assert_int_equal(bh_stats_bootstrap(x, N, 2000, 0.95, 99, &b), 0);
    assert_memory_equal(&a, &b, sizeof(a));
    assert_int_equal(bh_stats_bootstrap(x, N, 2000, 0.95, 100, &c), 0);
    assert_true(a.mean_lo != c.mean_lo || a.mean_hi != c.mean_hi);
    /* Sanity: SE of the mean about 1/sqrt(N); the CI holds the mean. */
    assert_true(a.mean_se > 0.9 / sqrt(N) && a.mean_se < 1.1 / sqrt(N));
    assert_true(a.mean_lo < bh_stats_mean(x, N) && bh_stats_mean(x, N) < a.mean_hi);
    assert_true(a.median_lo <= bh_stats_median_sorted(x, N));
    assert_true(bh_stats_median_sorted(x, N) <= a.median_hi);
    ASSERT_NEAR(a.mean_hi - a.mean_lo, 2 * 1.96 * a.mean_se, 0.1);
    free(x);
}

static void test_bootstrap_coverage(void **state)
{
    enum { N = 40, TRIALS = 200 };
    double x[N];
    int hit_mean = 0, hit_median = 0;

    (void)state;
    for (int t = 0; t < TRIALS; t++) {
        bh_stats_boot b;

        normal_sample(x, N, 1000 + (uint64_t)t);
        assert_int_equal(bh_stats_bootstrap(x, N, 1000, 0.95, (uint64_t)t, &b), 0);
        hit_mean += b.mean_lo < 0.0 && 0.0 < b.mean_hi;
        hit_median += b.median_lo < 0.0 && 0.0 < b.median_hi;
    }
    /* Nominal 0.95; the binomial 99% band for 200 trials is about +-0.04
     * and the percentile method undercovers a little at n = 40. */
    assert_true(hit_mean >= 176 && hit_mean <= 198);
    assert_true(hit_median >= 176 && hit_median <= 200);
}

static void test_bootstrap_edges(void **state)
{
    const double one[] = {4.25}, two[] = {1.0, 3.0};
    bh_stats_boot b;

    (void)state;
    assert_int_equal(bh_stats_bootstrap(one, 1, 100, 0.95, 1, &b), 0);
    ASSERT_NEAR(b.mean_lo, 4.25, 0);
    ASSERT_NEAR(b.median_hi, 4.25, 0);
    ASSERT_NEAR(b.mean_se, 0.0, 0);
    assert_int_equal(bh_stats_bootstrap(two, 2, 500, 0.95, 1, &b), 0);
    ASSERT_NEAR(b.mean_lo, 1.0, 0);
    ASSERT_NEAR(b.mean_hi, 3.0, 0);
    assert_int_equal(bh_stats_bootstrap(two, 2, 1, 0.95, 1, &b), 0);
    assert_true(isnan(b.mean_se));
    assert_int_equal(bh_stats_bootstrap(two, 0, 100, 0.95, 1, &b), -1);
    assert_true(isnan(b.mean_lo));
    assert_int_equal(bh_stats_bootstrap(two, 2, 0, 0.95, 1, &b), -1);
    assert_int_equal(bh_stats_bootstrap(two, 2, 10, 1.0, 1, &b), -1);
}

/* ---- summary --------------------------------------------------------- */

static bh_summary_opts quick_opts(void)
{
    bh_summary_opts o;

    bh_summary_opts_default(&o);
    o.boot_resamples = 200;
    return o;
}

static void test_summary_rejects(void **state)
{
    double x[] = {1, 2, 3};
    double ns[] = {2e6, 2e6, 2e6};
    bh_summary s;
    bh_summary_opts o = quick_opts();
    static const bh_summary zero;

    (void)state;
    assert_int_equal(bh_summarize(x, NULL, NULL, 0, NULL, &s), -1);
    assert_memory_equal(&s, &zero, sizeof(s));
    assert_int_equal(bh_summarize(NULL, NULL, NULL, 3, NULL, &s), -1);
    x[1] = NAN;
    assert_int_equal(bh_summarize(x, NULL, NULL, 3, &o, &s), -1);
    assert_memory_equal(&s, &zero, sizeof(s));
    x[1] = INFINITY;
    assert_int_equal(bh_summarize(x, NULL, NULL, 3, &o, &s), -1);
    x[1] = 2;
    ns[2] = NAN;
    assert_int_equal(bh_summarize(x, NULL, ns, 3, &o, &s), -1);
    o.ci_level = 1.0;
    assert_int_equal(bh_summarize(x, NULL, NULL, 3, &o, &s), -1);
    o = quick_opts();
    o.alpha = 0.0;
    assert_int_equal(bh_summarize(x, NULL, NULL, 3, &o, &s), -1);
    o = quick_opts();
    o.max_cv = -1.0;
    assert_int_equal(bh_summarize(x, NULL, NULL, 3, &o, &s), -1);
    o = quick_opts();
    o.boot_resamples = 0;
    o.boot_level = 7.0; /* ignored when the bootstrap is off */
    assert_int_equal(bh_summarize(x, NULL, NULL, 3, &o, &s), 0);
}

static void test_summary_defaults(void **state)
{
    bh_summary_opts o;

    (void)state;
    bh_summary_opts_default(&o);
    ASSERT_NEAR(o.ci_level, 0.99, 0);
    ASSERT_NEAR(o.boot_level, 0.95, 0);
    assert_int_equal(o.boot_resamples, 10000);
    ASSERT_NEAR(o.max_cv, 0.05, 0);
    ASSERT_NEAR(o.alpha, 0.01, 0);
    ASSERT_NEAR(o.power, 0.8, 0);
}

static void test_summary_n1_n2(void **state)
{
    const double one[] = {12.5}, two[] = {10.0, 14.0};
    const uint32_t runs2[] = {1, 0};
    bh_summary s;

    (void)state;
    assert_int_equal(bh_summarize(one, NULL, NULL, 1, NULL, &s), 0);
    assert_int_equal(s.n, 1);
    assert_int_equal(s.n_runs, 1);
    ASSERT_NEAR(s.min, 12.5, 0);
    ASSERT_NEAR(s.max, 12.5, 0);
    ASSERT_NEAR(s.median, 12.5, 0);
    ASSERT_NEAR(s.p99, 12.5, 0);
    ASSERT_NEAR(s.mad, 0.0, 0);
    assert_true(isnan(s.sd) && isnan(s.cv));
    assert_true(isinf(s.median_ci_lo) && isinf(s.median_ci_hi));
    ASSERT_NEAR(s.mean_boot_lo, 12.5, 0);
    ASSERT_NEAR(s.median_boot_hi, 12.5, 0);
    assert_true(isnan(s.within_run_cv) && isnan(s.between_run_cv) && isnan(s.mde));
    ASSERT_NEAR(s.run_median_median, 12.5, 0);
    ASSERT_NEAR(s.mwu_min_p, 1.0, 1e-15);
    assert_int_equal(s.flags, BH_STAB_TOO_FEW);

    assert_int_equal(bh_summarize(two, runs2, NULL, 2, NULL, &s), 0);
    assert_int_equal(s.n_runs, 2);
    ASSERT_NEAR(s.mean, 12.0, 0);
    ASSERT_NEAR(s.sd, sqrt(8.0), 1e-15);
    ASSERT_NEAR(s.median, 12.0, 0);
    ASSERT_NEAR(s.q1, 11.0, 0);
    ASSERT_NEAR(s.mad, 2.0 * 1.4826, 1e-15);
    ASSERT_NEAR(s.run_median_median, 12.0, 0);
    ASSERT_NEAR(s.between_run_cv, sqrt(8.0) / 12.0, 1e-15);
    assert_true(isnan(s.within_run_cv) && isnan(s.between_run_f));
    assert_true(s.mde > 0.0);
    assert_true(s.flags & BH_STAB_TOO_FEW);
    assert_true(s.flags & BH_STAB_HIGH_CV);
}

static void test_summary_all_equal_and_zeros(void **state)
{
    double x[30];
    uint32_t run[30];
    bh_summary s;
    bh_summary_opts o = quick_opts();

    (void)state;
    for (size_t i = 0; i < 30; i++) {
        x[i] = 5.0;
        run[i] = (uint32_t)(i % 3);
    }
    assert_int_equal(bh_summarize(x, run, NULL, 30, &o, &s), 0);
    ASSERT_NEAR(s.sd, 0.0, 0);
    ASSERT_NEAR(s.cv, 0.0, 0);
    ASSERT_NEAR(s.mad, 0.0, 0);
    ASSERT_NEAR(s.median_ci_lo, 5.0, 0);
    ASSERT_NEAR(s.median_ci_hi, 5.0, 0);
    ASSERT_NEAR(s.within_run_cv, 0.0, 0);
    ASSERT_NEAR(s.between_run_cv, 0.0, 0);
    ASSERT_NEAR(s.between_run_f, 0.0, 0);
    ASSERT_NEAR(s.mde, 0.0, 0);
    ASSERT_NEAR(s.drift, 0.0, 0);
    assert_int_equal(s.flags, 0);

    for (size_t i = 0; i < 30; i++)
        x[i] = 0.0;
    assert_int_equal(bh_summarize(x, run, NULL, 30, &o, &s), 0);
    ASSERT_NEAR(s.mean, 0.0, 0);
    assert_true(isnan(s.cv) && isnan(s.within_run_cv) && isnan(s.between_run_cv));
    assert_true(isnan(s.drift) && isnan(s.mde));
    assert_int_equal(s.low_severe + s.low_mild + s.high_mild + s.high_severe, 0);
    assert_int_equal(s.flags, 0);
}

static void test_summary_kat(void **state)
{
    /* The asv vector as one run, shuffled: order-statistic CI and type-7
     * quantiles must not depend on the input order. */
    static const size_t perm[12] = {5, 0, 11, 3, 8, 1, 10, 6, 2, 9, 4, 7};
    double x[12];
    bh_summary s;
    bh_summary_opts o = quick_opts();

    (void)state;
    for (size_t i = 0; i < 12; i++)
        x[i] = asv_x[perm[i]];
    o.ci_level = 0.8;
    assert_int_equal(bh_summarize(x, NULL, NULL, 12, &o, &s), 0);
    ASSERT_ABS(s.median, 0.1926554, 5e-8);
    ASSERT_NEAR(s.median_ci_lo, -0.76592323, 0);
    ASSERT_NEAR(s.median_ci_hi, 0.57829823, 0);
    ASSERT_NEAR(s.median_ci_level, 0.8, 0);
    ASSERT_NEAR(s.median_ci_coverage, 3498.0 / 4096.0, 1e-14);
    ASSERT_NEAR(s.min, -2.47946614, 0);
    ASSERT_NEAR(s.max, 1.20159789, 0);
}

static void test_summary_tukey_ties_flags(void **state)
{
    const double x[] = {15, 10, 100, 11, 12, 13, 40, 14, 16, 17, 18, 19};
    double ns[12];
    bh_summary s;
    bh_summary_opts o = quick_opts();

    (void)state;
    for (size_t i = 0; i < 12; i++)
        ns[i] = 5e6;
    assert_int_equal(bh_summarize(x, NULL, ns, 12, &o, &s), 0);
    ASSERT_NEAR(s.q1, 12.75, 1e-15);
    ASSERT_NEAR(s.q3, 18.25, 1e-15);
    assert_int_equal(s.high_severe, 2);
    assert_int_equal(s.n, 12); /* outliers are counted, never dropped */
    ASSERT_NEAR(s.max, 100.0, 0);
    assert_true(s.flags & BH_STAB_SEVERE_OUTLIERS);
    assert_false(s.flags & BH_STAB_SHORT_SAMPLES);
    ns[7] = 2e5;
    assert_int_equal(bh_summarize(x, NULL, ns, 12, &o, &s), 0);
    assert_true(s.flags & BH_STAB_SHORT_SAMPLES);
    o.min_sample_ns = 0.0;
    assert_int_equal(bh_summarize(x, NULL, ns, 12, &o, &s), 0);
    assert_false(s.flags & BH_STAB_SHORT_SAMPLES);
}

/* 10 runs x 10 samples, run-major, the same well-behaved values per run. */
static void clean_runs(double *x, uint32_t *run)
{
    for (size_t r = 0; r < 10; r++) {
        for (size_t i = 0; i < 10; i++) {
            x[r * 10 + i] = 100.0 + 0.1 * ((double)((i * 7 + r * 3) % 10) - 4.5);
            run[r * 10 + i] = (uint32_t)r;
        }
    }
}

static void test_summary_runs_clean(void **state)
{
    double x[100], y[100];
    uint32_t run[100], ry[100], sparse[100];
    bh_summary a, b, c;
    bh_summary_opts o = quick_opts();

    (void)state;
    clean_runs(x, run);
    assert_int_equal(bh_summarize(x, run, NULL, 100, &o, &a), 0);
    assert_int_equal(a.n_runs, 10);
    assert_int_equal(a.flags, 0);
    ASSERT_NEAR(a.between_run_cv, 0.0, 0);
    assert_true(a.within_run_cv > 0.0030 && a.within_run_cv < 0.0031);
    ASSERT_NEAR(a.run_median_median, 100.0, 1e-12);
    ASSERT_NEAR(a.mwu_min_p, 2.0 / 184756.0, 1e-13);
    assert_true(isfinite(a.median_ci_lo) && a.median_ci_lo <= a.median);
    /* Interleaving the runs (keeping each run's order) and renaming the ids
     * (keeping their order) change nothing. */
    for (size_t i = 0; i < 100; i++) {
        y[i] = x[(i % 10) * 10 + i / 10];
        ry[i] = run[(i % 10) * 10 + i / 10];
        sparse[i] = run[i] * 1000003u + 5u;
    }
    assert_int_equal(bh_summarize(y, ry, NULL, 100, &o, &b), 0);
    assert_memory_equal(&a, &b, sizeof(a));
    assert_int_equal(bh_summarize(x, sparse, NULL, 100, &o, &c), 0);
    assert_memory_equal(&a, &c, sizeof(a));
}

static void test_summary_between_run(void **state)
{
    double x[100];
    uint32_t run[100];
    bh_summary s;
    bh_summary_opts o = quick_opts();

    (void)state;
    clean_runs(x, run);
    for (size_t i = 0; i < 100; i++)
        x[i] *= 1.0 + 0.004 * (double)run[i]; /* run offsets of 0..3.6% */
    assert_int_equal(bh_summarize(x, run, NULL, 100, &o, &s), 0);
    assert_true(s.flags & BH_STAB_BETWEEN_RUN);
    assert_false(s.flags & BH_STAB_HIGH_CV);
    assert_true(s.between_run_f > 100.0 && s.between_run_p < 1e-10);
    for (size_t i = 0; i < 100; i++)
        x[i] *= 1.0 + 0.2 * (double)(run[i] % 2);
    assert_int_equal(bh_summarize(x, run, NULL, 100, &o, &s), 0);
    assert_true(s.flags & BH_STAB_HIGH_CV);
}

static void test_summary_drift(void **state)
{
    const double pattern[9] = {20, 19, 18, 10, 10.1, 9.9, 10, 10.05, 9.95};
    double x[45];
    uint32_t run[45];
    bh_summary s;
    bh_summary_opts o = quick_opts();

    (void)state;
    for (size_t i = 0; i < 45; i++) {
        x[i] = pattern[i % 9];
        run[i] = (uint32_t)(i / 9);
    }
    assert_int_equal(bh_summarize(x, run, NULL, 45, &o, &s), 0);
    ASSERT_NEAR(s.drift, (10.0 - 19.0) / 10.05, 1e-15);
    assert_true(s.flags & BH_STAB_WARMUP_DRIFT);
}

static void test_summary_mde(void **state)
{
    /* Four runs whose medians are e^0, e^0.01, e^0.02, e^0.03. */
    double x[12];
    uint32_t run[12];
    bh_summary s;
    bh_summary_opts o = quick_opts();
    double sd = 0.01 * sqrt(5.0 / 3.0);
    double z = 2.5758293035489004 + 0.8416212335729143;

    (void)state;
    for (size_t i = 0; i < 12; i++) {
        x[i] = exp(0.01 * (double)(i / 3));
        run[i] = (uint32_t)(i / 3);
    }
    assert_int_equal(bh_summarize(x, run, NULL, 12, &o, &s), 0);
    ASSERT_NEAR(s.mde, expm1(z * sd * sqrt(2.0 / 4.0)), 1e-12);
    ASSERT_NEAR(s.mwu_min_p, 2.0 / 70.0, 1e-14);
    assert_true(s.flags & BH_STAB_BETWEEN_RUN); /* within-run spread is 0 */
    /* Section 8.1: CV 1%, alpha 0.01, power 0.8 needs 24 runs a side for a
     * 1% effect. */
    assert_true(z * 0.01 * sqrt(2.0 / 24.0) < 0.01 && z * 0.01 * sqrt(2.0 / 23.0) > 0.01);
}

static void test_run_analysis_direct(void **state)
{
    const double x[] = {1, 2, 3, 10, 20, 30};
    const uint32_t run[] = {0, 0, 0, 1, 1, 1};
    bh_stats_runs rs;

    (void)state;
    assert_int_equal(bh_stats_run_analysis(x, run, 6, &rs), 0);
    assert_int_equal(rs.n_runs, 2);
    ASSERT_NEAR(rs.median_of_medians, 11.0, 0);
    /* cv_r = 1/2 in both runs. */
    ASSERT_NEAR(rs.within_cv, 0.5, 1e-15);
    /* ANOVA: SSB = 3 (2-11)^2 + 3 (20-11)^2 = 486, SSW = 2 + 200. */
    ASSERT_NEAR(rs.f, 486.0 / (202.0 / 4.0), 1e-14);
    ASSERT_NEAR(rs.f_p, bh_stats_f_sf(486.0 / 50.5, 1, 4), 1e-15);
    ASSERT_NEAR(rs.drift, 1.0, 1e-15);
    assert_int_equal(bh_stats_run_analysis(x, run, 0, &rs), -1);
    assert_true(isnan(rs.f));
}

/* ---- comparisons ------------------------------------------------------ */

static const double wx[] = {10.1, 10.3, 9.9, 10.0, 10.2}, wy[] = {10.6, 10.4, 10.8, 10.5, 10.7};
static const double a1[] = {27.5, 21.0, 19.0, 23.6, 17.0, 17.9, 16.9, 20.1,
                            21.9, 22.6, 23.1, 19.6, 19.0, 21.7, 21.4};
static const double a2[] = {27.1, 22.0, 20.8, 23.4, 23.4, 23.5, 25.8, 22.0,
                            24.8, 20.2, 21.9, 22.1, 22.9, 20.5, 24.4};

static void test_t_tests(void **state)
{
    const double x[] = {1, 2, 3, 4, 5}, y[] = {2, 4, 6, 8, 10, 12}, c[] = {3, 3, 3};
    bh_stats_ttest r;

    (void)state;
    assert_int_equal(bh_stats_welch_t(wx, 5, wy, 5, &r), 0);
    ASSERT_NEAR(r.t, -5.0, 1e-12);
    ASSERT_NEAR(r.df, 8.0, 1e-12);
    ASSERT_NEAR(r.p, 0.0010528257933665, 1e-11);
    assert_int_equal(bh_stats_welch_t(x, 5, y, 6, &r), 0);
    ASSERT_NEAR(r.t, -2.3763541031440, 1e-12);
    ASSERT_NEAR(r.df, 6.9722557297949, 1e-12);
    ASSERT_NEAR(r.p, 0.0492843382067, 1e-11);
    assert_int_equal(bh_stats_student_t(x, 5, y, 6, &r), 0);
    ASSERT_NEAR(r.t, -2.2156468376280, 1e-12);
    ASSERT_NEAR(r.df, 9.0, 0);
    ASSERT_NEAR(r.p, 0.0539459205094, 1e-11);
    assert_int_equal(bh_stats_welch_t(a1, 15, a2, 15, &r), 0);
    ASSERT_NEAR(r.t, -2.455356398286, 1e-12);
    ASSERT_NEAR(r.df, 24.98852929, 1e-9);
    ASSERT_NEAR(r.p, 0.021378001462867, 1e-11);
    assert_int_equal(bh_stats_student_t(a1, 15, a2, 15, &r), 0);
    ASSERT_NEAR(r.df, 28.0, 0);
    ASSERT_NEAR(r.p, 0.020544522734126, 1e-11);
    assert_int_equal(bh_stats_welch_t(c, 3, c, 3, &r), -1); /* zero variance */
    assert_true(isnan(r.p));
    assert_int_equal(bh_stats_welch_t(x, 1, y, 6, &r), -1);
}

static void check_mwu(const double *x, size_t nx, const double *y, size_t ny,
                      bh_stats_rank_method m, double u1, double p, int exact)
{
    bh_stats_mwu r;

    assert_int_equal(bh_stats_mann_whitney(x, nx, y, ny, m, &r), 0);
    ASSERT_NEAR(r.u1, u1, 0);
    ASSERT_NEAR(r.u2, (double)(nx * ny) - u1, 0);
    if (exact)
        ASSERT_NEAR(r.p, p, 1e-14);
    else /* section 10.8 gives the normal p-values to 8-10 digits */
        ASSERT_ABS(r.p, p, 5e-9);
    assert_int_equal(r.exact, exact);
}

static void test_mann_whitney(void **state)
{
    const double x1[] = {9, 8}, y1[] = {10, 7}, x2[] = {90, 86}, y2[] = {89, 72};
    const double x3[] = {80, 77}, y3[] = {75, 66.6, 1}, x4[] = {8, 8}, y4[] = {7, 4.54, 800};
    const double x5[] = {1, 2, 3, 4}, y5[] = {0.9, 1.1, 0.7};
    double x6[10], y6[10];
    static const double min_p[] = {0.1, 0.0286, 0.00794, 0.00216, 5.83e-4,
                                   1.55e-4, 4.11e-5, 1.08e-5};
    bh_stats_mwu r;

    (void)state;
    for (size_t i = 0; i < 10; i++) {
        x6[i] = (double)(i + 1);
        y6[i] = 6.5 + (double)i;
    }
    check_mwu(x1, 2, y1, 2, BH_STATS_RANK_AUTO, 2, 1.0, 1);
    check_mwu(x2, 2, y2, 2, BH_STATS_RANK_AUTO, 3, 0.6666666666666666, 1);
    check_mwu(x3, 2, y3, 3, BH_STATS_RANK_AUTO, 6, 0.2, 1);
    check_mwu(x4, 2, y4, 3, BH_STATS_RANK_AUTO, 4, 0.7670968684102772, 0);
    check_mwu(x5, 4, y5, 3, BH_STATS_RANK_AUTO, 11, 4.0 / 35.0, 1);
    check_mwu(x5, 4, y5, 3, BH_STATS_RANK_NORMAL, 11, 0.07709987, 0);
    check_mwu(x5, 4, y5, 3, BH_STATS_RANK_NORMAL_CC, 11, 0.11161177, 0);
    /* 0.0015046873 in section 10.8; exactly 2 * 139 / C(20, 10). */
    check_mwu(x6, 10, y6, 10, BH_STATS_RANK_AUTO, 10, 278.0 / 184756.0, 1);
    check_mwu(x6, 10, y6, 10, BH_STATS_RANK_NORMAL_CC, 10, 0.0028272721, 0);
    check_mwu(x6, 10, y6, 10, BH_STATS_RANK_NORMAL, 10, 0.0024969089, 0);
    /* Exact with ties is refused; all values tied gives p = 1. */
    assert_int_equal(bh_stats_mann_whitney(x4, 2, y4, 3, BH_STATS_RANK_EXACT, &r), -1);
    check_mwu(x4, 2, x4, 2, BH_STATS_RANK_AUTO, 2, 1.0, 0);
    assert_int_equal(bh_stats_mann_whitney(x1, 0, y1, 2, BH_STATS_RANK_AUTO, &r), -1);
    for (size_t n = 3; n <= 10; n++)
        ASSERT_NEAR(bh_stats_mwu_min_p(n, n), min_p[n - 3], 5e-3);
    /* C(2n, n) at the uint64 boundary (section 10.8) is no limit here. */
    ASSERT_NEAR(bh_stats_mwu_min_p(33, 33), 2.0 / 7219428434016265740.0, 1e-13);
}

static void test_mwu_separation(void **state)
{
    double x[8], y[8];
    bh_stats_mwu r;

    (void)state;
    for (size_t i = 0; i < 8; i++) {
        x[i] = (double)i;
        y[i] = 100.0 + (double)i;
    }
    assert_int_equal(bh_stats_mann_whitney(x, 8, y, 8, BH_STATS_RANK_AUTO, &r), 0);
    ASSERT_NEAR(r.u1, 0.0, 0);
    ASSERT_NEAR(r.p, bh_stats_mwu_min_p(8, 8), 1e-12);
    ASSERT_NEAR(r.p, 2.0 / 12870.0, 1e-12);
}

static void test_wilcoxon(void **state)
{
    const double d[] = {0.5, 1.2, -0.3, 2.0, 0.8, 1.5, -0.1, 0.9};
    const double x[] = {1.83, 0.50, 1.62, 2.48, 1.68, 1.88, 1.55, 3.06, 1.30};
    const double y[] = {0.878, 0.647, 0.598, 2.05, 1.06, 1.29, 1.06, 3.14, 1.29};
    const double zeros[] = {0, 0, 0}, withzero[] = {0, 1, 2, -3};
    double dep[9];
    bh_stats_wilcoxon r;

    (void)state;
    assert_int_equal(bh_stats_wilcoxon_signed_rank(d, 8, BH_STATS_RANK_AUTO, &r), 0);
    ASSERT_NEAR(r.w_plus, 33.0, 0);
    assert_int_equal(r.n, 8);
    assert_int_equal(r.exact, 1);
    ASSERT_NEAR(r.p, 0.0390625, 1e-14);
    assert_int_equal(bh_stats_wilcoxon_signed_rank(d, 8, BH_STATS_RANK_NORMAL_CC, &r), 0);
    ASSERT_ABS(r.p, 0.04231527, 5e-9);
    for (size_t i = 0; i < 9; i++)
        dep[i] = x[i] - y[i];
    assert_int_equal(bh_stats_wilcoxon_signed_rank(dep, 9, BH_STATS_RANK_AUTO, &r), 0);
    ASSERT_NEAR(r.w_plus, 40.0, 0);
    ASSERT_NEAR(r.p, 0.0390625, 1e-14);
    assert_int_equal(bh_stats_wilcoxon_signed_rank(zeros, 3, BH_STATS_RANK_AUTO, &r), 0);
    assert_int_equal(r.n, 0);
    ASSERT_NEAR(r.p, 1.0, 0);
    assert_int_equal(bh_stats_wilcoxon_signed_rank(withzero, 4, BH_STATS_RANK_AUTO, &r), 0);
    assert_int_equal(r.n, 3);
    assert_int_equal(r.exact, 0);
    ASSERT_NEAR(r.w_plus, 3.0, 0);
    assert_int_equal(bh_stats_wilcoxon_signed_rank(withzero, 4, BH_STATS_RANK_EXACT, &r), -1);
    assert_int_equal(bh_stats_wilcoxon_signed_rank(d, 0, BH_STATS_RANK_AUTO, &r), -1);
}

static void test_hodges_lehmann(void **state)
{
    const double x[] = {1, 2, 3}, y[] = {4, 6, 9}, o[] = {1, 2, 3, 4, 100};
    double x6[10], y6[10];
    bh_stats_shift s;

    (void)state;
    assert_int_equal(bh_stats_hodges_lehmann(x, 3, y, 3, 0.95, &s), 0);
    ASSERT_NEAR(s.estimate, 4.0, 0);
    assert_true(isinf(s.lo) && isinf(s.hi)); /* 3 + 3 is too few for 95% */
    for (size_t i = 0; i < 10; i++) {
        x6[i] = (double)(i + 1);
        y6[i] = 6.5 + (double)i;
    }
    assert_int_equal(bh_stats_hodges_lehmann(x6, 10, y6, 10, 0.95, &s), 0);
    ASSERT_NEAR(s.estimate, 5.5, 0);
    ASSERT_NEAR(s.lo, 2.5, 0);
    ASSERT_NEAR(s.hi, 8.5, 0);
    assert_int_equal(bh_stats_hodges_lehmann_one(o, 5, 0.95, &s), 0);
    ASSERT_NEAR(s.estimate, 3.0, 0);
    assert_int_equal(bh_stats_hodges_lehmann_one(x6, 10, 0.9, &s), 0);
    ASSERT_NEAR(s.estimate, 5.5, 0);
    assert_true(s.lo < 5.5 && s.hi > 5.5 && isfinite(s.lo) && isfinite(s.hi));
    assert_int_equal(bh_stats_hodges_lehmann(x, 3, y, 0, 0.95, &s), -1);
    assert_int_equal(bh_stats_hodges_lehmann(x, 3, y, 3, 1.0, &s), -1);
}

static void test_adjust(void **state)
{
    const double p1[] = {0.01, 0.04, 0.03, 0.005}, p2[] = {0.001, 0.02, 0.03, 0.2};
    const double q1[] = {0.02, 0.04, 0.04, 0.02}, q2[] = {0.004, 0.04, 0.04, 0.2};
    const double h1[] = {0.03, 0.06, 0.06, 0.02};
    double q[300], p[300];

    (void)state;
    assert_int_equal(bh_stats_adjust_bh(p1, 4, q), 0);
    for (size_t i = 0; i < 4; i++)
        ASSERT_NEAR(q[i], q1[i], 1e-15);
    assert_int_equal(bh_stats_adjust_bh(p2, 4, q), 0);
    for (size_t i = 0; i < 4; i++)
        ASSERT_NEAR(q[i], q2[i], 1e-15);
    assert_int_equal(bh_stats_adjust_holm(p1, 4, q), 0);
    for (size_t i = 0; i < 4; i++)
        ASSERT_NEAR(q[i], h1[i], 1e-15);
    for (size_t i = 0; i < 300; i++)
        p[i] = 0.001;
    assert_int_equal(bh_stats_adjust_by(p, 300, q), 0);
    ASSERT_NEAR(q[0], 0.001 * 6.28266, 1e-6);
    /* In place, and the empty set. */
    memcpy(q, p1, sizeof(p1));
    assert_int_equal(bh_stats_adjust_bh(q, 4, q), 0);
    ASSERT_NEAR(q[3], 0.02, 1e-15);
    assert_int_equal(bh_stats_adjust_bh(p1, 0, q), 0);
    p[7] = 1.5;
    assert_int_equal(bh_stats_adjust_bh(p, 300, q), -1);
    p[7] = NAN;
    assert_int_equal(bh_stats_adjust_holm(p, 300, q), -1);
}

static void test_edivisive(void **state)
{
    const double a[] = {1, 1, 1, 1, 5, 5, 5, 5};
    const double want[] = {0, 2, 4.8, 9, 16, 9, 4.8, 2};
    const double b[] = {10, 11, 10, 12, 11, 20, 21, 19, 20, 22};
    double q[10];

    (void)state;
    assert_int_equal(bh_stats_edivisive_q(a, 8, q), 4);
    for (size_t i = 0; i < 8; i++)
        ASSERT_NEAR(q[i], want[i], 1e-14);
    assert_int_equal(bh_stats_edivisive_q(b, 10, q), 5);
    ASSERT_NEAR(q[5], 42.0, 1e-14);
    assert_int_equal(bh_stats_edivisive_q(b, 1, q), 0);
    ASSERT_NEAR(q[0], 0.0, 0);
    assert_int_equal(bh_stats_edivisive_q(b, 0, q), -1);
}

static void test_effects(void **state)
{
    const double it[] = {1, 2, 3, 4}, tm[] = {10, 21, 29, 41}, g[] = {1, 4, 16};
    const double bad[] = {1, -4, 16};
    double ratio, lo, hi;

    (void)state;
    /* Fieller, B / A for the section 10.6 data (section 10.13). The first
     * note of this KAT said z = 1.96, but its bounds come from
     * z = Phi^-1(0.975) = 1.959964 (with 1.96 exactly they would be
     * 1.02980766 and 1.06959755). */
    assert_int_equal(bh_stats_fieller(10.1, 0.025 / 5, 10.6, 0.025 / 5,
                                      bh_stats_norm_quantile(0.975), &ratio, &lo, &hi),
                     0);
    ASSERT_NEAR(ratio, 1.04950495, 1e-8);
    ASSERT_NEAR(lo, 1.02980802, 1e-8);
    ASSERT_NEAR(hi, 1.06959717, 1e-8);
    assert_int_equal(bh_stats_fieller(0.1, 1.0, 1.0, 1.0, 1.96, &ratio, &lo, &hi), -1);
    ASSERT_NEAR(bh_stats_slope_origin(it, tm, 4), 10.1, 1e-15);
    assert_true(isnan(bh_stats_slope_origin(it, tm, 0)));
    ASSERT_NEAR(bh_stats_geomean(g, 3), 4.0, 1e-15);
    assert_true(isnan(bh_stats_geomean(bad, 3)));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_variance_kat),
        cmocka_unit_test(test_variance_edges),
        cmocka_unit_test(test_all_finite),
        cmocka_unit_test(test_sort_and_select),
        cmocka_unit_test(test_quantile_kat),
        cmocka_unit_test(test_median_mad),
        cmocka_unit_test(test_tukey_kat),
        cmocka_unit_test(test_order_ci_kat),
        cmocka_unit_test(test_normal),
        cmocka_unit_test(test_beta),
        cmocka_unit_test(test_student_t),
        cmocka_unit_test(test_student_t_quantile),
        cmocka_unit_test(test_f_distribution),
        cmocka_unit_test(test_binomial),
        cmocka_unit_test(test_bootstrap_determinism),
        cmocka_unit_test(test_bootstrap_coverage),
        cmocka_unit_test(test_bootstrap_edges),
        cmocka_unit_test(test_summary_rejects),
        cmocka_unit_test(test_summary_defaults),
        cmocka_unit_test(test_summary_n1_n2),
        cmocka_unit_test(test_summary_all_equal_and_zeros),
        cmocka_unit_test(test_summary_kat),
        cmocka_unit_test(test_summary_tukey_ties_flags),
        cmocka_unit_test(test_summary_runs_clean),
        cmocka_unit_test(test_summary_between_run),
        cmocka_unit_test(test_summary_drift),
        cmocka_unit_test(test_summary_mde),
        cmocka_unit_test(test_run_analysis_direct),
        cmocka_unit_test(test_t_tests),
        cmocka_unit_test(test_mann_whitney),
        cmocka_unit_test(test_mwu_separation),
        cmocka_unit_test(test_wilcoxon),
        cmocka_unit_test(test_hodges_lehmann),
        cmocka_unit_test(test_adjust),
        cmocka_unit_test(test_edivisive),
        cmocka_unit_test(test_effects),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
