// SPDX-License-Identifier: MIT
/* Ratios of case times (ratio_build.h). The point estimate is the ratio
 * of the two medians of time per iteration over every ok sample. Its
 * interval is a percentile bootstrap that resamples each side's runs
 * (fresh workers) with replacement and takes the median of the chosen
 * runs' medians, so that the between-run spread, usually the larger one,
 * is in it; a side with fewer than 3 ok runs resamples its samples. */
#define _GNU_SOURCE
#include "ratio_build.h"

#include "bh_mem.h"
#include "bh_rng.h"
#include "quantile.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One side's data: per-run medians and every sample, in ns/iteration. */
typedef struct side {
    const cJSON *c;
    double *run_med, *all;
    size_t n_runs, n_all;
} side;

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

/* Fills s from case c's ok runs. */
static void side_load(side *s, const cJSON *c)
{
    const cJSON *run, *smp;
    size_t cap = 0;

    memset(s, 0, sizeof(*s));
    s->c = c;
    cJSON_ArrayForEach(run, cJSON_GetObjectItemCaseSensitive(c, "runs")) {
        const cJSON *st = cJSON_GetObjectItemCaseSensitive(run, "status");
        size_t first = s->n_all;

        if (!cJSON_IsString(st) || strcmp(st->valuestring, "ok") != 0)
            continue;
        cJSON_ArrayForEach(smp, cJSON_GetObjectItemCaseSensitive(run, "samples")) {
            double it = cJSON_GetArrayItem(smp, 0) ? cJSON_GetArrayItem(smp, 0)->valuedouble : 0;
            double ns = cJSON_GetArrayItem(smp, 1) ? cJSON_GetArrayItem(smp, 1)->valuedouble : 0;

            if (!(it > 0) || !(ns > 0))
                continue;
            if (s->n_all == cap) {
                cap = cap ? cap * 2 : 64;
                s->all = bh_xreallocarray(s->all, cap, sizeof(double));
            }
            s->all[s->n_all++] = ns / it;
        }
        if (s->n_all == first)
            continue;
        s->run_med = bh_xreallocarray(s->run_med, s->n_runs + 1, sizeof(double));
        s->run_med[s->n_runs++] = median_copy(s->all + first, s->n_all - first);
    }
}

static void side_free(side *s)
{
    free(s->run_med);
    free(s->all);
}

/* One bootstrap replicate of side s's median into scratch. */
static double replicate(const side *s, bh_rng *r, double *scratch)
{
    int by_run = s->n_runs >= 3;
    const double *from = by_run ? s->run_med : s->all;
    size_t n = by_run ? s->n_runs : s->n_all;

    for (size_t i = 0; i < n; i++)
        scratch[i] = from[bh_rng_below(r, n)];
    return median_of(scratch, n);
}

/* Adds ratio, ci_lo, ci_hi and the medians of a over b to o. */
static void add_estimate(cJSON *o, side *a, side *b, uint64_t seed)
{
    double *rep = bh_xcalloc(BH_RATIO_RESAMPLES, sizeof(double));
    double *sa = bh_xcalloc(a->n_all, sizeof(double)), *sb = bh_xcalloc(b->n_all, sizeof(double));
    double ma = median_copy(a->all, a->n_all), mb = median_copy(b->all, b->n_all);
    bh_rng r;

    bh_rng_seed(&r, seed);
    for (size_t i = 0; i < BH_RATIO_RESAMPLES; i++)
        rep[i] = replicate(a, &r, sa) / replicate(b, &r, sb);
    qsort(rep, BH_RATIO_RESAMPLES, sizeof(double), cmp_d);
    cJSON_AddStringToObject(o, "status", "ok");
    cJSON_AddNumberToObject(o, "ratio", ma / mb);
    cJSON_AddNumberToObject(
        o, "ci_lo", bh_stats_quantile_sorted(rep, BH_RATIO_RESAMPLES, (1 - BH_RATIO_LEVEL) / 2));
    cJSON_AddNumberToObject(
        o, "ci_hi", bh_stats_quantile_sorted(rep, BH_RATIO_RESAMPLES, (1 + BH_RATIO_LEVEL) / 2));
    cJSON_AddNumberToObject(o, "level", BH_RATIO_LEVEL);
    cJSON_AddNumberToObject(o, "resamples", BH_RATIO_RESAMPLES);
    cJSON_AddNumberToObject(o, "case_median_ns", ma);
    cJSON_AddNumberToObject(o, "reference_median_ns", mb);
    free(rep);
    free(sa);
    free(sb);
}

/* The case that selector sel names: the case with that id, else the one
 * case of the suite of that name. NULL with why set otherwise. */
static const cJSON *find_case(const cJSON *doc, const bh_config *cfg, const bh_plan *plan,
                              const char *sel, char *why, size_t cap)
{
    const cJSON *cases = cJSON_GetObjectItemCaseSensitive(doc, "cases"), *hit = NULL;
    size_t n = 0;

    for (size_t i = 0; i < plan->n; i++) {
        const cJSON *c = cJSON_GetArrayItem(cases, (int)i);
        const char *suite = cfg->suites[plan->cases[i].suite].name;

        if (c && strcmp(plan->cases[i].id, sel) == 0)
            return c;
        if (c && suite && strcmp(suite, sel) == 0 && n++ == 0)
            hit = c;
    }
    if (n == 1)
        return hit;
    if (n > 1)
        snprintf(why, cap, "'%s' names %zu cases (give a case id)", sel, n);
    else
        snprintf(why, cap, "no case '%s' in this run", sel);
    return NULL;
}

/* Why side c has no time: its status and message; NULL when it has. */
static char *side_problem(const side *s)
{
    const char *st = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(s->c, "status"));
    const char *msg = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(s->c, "message"));
    const char *id = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(s->c, "id"));

    if (s->n_all > 0)
        return NULL;
    return bh_xasprintf("%s %s%s%s", id ? id : "?", st ? st : "without samples", msg ? ": " : "",
                        msg ? msg : "");
}

/* The ratio object of spec r. */
static cJSON *one_ratio(const cJSON *doc, const bh_config *cfg, const bh_plan *plan,
                        const bh_ratio_spec *r, uint64_t seed)
{
    cJSON *o = cJSON_CreateObject();
    const cJSON *ca, *cb = NULL;
    char why[512] = "";
    side a, b;
    char *pa, *pb;

    cJSON_AddStringToObject(o, "name", r->name);
    ca = find_case(doc, cfg, plan, r->of, why, sizeof(why));
    if (ca)
        cb = find_case(doc, cfg, plan, r->reference, why, sizeof(why));
    cJSON_AddStringToObject(o, "case",
                            ca ? cJSON_GetStringValue(cJSON_GetObjectItem(ca, "id")) : r->of);
    cJSON_AddStringToObject(
        o, "reference", cb ? cJSON_GetStringValue(cJSON_GetObjectItem(cb, "id")) : r->reference);
    if (!ca || !cb) {
        cJSON_AddStringToObject(o, "status", "unavailable");
        cJSON_AddStringToObject(o, "reason", why);
        return o;
    }
    side_load(&a, ca);
    side_load(&b, cb);
    pa = side_problem(&a);
    pb = side_problem(&b);
    if (pa || pb) {
        cJSON_AddStringToObject(o, "status", "unavailable");
        cJSON_AddStringToObject(o, "reason", pa ? pa : pb);
    } else {
        add_estimate(o, &a, &b, seed);
    }
    free(pa);
    free(pb);
    side_free(&a);
    side_free(&b);
    return o;
}

void bh_ratios_apply(cJSON *doc, const bh_config *cfg, const bh_plan *plan, uint64_t seed)
{
    cJSON *list;

    if (!cfg || cfg->n_ratios == 0)
        return;
    list = cJSON_AddArrayToObject(doc, "ratios");
    for (size_t i = 0; i < cfg->n_ratios; i++)
        cJSON_AddItemToArray(list, one_ratio(doc, cfg, plan, &cfg->ratios[i], seed + i));
}
