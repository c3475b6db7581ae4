// SPDX-License-Identifier: MIT
/* Ratios of case medians with a bootstrap interval (median_ratio.h). The
 * point estimate is the ratio of the two medians of time per iteration
 * over every ok sample. Its interval is a percentile bootstrap that
 * resamples each side's runs (fresh workers) with replacement and takes
 * the median of the chosen runs' medians, so that the between-run spread,
 * usually the larger one, is in it; a side with fewer than 3 ok runs
 * resamples its samples. */
#include "median_ratio.h"

#include "bh_mem.h"
#include "bh_rng.h"
#include "quantile.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Ascending order of doubles. */
static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;

    return x < y ? -1 : x > y;
}

/* The median of v[0..n) (sorted in place); NAN when n is 0. */
static double median_of(double *v, size_t n)
{
    if (n == 0)
        return NAN;
    qsort(v, n, sizeof(*v), cmp_d);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* The median of a copy of v[0..n). */
static double median_copy(const double *v, size_t n)
{
    double *tmp = bh_xcalloc(n ? n : 1, sizeof(double)), m;

    memcpy(tmp, v, n * sizeof(double));
    m = median_of(tmp, n);
    free(tmp);
    return m;
}

/* Appends the time per iteration of every valid sample of run to t->all
 * (capacity *cap); returns how many. */
static size_t add_samples(bh_case_times *t, const cJSON *run, size_t *cap)
{
    const cJSON *smp;
    size_t first = t->n_all;

    cJSON_ArrayForEach(smp, cJSON_GetObjectItemCaseSensitive(run, "samples")) {
        double it = cJSON_GetArrayItem(smp, 0) ? cJSON_GetArrayItem(smp, 0)->valuedouble : 0;
        double ns = cJSON_GetArrayItem(smp, 1) ? cJSON_GetArrayItem(smp, 1)->valuedouble : 0;

        if (!(it > 0) || !(ns > 0))
            continue;
        if (t->n_all == *cap) {
            *cap = *cap ? *cap * 2 : 64;
            t->all = bh_xreallocarray(t->all, *cap, sizeof(double));
        }
        t->all[t->n_all++] = ns / it;
    }
    return t->n_all - first;
}

void bh_case_times_load(bh_case_times *t, const cJSON *c)
{
    const cJSON *run;
    size_t cap = 0;

    memset(t, 0, sizeof(*t));
    t->c = c;
    cJSON_ArrayForEach(run, cJSON_GetObjectItemCaseSensitive(c, "runs")) {
        const cJSON *st = cJSON_GetObjectItemCaseSensitive(run, "status");
        size_t first = t->n_all, n;

        if (!cJSON_IsString(st) || strcmp(st->valuestring, "ok") != 0)
            continue;
        if ((n = add_samples(t, run, &cap)) == 0)
            continue;
        t->run_med = bh_xreallocarray(t->run_med, t->n_runs + 1, sizeof(double));
        t->run_med[t->n_runs++] = median_copy(t->all + first, n);
    }
}

void bh_case_times_free(bh_case_times *t)
{
    free(t->run_med);
    free(t->all);
}

char *bh_case_times_problem(const bh_case_times *t)
{
    const char *st = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(t->c, "status"));
    const char *msg = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(t->c, "message"));
    const char *id = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(t->c, "id"));

    if (t->n_all > 0)
        return NULL;
    return bh_xasprintf("%s %s%s%s", id ? id : "?", st ? st : "without samples", msg ? ": " : "",
                        msg ? msg : "");
}

double bh_case_times_median(const bh_case_times *t)
{
    return median_copy(t->all, t->n_all);
}

/* One bootstrap replicate of t's median into scratch. */
static double replicate(const bh_case_times *t, bh_rng *r, double *scratch)
{
    int by_run = t->n_runs >= 3;
    const double *from = by_run ? t->run_med : t->all;
    size_t n = by_run ? t->n_runs : t->n_all;

    for (size_t i = 0; i < n; i++)
        scratch[i] = from[bh_rng_below(r, n)];
    return median_of(scratch, n);
}

void bh_median_ratio_estimate(const bh_case_times *a, const bh_case_times *b, uint64_t seed,
                              bh_median_ratio *out)
{
    double *rep = bh_xcalloc(BH_RATIO_RESAMPLES, sizeof(double));
    double *sa = bh_xcalloc(a->n_all ? a->n_all : 1, sizeof(double));
    double *sb = bh_xcalloc(b->n_all ? b->n_all : 1, sizeof(double));
    bh_rng r;

    out->median_a = bh_case_times_median(a);
    out->median_b = bh_case_times_median(b);
    out->ratio = out->median_a / out->median_b;
    bh_rng_seed(&r, seed);
    for (size_t i = 0; i < BH_RATIO_RESAMPLES; i++)
        rep[i] = replicate(a, &r, sa) / replicate(b, &r, sb);
    qsort(rep, BH_RATIO_RESAMPLES, sizeof(double), cmp_d);
    out->lo = bh_stats_quantile_sorted(rep, BH_RATIO_RESAMPLES, (1 - BH_RATIO_LEVEL) / 2);
    out->hi = bh_stats_quantile_sorted(rep, BH_RATIO_RESAMPLES, (1 + BH_RATIO_LEVEL) / 2);
    free(rep);
    free(sa);
    free(sb);
}
