// SPDX-License-Identifier: MIT
#include "distributions.h"

#include <float.h>
#include <math.h>

#define PI 3.14159265358979323846
#define SQRT2 1.41421356237309504880
#define SQRT_2PI 2.50662827463100050242
#define LN_SQRT_2PI 0.91893853320467274178
#define LN10 2.30258509299404568402

/* ---- normal ---------------------------------------------------------- */

double bh_stats_norm_cdf(double z)
{
    return 0.5 * erfc(-z / SQRT2);
}

double bh_stats_norm_sf(double z)
{
    return 0.5 * erfc(z / SQRT2);
}

double bh_stats_norm_pdf(double z)
{
    return exp(-0.5 * z * z) / SQRT_2PI;
}

/* Acklam's rational approximation of Phi^-1 (relative error < 1.2e-9). */
static double acklam(double p)
{
    static const double a[6] = {-3.969683028665376e+01, 2.209460984245205e+02,
                                -2.759285104469687e+02, 1.383577518672690e+02,
                                -3.066479806614716e+01, 2.506628277459239e+00};
    static const double b[5] = {-5.447609879822406e+01, 1.615858368580409e+02,
                                -1.556989798598866e+02, 6.680131188771972e+01,
                                -1.328068155288572e+01};
    static const double c[6] = {-7.784894002430293e-03, -3.223964580411365e-01,
                                -2.400758277161838e+00, -2.549732539343734e+00,
                                4.374664141464968e+00,  2.938163982698783e+00};
    static const double d[4] = {7.784695709041462e-03, 3.224671290700398e-01,
                                2.445134137142996e+00, 3.754408661907416e+00};

    if (p < 0.02425) {
        double q = sqrt(-2.0 * log(p));

        return (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
               ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1.0);
    } else {
        double q = p - 0.5, r = q * q;

        return (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q /
               (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1.0);
    }
}

/* Phi^-1(p) for 0 < p <= 0.5. */
static double norm_lower_quantile(double p)
{
    double x = acklam(p);

    /* One Halley step on Phi(x) - p; skipped where exp(x^2/2) overflows
     * (p below ~1e-306, where Acklam's 1e-9 is all one can ask). */
    if (x * x < 1400.0) {
        double e = bh_stats_norm_cdf(x) - p;
        double u = e * SQRT_2PI * exp(0.5 * x * x);

        x -= u / (1.0 + 0.5 * x * u);
    }
    return x;
}

double bh_stats_norm_quantile(double p)
{
    if (!(p >= 0.0 && p <= 1.0))
        return NAN;
    if (p == 0.0)
        return -INFINITY;
    if (p == 1.0)
        return INFINITY;
    if (p > 0.5)
        return -norm_lower_quantile(1.0 - p); /* exact: Sterbenz */
    return norm_lower_quantile(p);
}

/* ---- beta ------------------------------------------------------------ */

/* ln Gamma(x) - [(x - 1/2) ln x - x + ln sqrt(2 pi)], Stirling's series;
 * accurate to ~1e-16 for x >= 10. */
static double stirling_corr(double x)
{
    double r = 1.0 / (x * x);

    return (1.0 / 12.0 -
            r * (1.0 / 360.0 -
                 r * (1.0 / 1260.0 -
                      r * (1.0 / 1680.0 -
                           r * (1.0 / 1188.0 - r * (691.0 / 360360.0 - r / 156.0)))))) /
           x;
}

/* x ln(x/m) + m - x, without cancellation when x is close to m. */
static double bd0(double x, double m)
{
    if (fabs(x - m) < 0.1 * (x + m)) {
        double v = (x - m) / (x + m), s = (x - m) * v, ej = 2.0 * x * v;

        v *= v;
        for (int j = 1; j < 1000; j++) {
            double s1;

            ej *= v;
            s1 = s + ej / (double)(2 * j + 1);
            if (s1 == s)
                break;
            s = s1;
        }
        return s;
    }
    return x * log(x / m) + m - x;
}

double bh_stats_lbeta(double a, double b)
{
    double p = fmin(a, b), q = fmax(a, b);

    if (!(p > 0.0) || isinf(q))
        return NAN;
    if (p >= 10.0) {
        /* Both large: write every ln Gamma by Stirling and cancel the big
         * terms analytically. */
        return -0.5 * log(q) + LN_SQRT_2PI + (p - 0.5) * log(p / (p + q)) +
               q * log1p(-p / (p + q)) + stirling_corr(p) + stirling_corr(q) -
               stirling_corr(p + q);
    }
    if (q >= 10.0) {
        /* ln Gamma(q) - ln Gamma(p + q) without cancellation. */
        return lgamma(p) - (q - 0.5) * log1p(p / q) - p * log(p + q) + p + stirling_corr(q) -
               stirling_corr(p + q);
    }
    return lgamma(p) + lgamma(q) - lgamma(p + q);
}

/* Continued fraction for I_x(a, b) (A&S 26.5.8) by the modified Lentz
 * method; converges fast for x < (a+1)/(a+b+2). */
static double beta_cf(double a, double b, double x)
{
    const double tiny = 1e-300, eps = 1e-16;
    double c = 1.0, d = 1.0 - (a + b) * x / (a + 1.0), h;
    long maxit = 1000 + (long)(20.0 * sqrt(fmin(fmax(a, b), 1e9)));

    if (fabs(d) < tiny)
        d = tiny;
    d = 1.0 / d;
    h = d;
    for (long m = 1; m <= maxit; m++) {
        double dm = (double)m, m2 = 2.0 * dm, num, del;

        num = dm * (b - dm) * x / ((a + m2 - 1.0) * (a + m2));
        d = 1.0 + num * d;
        if (fabs(d) < tiny)
            d = tiny;
        c = 1.0 + num / c;
        if (fabs(c) < tiny)
            c = tiny;
        d = 1.0 / d;
        h *= d * c;
        num = -(a + dm) * (a + b + dm) * x / ((a + m2) * (a + m2 + 1.0));
        d = 1.0 + num * d;
        if (fabs(d) < tiny)
            d = tiny;
        c = 1.0 + num / c;
        if (fabs(c) < tiny)
            c = tiny;
        d = 1.0 / d;
        del = d * c;
        h *= del;
        if (fabs(del - 1.0) < eps)
            break;
    }
    return h;
}

/* x^a y^b / (a B(a, b)) with y = 1 - x given separately (so that whichever
 * of x, y is tiny keeps its precision) times the continued fraction. */
static double beta_front(double a, double b, double x, double y)
{
    double lx, ly, lf;

    if (a >= 10.0 && b >= 10.0) {
        /* Saddle-point form: with n = a + b, ln(x^a y^b / B(a, b)) =
         * -bd0(a, nx) - bd0(b, ny) + ln sqrt(ab / (2 pi n)) + Stirling
         * corrections, all free of cancellation. */
        double n = a + b;

        lf = -bd0(a, n * x) - bd0(b, n * y) + 0.5 * log(a / n * b) - LN_SQRT_2PI +
             stirling_corr(n) - stirling_corr(a) - stirling_corr(b);
    } else {
        lx = x < 0.5 ? log(x) : log1p(-y);
        ly = y < 0.5 ? log(y) : log1p(-x);
        lf = a * lx + b * ly - bh_stats_lbeta(a, b);
    }
    return exp(lf) * beta_cf(a, b, x) / a;
}

/* I_x(a, b) into *lower and 1 - I_x(a, b) into *upper, y = 1 - x given
 * accurately by the caller; each without cancellation. */
static void beta_tails(double a, double b, double x, double y, double *lower, double *upper)
{
    if (x <= 0.0) {
        *lower = 0.0;
        *upper = 1.0;
    } else if (y <= 0.0) {
        *lower = 1.0;
        *upper = 0.0;
    } else if (x < (a + 1.0) / (a + b + 2.0)) {
        *lower = beta_front(a, b, x, y);
        *upper = 1.0 - *lower;
    } else {
        *upper = beta_front(b, a, y, x);
        *lower = 1.0 - *upper;
    }
}

double bh_stats_betainc(double a, double b, double x)
{
    double lo, up;

    if (!(a > 0.0 && b > 0.0 && x >= 0.0 && x <= 1.0) || isinf(a) || isinf(b))
        return NAN;
    beta_tails(a, b, x, 1.0 - x, &lo, &up);
    return lo;
}

double bh_stats_betainc_upper(double a, double b, double x)
{
    double lo, up;

    if (!(a > 0.0 && b > 0.0 && x >= 0.0 && x <= 1.0) || isinf(a) || isinf(b))
        return NAN;
    beta_tails(a, b, x, 1.0 - x, &lo, &up);
    return up;
}

/* ---- Student t ------------------------------------------------------- */

/* Beyond this many degrees of freedom the t distribution is the normal to
 * double precision (the leading correction is (z^3 + z) / (4 nu)). */
#define T_NORMAL_NU 1e20

double bh_stats_t_pdf(double t, double nu)
{
    double l;

    if (isnan(t) || !(nu > 0.0))
        return NAN;
    if (nu > T_NORMAL_NU)
        return bh_stats_norm_pdf(t);
    if (isinf(t))
        return 0.0;
    /* ln(1 + t^2/nu), without overflowing t^2 far out in the tails. */
    l = fabs(t) > 1e100 * sqrt(nu) ? 2.0 * (log(fabs(t)) - 0.5 * log(nu)) : log1p(t * t / nu);
    return exp(-bh_stats_lbeta(0.5 * nu, 0.5) - 0.5 * log(nu) - 0.5 * (nu + 1.0) * l);
}

double bh_stats_t_p2(double t, double nu)
{
    double x, y, lo, up;

    if (isnan(t) || !(nu > 0.0))
        return NAN;
    if (nu > T_NORMAL_NU)
        return 2.0 * bh_stats_norm_sf(fabs(t));
    if (isinf(t))
        return 0.0;
    if (fabs(t) <= sqrt(nu)) {
        double t2 = t * t;

        x = nu / (nu + t2);
        y = t2 / (nu + t2);
    } else {
        /* r^2 = nu / t^2 < 1, without overflowing t^2. */
        double lr = 0.5 * log(nu) - log(fabs(t)), r2;

        if (lr < -100.0 * LN10) {
            /* x = r^2 / (1 + r^2) < 1e-200: I_x(nu/2, 1/2) is its leading
             * term x^(nu/2) / ((nu/2) B(nu/2, 1/2)) to double precision. */
            double lb = bh_stats_lbeta(0.5 * nu, 0.5);
            double rn = lr > -700.0 ? pow(sqrt(nu) / fabs(t), nu) : 0.0;

            if (rn > 1e-300)
                return rn / (0.5 * nu * exp(lb));
            return exp(nu * lr - log(0.5 * nu) - lb);
        }
        r2 = sqrt(nu) / fabs(t);
        r2 *= r2;
        x = r2 / (1.0 + r2);
        y = 1.0 / (1.0 + r2);
    }
    beta_tails(0.5 * nu, 0.5, x, y, &lo, &up);
    return lo;
}

double bh_stats_t_cdf(double t, double nu)
{
    double tail;

    if (isnan(t) || !(nu > 0.0))
        return NAN;
    if (nu > T_NORMAL_NU)
        return bh_stats_norm_cdf(t);
    tail = 0.5 * bh_stats_t_p2(t, nu);
    return t < 0.0 ? tail : 1.0 - tail;
}

/* t quantile for 0 < p < 0.5 (a negative number). */
static double t_lower_quantile(double p, double nu)
{
    double x, lo = -INFINITY, hi = 0.0, lp = log(p);

    if (nu == 1.0) {
        x = -1.0 / tan(PI * p);
    } else if (nu == 2.0) {
        x = (2.0 * p - 1.0) / sqrt(2.0 * p * (1.0 - p));
    } else {
        /* Cornish-Fisher start from the normal quantile. */
        double z = bh_stats_norm_quantile(p), z2 = z * z;

        x = z + z * (z2 + 1.0) / (4.0 * nu) +
            z * ((5.0 * z2 + 16.0) * z2 + 3.0) / (96.0 * nu * nu);
    }
    if (!(x < 0.0) || isinf(x))
        x = -1.0;
    for (int it = 0; it < 2000; it++) {
        double f = bh_stats_t_cdf(x, nu), xn;

        if (f == p)
            return x;
        if (f > p)
            hi = x;
        else
            lo = x;
        /* Newton on ln F(x) = ln p. */
        xn = x - (log(f) - lp) * f / bh_stats_t_pdf(x, nu);
        if (!(xn > lo && xn < hi)) {
            if (isinf(lo)) {
                /* No lower bracket yet: jump as the power-law tail
                 * F ~ |x|^-nu suggests, at least doubling. */
                if (x == -DBL_MAX)
                    return -INFINITY; /* beyond the largest double */
                xn = x * fmax(2.0, pow(f / p, 1.0 / nu));
                if (isinf(xn))
                    xn = -DBL_MAX;
            } else if (hi < 0.0 && lo < 4.0 * hi) {
                xn = -sqrt(lo / hi) * -hi; /* geometric mean of lo, hi */
            } else {
                xn = lo + (hi - lo) / 2.0;
            }
        }
        if (fabs(xn - x) <= 2.0 * DBL_EPSILON * fabs(xn))
            return xn;
        x = xn;
    }
    return x;
}

double bh_stats_t_quantile(double p, double nu)
{
    if (!(p >= 0.0 && p <= 1.0) || !(nu > 0.0))
        return NAN;
    if (p == 0.0)
        return -INFINITY;
    if (p == 1.0)
        return INFINITY;
    if (nu > T_NORMAL_NU)
        return bh_stats_norm_quantile(p);
    if (p == 0.5)
        return 0.0;
    if (p > 0.5)
        return -t_lower_quantile(1.0 - p, nu);
    return t_lower_quantile(p, nu);
}

/* ---- F --------------------------------------------------------------- */

static int f_tails(double x, double d1, double d2, double *lower, double *upper)
{
    if (isnan(x) || !(d1 > 0.0 && d2 > 0.0) || isinf(d1) || isinf(d2))
        return -1;
    if (x <= 0.0) {
        *lower = 0.0;
        *upper = 1.0;
    } else if (isinf(x)) {
        *lower = 1.0;
        *upper = 0.0;
    } else {
        double den = d1 * x + d2;

        beta_tails(0.5 * d1, 0.5 * d2, d1 * x / den, d2 / den, lower, upper);
    }
    return 0;
}

double bh_stats_f_cdf(double x, double d1, double d2)
{
    double lo, up;

    return f_tails(x, d1, d2, &lo, &up) ? NAN : lo;
}

double bh_stats_f_sf(double x, double d1, double d2)
{
    double lo, up;

    return f_tails(x, d1, d2, &lo, &up) ? NAN : up;
}

/* ---- binomial -------------------------------------------------------- */

double bh_stats_lchoose(double n, double k)
{
    if (!(k >= 0.0 && k <= n) || isinf(n))
        return NAN;
    return lgamma(n + 1.0) - lgamma(k + 1.0) - lgamma(n - k + 1.0);
}

/* ln(n!) - [(n + 1/2) ln n - n + ln sqrt(2 pi)] for n > 0. */
static double stirlerr(double n)
{
    if (n > 15.0)
        return stirling_corr(n); /* same series as for ln Gamma */
    return lgamma(n + 1.0) - (n + 0.5) * log(n) + n - LN_SQRT_2PI;
}

double bh_stats_binom_logpmf(int64_t k, int64_t n, double p)
{
    double dn = (double)n, dk = (double)k, q = 1.0 - p;

    if (n < 0 || !(p >= 0.0 && p <= 1.0))
        return NAN;
    if (k < 0 || k > n)
        return -INFINITY;
    if (p == 0.0)
        return k == 0 ? 0.0 : -INFINITY;
    if (p == 1.0)
        return k == n ? 0.0 : -INFINITY;
    if (k == 0)
        return dn * log1p(-p);
    if (k == n)
        return dn * log(p);
    return stirlerr(dn) - stirlerr(dk) - stirlerr(dn - dk) - bd0(dk, dn * p) -
           bd0(dn - dk, dn * q) + 0.5 * log(dn / (2.0 * PI * dk * (dn - dk)));
}

/* P(K <= k) as exp(*l) * (return value), for 0 <= k < (n+1)p. Small n
 * with moderate p sums exact binomial coefficients times powers (exact for
 * p = 1/2), otherwise the pmf ratios t(j-1)/t(j) fall below 1 and keep
 * falling as j goes down, so the sum stops as soon as the geometric bound
 * on the rest is negligible. */
static double low_tail(int64_t k, int64_t n, double p, double *l)
{
    double q = 1.0 - p, odds = q / p, sum = 1.0, term = 1.0;

    if (n <= 50 && (double)n * log(fmin(p, q)) > -600.0) {
        uint64_t c = 1; /* C(n, j), exact: C(50, 25) * 26 < 2^64 */

        sum = 0.0;
        for (int64_t j = 0; j <= k; j++) {
            if (j > 0)
                c = c * (uint64_t)(n - j + 1) / (uint64_t)j;
            sum += (double)c * pow(p, (double)j) * pow(q, (double)(n - j));
        }
        *l = 0.0;
        return sum;
    }
    for (int64_t j = k; j > 0; j--) {
        double r = (double)j / (double)(n - j + 1) * odds;

        term *= r;
        sum += term;
        if (term * r <= 1e-17 * sum * (1.0 - r))
            break;
    }
    *l = bh_stats_binom_logpmf(k, n, p);
    return sum;
}

/* Splits at the mode. Returns 1 when k is below it, with
 * P(K <= k) = exp(*l) * *s; otherwise 0, with P(K > k) = exp(*l) * *s. */
static int binom_tail(int64_t k, int64_t n, double p, double *l, double *s)
{
    double m = floor((double)(n + 1) * p);

    if ((double)k < m) {
        *s = low_tail(k, n, p, l);
        return 1;
    }
    /* P(K > k) = P(n - K <= n - k - 1), n - K ~ Bin(n, 1 - p). */
    *s = low_tail(n - k - 1, n, 1.0 - p, l);
    return 0;
}

static int binom_args_ok(int64_t n, double p)
{
    return n >= 0 && p >= 0.0 && p <= 1.0;
}

double bh_stats_binom_logcdf(int64_t k, int64_t n, double p)
{
    double l, t;

    if (!binom_args_ok(n, p))
        return NAN;
    if (k < 0)
        return -INFINITY;
    if (k >= n || p == 0.0)
        return 0.0;
    if (p == 1.0)
        return -INFINITY;
    if (binom_tail(k, n, p, &l, &t))
        return l + log(t);
    return log1p(-exp(l) * t);
}

double bh_stats_binom_cdf(int64_t k, int64_t n, double p)
{
    double l, t;

    if (!binom_args_ok(n, p))
        return NAN;
    if (k < 0)
        return 0.0;
    if (k >= n || p == 0.0)
        return 1.0;
    if (p == 1.0)
        return 0.0;
    if (binom_tail(k, n, p, &l, &t))
        return exp(l) * t;
    return 1.0 - exp(l) * t;
}

double bh_stats_binom_sf(int64_t k, int64_t n, double p)
{
    double l, t;

    if (!binom_args_ok(n, p))
        return NAN;
    if (k < 0)
        return 1.0;
    if (k >= n || p == 0.0)
        return 0.0;
    if (p == 1.0)
        return 1.0;
    if (binom_tail(k, n, p, &l, &t))
        return 1.0 - exp(l) * t;
    return exp(l) * t;
}
