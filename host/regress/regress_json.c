// SPDX-License-Identifier: MIT
/* The comparison as JSON (see regress_json.h). */
#include "regress_json.h"

#include "result_view.h"

#include <math.h>
#include <string.h>

/* Adds a number, or null when it is not finite. */
static void num(cJSON *o, const char *key, double v)
{
    if (isfinite(v))
        cJSON_AddNumberToObject(o, key, v);
    else
        cJSON_AddNullToObject(o, key);
}

static void str_or_null(cJSON *o, const char *key, const char *s)
{
    if (s && *s)
        cJSON_AddStringToObject(o, key, s);
    else
        cJSON_AddNullToObject(o, key);
}

static cJSON *values_json(const double *v, size_t n)
{
    cJSON *a = cJSON_CreateArray();

    for (size_t i = 0; i < n; i++)
        cJSON_AddItemToArray(a, isfinite(v[i]) ? cJSON_CreateNumber(v[i]) : cJSON_CreateNull());
    return a;
}

/* The statistics fields shared by an item and its confirmation: the test's
 * figures and what v (the verdict drawn from them) adds. */
static void add_stats(cJSON *o, const bh_regress_stat *st, const bh_regress_verdict *v)
{
    num(o, "change", st->change);
    num(o, "change_lo", st->change_lo);
    num(o, "change_hi", st->change_hi);
    num(o, "confidence", st->level);
    num(o, "p", st->p);
    num(o, "q", st->q);
    cJSON_AddStringToObject(o, "test", bh_regress_test_name(st->test));
    cJSON_AddStringToObject(o, "scale", st->log_scale ? "log" : "linear");
    num(o, "spread", st->spread);
    num(o, "mde", v->mde);
    if (v->runs_needed)
        cJSON_AddNumberToObject(o, "runs_needed", v->runs_needed);
    else
        cJSON_AddNullToObject(o, "runs_needed");
    cJSON_AddStringToObject(o, "reason", v->reason ? v->reason : "");
}

static cJSON *confirmation_json(const bh_regress_item *it)
{
    const bh_regress_confirmation *c = &it->conf;
    cJSON *o = cJSON_CreateObject();

    cJSON_AddBoolToObject(o, "confirmed", c->confirmed);
    cJSON_AddBoolToObject(o, "paired", c->paired);
    cJSON_AddStringToObject(o, "design", c->paired ? "ABBA interleaved with the baseline build"
                                                   : "candidate rerun vs stored baseline");
    if (c->error) {
        cJSON_AddStringToObject(o, "error", c->error);
    } else {
        cJSON_AddStringToObject(o, "verdict", bh_regress_kind_name(c->v.kind));
        str_or_null(o, "severity", bh_regress_severity_name(c->v.severity));
        add_stats(o, &c->st, &c->v);
    }
    if (c->paired)
        cJSON_AddNumberToObject(o, "pairs", (double)c->n_cand_values);
    cJSON_AddItemToObject(o, "baseline_values", values_json(c->base_values, c->n_base_values));
    cJSON_AddItemToObject(o, "candidate_values", values_json(c->cand_values, c->n_cand_values));
    return o;
}

static cJSON *item_json(const bh_regress_report *r, const bh_regress_item *it)
{
    cJSON *o = cJSON_CreateObject();
    cJSON *side;
    cJSON *th;

    cJSON_AddStringToObject(o, "metric", it->metric);
    cJSON_AddStringToObject(o, "unit", it->unit ? it->unit : "");
    cJSON_AddStringToObject(o, "direction", it->direction < 0 ? "higher" : "lower");
    /* verdict: the final one (the confirmation's when it ran); the figures
       below and initial_verdict: the first comparison's */
    cJSON_AddStringToObject(o, "verdict", bh_regress_kind_name(it->v.kind));
    str_or_null(o, "severity", bh_regress_severity_name(it->v.severity));
    {
        const bh_regress_verdict *first =
            it->conf.done && !it->conf.error ? &it->conf.first : &it->v;

        cJSON_AddStringToObject(o, "initial_verdict", bh_regress_kind_name(first->kind));
        str_or_null(o, "initial_severity", bh_regress_severity_name(first->severity));
        add_stats(o, &it->st, first);
    }
    side = cJSON_AddObjectToObject(o, "baseline");
    cJSON_AddNumberToObject(side, "n", (double)it->st.n_base);
    num(side, "median", it->st.base_center);
    side = cJSON_AddObjectToObject(o, "candidate");
    cJSON_AddNumberToObject(side, "n", (double)it->st.n_cand);
    num(side, "median", it->st.cand_center);
    th = cJSON_AddObjectToObject(o, "thresholds");
    cJSON_AddNumberToObject(th, "noise_floor", it->th.noise_floor);
    cJSON_AddNumberToObject(th, "warning", it->th.warning);
    cJSON_AddNumberToObject(th, "critical", it->th.critical);
    if (it->spread) { /* its floor is the ratio (variance.h) */
        cJSON_AddNumberToObject(o, "ratio", it->th.noise_floor + 1.0);
        cJSON_AddBoolToObject(o, "fails_gate",
                              r->noisier_fail && it->v.kind == BH_VERDICT_NOISIER);
    }
    if (it->drift.runs) {
        cJSON *d = cJSON_AddObjectToObject(o, "drift");

        cJSON_AddNumberToObject(d, "runs", (double)it->drift.runs);
        num(d, "sd", it->drift.sd);
        num(d, "floor", it->drift.floor);
        cJSON_AddNumberToObject(d, "configured_floor", it->drift.config_floor);
    } else {
        cJSON_AddNullToObject(o, "drift");
    }
    cJSON_AddBoolToObject(o, "suspect", it->suspect);
    if (it->conf.done)
        cJSON_AddItemToObject(o, "confirmation", confirmation_json(it));
    else
        cJSON_AddNullToObject(o, "confirmation");
    return o;
}

/* Rank of a verdict for the case headline: higher is more notable. */
static int notability(const bh_regress_verdict *v)
{
    switch (v->kind) {
    case BH_VERDICT_REGRESSED:
        return 10 + (int)v->severity;
    case BH_VERDICT_IMPROVED:
        return 7;
    case BH_VERDICT_NOISIER:
        return 6;
    case BH_VERDICT_INCONCLUSIVE:
        return 5;
    case BH_VERDICT_NEW:
    case BH_VERDICT_MISSING:
        return 4;
    case BH_VERDICT_WITHIN_NOISE:
        return 3;
    default:
        return 2;
    }
}

int bh_regress_case_headline(const bh_regress_report *r, const char *case_id,
                             bh_regress_kind *kind, bh_regress_severity *sev)
{
    const bh_regress_item *best = NULL;
    const bh_regress_item *time = NULL;

    for (size_t i = 0; i < r->n; i++) {
        const bh_regress_item *it = &r->items[i];

        if (strcmp(it->case_id, case_id) != 0)
            continue;
        if (strcmp(it->metric, BH_REGRESS_TIME) == 0)
            time = it;
        if (!best || notability(&it->v) > notability(&best->v))
            best = it;
    }
    if (!best)
        return -1;
    /* A whole case new or missing shows as such: only then is its time
       item new or missing (extra metrics can be new inside a case). */
    if (time && (time->v.kind == BH_VERDICT_NEW || time->v.kind == BH_VERDICT_MISSING))
        best = time;
    *kind = best->v.kind;
    *sev = best->v.severity;
    return 0;
}

cJSON *bh_regress_case_json(const bh_regress_report *r, const char *case_id)
{
    bh_regress_kind kind;
    bh_regress_severity sev;
    cJSON *o;
    cJSON *ms;
    const char *base_id = NULL;

    if (bh_regress_case_headline(r, case_id, &kind, &sev) != 0)
        return NULL;
    o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "verdict", bh_regress_kind_name(kind));
    str_or_null(o, "severity", bh_regress_severity_name(sev));
    ms = cJSON_CreateArray();
    for (size_t i = 0; i < r->n; i++) {
        const bh_regress_item *it = &r->items[i];

        if (strcmp(it->case_id, case_id) != 0)
            continue;
        if (it->base_id && !base_id)
            base_id = it->base_id;
        cJSON_AddItemToArray(ms, item_json(r, it));
    }
    str_or_null(o, "baseline_id", base_id);
    cJSON_AddItemToObject(o, "metrics", ms);
    return o;
}

/* Adds the summary fields to o. */
static void summary_fill(cJSON *o, const bh_regress_report *r, const bh_regress_meta *m)
{
    cJSON *counts;
    cJSON *sev;
    cJSON *missing;

    str_or_null(o, "baseline", m ? m->baseline : NULL);
    str_or_null(o, "candidate", m ? m->candidate : NULL);
    cJSON_AddStringToObject(o, "method", r->method == BH_REGRESS_WELCH ? "welch" : "mwu");
    cJSON_AddNumberToObject(o, "fdr", r->fdr);
    cJSON_AddNumberToObject(o, "confidence", r->confidence);
    cJSON_AddNumberToObject(o, "tests", (double)r->m_tests);
    cJSON_AddNumberToObject(o, "family", (double)(r->m_tests + r->family_extra));
    cJSON_AddNumberToObject(o, "suspects", (double)r->n_suspects);
    cJSON_AddNumberToObject(o, "confirm_tests", (double)r->n_confirm_tests);
    cJSON_AddNumberToObject(o, "memory_tests", (double)r->n_memory_tests);
    cJSON_AddNumberToObject(o, "spread_tests", (double)r->n_spread_tests);
    cJSON_AddBoolToObject(o, "noisier_fails", r->noisier_fail);
    counts = cJSON_AddObjectToObject(o, "counts");
    for (int k = 0; k < BH_VERDICT_KINDS; k++)
        cJSON_AddNumberToObject(counts, bh_regress_kind_name((bh_regress_kind)k),
                                (double)r->counts[k]);
    sev = cJSON_AddObjectToObject(o, "regressed");
    for (int s = BH_SEVERITY_MINOR; s <= BH_SEVERITY_CRITICAL; s++)
        cJSON_AddNumberToObject(sev, bh_regress_severity_name((bh_regress_severity)s),
                                (double)r->severities[s]);
    missing = cJSON_AddArrayToObject(o, "missing");
    for (size_t i = 0; i < r->n; i++)
        if (r->items[i].v.kind == BH_VERDICT_MISSING && strcmp(r->items[i].metric,
                                                               BH_REGRESS_TIME) == 0)
            cJSON_AddItemToArray(missing, cJSON_CreateString(r->items[i].case_id));
    cJSON_AddBoolToObject(o, "forced", m && m->forced);
    str_or_null(o, "system_diff", m ? m->system_diff : NULL);
    str_or_null(o, "config_diff", m ? m->config_diff : NULL);
}

cJSON *bh_regress_summary_json(const bh_regress_report *r, const bh_regress_meta *m)
{
    cJSON *o = cJSON_CreateObject();

    summary_fill(o, r, m);
    return o;
}

void bh_regress_attach(cJSON *doc, const bh_regress_report *r, const bh_regress_meta *m)
{
    bh_result_view view;
    cJSON *c;
    size_t k = 0;

    bh_result_view_load(doc, &view);
    /* the cases array is walked to write into it; the view, which holds
       the same cases in document order, says which case each one is */
    cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(doc, "cases")) {
        cJSON *v;

        if (k >= view.n_cases || view.cases[k].json != c)
            continue;
        v = bh_regress_case_json(r, view.cases[k++].id);
        /* in place of the null verdict the run wrote, else added */
        if (v && !cJSON_ReplaceItemInObjectCaseSensitive(c, "verdict", v))
            cJSON_AddItemToObject(c, "verdict", v);
    }
    bh_result_view_free(&view);
    cJSON_DeleteItemFromObjectCaseSensitive(doc, "comparison");
    cJSON_AddItemToObject(doc, "comparison", bh_regress_summary_json(r, m));
}

cJSON *bh_regress_report_json(const bh_regress_report *r, const bh_regress_meta *m)
{
    cJSON *doc = cJSON_CreateObject();
    cJSON *cases;

    cJSON_AddStringToObject(doc, "schema", BH_COMPARISON_SCHEMA);
    summary_fill(doc, r, m);
    cases = cJSON_AddArrayToObject(doc, "cases");
    for (size_t i = 0; i < r->n; i++) {
        const char *id = r->items[i].case_id;
        int seen = 0;
        cJSON *v;

        for (size_t j = 0; j < i && !seen; j++)
            seen = strcmp(r->items[j].case_id, id) == 0;
        if (seen)
            continue;
        v = cJSON_CreateObject();
        cJSON_AddStringToObject(v, "id", id);
        {
            cJSON *cv = bh_regress_case_json(r, id);
            cJSON *it;

            while ((it = cv->child)) {
                cJSON_DetachItemViaPointer(cv, it);
                cJSON_AddItemToArray(v, it); /* keeps it->string */
            }
            cJSON_Delete(cv);
        }
        cJSON_AddItemToArray(cases, v);
    }
    return doc;
}
