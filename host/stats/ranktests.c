// SPDX-License-Identifier: MIT
/* Rank tests (Mann-Whitney U, Wilcoxon signed-rank) and Hodges-Lehmann
 * shifts; declared in compare.h. */
#include "compare.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "descriptive.h"
#include "distributions.h"

/* Exact distributions beyond these sizes take too much time or memory:
 * Mann-Whitney needs (min(nx,ny)+1) (nx ny + 1) doubles per row (two rows),
 * Wilcoxon n (n+1)/2 doubles and n^3/2 operations. */
#define MWU_EXACT_MAX_CELLS 2000000.0
#define WILCOXON_EXACT_MAX_N 400

typedef struct tagged_v {
    double v;
    size_t i;
} tagged_v;

static int cmp_tagged_v(const void *pa, const void *pb)
{
    const tagged_v *a = pa, *b = pb;

    if (a->v != b->v)
        return a->v < b->v ? -1 : 1;
    return (a->i > b->i) - (a->i < b->i);
}

/* Average ranks (1-based) of t[0..n) into rank[t[k].i]; sorts t. Returns
 * sum over tie groups of (g^3 - g). */
static double average_ranks(tagged_v *t, size_t n, double *rank)
{
    double ties = 0.0;

    qsort(t, n, sizeof(*t), cmp_tagged_v);
    for (size_t a = 0; a < n;) {
        size_t b = a + 1;
        double g, r;

        while (b < n && t[b].v == t[a].v)
            b++;
        g = (double)(b - a);
        r = ((double)a + 1.0 + (double)b) / 2.0; /* mean of ranks a+1..b */
        for (size_t k = a; k < b; k++)
            rank[t[k].i] = r;
        ties += g * g * g - g;
        a = b;
    }
    return ties;
}

/* ---- Mann-Whitney U ------------------------------------------------------ */

/* P(U >= u) under the null for sizes m and n (U = #pairs x > y), from
 * p(i, j, v) = i/(i+j) p(i-1, j, v-j) + j/(i+j) p(i, j-1, v): the largest
 * value is an x (beating all j y's) or a y. All weights positive. NAN when
 * memory runs out. */
static double mwu_upper_tail(size_t m, size_t n, size_t u)
{
    size_t len = m * n + 1, s;
    double *base, *prev, *cur, tail = 0.0;

    if (n > m) { /* the distribution is symmetric in the roles */
        s = m;
        m = n;
        n = s;
    }
    base = calloc(2 * (n + 1) * len, sizeof(*base));
    if (!base)
        return NAN;
    prev = base;
    cur = base + (n + 1) * len;
    /* Row i = 0: p(0, j, 0) = 1. */
    for (size_t j = 0; j <= n; j++)
        prev[j * len] = 1.0;
    for (size_t i = 1; i <= m; i++) {
        double *tmp;

        cur[0] = 1.0; /* p(i, 0, 0) = 1 */
        memset(cur + 1, 0, (len - 1) * sizeof(*cur));
        for (size_t j = 1; j <= n; j++) {
            double wi = (double)i / (double)(i + j), wj = 1.0 - wi;
            double *c = cur + j * len;
            const double *left = prev + j * len, *down = cur + (j - 1) * len;
            size_t top = i * j;

            for (size_t v = 0; v <= top; v++) {
                double a = v >= j ? left[v - j] : 0.0;

                c[v] = wi * a + wj * down[v];
            }
            for (size_t v = top + 1; v < len; v++)
                c[v] = 0.0;
        }
        tmp = prev;
        prev = cur;
        cur = tmp;
    }
    for (size_t v = len; v-- > u;)
        tail += prev[n * len + v];
    free(base);
    return tail;
}

double bh_stats_mwu_min_p(size_t nx, size_t ny)
{
    if (nx == 0 || ny == 0)
        return NAN;
    return fmin(1.0, 2.0 * exp(-bh_stats_lchoose((double)(nx + ny), (double)nx)));
}

int bh_stats_mann_whitney(const double *x, size_t nx, const double *y, size_t ny,
                          bh_stats_rank_method method, bh_stats_mwu *out)
{
    size_t n = nx + ny;
    tagged_v *t = NULL;
    double *rank = NULL, ties, r1 = 0.0, umax, mn = (double)nx * (double)ny;
    int exact, rc = -1;

    out->u1 = out->u2 = out->p = NAN;
    out->exact = 0;
    if (nx == 0 || ny == 0 || !bh_stats_all_finite(x, nx) || !bh_stats_all_finite(y, ny))
        return -1;
    t = malloc(n * sizeof(*t));
    rank = malloc(n * sizeof(*rank));
    if (!t || !rank)
        goto out_free;
    for (size_t k = 0; k < n; k++) {
        t[k].v = k < nx ? x[k] : y[k - nx];
        t[k].i = k;
    }
    ties = average_ranks(t, n, rank);
    for (size_t k = 0; k < nx; k++)
        r1 += rank[k];
    out->u1 = r1 - (double)nx * ((double)nx + 1.0) / 2.0;
    out->u2 = mn - out->u1;
    umax = fmax(out->u1, out->u2);

    exact = method == BH_STATS_RANK_EXACT ||
            (method == BH_STATS_RANK_AUTO && ties == 0.0 && nx < 50 && ny < 50);
    if (exact) {
        double small = (double)(nx < ny ? nx : ny);

        if (ties > 0.0 || (small + 1.0) * (mn + 1.0) > MWU_EXACT_MAX_CELLS)
            goto out_free;
        out->p = fmin(1.0, 2.0 * mwu_upper_tail(nx, ny, (size_t)umax));
        if (isnan(out->p))
            goto out_free;
        out->exact = 1;
    } else {
        double dn = (double)n, cc = method == BH_STATS_RANK_NORMAL ? 0.0 : 0.5;
        double var = mn / 12.0 * ((dn + 1.0) - ties / (dn * (dn - 1.0)));

        if (n < 2 || !(var > 0.0))
            out->p = 1.0; /* every value tied: no evidence either way */
        else
            out->p = fmin(1.0, 2.0 * bh_stats_norm_sf((umax - mn / 2.0 - cc) / sqrt(var)));
    }
    rc = 0;

out_free:
    if (rc != 0)
        out->u1 = out->u2 = out->p = NAN;
    free(rank);
    free(t);
    return rc;
}

/* ---- Wilcoxon signed-rank ------------------------------------------------ */

/* Null distribution of W+ for n untied ranks: P(W+ = s), s = 0..n(n+1)/2,
 * from prod (1 + x^k) / 2 (positive weights only). NULL when out of memory. */
static double *signed_rank_pmf(size_t n)
{
    size_t top = n * (n + 1) / 2;
    double *f = calloc(top + 1, sizeof(*f));

    if (!f)
        return NULL;
    f[0] = 1.0;
    for (size_t k = 1; k <= n; k++) {
        size_t hi = k * (k + 1) / 2;

        for (size_t s = hi; s >= k; s--)
            f[s] = 0.5 * (f[s] + f[s - k]);
        for (size_t s = k; s-- > 0;)
            f[s] *= 0.5;
    }
    return f;
}

int bh_stats_wilcoxon_signed_rank(const double *d, size_t nd, bh_stats_rank_method method,
                                  bh_stats_wilcoxon *out)
{
    tagged_v *t = NULL;
    double *rank = NULL, ties, w = 0.0, dn, mu;
    size_t n = 0;
    int exact, rc = -1;

    out->w_plus = out->p = NAN;
    out->n = 0;
    out->exact = 0;
    if (nd == 0 || !bh_stats_all_finite(d, nd))
        return -1;
    t = malloc(nd * sizeof(*t));
    rank = malloc(nd * sizeof(*rank));
    if (!t || !rank)
        goto out_free;
    for (size_t k = 0; k < nd; k++) {
        if (d[k] != 0.0) {
            t[n].v = fabs(d[k]);
            t[n].i = k; /* rank[] is indexed like d[] */
            n++;
        }
    }
    if (method == BH_STATS_RANK_EXACT && n != nd)
        goto out_free; /* zero differences */
    ties = average_ranks(t, n, rank);
    for (size_t k = 0; k < n; k++)
        if (d[t[k].i] > 0.0)
            w += rank[t[k].i];
    out->w_plus = w;
    out->n = n;
    if (n == 0) {
        out->p = 1.0;
        rc = 0;
        goto out_free;
    }
    if (method == BH_STATS_RANK_EXACT)
        exact = 1;
    else if (method == BH_STATS_RANK_AUTO)
        exact = ties == 0.0 && n == nd && n < 50;
    else
        exact = 0;
    if (exact && (ties > 0.0 || n > WILCOXON_EXACT_MAX_N))
        goto out_free;
    dn = (double)n;
    mu = dn * (dn + 1.0) / 4.0;
    if (exact) {
        double *f = signed_rank_pmf(n), lo = 0.0, hi = 0.0;
        size_t ws = (size_t)w, top = n * (n + 1) / 2;

        if (!f)
            goto out_free;
        for (size_t s = 0; s <= ws; s++)
            lo += f[s];
        for (size_t s = ws; s <= top; s++)
            hi += f[s];
        free(f);
        out->p = fmin(1.0, 2.0 * fmin(lo, hi));
        out->exact = 1;
    } else {
        double var = dn * (dn + 1.0) * (2.0 * dn + 1.0) / 24.0 - ties / 48.0;
        double dev = fabs(w - mu), cc = method == BH_STATS_RANK_NORMAL ? 0.0 : 0.5;

        if (!(var > 0.0) || dev == 0.0)
            out->p = 1.0;
        else
            out->p = fmin(1.0, 2.0 * bh_stats_norm_sf((dev - cc) / sqrt(var)));
    }
    rc = 0;

out_free:
    if (rc != 0) {
        out->w_plus = out->p = NAN;
        out->n = 0;
        out->exact = 0;
    }
    free(rank);
    free(t);
    return rc;
}

/* ---- Hodges-Lehmann ------------------------------------------------------ */

static void shift_nan(bh_stats_shift *out)
{
    out->estimate = out->lo = out->hi = NAN;
}

/* Median and the CI order statistics C and total + 1 - C (1-based) of
 * a[0..total), reordering a. C < 1 gives infinite bounds. */
static void median_and_ci(double *a, size_t total, double c, bh_stats_shift *out)
{
    double m1 = bh_stats_select(a, total, (total - 1) / 2);
    double m2 = total % 2 ? m1 : bh_stats_select(a, total, total / 2);

    out->estimate = m1 + (m2 - m1) / 2.0;
    if (c < 1.0) {
        out->lo = -INFINITY;
        out->hi = INFINITY;
    } else {
        size_t k = (size_t)c;

        out->lo = bh_stats_select(a, total, k - 1);
        out->hi = bh_stats_select(a, total, total - k);
    }
}

int bh_stats_hodges_lehmann(const double *x, size_t nx, const double *y, size_t ny,
                            double level, bh_stats_shift *out)
{
    double *dif, mn, z, c;
    size_t total;

    shift_nan(out);
    if (nx == 0 || ny == 0 || !(level > 0.0 && level < 1.0) || ny > SIZE_MAX / sizeof(double) / nx)
        return -1;
    if (!bh_stats_all_finite(x, nx) || !bh_stats_all_finite(y, ny))
        return -1;
    total = nx * ny;
    dif = malloc(total * sizeof(*dif));
    if (!dif)
        return -1;
    for (size_t j = 0; j < ny; j++)
        for (size_t i = 0; i < nx; i++)
            dif[j * nx + i] = y[j] - x[i];
    mn = (double)total;
    z = bh_stats_norm_quantile(1.0 - (1.0 - level) / 2.0);
    c = round(mn / 2.0 - z * sqrt(mn * ((double)nx + (double)ny + 1.0) / 12.0));
    median_and_ci(dif, total, c, out);
    free(dif);
    return 0;
}

int bh_stats_hodges_lehmann_one(const double *x, size_t n, double level, bh_stats_shift *out)
{
    double *w, dn = (double)n, m, z, c;
    size_t total, k = 0;

    shift_nan(out);
    if (n == 0 || !(level > 0.0 && level < 1.0) || !bh_stats_all_finite(x, n))
        return -1;
    if (n > (size_t)1 << 26) /* n(n+1)/2 doubles must be addressable */
        return -1;
    total = n * (n + 1) / 2;
    w = malloc(total * sizeof(*w));
    if (!w)
        return -1;
    for (size_t i = 0; i < n; i++)
        for (size_t j = i; j < n; j++)
            w[k++] = x[i] + (x[j] - x[i]) / 2.0;
    m = (double)total;
    z = bh_stats_norm_quantile(1.0 - (1.0 - level) / 2.0);
    c = round(m / 2.0 - z * sqrt(dn * (dn + 1.0) * (2.0 * dn + 1.0) / 24.0));
    median_and_ci(w, total, c, out);
    free(w);
    return 0;
}
