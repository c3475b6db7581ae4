// SPDX-License-Identifier: MIT
/* Ratios of case times (ratio_build.h): each pair's cases found in the
 * document, their ratio of medians and its bootstrap interval from
 * median_ratio.c. */
#define _GNU_SOURCE
#include "ratio_build.h"

#include "median_ratio.h"

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

/* The ratio object of spec r. */
static cJSON *one_ratio(const cJSON *doc, const bh_config *cfg, const bh_plan *plan,
                        const bh_ratio_spec *r, uint64_t seed)
{
    cJSON *o = cJSON_CreateObject();
    const cJSON *ca, *cb = NULL;
    char why[512] = "";
    bh_case_times a, b;
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
