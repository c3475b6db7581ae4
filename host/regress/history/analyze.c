// SPDX-License-Identifier: MIT
/* Change points and the newest-value check for every series of a loaded
 * results folder (contract in history_report.h). */
#include "history_report.h"

#include "compare.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void bh_history_analysis_opts_default(bh_history_analysis_opts *o)
{
    bh_history_opts_default(&o->detect);
    o->pi_level = 0.99;
    o->pi_min_ref = 5;
    o->pi_max_ref = 64;
}

void bh_history_analysis_free(bh_history_analysis *a)
{
    for (size_t i = 0; i < a->n; i++)
        free(a->r[i].cps);
    free(a->r);
    memset(a, 0, sizeof(*a));
}

/* Analyses one series into *r. Returns 0 or -1. */
static int analyze_one(const bh_history_set *set, const bh_history_series *s,
                       const bh_history_analysis_opts *o, bh_history_result *r)
{
    double *x = malloc((s->n ? s->n : 1) * sizeof(double));
    size_t *off = malloc((s->n + 1) * sizeof(size_t));
    double *runs = NULL;
    bh_history_runs rv;
    size_t total = 0;
    int rc = -1;

    r->series = s;
    r->newest_q = NAN;
    if (!x || !off)
        goto out;
    for (size_t i = 0; i < s->n; i++)
        total += s->pts[i].n_runs;
    runs = malloc((total ? total : 1) * sizeof(double));
    if (!runs)
        goto out;
    off[0] = 0;
    for (size_t i = 0; i < s->n; i++) {
        const bh_history_point *p = &s->pts[i];

        x[i] = p->value;
        memcpy(runs + off[i], set->runs + p->run_off, p->n_runs * sizeof(double));
        off[i + 1] = off[i] + p->n_runs;
    }
    rv.values = runs;
    rv.offset = off;
    if (bh_history_detect(x, s->n, &rv, &o->detect, &r->cps, &r->n_cps) != 0)
        goto out;
    if (s->n == 0) {
        rc = 0;
        goto out;
    }
    rc = bh_history_check_newest(x, s->n, r->n_cps ? r->cps[r->n_cps - 1].index : 0,
                                 o->pi_min_ref, o->pi_max_ref, o->pi_level, o->detect.log_scale,
                                 &r->newest);
out:
    free(x);
    free(off);
    free(runs);
    return rc;
}

/* Benjamini-Hochberg q of the newest-value p over the series that have a
 * prediction interval. Returns 0 or -1. */
static int adjust(bh_history_analysis *a)
{
    double *p = malloc((a->n ? a->n : 1) * sizeof(double));
    size_t *who = malloc((a->n ? a->n : 1) * sizeof(size_t));
    size_t m = 0;
    int rc = -1;

    if (!p || !who)
        goto out;
    for (size_t i = 0; i < a->n; i++) {
        if (a->r[i].newest.status != BH_HISTORY_PI_NONE && isfinite(a->r[i].newest.p)) {
            who[m] = i;
            p[m++] = a->r[i].newest.p;
        }
    }
    if (bh_stats_adjust_bh(p, m, p) != 0)
        goto out;
    for (size_t k = 0; k < m; k++)
        a->r[who[k]].newest_q = p[k];
    rc = 0;
out:
    free(p);
    free(who);
    return rc;
}

int bh_history_analyze(const bh_history_set *set, const bh_history_analysis_opts *o,
                       bh_history_analysis *out)
{
    if (bh_history_opts_check(&o->detect) != 0 || o->pi_min_ref < 2 ||
        o->pi_max_ref < o->pi_min_ref ||
        !(o->pi_level > 0.0 && o->pi_level < 1.0))
        return -1;
    out->r = calloc(set->n_series ? set->n_series : 1, sizeof(bh_history_result));
    if (!out->r)
        return -1;
    out->n = set->n_series;
    for (size_t i = 0; i < set->n_series; i++) {
        if (analyze_one(set, &set->series[i], o, &out->r[i]) != 0) {
            bh_history_analysis_free(out);
            return -1;
        }
    }
    if (adjust(out) != 0) {
        bh_history_analysis_free(out);
        return -1;
    }
    return 0;
}

const char *bh_history_pi_status_name(bh_history_pi_status s)
{
    switch (s) {
    case BH_HISTORY_PI_INSIDE:
        return "inside";
    case BH_HISTORY_PI_BELOW:
        return "below";
    case BH_HISTORY_PI_ABOVE:
        return "above";
    case BH_HISTORY_PI_NONE:
        break;
    }
    return "none";
}
