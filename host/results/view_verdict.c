// SPDX-License-Identifier: MIT
/* The verdict of a case in the result view: its headline and the figures
 * of each compared metric (see result_view.h). */
#include "view_internal.h"

#include "bh_mem.h"
#include "view_json.h"

#include <math.h>
#include <string.h>

/* The elements of array a, NAN when there is none. */
static double count(const cJSON *a)
{
    return a ? (double)cJSON_GetArraySize(a) : NAN;
}

/* The figures of one verdict metric (the confirmation's when it ran). */
static void read_change(const cJSON *m, bh_rv_change *ch)
{
    const cJSON *conf = bh_vj_obj(m, "confirmation");
    const cJSON *src = conf && bh_vj_str(conf, "verdict", NULL) ? conf : m;

    ch->json = m;
    ch->metric = bh_vj_str(m, "metric", "time");
    ch->unit = bh_vj_str(m, "unit", "");
    ch->higher_better = strcmp(bh_vj_str(m, "direction", "lower"), "higher") == 0;
    ch->verdict = bh_vj_str(m, "verdict", "");
    ch->severity = bh_vj_str(m, "severity", NULL);
    ch->change = bh_vj_num(src, "change");
    ch->lo = bh_vj_num(src, "change_lo");
    if (isnan(ch->lo))
        ch->lo = bh_vj_num(src, "lo");
    ch->hi = bh_vj_num(src, "change_hi");
    if (isnan(ch->hi))
        ch->hi = bh_vj_num(src, "hi");
    ch->level = bh_vj_num(src, "confidence");
    ch->p = bh_vj_num(src, "p");
    ch->q = bh_vj_num(src, "q");
    ch->base = bh_vj_num(bh_vj_obj(m, "baseline"), "median");
    ch->cand = bh_vj_num(bh_vj_obj(m, "candidate"), "median");
    ch->noise_floor = bh_vj_num(bh_vj_obj(m, "thresholds"), "noise_floor");
    ch->reason = bh_vj_str(src, "reason", "");
    ch->mde = bh_vj_num(src, "mde");
    ch->runs_needed = bh_vj_num(src, "runs_needed");
    ch->paired = src == conf && cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(conf, "paired"));
    if (src == conf) {
        ch->n_base = count(bh_vj_arr(conf, "baseline_values"));
        ch->n_cand = count(bh_vj_arr(conf, "candidate_values"));
    } else {
        ch->n_base = bh_vj_num(bh_vj_obj(m, "baseline"), "n");
        ch->n_cand = bh_vj_num(bh_vj_obj(m, "candidate"), "n");
    }
    /* null interval ends mean the interval is unbounded on that side */
    if (isfinite(ch->change) && isnan(ch->lo) &&
        cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(src, "change_lo")))
        ch->lo = -INFINITY;
    if (isfinite(ch->change) && isnan(ch->hi) &&
        cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(src, "change_hi")))
        ch->hi = INFINITY;
}

/* The change behind the headline verdict: one whose verdict is the
 * headline's, the time metric's when it is one of them. */
static const bh_rv_change *headline(const bh_rv_case *c)
{
    const bh_rv_change *head = NULL;

    for (size_t i = 0; i < c->n_changes; i++) {
        const bh_rv_change *ch = &c->changes[i];
        int same = strcmp(ch->verdict, c->verdict) == 0;

        if (!head || (same && strcmp(head->verdict, c->verdict) != 0) ||
            (same && strcmp(ch->metric, "time") == 0))
            head = ch;
    }
    return head;
}

/* See view_internal.h. */
void bh_rv_verdict_read(const cJSON *v, bh_rv_case *c)
{
    const cJSON *ms = bh_vj_arr(v, "metrics");
    const cJSON *m;
    size_t n = ms ? (size_t)cJSON_GetArraySize(ms) : 0;

    if (!v || !bh_vj_str(v, "verdict", NULL))
        return;
    c->verdict_json = v;
    c->verdict = bh_vj_str(v, "verdict", "");
    c->severity = bh_vj_str(v, "severity", NULL);
    c->baseline_id = bh_vj_str(v, "baseline_id", NULL);
    if (n == 0) {
        /* a flat verdict object: its own fields are the time metric's */
        c->changes = bh_xcalloc(1, sizeof(bh_rv_change));
        read_change(v, &c->changes[0]);
        c->changes[0].metric = bh_vj_str(v, "metric", "time");
        c->n_changes = 1;
    } else {
        c->changes = bh_xcalloc(n, sizeof(bh_rv_change));
        cJSON_ArrayForEach(m, ms) if (cJSON_IsObject(m)) read_change(m, &c->changes[c->n_changes++]);
    }
    c->head = headline(c);
}
