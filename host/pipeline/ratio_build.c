// SPDX-License-Identifier: MIT
/* Ratios of case times (ratio_build.h): each pair's cases found in the
 * document, their ratio of medians and its bootstrap interval from
 * median_ratio.c. */
#define _GNU_SOURCE
#include "ratio_build.h"

#include "median_ratio.h"
#include "result_read.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Adds ratio, ci_lo, ci_hi and the medians of a over b to o. */
static void add_estimate(cJSON *o, const bh_case_times *a, const bh_case_times *b, uint64_t seed)
{
    bh_median_ratio m;

    bh_median_ratio_estimate(a, b, seed, &m);
    cJSON_AddStringToObject(o, "status", "ok");
    cJSON_AddNumberToObject(o, "ratio", m.ratio);
    cJSON_AddNumberToObject(o, "ci_lo", m.lo);
    cJSON_AddNumberToObject(o, "ci_hi", m.hi);
    cJSON_AddNumberToObject(o, "level", BH_RATIO_LEVEL);
    cJSON_AddNumberToObject(o, "resamples", BH_RATIO_RESAMPLES);
    cJSON_AddNumberToObject(o, "case_median_ns", m.median_a);
    cJSON_AddNumberToObject(o, "reference_median_ns", m.median_b);
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

/* Fills o (its name set) with the case ids of ca and cb (or the
 * selectors sel_a and sel_b of a side not found) and the estimate of ca
 * over cb, or status "unavailable" with why (a side missing) or the
 * problem of a side's times (a case that did not run). */
static void fill_ratio(cJSON *o, const cJSON *ca, const char *sel_a, const cJSON *cb,
                       const char *sel_b, const char *why, uint64_t seed)
{
    bh_case_times a, b;
    char *pa, *pb;

    cJSON_AddStringToObject(o, "case",
                            ca ? cJSON_GetStringValue(cJSON_GetObjectItem(ca, "id")) : sel_a);
    cJSON_AddStringToObject(o, "reference",
                            cb ? cJSON_GetStringValue(cJSON_GetObjectItem(cb, "id")) : sel_b);
    if (!ca || !cb) {
        cJSON_AddStringToObject(o, "status", "unavailable");
        cJSON_AddStringToObject(o, "reason", why);
        return;
    }
    bh_case_times_load(&a, ca);
    bh_case_times_load(&b, cb);
    pa = bh_case_times_problem(&a);
    pb = bh_case_times_problem(&b);
    if (pa || pb) {
        cJSON_AddStringToObject(o, "status", "unavailable");
        cJSON_AddStringToObject(o, "reason", pa ? pa : pb);
    } else {
        add_estimate(o, &a, &b, seed);
    }
    free(pa);
    free(pb);
    bh_case_times_free(&a);
    bh_case_times_free(&b);
}

/* The ratio object of spec r. Both sides are looked up, so that a shard
 * holding only one of them records its case id for bhost merge. */
static cJSON *one_ratio(const cJSON *doc, const bh_config *cfg, const bh_plan *plan,
                        const bh_ratio_spec *r, uint64_t seed)
{
    cJSON *o = cJSON_CreateObject();
    char why_a[512] = "", why_b[512] = "";
    const cJSON *ca = find_case(doc, cfg, plan, r->of, why_a, sizeof(why_a));
    const cJSON *cb = find_case(doc, cfg, plan, r->reference, why_b, sizeof(why_b));

    cJSON_AddStringToObject(o, "name", r->name);
    fill_ratio(o, ca, r->of, cb, r->reference, ca ? why_b : why_a, seed);
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

/* The case of doc that side key ("case", "reference") of ratio i names
 * in any shard (the shard that ran it recorded its id); NULL if none. */
static const cJSON *merged_side(const cJSON *doc, cJSON *const *shards, size_t n, int i,
                                const char *key)
{
    for (size_t k = 0; k < n; k++) {
        const cJSON *r =
            cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(shards[k], "ratios"), i);
        const char *id = cJSON_GetStringValue(cJSON_GetObjectItem(r, key));
        const cJSON *c = id ? bh_result_find_case(doc, id) : NULL;

        if (c)
            return c;
    }
    return NULL;
}

void bh_ratios_merge(cJSON *doc, cJSON *const *shards, size_t n, uint64_t seed)
{
    const cJSON *first = n ? cJSON_GetObjectItemCaseSensitive(shards[0], "ratios") : NULL;
    const cJSON *r;
    cJSON *list;
    int i = 0;

    if (!cJSON_IsArray(first))
        return;
    list = cJSON_AddArrayToObject(doc, "ratios");
    cJSON_ArrayForEach(r, first) {
        const cJSON *ca = merged_side(doc, shards, n, i, "case");
        const cJSON *cb = merged_side(doc, shards, n, i, "reference");
        cJSON *o;

        if (!ca || !cb) { /* no shard resolved it: its reason stands */
            cJSON_AddItemToArray(list, cJSON_Duplicate(r, 1));
        } else {
            o = cJSON_CreateObject();
            cJSON_AddStringToObject(o, "name",
                                    cJSON_GetStringValue(cJSON_GetObjectItem(r, "name")));
            fill_ratio(o, ca, NULL, cb, NULL, "", seed + (uint64_t)i);
            cJSON_AddItemToArray(list, o);
        }
        i++;
    }
}
