// SPDX-License-Identifier: MIT
/* The stopping rule of runs: auto (runs_auto.h, docs/statistics.md section
 * 8.3): pure functions of one case's run medians and times. */
#include "runs_auto.h"

#include "bh_mem.h"
#include "compare.h"
#include "descriptive.h"
#include "quantile.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Most runs bh_runs_auto_least answers (the config's limit on runs). */
#define LEAST_CAP 10000u

/* See runs_auto.h. */
double bh_runs_auto_ci_width(double *v, size_t n)
{
    double med, lo, hi;

    if (n == 0)
        return NAN;
    bh_stats_sort(v, n);
    med = bh_stats_median_sorted(v, n);
    if (!(med > 0.0))
        return NAN;
    if (bh_stats_quantile_ci_sorted(v, n, 0.5, BH_RUNS_AUTO_LEVEL, &lo, &hi, NULL) != 0 ||
        !isfinite(lo) || !isfinite(hi))
        return INFINITY;
    return (hi - lo) / med;
}

/* See runs_auto.h. */
bh_runs_auto_stop bh_runs_auto_decide(const bh_case_auto *lim, const bh_runs_auto_state *st,
                                      double *width)
{
    double w = NAN;
    double *v = NULL;

    if (st->n_medians > 0) {
        v = bh_xcalloc(st->n_medians, sizeof(*v));
        for (size_t i = 0; i < st->n_medians; i++)
            v[i] = st->medians[i];
        w = bh_runs_auto_ci_width(v, st->n_medians);
        free(v);
    }
    if (width)
        *width = w;
    if (!st->all_ok)
        return BH_RUNS_AUTO_RUN_NOT_OK;
    if (st->runs_done < lim->min)
        return BH_RUNS_AUTO_GO_ON;
    if (w < lim->floor) /* false for NAN and INFINITY */
        return BH_RUNS_AUTO_CI_NARROW;
    if (st->runs_done >= lim->max)
        return BH_RUNS_AUTO_MAX_RUNS;
    if (st->budget_ns && st->runs_done > 0 &&
        (double)st->spent_ns + (double)st->spent_ns / st->runs_done > (double)st->budget_ns)
        return BH_RUNS_AUTO_TIME_BUDGET;
    return BH_RUNS_AUTO_GO_ON;
}

/* See runs_auto.h. */
const char *bh_runs_auto_stop_name(bh_runs_auto_stop s)
{
    static const char *const names[] = {NULL, "ci_narrow", "max_runs", "time_budget",
                                        "run_not_ok"};

    return (unsigned)s < sizeof(names) / sizeof(*names) ? names[s] : NULL;
}

/* See runs_auto.h. */
void bh_runs_auto_medians(const bh_case *c, double **out, size_t *n)
{
    *out = NULL;
    *n = 0;
    if (c->n_runs == 0)
        return;
    *out = bh_xcalloc(c->n_runs, sizeof(double));
    for (uint32_t r = 0; r < c->n_runs; r++) {
        const bh_run *run = &c->runs[r];
        const cJSON *pair;
        double *vals;
        size_t k = 0;

        if (!run->done || run->status != BH_ST_OK || !run->samples)
            continue;
        vals = bh_xcalloc((size_t)cJSON_GetArraySize(run->samples) + 1, sizeof(double));
        cJSON_ArrayForEach(pair, run->samples) {
            double iters = cJSON_GetArrayItem(pair, 0)->valuedouble;
            double ns = cJSON_GetArrayItem(pair, 1)->valuedouble;

            if (iters > 0 && isfinite(ns))
                vals[k++] = ns / iters;
        }
        if (k > 0) {
            bh_stats_sort(vals, k);
            (*out)[(*n)++] = bh_stats_median_sorted(vals, k);
        }
        free(vals);
    }
    if (*n == 0) {
        free(*out);
        *out = NULL;
    }
}

/* See runs_auto.h. */
uint32_t bh_runs_auto_least(double fdr, size_t m_tests)
{
    double alpha = fdr / (double)(m_tests ? m_tests : 1);
    uint32_t n = BH_RUNS_AUTO_MIN_CI_RUNS;

    while (n < LEAST_CAP && !(bh_stats_mwu_min_p(n, n) <= alpha))
        n++;
    return n;
}

/* See runs_auto.h. */
size_t bh_runs_auto_tests(const bh_case *c)
{
    for (uint32_t r = 0; r < c->n_runs; r++) {
        const cJSON *m;
        size_t n = 1;

        if (!c->runs[r].done || c->runs[r].status != BH_ST_OK || !c->runs[r].result)
            continue;
        cJSON_ArrayForEach(m, cJSON_GetObjectItemCaseSensitive(c->runs[r].result, "metrics")) {
            const cJSON *kind = cJSON_GetObjectItemCaseSensitive(m, "kind");

            n += !cJSON_IsString(kind) || strcmp(kind->valuestring, "performance") == 0;
        }
        return n;
    }
    return 1;
}

/* See runs_auto.h. */
int bh_runs_auto_any(const bh_plan *plan)
{
    for (size_t i = 0; i < plan->n; i++)
        if (plan->cases[i].pre_status == BH_ST_OK && plan->cases[i].settings.runs_auto)
            return 1;
    return 0;
}
