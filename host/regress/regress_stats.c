// SPDX-License-Identifier: MIT
/* The statistics of one comparison: unpaired (Mann-Whitney + Hodges-Lehmann
 * or Welch, on ln values) and paired (Wilcoxon signed-rank + one-sample
 * Hodges-Lehmann on per-pair ln ratios). The decision drawn from them is
 * in verdict.c. */
#include "verdict.h"

#include "compare.h"
#include "descriptive.h"
#include "distributions.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Resets *out to "nothing computed" with the counts set. */
static void stat_clear(bh_regress_stat *out, size_t nb, size_t nc, int paired)
{
    memset(out, 0, sizeof(*out));
    out->n_base = nb;
    out->n_cand = nc;
    out->paired = paired;
    out->base_center = out->cand_center = NAN;
    out->change = out->change_lo = out->change_hi = NAN;
    out->level = NAN;
    out->p = out->q = out->spread = NAN;
    out->test = BH_REGRESS_TEST_NONE;
}

/* Median of x[0..n) without reordering it; NAN when n == 0 or memory runs
 * out. */
static double median_of(const double *x, size_t n)
{
    double *s;
    double m;

    if (n == 0 || !(s = malloc(n * sizeof(*s))))
        return NAN;
    memcpy(s, x, n * sizeof(*s));
    bh_stats_sort(s, n);
    m = bh_stats_median_sorted(s, n);
    free(s);
    return m;
}

/* True when every value is > 0 (the log scale applies). */
static int all_positive(const double *x, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!(x[i] > 0.0))
            return 0;
    return 1;
}

/* Maps x[0..n) onto the compared scale into a new array: ln x on the log
 * scale, x / scale otherwise. NULL when memory runs out. */
static double *to_scale(const double *x, size_t n, int log_scale, double scale)
{
    double *v = malloc(n * sizeof(*v));

    if (!v)
        return NULL;
    for (size_t i = 0; i < n; i++)
        v[i] = log_scale ? log(x[i]) : x[i] / scale;
    return v;
}

/* A shift on the compared scale as a relative change. */
static double rel(double shift, int log_scale)
{
    return log_scale ? expm1(shift) : shift;
}

/* Scale of x: the scaled MAD (robust, as the rank tests are) when robust
 * and it is > 0, else the sd. 0 when every value is equal. */
static double scale_of(const double *x, size_t n, int robust)
{
    double m, v, mad = 0.0;

    bh_stats_mean_var(x, n, &m, &v);
    if (robust) {
        double *s = malloc(n * sizeof(*s));

        if (s) {
            memcpy(s, x, n * sizeof(*s));
            bh_stats_sort(s, n);
            mad = bh_stats_mad_sorted(s, n, bh_stats_median_sorted(s, n));
            free(s);
        }
    }
    return mad > 0.0 ? mad : sqrt(fmax(0.0, v));
}

/* Pooled scale of two samples (squares weighted by n - 1). */
static double pooled_scale(const double *a, size_t na, const double *b, size_t nb, int robust)
{
    double sa = scale_of(a, na, robust), sb = scale_of(b, nb, robust);

    return sqrt(((double)(na - 1) * sa * sa + (double)(nb - 1) * sb * sb) /
                (double)(na + nb - 2));
}

/* Welch on the compared scale: p, and the interval of mean(c) - mean(b). */
static int welch(const double *b, size_t nb, const double *c, size_t nc, double level,
                 bh_regress_stat *out, double *est, double *lo, double *hi)
{
    double mb, vb, mc, vc, se, d;
    bh_stats_ttest t;

    bh_stats_mean_var(b, nb, &mb, &vb);
    bh_stats_mean_var(c, nc, &mc, &vc);
    d = mc - mb;
    se = sqrt(vb / (double)nb + vc / (double)nc);
    *est = d;
    if (!(se > 0.0)) {
        /* Both sides constant: certain either way. */
        out->p = d == 0.0 ? 1.0 : 0.0;
        *lo = *hi = d;
    } else {
        double tq;

        if (bh_stats_welch_t(c, nc, b, nb, &t) != 0)
            return -1;
        tq = bh_stats_t_quantile(1.0 - (1.0 - level) / 2.0, t.df);
        out->p = t.p;
        *lo = d - tq * se;
        *hi = d + tq * se;
    }
    out->test = BH_REGRESS_TEST_WELCH;
    return 0;
}

/* Mann-Whitney p and the Hodges-Lehmann shift of c against b. */
static int mwu(const double *b, size_t nb, const double *c, size_t nc, double level,
               bh_regress_stat *out, double *est, double *lo, double *hi)
{
    bh_stats_mwu u;
    bh_stats_shift sh;

    if (bh_stats_mann_whitney(b, nb, c, nc, BH_STATS_RANK_AUTO, &u) != 0 ||
        bh_stats_hodges_lehmann(b, nb, c, nc, level, &sh) != 0)
        return -1;
    out->p = u.p;
    out->test = u.exact ? BH_REGRESS_TEST_MWU_EXACT : BH_REGRESS_TEST_MWU_NORMAL;
    *est = sh.estimate;
    *lo = sh.lo;
    *hi = sh.hi;
    return 0;
}

/* Common checks and the scale of two samples; -1 when invalid. */
static int prepare(const double *base, size_t nb, const double *cand, size_t nc,
                   double level, bh_regress_stat *out, double *scale)
{
    if (!base || !cand || nb < 2 || nc < 2 || !(level > 0.0 && level < 1.0) ||
        !bh_stats_all_finite(base, nb) || !bh_stats_all_finite(cand, nc))
        return -1;
    out->base_center = median_of(base, nb);
    out->cand_center = median_of(cand, nc);
    out->level = level;
    out->log_scale = all_positive(base, nb) && all_positive(cand, nc);
    *scale = fabs(out->base_center);
    if (!out->log_scale && !(*scale > 0.0))
        return -1; /* no relative change from a zero baseline */
    return 0;
}

int bh_regress_test_unpaired(const double *base, size_t nb, const double *cand,
                             size_t nc, bh_regress_method method, double level,
                             bh_regress_stat *out)
{
    double scale = 1.0, est, lo, hi;
    double *b = NULL, *c = NULL;
    int rc = -1;

    stat_clear(out, nb, nc, 0);
    if (prepare(base, nb, cand, nc, level, out, &scale) != 0)
        goto fail;
    b = to_scale(base, nb, out->log_scale, scale);
    c = to_scale(cand, nc, out->log_scale, scale);
    if (!b || !c)
        goto fail;
    rc = method == BH_REGRESS_WELCH ? welch(b, nb, c, nc, level, out, &est, &lo, &hi)
                                    : mwu(b, nb, c, nc, level, out, &est, &lo, &hi);
    if (rc != 0)
        goto fail;
    out->change = rel(est, out->log_scale);
    out->change_lo = rel(lo, out->log_scale);
    out->change_hi = rel(hi, out->log_scale);
    out->spread = pooled_scale(b, nb, c, nc, method != BH_REGRESS_WELCH);
    free(b);
    free(c);
    return 0;
fail:
    free(b);
    free(c);
    stat_clear(out, nb, nc, 0);
    return -1;
}

int bh_regress_test_paired(const double *base, const double *cand, size_t n,
                           double level, bh_regress_stat *out)
{
    double scale = 1.0;
    double *d = NULL;
    bh_stats_wilcoxon w;
    bh_stats_shift sh;

    stat_clear(out, n, n, 1);
    if (prepare(base, n, cand, n, level, out, &scale) != 0)
        goto fail;
    d = malloc(n * sizeof(*d));
    if (!d)
        goto fail;
    for (size_t i = 0; i < n; i++)
        d[i] = out->log_scale ? log(cand[i]) - log(base[i])
                              : (cand[i] - base[i]) / scale;
    if (bh_stats_wilcoxon_signed_rank(d, n, BH_STATS_RANK_AUTO, &w) != 0 ||
        bh_stats_hodges_lehmann_one(d, n, level, &sh) != 0)
        goto fail;
    out->p = w.p;
    out->test = w.exact ? BH_REGRESS_TEST_WILCOXON_EXACT : BH_REGRESS_TEST_WILCOXON_NORMAL;
    out->change = rel(sh.estimate, out->log_scale);
    out->change_lo = rel(sh.lo, out->log_scale);
    out->change_hi = rel(sh.hi, out->log_scale);
    out->spread = scale_of(d, n, 1);
    free(d);
    return 0;
fail:
    free(d);
    stat_clear(out, n, n, 1);
    return -1;
}
