// SPDX-License-Identifier: MIT
#include "runs.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "descriptive.h"
#include "distributions.h"

typedef struct tagged {
    uint32_t run;
    size_t pos;
} tagged;

static int cmp_tagged(const void *pa, const void *pb)
{
    const tagged *a = pa, *b = pb;

    if (a->run != b->run)
        return a->run < b->run ? -1 : 1;
    return (a->pos > b->pos) - (a->pos < b->pos);
}

/* Copies values into g grouped by run id (ascending ids, input order kept
 * inside a run) and writes the start of each group into off[0..R] (off has
 * room for n + 1). Returns R, or 0 when memory runs out. */
static size_t group_runs(const double *values, const uint32_t *run, size_t n, double *g,
                         size_t *off)
{
    uint32_t max_id = 0;
    size_t nr = 0;

    if (!run) {
        memcpy(g, values, n * sizeof(*g));
        off[0] = 0;
        off[1] = n;
        return 1;
    }
    for (size_t i = 0; i < n; i++)
        if (run[i] > max_id)
            max_id = run[i];
    if ((size_t)max_id < n) {
        /* Dense ids: counting sort. */
        size_t *start = calloc((size_t)max_id + 2, sizeof(*start));

        if (!start)
            return 0;
        for (size_t i = 0; i < n; i++)
            start[run[i] + 1]++;
        for (size_t id = 0; id <= max_id; id++) {
            if (start[id + 1] > 0)
                off[nr++] = start[id];
            start[id + 1] += start[id];
        }
        off[nr] = n;
        for (size_t i = 0; i < n; i++)
            g[start[run[i]]++] = values[i];
        free(start);
        return nr;
    }
    /* Sparse ids: sort (id, position) pairs. */
    tagged *t = malloc(n * sizeof(*t));

    if (!t)
        return 0;
    for (size_t i = 0; i < n; i++) {
        t[i].run = run[i];
        t[i].pos = i;
    }
    qsort(t, n, sizeof(*t), cmp_tagged);
    for (size_t i = 0; i < n; i++) {
        if (i == 0 || t[i].run != t[i - 1].run)
            off[nr++] = i;
        g[i] = values[t[i].pos];
    }
    off[nr] = n;
    free(t);
    return nr;
}

/* Median of x[0..m), m > 0, using scratch[0..m). */
static double slice_median(const double *x, size_t m, double *scratch)
{
    size_t k = (m - 1) / 2;
    double a, b;

    memcpy(scratch, x, m * sizeof(*x));
    a = bh_stats_select(scratch, m, k);
    if (m % 2)
        return a;
    /* select leaves everything after position k at least as large. */
    b = scratch[k + 1];
    for (size_t i = k + 2; i < m; i++)
        if (scratch[i] < b)
            b = scratch[i];
    return a + (b - a) / 2.0;
}

static void set_empty(bh_stats_runs *out)
{
    out->n_runs = 0;
    out->median_of_medians = NAN;
    out->between_cv = NAN;
    out->log_median_sd = NAN;
    out->within_cv = NAN;
    out->f = NAN;
    out->f_p = NAN;
    out->drift = NAN;
}

/* Between-run statistics from the R run medians rmed (reordered). */
static void between_stats(double *rmed, size_t nr, double *scratch, bh_stats_runs *out)
{
    double m, v;
    int positive = 1;

    if (nr >= 2) {
        bh_stats_mean_var(rmed, nr, &m, &v);
        if (m != 0.0)
            out->between_cv = sqrt(v) / fabs(m);
        for (size_t r = 0; r < nr; r++) {
            if (!(rmed[r] > 0.0)) {
                positive = 0;
                break;
            }
            scratch[r] = log(rmed[r]);
        }
        if (positive) {
            bh_stats_mean_var(scratch, nr, NULL, &v);
            out->log_median_sd = sqrt(v);
        }
    }
    bh_stats_sort(rmed, nr);
    out->median_of_medians = bh_stats_median_sorted(rmed, nr);
}

int bh_stats_run_analysis(const double *values, const uint32_t *run, size_t n,
                          bh_stats_runs *out)
{
    double *g = NULL, *scratch, *rmed, *drifts, grand, ssb = 0.0, ssw = 0.0, cvsum = 0.0;
    size_t *off = NULL, nr, nd = 0, df = 0;
    int rc = -1;

    set_empty(out);
    if (n == 0)
        return -1;
    g = malloc(4 * n * sizeof(*g));
    off = malloc((n + 1) * sizeof(*off));
    if (!g || !off)
        goto out_free;
    scratch = g + n;
    rmed = g + 2 * n;
    drifts = g + 3 * n;
    nr = group_runs(values, run, n, g, off);
    if (nr == 0)
        goto out_free;
    grand = bh_stats_mean(g, n); /* grouped order: independent of interleaving */

    for (size_t r = 0; r < nr; r++) {
        const double *x = g + off[r];
        size_t m = off[r + 1] - off[r];
        double mean, var;

        bh_stats_mean_var(x, m, &mean, &var);
        rmed[r] = slice_median(x, m, scratch);
        ssb += (double)m * (mean - grand) * (mean - grand);
        if (m >= 2) {
            ssw += (double)(m - 1) * var;
            if (mean != 0.0) {
                cvsum += (double)(m - 1) * var / (mean * mean);
                df += m - 1;
            }
        }
        if (m >= 3 && rmed[r] != 0.0) {
            size_t t = m / 3;
            double first = slice_median(x, t, scratch);
            double last = slice_median(x + (m - t), t, scratch);

            drifts[nd++] = (last - first) / fabs(rmed[r]);
        }
    }

    out->n_runs = nr;
    if (df > 0)
        out->within_cv = sqrt(cvsum / (double)df);
    if (nr >= 2 && n > nr) {
        double msb = ssb / (double)(nr - 1), msw = ssw / (double)(n - nr);

        out->f = msb == 0.0 ? 0.0 : msw == 0.0 ? INFINITY : msb / msw;
        out->f_p = bh_stats_f_sf(out->f, (double)(nr - 1), (double)(n - nr));
    }
    between_stats(rmed, nr, scratch, out);
    if (nd > 0) {
        bh_stats_sort(drifts, nd);
        out->drift = bh_stats_median_sorted(drifts, nd);
    }
    rc = 0;

out_free:
    free(off);
    free(g);
    return rc;
}
