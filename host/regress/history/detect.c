// SPDX-License-Identifier: MIT
/* Windowed E-Divisive change-point detection with t-test significance and
 * a magnitude floor (the contract and the exact algorithm are in
 * history.h). */
#include "history.h"

#include "compare.h"
#include "descriptive.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* What every step of one detection shares. */
typedef struct ctx {
    const double *x;       /* raw point values */
    const double *y;       /* transformed point values */
    size_t n;
    const double *ry;      /* transformed run values (unit RUN) or NULL */
    const size_t *roff;    /* n + 1 offsets into ry */
    const bh_history_opts *o;
    double *scratch;       /* n doubles, for medians */
    double *q;             /* n doubles, E-Divisive statistics */
} ctx;

void bh_history_opts_default(bh_history_opts *o)
{
    o->window = 50;
    o->min_size = 3;
    o->split_p = 0.01;
    o->max_p = 0.001;
    o->min_change = 0.01;
    o->test = BH_HISTORY_STUDENT;
    o->unit = BH_HISTORY_UNIT_POINT;
    o->log_scale = 1;
}

int bh_history_opts_check(const bh_history_opts *o)
{
    if (!o || o->min_size < 2)
        return -1;
    if (o->window != 0 && o->window / 2 < o->min_size)
        return -1;
    if (!(o->split_p > 0.0 && o->split_p <= 1.0) || !(o->max_p > 0.0 && o->max_p <= 1.0))
        return -1;
    if (!(o->min_change >= 0.0) || !isfinite(o->min_change))
        return -1;
    if (o->test != BH_HISTORY_STUDENT && o->test != BH_HISTORY_WELCH)
        return -1;
    if (o->unit != BH_HISTORY_UNIT_POINT && o->unit != BH_HISTORY_UNIT_RUN)
        return -1;
    return 0;
}

/* True when every v[i] is finite and > 0. */
static int all_positive(const double *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!(v[i] > 0.0) || !isfinite(v[i]))
            return 0;
    return 1;
}

/* Median of the raw point values x[lo..hi) (hi > lo), sorted in scratch. */
static double segment_median(const ctx *c, size_t lo, size_t hi)
{
    size_t k = hi - lo;

    memcpy(c->scratch, c->x + lo, k * sizeof(double));
    bh_stats_sort(c->scratch, k);
    return bh_stats_median_sorted(c->scratch, k);
}

/* Runs the configured t test of a[0..na) against b[0..nb) (na, nb >= 2)
 * into *out, resolving zero spread: p 0 (t +-inf) when the means differ,
 * p 1 (t 0) when they do not. */
static void segment_test(const ctx *c, const double *a, size_t na, const double *b, size_t nb,
                         bh_stats_ttest *out)
{
    int rc = c->o->test == BH_HISTORY_WELCH ? bh_stats_welch_t(a, na, b, nb, out)
                                            : bh_stats_student_t(a, na, b, nb, out);

    if (rc != 0) {
        double ma = bh_stats_mean(a, na), mb = bh_stats_mean(b, nb);

        out->df = (double)(na + nb - 2);
        out->t = ma == mb ? 0.0 : copysign(INFINITY, ma - mb);
        out->p = ma == mb ? 1.0 : 0.0;
    }
    if (!(out->p >= 0.0 && out->p <= 1.0))
        out->p = 1.0;
}

/* Fills *out with the statistics of a change at cp between the segments
 * [lo, cp) and [cp, hi) (lo < cp < hi). */
static void judge(const ctx *c, size_t lo, size_t cp, size_t hi, bh_history_cp *out)
{
    bh_stats_ttest tt;

    out->index = cp;
    out->lo = lo;
    out->hi = hi;
    out->before = segment_median(c, lo, cp);
    out->after = segment_median(c, cp, hi);
    out->change = out->after / out->before - 1.0;
    out->magnitude = fmax(fabs(out->change), fabs(out->before / out->after - 1.0));
    out->t = NAN;
    out->df = NAN;
    out->p = 1.0;
    out->candidates = hi - lo >= 2 * c->o->min_size ? hi - lo - 2 * c->o->min_size + 1 : 1;
    out->p_adjusted = 1.0;
    if (cp - lo < c->o->min_size || hi - cp < c->o->min_size)
        return;
    if (c->o->unit == BH_HISTORY_UNIT_RUN)
        segment_test(c, c->ry + c->roff[cp], c->roff[hi] - c->roff[cp], c->ry + c->roff[lo],
                     c->roff[cp] - c->roff[lo], &tt);
    else
        segment_test(c, c->y + cp, hi - cp, c->y + lo, cp - lo, &tt);
    out->t = tt.t;
    out->df = tt.df;
    out->p = tt.p;
    out->p_adjusted = fmin(1.0, tt.p * (double)out->candidates);
}

/* Inserts x into the ascending set v[0..*n) (no duplicates). */
static void insert_sorted(size_t *v, size_t *n, size_t x)
{
    size_t i = 0;

    while (i < *n && v[i] < x)
        i++;
    if (i < *n && v[i] == x)
        return;
    memmove(v + i + 1, v + i, (*n - i) * sizeof(size_t));
    v[i] = x;
    (*n)++;
}

/* The E-Divisive pass over the window [s, e): adds the significant splits
 * it finds to the ascending set all[0..*n_all); *last receives the largest
 * split it added (unchanged when none). */
static void split_window(const ctx *c, size_t s, size_t e, size_t *all, size_t *n_all,
                         size_t *last)
{
    size_t ms = c->o->min_size;

    for (;;) {
        double best = 0.0;
        size_t best_a = 0, best_b = 0, best_tau = 0, k = 0;
        size_t a = s;
        bh_history_cp cp;

        while (k < *n_all && all[k] <= s)
            k++;
        for (;;) {
            size_t b = k < *n_all && all[k] < e ? all[k] : e;

            if (b - a >= 2 * ms) {
                bh_stats_edivisive_q(c->y + a, b - a, c->q);
                for (size_t tau = ms; tau <= b - a - ms; tau++) {
                    if (c->q[tau] > best) {
                        best = c->q[tau];
                        best_a = a;
                        best_b = b;
                        best_tau = a + tau;
                    }
                }
            }
            if (b == e)
                break;
            a = b;
            k++;
        }
        if (!(best > 0.0))
            return;
        judge(c, best_a, best_tau, best_b, &cp);
        if (!(cp.p <= c->o->split_p))
            return;
        insert_sorted(all, n_all, best_tau);
        if (best_tau > *last)
            *last = best_tau;
    }
}

/* Statistics of change point i of all[0..k) on its neighbouring segments. */
static void judge_at(const ctx *c, const size_t *all, size_t k, size_t i, bh_history_cp *out)
{
    judge(c, i > 0 ? all[i - 1] : 0, all[i], i + 1 < k ? all[i + 1] : c->n, out);
}

/* The merge pass: removes the weakest change points of all[0..*k) until
 * every one left has p_adjusted <= max_p and magnitude >= min_change; st[0..*k)
 * receives the statistics of those left. */
static void merge(const ctx *c, size_t *all, size_t *k, bh_history_cp *st)
{
    for (size_t i = 0; i < *k; i++)
        judge_at(c, all, *k, i, &st[i]);
    while (*k > 0) {
        size_t w = 0;

        for (size_t i = 1; i < *k; i++)
            if (st[i].p_adjusted > st[w].p_adjusted)
                w = i;
        if (st[w].p_adjusted <= c->o->max_p) {
            w = 0;
            for (size_t i = 1; i < *k; i++)
                if (st[i].magnitude < st[w].magnitude)
                    w = i;
            if (!(st[w].magnitude < c->o->min_change))
                return;
        }
        memmove(all + w, all + w + 1, (*k - w - 1) * sizeof(size_t));
        memmove(st + w, st + w + 1, (*k - w - 1) * sizeof(bh_history_cp));
        (*k)--;
        if (w > 0)
            judge_at(c, all, *k, w - 1, &st[w - 1]);
        if (w < *k)
            judge_at(c, all, *k, w, &st[w]);
    }
}

/* Validates the inputs of bh_history_detect(); 0 or -1. */
static int check_input(const double *x, size_t n, const bh_history_runs *runs,
                       const bh_history_opts *o)
{
    if (bh_history_opts_check(o) != 0 || (n > 0 && !x) || !all_positive(x, n))
        return -1;
    if (o->unit != BH_HISTORY_UNIT_RUN)
        return 0;
    if (!runs || !runs->values || !runs->offset)
        return -1;
    for (size_t i = 0; i < n; i++)
        if (runs->offset[i + 1] <= runs->offset[i])
            return -1;
    return all_positive(runs->values + runs->offset[0], runs->offset[n] - runs->offset[0])
               ? 0
               : -1;
}

/* Transforms n values into out (ln when log_scale). */
static void transform(const double *v, size_t n, int log_scale, double *out)
{
    for (size_t i = 0; i < n; i++)
        out[i] = log_scale ? log(v[i]) : v[i];
}

int bh_history_detect(const double *x, size_t n, const bh_history_runs *runs,
                      const bh_history_opts *opts, bh_history_cp **cps, size_t *n_cps)
{
    bh_history_opts def;
    const bh_history_opts *o = opts;
    ctx c;
    double *buf = NULL, *ry = NULL;
    size_t *all = NULL, *roff = NULL;
    size_t k = 0, s = 0, n_run = 0;
    bh_history_cp *st = NULL;

    *cps = NULL;
    *n_cps = 0;
    if (!o) {
        bh_history_opts_default(&def);
        o = &def;
    }
    if (check_input(x, n, runs, o) != 0)
        return -1;
    if (n < 2 * o->min_size)
        return 0;
    buf = malloc(3 * n * sizeof(double));
    all = malloc((n + 1) * sizeof(size_t));
    if (o->unit == BH_HISTORY_UNIT_RUN) {
        n_run = runs->offset[n] - runs->offset[0];
        ry = malloc(n_run * sizeof(double));
        roff = malloc((n + 1) * sizeof(size_t));
    }
    if (!buf || !all || (o->unit == BH_HISTORY_UNIT_RUN && (!ry || !roff)))
        goto fail;
    memset(&c, 0, sizeof(c));
    c.x = x;
    c.n = n;
    c.o = o;
    c.scratch = buf + n;
    c.q = buf + 2 * n;
    transform(x, n, o->log_scale, buf);
    c.y = buf;
    if (ry) {
        transform(runs->values + runs->offset[0], n_run, o->log_scale, ry);
        for (size_t i = 0; i <= n; i++)
            roff[i] = runs->offset[i] - runs->offset[0];
        c.ry = ry;
        c.roff = roff;
    }
    for (;;) {
        size_t e = o->window == 0 || n - s <= o->window ? n : s + o->window;
        size_t last = 0, step = o->window / 2 ? o->window / 2 : 1;

        split_window(&c, s, e, all, &k, &last);
        if (e == n)
            break;
        s = last > s + step ? last : s + step;
    }
    if (k > 0) {
        st = malloc(k * sizeof(bh_history_cp));
        if (!st)
            goto fail;
        merge(&c, all, &k, st);
        if (k == 0) {
            free(st);
            st = NULL;
        }
    }
    free(buf);
    free(all);
    free(ry);
    free(roff);
    *cps = st;
    *n_cps = k;
    return 0;
fail:
    free(buf);
    free(all);
    free(ry);
    free(roff);
    return -1;
}
