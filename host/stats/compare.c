// SPDX-License-Identifier: MIT
#include "compare.h"

#include <math.h>
#include <stdlib.h>

#include "descriptive.h"
#include "distributions.h"

/* ---- t tests ---------------------------------------------------------- */

static void ttest_nan(bh_stats_ttest *out)
{
    out->t = NAN;
    out->df = NAN;
    out->p = NAN;
}

/* Means and sample variances of both samples; -1 on bad input. */
static int two_samples(const double *x, size_t nx, const double *y, size_t ny, double *mx,
                       double *vx, double *my, double *vy)
{
    if (nx < 2 || ny < 2 || !bh_stats_all_finite(x, nx) || !bh_stats_all_finite(y, ny))
        return -1;
    bh_stats_mean_var(x, nx, mx, vx);
    bh_stats_mean_var(y, ny, my, vy);
    return 0;
}

int bh_stats_welch_t(const double *x, size_t nx, const double *y, size_t ny,
                     bh_stats_ttest *out)
{
    double mx, vx, my, vy, ax, ay, se2;

    ttest_nan(out);
    if (two_samples(x, nx, y, ny, &mx, &vx, &my, &vy) != 0)
        return -1;
    ax = vx / (double)nx;
    ay = vy / (double)ny;
    se2 = ax + ay;
    if (!(se2 > 0.0))
        return -1;
    out->t = (mx - my) / sqrt(se2);
    out->df = se2 * se2 / (ax * ax / (double)(nx - 1) + ay * ay / (double)(ny - 1));
    out->p = bh_stats_t_p2(out->t, out->df);
    return 0;
}

int bh_stats_student_t(const double *x, size_t nx, const double *y, size_t ny,
                       bh_stats_ttest *out)
{
    double mx, vx, my, vy, df, sp2, se2;

    ttest_nan(out);
    if (two_samples(x, nx, y, ny, &mx, &vx, &my, &vy) != 0)
        return -1;
    df = (double)(nx + ny - 2);
    sp2 = ((double)(nx - 1) * vx + (double)(ny - 1) * vy) / df;
    se2 = sp2 * (1.0 / (double)nx + 1.0 / (double)ny);
    if (!(se2 > 0.0))
        return -1;
    out->t = (mx - my) / sqrt(se2);
    out->df = df;
    out->p = bh_stats_t_p2(out->t, df);
    return 0;
}

/* ---- effects and helpers ----------------------------------------------- */

int bh_stats_fieller(double a, double va, double b, double vb, double t, double *ratio,
                     double *lo, double *hi)
{
    double den, disc, root, r1, r2;

    *ratio = *lo = *hi = NAN;
    if (!isfinite(a) || !isfinite(b) || !isfinite(t) || !(va >= 0.0) || !(vb >= 0.0) ||
        isinf(va) || isinf(vb) || a == 0.0)
        return -1;
    *ratio = b / a;
    den = a * a - t * t * va;
    if (!(den > 0.0))
        return -1;
    disc = a * a * vb + b * b * va - t * t * va * vb;
    root = t * sqrt(disc > 0.0 ? disc : 0.0);
    r1 = (a * b - root) / den;
    r2 = (a * b + root) / den;
    *lo = fmin(r1, r2);
    *hi = fmax(r1, r2);
    return 0;
}

double bh_stats_slope_origin(const double *x, const double *y, size_t n)
{
    double sxy = 0.0, sxx = 0.0;

    if (n == 0 || !bh_stats_all_finite(x, n) || !bh_stats_all_finite(y, n))
        return NAN;
    for (size_t i = 0; i < n; i++) {
        sxy += x[i] * y[i];
        sxx += x[i] * x[i];
    }
    return sxx > 0.0 ? sxy / sxx : NAN;
}

double bh_stats_geomean(const double *x, size_t n)
{
    double s = 0.0;

    if (n == 0)
        return NAN;
    for (size_t i = 0; i < n; i++) {
        if (!(x[i] > 0.0) || isinf(x[i]))
            return NAN;
        s += log(x[i]);
    }
    return exp(s / (double)n);
}

/* ---- multiple testing -------------------------------------------------- */

typedef struct ranked_p {
    double p;
    size_t i;
} ranked_p;

static int cmp_ranked_p(const void *pa, const void *pb)
{
    const ranked_p *a = pa, *b = pb;

    if (a->p != b->p)
        return a->p < b->p ? -1 : 1;
    return (a->i > b->i) - (a->i < b->i);
}

/* p sorted ascending with original positions; NULL on bad p or no memory. */
static ranked_p *sort_p(const double *p, size_t m)
{
    ranked_p *r;

    for (size_t i = 0; i < m; i++)
        if (!(p[i] >= 0.0 && p[i] <= 1.0))
            return NULL;
    r = malloc(m * sizeof(*r));
    if (!r)
        return NULL;
    for (size_t i = 0; i < m; i++) {
        r[i].p = p[i];
        r[i].i = i;
    }
    qsort(r, m, sizeof(*r), cmp_ranked_p);
    return r;
}

/* Step-up adjustment with factor c (1 for BH, sum 1/i for BY). */
static int step_up(const double *p, size_t m, double *q, double c)
{
    ranked_p *r;
    double run = 1.0;

    if (m == 0)
        return 0;
    r = sort_p(p, m);
    if (!r)
        return -1;
    for (size_t k = m; k-- > 0;) {
        double v = fmin(1.0, c * (double)m * r[k].p / (double)(k + 1));

        if (v < run)
            run = v;
        r[k].p = run;
    }
    for (size_t k = 0; k < m; k++)
        q[r[k].i] = r[k].p;
    free(r);
    return 0;
}

int bh_stats_adjust_bh(const double *p, size_t m, double *q)
{
    return step_up(p, m, q, 1.0);
}

int bh_stats_adjust_by(const double *p, size_t m, double *q)
{
    double c = 0.0;

    for (size_t i = m; i > 0; i--)
        c += 1.0 / (double)i;
    return step_up(p, m, q, c);
}

int bh_stats_adjust_holm(const double *p, size_t m, double *q)
{
    ranked_p *r;
    double run = 0.0;

    if (m == 0)
        return 0;
    r = sort_p(p, m);
    if (!r)
        return -1;
    for (size_t k = 0; k < m; k++) {
        double v = fmin(1.0, (double)(m - k) * r[k].p);

        if (v > run)
            run = v;
        r[k].p = run;
    }
    for (size_t k = 0; k < m; k++)
        q[r[k].i] = r[k].p;
    free(r);
    return 0;
}

/* ---- E-Divisive --------------------------------------------------------- */

long bh_stats_edivisive_q(const double *x, size_t n, double *q)
{
    /* Sums of |differences|: within the left part, within the right part,
     * and across; moving one point from right to left updates them in
     * O(n). */
    double within_l = 0.0, within_r = 0.0, cross = 0.0, best = -INFINITY;
    long arg = 0;

    if (n == 0 || !bh_stats_all_finite(x, n))
        return -1;
    for (size_t j = 0; j < n; j++)
        for (size_t k = j + 1; k < n; k++)
            within_r += fabs(x[j] - x[k]);
    for (size_t tau = 0; tau < n; tau++) {
        double m = (double)tau, r = (double)(n - tau), e = 0.0;

        if (tau > 0) {
            /* x[tau-1] moved from the right part to the left one. */
            double v = x[tau - 1], to_left = 0.0, to_right = 0.0;

            for (size_t i = 0; i + 1 < tau; i++)
                to_left += fabs(v - x[i]);
            for (size_t j = tau; j < n; j++)
                to_right += fabs(v - x[j]);
            within_l += to_left;
            within_r -= to_right;
            cross += to_right - to_left;
            e = 2.0 * cross / (m * r);
            if (tau >= 2)
                e -= within_l / (m * (m - 1.0) / 2.0);
            if (n - tau >= 2)
                e -= within_r / (r * (r - 1.0) / 2.0);
            e *= m * r / (m + r);
        }
        q[tau] = e;
        if (e > best) {
            best = e;
            arg = (long)tau;
        }
    }
    return arg;
}
