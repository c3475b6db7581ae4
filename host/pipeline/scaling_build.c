// SPDX-License-Identifier: MIT
/* Scaling curves of a result document (scaling_build.h): the cases of a
 * suite with a scaling: axis grouped by everything but the axis, sorted
 * by the axis value, and each point's speedup and efficiency against the
 * smallest value with a time, from median_ratio.c's ratio of medians. */
#define _GNU_SOURCE
#include "scaling_build.h"

#include "bh_mem.h"
#include "executor.h"
#include "median_ratio.h"
#include "result_read.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One case of a curve: its axis value, times and work per iteration. */
typedef struct member {
    const cJSON *c;
    double p;
    bh_case_times t;
    double work; /* throughput mode: the rate's work per iteration */
} member;

/* The cases that differ only in the axis. */
typedef struct curve {
    char *key;
    member *m;
    size_t n;
} curve;

void bh_scaling_figures_of(int mode, double p0, double p, double r, double lo, double hi,
                           double work, bh_scaling_figures *out)
{
    double s_scale = 1, e_scale = p0 / p;

    if (mode == BH_SCALING_WEAK) {
        s_scale = p / p0;
        e_scale = 1;
    } else if (mode == BH_SCALING_THROUGHPUT) {
        s_scale = work;
        e_scale = work * p0 / p;
    }
    out->speedup = r * s_scale;
    out->speedup_lo = lo * s_scale;
    out->speedup_hi = hi * s_scale;
    out->efficiency = r * e_scale;
    out->efficiency_lo = lo * e_scale;
    out->efficiency_hi = hi * e_scale;
    out->ideal = p / p0;
}

/* The work-per-iteration key of a rate name ("items_per_s" ->
 * "items_per_iter"). */
static const char *work_key(const char *rate)
{
    if (strcmp(rate, "flop_per_s") == 0)
        return "flops_per_iter";
    return strcmp(rate, "bytes_per_s") == 0 ? "bytes_per_iter" : "items_per_iter";
}

/* The first ok run's value of key in case c; NAN when none has it. */
static double per_iter(const cJSON *c, const char *key)
{
    const cJSON *run;

    cJSON_ArrayForEach(run, cJSON_GetObjectItemCaseSensitive(c, "runs")) {
        const char *st = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(run, "status"));
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(run, key);

        if (st && strcmp(st, "ok") == 0 && cJSON_IsNumber(v) && v->valuedouble > 0)
            return v->valuedouble;
    }
    return NAN;
}

/* What tells c's curve apart: benchmark, backend:device and every
 * parameter but axis (fresh). */
static char *group_key(const cJSON *c, const char *axis)
{
    cJSON *params = cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(c, "params"), 1);
    const char *pl = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(c, "plugin"));
    const char *bn = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(c, "benchmark"));
    const char *be = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(c, "backend"));
    const cJSON *dev = cJSON_GetObjectItemCaseSensitive(c, "device");
    char *text, *key;

    cJSON_DeleteItemFromObjectCaseSensitive(params, axis);
    text = params ? cJSON_PrintUnformatted(params) : NULL;
    key = bh_xasprintf("%s/%s@%s:%g|%s", pl ? pl : "", bn ? bn : "", be ? be : "",
                       cJSON_IsNumber(dev) ? dev->valuedouble : -1.0, text ? text : "");
    free(text);
    cJSON_Delete(params);
    return key;
}

/* The curve of *cs whose key is key (taken over), added when none is. */
static curve *curve_of(curve **cs, size_t *n, char *key)
{
    curve *cv;

    for (size_t i = 0; i < *n; i++)
        if (strcmp((*cs)[i].key, key) == 0) {
            free(key);
            return &(*cs)[i];
        }
    *cs = bh_xreallocarray(*cs, *n + 1, sizeof(**cs));
    cv = &(*cs)[(*n)++];
    memset(cv, 0, sizeof(*cv));
    cv->key = key;
    return cv;
}

/* Adds case c (axis value p) to cv. */
static void push_member(curve *cv, const cJSON *c, double p)
{
    member *m;

    cv->m = bh_xreallocarray(cv->m, cv->n + 1, sizeof(*cv->m));
    m = &cv->m[cv->n++];
    memset(m, 0, sizeof(*m));
    m->c = c;
    m->p = p;
    bh_case_times_load(&m->t, c);
}

/* Adds case c (axis value p) to the curve of its group in *cs. */
static void add_member(curve **cs, size_t *n, const cJSON *c, double p, const char *axis)
{
    push_member(curve_of(cs, n, group_key(c, axis)), c, p);
}

/* Adds key: v to o, null when v is not finite. */
static void add_num(cJSON *o, const char *key, double v)
{
    if (isfinite(v))
        cJSON_AddNumberToObject(o, key, v);
    else
        cJSON_AddNullToObject(o, key);
}

/* Ascending axis value; equal values keep plan order. */
static int cmp_member(const void *a, const void *b)
{
    const member *x = a, *y = b;

    if (x->p != y->p)
        return x->p < y->p ? -1 : 1;
    return x->c < y->c ? -1 : x->c > y->c;
}

/* The curves of spec over doc's cases, each sorted by axis value. */
static curve *group_cases(const cJSON *doc, const bh_plan *plan, const bh_scaling_spec *spec,
                          size_t *n)
{
    const cJSON *cases = cJSON_GetObjectItemCaseSensitive(doc, "cases");
    curve *cs = NULL;

    *n = 0;
    for (size_t i = 0; i < plan->n; i++) {
        const cJSON *c = cJSON_GetArrayItem(cases, (int)i);
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(
            cJSON_GetObjectItemCaseSensitive(c, "params"), spec->axis);

        if (c && plan->cases[i].suite == spec->suite && cJSON_IsNumber(v) && v->valuedouble > 0)
            add_member(&cs, n, c, v->valuedouble, spec->axis);
    }
    for (size_t k = 0; k < *n; k++)
        qsort(cs[k].m, cs[k].n, sizeof(*cs[k].m), cmp_member);
    return cs;
}

static void curves_free(curve *cs, size_t n)
{
    for (size_t k = 0; k < n; k++) {
        for (size_t j = 0; j < cs[k].n; j++)
            bh_case_times_free(&cs[k].m[j].t);
        free(cs[k].m);
        free(cs[k].key);
    }
    free(cs);
}

/* The curve's name: the first case's id without "axis=value" (fresh). */
static char *curve_name(const char *id, const char *axis)
{
    size_t al = strlen(axis);
    char *out = bh_xstrdup(id ? id : "?"), *p = out;

    while ((p = strstr(p, axis)) != NULL) {
        char *end = p + al;

        if (p > out && (p[-1] == '[' || p[-1] == ',') && *end == '=') {
            end += strcspn(end, ",]");
            if (*end == ',')
                end++;
            else if (p[-1] == ',')
                p--;
            memmove(p, end, strlen(end) + 1);
            break;
        }
        p = end;
    }
    if ((p = strstr(out, "[]")) != NULL)
        memmove(p, p + 2, strlen(p + 2) + 1);
    return out;
}

/* The rate of a throughput curve: spec's, else the first of items, flop
 * and bytes per second that the base case declares; NULL without one. */
static const char *pick_rate(const bh_scaling_spec *spec, const member *base)
{
    static const char *const rates[] = {"items_per_s", "flop_per_s", "bytes_per_s"};

    if (spec->rate)
        return spec->rate;
    for (size_t i = 0; base && i < 3; i++)
        if (per_iter(base->c, work_key(rates[i])) > 0)
            return rates[i];
    return NULL;
}

/* Adds the gap fields of a point without a figure, and why. */
static void add_gap(cJSON *o, const char *why)
{
    const char *keys[] = {"median_ns",  "speedup",       "speedup_lo",    "speedup_hi",
                          "efficiency", "efficiency_lo", "efficiency_hi", "below_threshold"};

    for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
        cJSON_AddNullToObject(o, keys[i]);
    cJSON_AddStringToObject(o, "reason", why);
}

/* Adds the figures of point m against base to o; returns 1 when the
 * point is flagged. */
static int add_figures(cJSON *o, const bh_scaling_spec *spec, const member *base, const member *m,
                       const char *rate, uint64_t seed)
{
    bh_median_ratio r = {1, 1, 1, 0, 0};
    bh_scaling_figures f;
    double work = rate ? m->work / base->work : 1;
    int low;

    if (m != base)
        bh_median_ratio_estimate(&base->t, &m->t, seed, &r);
    else
        r.median_a = r.median_b = bh_case_times_median(&m->t);
    bh_scaling_figures_of(spec->mode, base->p, m->p, r.ratio, r.lo, r.hi, work, &f);
    low = f.efficiency < spec->min_efficiency;
    add_num(o, "median_ns", r.median_b);
    if (rate)
        add_num(o, "rate", m->work / (r.median_b * 1e-9));
    add_num(o, "speedup", f.speedup);
    add_num(o, "speedup_lo", f.speedup_lo);
    add_num(o, "speedup_hi", f.speedup_hi);
    add_num(o, "efficiency", f.efficiency);
    add_num(o, "efficiency_lo", f.efficiency_lo);
    add_num(o, "efficiency_hi", f.efficiency_hi);
    cJSON_AddBoolToObject(o, "below_threshold", low);
    return low;
}

/* The point object of member m; *flagged counts flagged points. */
static cJSON *point(const bh_scaling_spec *spec, const member *base, member *m, const char *rate,
                    uint64_t seed, int *flagged)
{
    cJSON *o = cJSON_CreateObject();
    const char *st = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(m->c, "status"));
    char *why = bh_case_times_problem(&m->t);

    cJSON_AddNumberToObject(o, "value", m->p);
    cJSON_AddStringToObject(o, "case",
                            cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(m->c, "id")));
    cJSON_AddStringToObject(o, "status", st ? st : "?");
    add_num(o, "ideal_speedup", base ? m->p / base->p : NAN);
    if (!why && rate && !((m->work = per_iter(m->c, work_key(rate))) > 0))
        why = bh_xasprintf("no %s: the case declares no work per iteration", rate);
    if (!why && !base)
        why = bh_xstrdup("no base point");
    if (why)
        add_gap(o, why);
    else
        *flagged += add_figures(o, spec, base, m, rate, seed);
    free(why);
    return o;
}

/* The smallest member with a time (and the rate's work), or NULL. */
static member *find_base(curve *cv, const bh_scaling_spec *spec, const char **rate)
{
    *rate = NULL;
    for (size_t j = 0; j < cv->n; j++) {
        member *m = &cv->m[j];

        if (m->t.n_all == 0)
            continue;
        if (spec->mode != BH_SCALING_THROUGHPUT)
            return m;
        *rate = pick_rate(spec, m);
        if (*rate && (m->work = per_iter(m->c, work_key(*rate))) > 0)
            return m;
    }
    *rate = spec->mode == BH_SCALING_THROUGHPUT ? spec->rate : NULL;
    return NULL;
}

/* The bootstrap seed of a curve: bh_case_seed() of the run's seed and
 * "name|axis", so a curve gets the same seed whatever curves come before
 * it (in a shard, in the merged run, in the whole run). */
static uint64_t curve_seed(uint64_t seed, const char *name, const char *axis)
{
    char *key = bh_xasprintf("%s|%s", name, axis);
    uint64_t out = bh_case_seed(seed, key);

    free(key);
    return out;
}

/* The curve object of cv for spec, its suite named suite (or NULL). */
static cJSON *curve_json(curve *cv, const bh_scaling_spec *spec, const char *suite, uint64_t seed)
{
    cJSON *o = cJSON_CreateObject(), *pts;
    const char *rate;
    member *base = find_base(cv, spec, &rate);
    char *name = curve_name(
        cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(cv->m[0].c, "id")), spec->axis);
    int flagged = 0;

    seed = curve_seed(seed, name, spec->axis);

    cJSON_AddStringToObject(o, "name", name);
    free(name);
    if (suite)
        cJSON_AddStringToObject(o, "suite", suite);
    else
        cJSON_AddNullToObject(o, "suite");
    cJSON_AddStringToObject(o, "axis", spec->axis);
    cJSON_AddStringToObject(o, "mode", bh_scaling_mode_name(spec->mode));
    if (rate)
        cJSON_AddStringToObject(o, "rate", rate);
    cJSON_AddNumberToObject(o, "min_efficiency", spec->min_efficiency);
    cJSON_AddStringToObject(o, "status", base ? "ok" : "unavailable");
    if (!base)
        cJSON_AddStringToObject(o, "reason",
                                spec->mode == BH_SCALING_THROUGHPUT
                                    ? "no point has a time and a throughput"
                                    : "no point has a time");
    add_num(o, "base", base ? base->p : NAN);
    cJSON_AddNumberToObject(o, "level", BH_RATIO_LEVEL);
    cJSON_AddNumberToObject(o, "resamples", BH_RATIO_RESAMPLES);
    pts = cJSON_AddArrayToObject(o, "points");
    for (size_t j = 0; j < cv->n; j++)
        cJSON_AddItemToArray(pts, point(spec, base, &cv->m[j], rate, seed + j, &flagged));
    cJSON_AddNumberToObject(o, "flagged", flagged);
    return o;
}

void bh_scaling_apply(cJSON *doc, const bh_config *cfg, const bh_plan *plan, uint64_t seed)
{
    cJSON *list;

    if (!cfg || cfg->n_scaling == 0)
        return;
    list = cJSON_AddArrayToObject(doc, "scaling");
    for (size_t k = 0; k < cfg->n_scaling; k++) {
        const bh_scaling_spec *spec = &cfg->scaling[k];
        size_t n;
        curve *cs = group_cases(doc, plan, spec, &n);

        for (size_t g = 0; g < n; g++)
            cJSON_AddItemToArray(list,
                                 curve_json(&cs[g], spec, cfg->suites[spec->suite].name, seed));
        curves_free(cs, n);
    }
}

/* The spec a shard's curve object co was made with (axis and rate
 * borrowed from co; rate as the shard picked it). */
static bh_scaling_spec spec_of(const cJSON *co)
{
    bh_scaling_spec spec = {0};
    const char *mode = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(co, "mode"));

    spec.axis = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(co, "axis"));
    spec.rate = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(co, "rate"));
    spec.min_efficiency =
        cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(co, "min_efficiency"));
    for (int m = BH_SCALING_STRONG; m <= BH_SCALING_THROUGHPUT; m++)
        if (mode && strcmp(mode, bh_scaling_mode_name(m)) == 0)
            spec.mode = m;
    return spec;
}

void bh_scaling_merge(cJSON *doc, cJSON *const *shards, size_t n, uint64_t seed)
{
    const cJSON **first = NULL; /* each merged curve's first shard object */
    curve *cs = NULL;
    size_t nc = 0;
    int any = 0;
    cJSON *list;

    for (size_t k = 0; k < n; k++) {
        const cJSON *arr = cJSON_GetObjectItemCaseSensitive(shards[k], "scaling"), *co, *pt;

        any |= cJSON_IsArray(arr);
        cJSON_ArrayForEach(co, arr) {
            const char *suite = cJSON_GetStringValue(cJSON_GetObjectItem(co, "suite"));
            size_t before = nc;
            curve *cv =
                curve_of(&cs, &nc,
                         bh_xasprintf("%s\x1f%s\x1f%s", suite ? suite : "",
                                      cJSON_GetStringValue(cJSON_GetObjectItem(co, "axis")),
                                      cJSON_GetStringValue(cJSON_GetObjectItem(co, "name"))));

            if (nc > before) {
                first = bh_xreallocarray(first, nc, sizeof(*first));
                first[nc - 1] = co;
            }
            cJSON_ArrayForEach(pt, cJSON_GetObjectItemCaseSensitive(co, "points")) {
                const char *id = cJSON_GetStringValue(cJSON_GetObjectItem(pt, "case"));
                const cJSON *c = id ? bh_result_find_case(doc, id) : NULL;
                int dup = 0;

                for (size_t j = 0; j < cv->n && c; j++)
                    dup |= cv->m[j].c == c;
                if (c && !dup)
                    push_member(cv, c, cJSON_GetNumberValue(cJSON_GetObjectItem(pt, "value")));
            }
        }
    }
    if (!any)
        return;
    list = cJSON_AddArrayToObject(doc, "scaling");
    for (size_t g = 0; g < nc; g++) {
        bh_scaling_spec spec = spec_of(first[g]);

        if (cs[g].n == 0 || !spec.axis) { /* its cases are gone: the shard's curve */
            cJSON_AddItemToArray(list, cJSON_Duplicate(first[g], 1));
            continue;
        }
        qsort(cs[g].m, cs[g].n, sizeof(*cs[g].m), cmp_member);
        cJSON_AddItemToArray(
            list, curve_json(&cs[g], &spec,
                             cJSON_GetStringValue(cJSON_GetObjectItem(first[g], "suite")), seed));
    }
    free(first);
    curves_free(cs, nc);
}
