// SPDX-License-Identifier: MIT
/* Probability distributions needed by bhost's statistics: normal, Student t,
 * F, binomial, and the regularized incomplete beta function under them.
 *
 * Pure functions: no I/O, no globals, no allocation; reentrant. Invalid
 * arguments give NAN (never a crash). Accuracy, checked against 40-digit
 * references: about 1e-14 relative for the normal functions, about 1e-12
 * relative (on the smaller tail) for the beta family up to a, b = 25000 and
 * the binomial up to n = 1e6. */
#ifndef BH_STATS_DISTRIBUTIONS_H
#define BH_STATS_DISTRIBUTIONS_H

#include <stdint.h>

/* Standard normal CDF Phi(z) = erfc(-z/sqrt 2)/2, accurate in both tails. */
double bh_stats_norm_cdf(double z);
/* Upper tail 1 - Phi(z), computed without cancellation. */
double bh_stats_norm_sf(double z);
/* Standard normal density. */
double bh_stats_norm_pdf(double z);
/* Phi^-1(p): Acklam's rational approximation refined by one Halley step on
 * erfc, to about machine precision. -INFINITY at 0, +INFINITY at 1, NAN
 * outside [0, 1]. */
double bh_stats_norm_quantile(double p);

/* ln B(a, b) = ln Gamma(a) + ln Gamma(b) - ln Gamma(a+b), with Stirling
 * corrections for large arguments to avoid cancellation. NAN unless a, b > 0. */
double bh_stats_lbeta(double a, double b);
/* Regularized incomplete beta I_x(a, b) (continued fraction, modified
 * Lentz, with the symmetry switch at x > (a+1)/(a+b+2)). NAN unless a, b > 0
 * and x is in [0, 1]. */
double bh_stats_betainc(double a, double b, double x);
/* 1 - I_x(a, b) computed without cancellation. */
double bh_stats_betainc_upper(double a, double b, double x);

/* Student t with nu > 0 degrees of freedom (nu may be non-integer, as in
 * Welch's test, or INFINITY for the normal). */
double bh_stats_t_pdf(double t, double nu);
double bh_stats_t_cdf(double t, double nu);
/* Two-sided p-value P(|T| >= |t|) = I_{nu/(nu+t^2)}(nu/2, 1/2). */
double bh_stats_t_p2(double t, double nu);
/* Inverse CDF by safeguarded Newton iteration on the log of the smaller
 * tail. -INFINITY at 0, +INFINITY at 1, NAN for invalid arguments. */
double bh_stats_t_quantile(double p, double nu);

/* F distribution with d1, d2 > 0 degrees of freedom: CDF and upper tail
 * P(F > x). x <= 0 gives 0 and 1. */
double bh_stats_f_cdf(double x, double d1, double d2);
double bh_stats_f_sf(double x, double d1, double d2);

/* ln C(n, k) for 0 <= k <= n (real-valued through lgamma); NAN otherwise. */
double bh_stats_lchoose(double n, double k);

/* Binomial(n, p), n >= 0, p in [0, 1]. The log pmf uses Loader's
 * saddle-point form (accurate for large n); the tails sum pmf ratios
 * outwards from k, so their cost grows like sqrt(n), not n. */
double bh_stats_binom_logpmf(int64_t k, int64_t n, double p);
/* ln P(K <= k); -INFINITY when k < 0, 0 when k >= n. */
double bh_stats_binom_logcdf(int64_t k, int64_t n, double p);
/* P(K <= k). */
double bh_stats_binom_cdf(int64_t k, int64_t n, double p);
/* P(K > k), computed without cancellation. */
double bh_stats_binom_sf(int64_t k, int64_t n, double p);

#endif
