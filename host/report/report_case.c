// SPDX-License-Identifier: MIT
/* Rows of a result document for the reports (see report_case.h). */
#include "report_case.h"

#include "bh_mem.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* See report_case.h. */
double bh_report_num(const cJSON *o, const char *key)
{
    const cJSON *it = cJSON_GetObjectItemCaseSensitive(o, key);

    return cJSON_IsNumber(it) ? it->valuedouble : NAN;
}

/* See report_case.h. */
const char *bh_report_str(const cJSON *o, const char *key, const char *dflt)
{
    const cJSON *it = cJSON_GetObjectItemCaseSensitive(o, key);

    return cJSON_IsString(it) && it->valuestring ? it->valuestring : dflt;
}

/* See report_case.h. */
int bh_report_verdict_rank(const char *verdict, const char *severity)
{
    static const char *const order[] = {"improved", "inconclusive", "new", "missing",
                                        "within noise", "no change"};

    if (!verdict)
        return 9;
    if (strcmp(verdict, "regressed") == 0) {
        if (severity && strcmp(severity, "critical") == 0)
            return 0;
        if (severity && strcmp(severity, "warning") == 0)
            return 1;
        return 2;
    }
    for (int i = 0; i < 6; i++)
        if (strcmp(verdict, order[i]) == 0)
            return 3 + i;
    return 9;
}

/* See report_case.h. */
int bh_report_status_failed(const char *status)
{
    static const char *const bad[] = {"failed", "invalid", "crashed", "timeout", "oom"};

    for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++)
        if (strcmp(status, bad[i]) == 0)
            return 1;
    return 0;
}

/* qsort order of doubles, ascending. */
static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;

    return (x > y) - (x < y);
}

/* See report_case.h. */
double bh_report_array_median(const cJSON *arr)
{
    size_t n = 0;
    size_t cap = (size_t)cJSON_GetArraySize(arr);
    double *v;
    double m;
    const cJSON *it;

    if (cap == 0)
        return NAN;
    v = bh_xcalloc(cap, sizeof(double));
    cJSON_ArrayForEach(it, arr) if (cJSON_IsNumber(it) && isfinite(it->valuedouble)) v[n++] =
        it->valuedouble;
    if (n == 0) {
        free(v);
        return NAN;
    }
    qsort(v, n, sizeof(double), cmp_double);
    m = n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
    free(v);
    return m;
}

/* The headline throughput: a tokens/s metric first, then FLOP/s, B/s,
 * items/s, then any other metric whose unit is a rate. */
static void headline_rate(const cJSON *c, bh_report_row *r)
{
    static const char *const keys[] = {"flop_per_s", "bytes_per_s", "items_per_s"};
    static const char *const units[] = {"FLOP/s", "B/s", "items/s"};
    const cJSON *tp = cJSON_GetObjectItemCaseSensitive(c, "throughput");
    const cJSON *metrics = cJSON_GetObjectItemCaseSensitive(c, "metrics");
    const cJSON *m;

    r->rate = NAN;
    r->rate_unit = "";
    cJSON_ArrayForEach(m, metrics) {
        const char *unit = bh_report_str(m, "unit", "");
        double v;

        if (strcmp(unit, "tokens/s") != 0)
            continue;
        v = bh_report_array_median(cJSON_GetObjectItemCaseSensitive(m, "values"));
        if (isfinite(v)) {
            r->rate = v;
            r->rate_unit = unit;
            return;
        }
    }
    for (int k = 0; k < 3; k++) {
        double v = bh_report_num(tp, keys[k]);

        if (isfinite(v) && v > 0) {
            r->rate = v;
            r->rate_unit = units[k];
            return;
        }
    }
    cJSON_ArrayForEach(m, metrics) {
        const char *unit = bh_report_str(m, "unit", "");
        size_t ul = strlen(unit);
        double v;

        if (ul < 3 || strcmp(unit + ul - 2, "/s") != 0)
            continue;
        v = bh_report_array_median(cJSON_GetObjectItemCaseSensitive(m, "values"));
        if (isfinite(v)) {
            r->rate = v;
            r->rate_unit = unit;
            return;
        }
    }
}

/* Group ("plugin/bench"), rest and op of a row. */
static void split_id(bh_report_row *r)
{
    const char *close = strrchr(r->id, ']');
    const char *at = strchr(close ? close : r->id, '@');
    size_t gl;

    if (*r->bench) {
        r->group = bh_xasprintf("%s/%s", r->plugin, r->bench);
    } else {
        size_t n = strcspn(r->id, "[@");
        r->group = bh_xstrndup(r->id, n);
    }
    gl = strlen(r->group);
    if (strncmp(r->id, r->group, gl) == 0) {
        r->rest = r->id + gl;
    } else {
        free(r->group);
        r->group = bh_xstrndup(r->id, strcspn(r->id, "[@"));
        r->rest = r->id + strlen(r->group);
    }
    r->at = at ? at : "";
    r->op = bh_xstrndup(r->id, at ? (size_t)(at - r->id) : strlen(r->id));
}

/* The figures of one verdict metric (the confirmation's when it ran). */
static void read_change(const cJSON *m, bh_report_change *ch)
{
    const cJSON *conf = cJSON_GetObjectItemCaseSensitive(m, "confirmation");
    const cJSON *src = m;
    const cJSON *th = cJSON_GetObjectItemCaseSensitive(m, "thresholds");

    if (cJSON_IsObject(conf) && cJSON_IsString(cJSON_GetObjectItemCaseSensitive(conf,
                                                                              "verdict")))
        src = conf;
    ch->metric = bh_report_str(m, "metric", "time");
    ch->unit = bh_report_str(m, "unit", "");
    ch->higher_better = strcmp(bh_report_str(m, "direction", "lower"), "higher") == 0;
    ch->verdict = bh_report_str(m, "verdict", "");
    ch->severity = bh_report_str(m, "severity", NULL);
    ch->change = bh_report_num(src, "change");
    ch->lo = bh_report_num(src, "change_lo");
    if (isnan(ch->lo))
        ch->lo = bh_report_num(src, "lo");
    ch->hi = bh_report_num(src, "change_hi");
    if (isnan(ch->hi))
        ch->hi = bh_report_num(src, "hi");
    ch->level = bh_report_num(src, "confidence");
    ch->p = bh_report_num(src, "p");
    ch->q = bh_report_num(src, "q");
    ch->base = bh_report_num(cJSON_GetObjectItemCaseSensitive(m, "baseline"), "median");
    ch->cand = bh_report_num(cJSON_GetObjectItemCaseSensitive(m, "candidate"), "median");
    ch->noise_floor = bh_report_num(th, "noise_floor");
    /* null interval ends mean the interval is unbounded on that side */
    if (isfinite(ch->change) && isnan(ch->lo) &&
        cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(src, "change_lo")))
        ch->lo = -INFINITY;
    if (isfinite(ch->change) && isnan(ch->hi) &&
        cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(src, "change_hi")))
        ch->hi = INFINITY;
}

/* The verdict object of a case: headline and per-metric figures. */
static void read_verdict(const cJSON *c, bh_report_row *r)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(c, "verdict");
    const cJSON *ms;
    const cJSON *m;
    size_t n;

    if (!cJSON_IsObject(v) || !cJSON_IsString(cJSON_GetObjectItemCaseSensitive(v, "verdict")))
        return;
    r->verdict = bh_report_str(v, "verdict", "");
    r->severity = bh_report_str(v, "severity", NULL);
    ms = cJSON_GetObjectItemCaseSensitive(v, "metrics");
    n = cJSON_IsArray(ms) ? (size_t)cJSON_GetArraySize(ms) : 0;
    if (n == 0) {
        /* a flat verdict object: its own fields are the time metric's */
        r->changes = bh_xcalloc(1, sizeof(bh_report_change));
        read_change(v, &r->changes[0]);
        r->changes[0].metric = bh_report_str(v, "metric", "time");
        r->n_changes = 1;
    } else {
        r->changes = bh_xcalloc(n, sizeof(bh_report_change));
        cJSON_ArrayForEach(m, ms) if (cJSON_IsObject(m)) read_change(m, &r->changes[r->n_changes++]);
    }
    for (size_t i = 0; i < r->n_changes; i++) {
        const bh_report_change *ch = &r->changes[i];
        int same = strcmp(ch->verdict, r->verdict) == 0;

        if (!r->head || (same && strcmp(r->head->verdict, r->verdict) != 0) ||
            (same && strcmp(ch->metric, "time") == 0))
            r->head = ch;
    }
}

/* Reads the summary, throughput, roofline and wall time of a case. */
static void read_figures(const cJSON *c, bh_report_row *r)
{
    const cJSON *s = cJSON_GetObjectItemCaseSensitive(c, "summary");
    const cJSON *roof = cJSON_GetObjectItemCaseSensitive(c, "roofline");
    const cJSON *run;
    double cv;

    r->has_summary = cJSON_IsObject(s) && isfinite(bh_report_num(s, "median"));
    r->median = bh_report_num(s, "median");
    r->lo = bh_report_num(s, "median_ci_lo");
    r->hi = bh_report_num(s, "median_ci_hi");
    r->level = bh_report_num(s, "median_ci_level");
    r->n_runs = bh_report_num(s, "runs");
    r->n_samples = bh_report_num(s, "n");
    cv = bh_report_num(s, "between_run_cv");
    r->cv = r->n_runs > 1 && isfinite(cv) ? cv : bh_report_num(s, "cv");
    r->q1 = bh_report_num(s, "q1");
    r->q3 = bh_report_num(s, "q3");
    r->p5 = bh_report_num(s, "p5");
    r->p95 = bh_report_num(s, "p95");
    r->min = bh_report_num(s, "min");
    r->max = bh_report_num(s, "max");
    r->mean = bh_report_num(s, "mean");
    headline_rate(c, r);
    r->roof_fraction = bh_report_num(roof, "fraction");
    r->roof_attainable = bh_report_num(roof, "attainable");
    r->roof_bound = bh_report_str(roof, "bound", "");
    r->roof_unit = bh_report_str(roof, "unit", "");
    r->wall_s = 0;
    cJSON_ArrayForEach(run, cJSON_GetObjectItemCaseSensitive(c, "runs")) {
        double w = bh_report_num(run, "wall_ns");

        if (isfinite(w) && w > 0)
            r->wall_s += w * 1e-9;
    }
}

/* See report_case.h. */
void bh_report_rows_load(const cJSON *doc, bh_report_rows *out)
{
    const cJSON *cases = cJSON_GetObjectItemCaseSensitive(doc, "cases");
    const cJSON *c;
    size_t cap = (size_t)cJSON_GetArraySize(cases);

    memset(out, 0, sizeof(*out));
    out->v = bh_xcalloc(cap ? cap : 1, sizeof(bh_report_row));
    cJSON_ArrayForEach(c, cases) {
        bh_report_row *r = &out->v[out->n];

        if (!cJSON_IsObject(c) || !cJSON_IsString(cJSON_GetObjectItemCaseSensitive(c, "id")))
            continue;
        r->json = c;
        r->id = bh_report_str(c, "id", "");
        r->plugin = bh_report_str(c, "plugin", "");
        r->bench = bh_report_str(c, "benchmark", "");
        r->status = bh_report_str(c, "status", "unknown");
        r->message = bh_report_str(c, "message", "");
        r->ok = strcmp(r->status, "ok") == 0;
        split_id(r);
        read_figures(c, r);
        read_verdict(c, r);
        out->n_verdicts += r->verdict != NULL;
        out->n_roofline += isfinite(r->roof_fraction);
        out->n++;
    }
}

/* See report_case.h. */
void bh_report_rows_free(bh_report_rows *r)
{
    for (size_t i = 0; i < r->n; i++) {
        free(r->v[i].group);
        free(r->v[i].op);
        free(r->v[i].changes);
    }
    free(r->v);
    memset(r, 0, sizeof(*r));
}
