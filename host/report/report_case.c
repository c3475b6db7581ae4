// SPDX-License-Identifier: MIT
/* The figures and words of one case for every format (see report_case.h). */
#include "report_case.h"

#include "report_text.h"
#include "units.h"
#include "verdict.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* See report_case.h. */
void bh_report_case_median(const bh_rv_case *c, bh_report_median *m)
{
    char lo[32], hi[32];

    m->med = m->lo = m->hi = NAN;
    m->runs = 0;
    snprintf(m->med_text, sizeof(m->med_text), "-");
    snprintf(m->ci_text, sizeof(m->ci_text), "-");
    if (!c->summary.present)
        return;
    /* one median everywhere: the median of the run medians, the value the
       comparisons and histories use (docs/statistics.md section 2) */
    m->runs = bh_report_run_median(c, BH_REPORT_CI_LEVEL, &m->med, &m->lo, &m->hi);
    if (!isfinite(m->med)) {
        m->med = c->summary.median;
        m->runs = 0;
    }
    if (!isfinite(m->lo) || !isfinite(m->hi))
        m->lo = m->hi = NAN;
    bh_fmt_time(m->med, m->med_text, sizeof(m->med_text));
    if (isfinite(m->lo)) {
        bh_fmt_time(m->lo, lo, sizeof(lo));
        bh_fmt_time(m->hi, hi, sizeof(hi));
        snprintf(m->ci_text, sizeof(m->ci_text), "[%s, %s]", lo, hi);
    }
}

/* See report_case.h. */
int bh_report_case_noisy(const bh_rv_case *c)
{
    const cJSON *f;

    cJSON_ArrayForEach(f, c->summary.flags) {
        if (cJSON_IsString(f) && strcmp(f->valuestring, "high_cv") == 0)
            return 1;
    }
    return 0;
}

/* See report_case.h. */
double bh_report_alpha(const bh_result_view *view)
{
    double a = view->comparison.fdr / view->comparison.family;

    return a > 0.0 && a < 1.0 ? a : NAN;
}

/* See report_case.h. */
void bh_report_change_words(const bh_rv_change *ch, double alpha, int with_change, char *buf,
                            size_t cap)
{
    bh_report_verdict_in in = {0};

    in.verdict = *ch->verdict ? ch->verdict : NULL;
    in.severity = ch->severity;
    in.reason = ch->reason;
    in.change = with_change ? ch->change : NAN;
    in.mde = ch->mde;
    in.n_base = ch->n_base;
    in.n_cand = ch->n_cand;
    in.paired = ch->paired;
    in.need = isfinite(alpha) ? bh_regress_runs_to_reach(alpha, ch->paired) : NAN;
    bh_report_verdict_words(&in, buf, cap);
}

/* True for the verdicts that compare nothing: a case only one side has. */
static int compares_nothing(const char *verdict)
{
    return strcmp(verdict, "new") == 0 || strcmp(verdict, "missing") == 0;
}

/* See report_case.h. */
void bh_report_case_verdict_words(const bh_rv_case *c, double alpha, char *buf, size_t cap)
{
    bh_report_verdict_in in = {0};

    if (!c->verdict) {
        snprintf(buf, cap, "-");
        return;
    }
    if (c->head && !compares_nothing(c->verdict)) {
        bh_rv_change h = *c->head;

        /* the case's own verdict words, with its headline change's figures */
        h.verdict = c->verdict;
        h.severity = c->severity;
        bh_report_change_words(&h, alpha, 1, buf, cap);
        if (strcmp(h.metric, "peak_rss_kb") == 0 || strcmp(h.metric, "alloc_bytes") == 0 ||
            strcmp(h.metric, "alloc_count") == 0) {
            /* memory (docs/statistics.md section 11.8): say which figure */
            size_t len = strlen(buf);

            snprintf(buf + len, cap > len ? cap - len : 0, " (%s)", h.metric);
        }
        return;
    }
    in.verdict = c->verdict;
    in.severity = c->severity;
    in.change = in.mde = in.n_base = in.n_cand = in.need = NAN;
    bh_report_verdict_words(&in, buf, cap);
}

/* See report_case.h. */
const char *bh_report_case_verdict_label(const bh_rv_case *c)
{
    if (!c->verdict)
        return NULL;
    switch (bh_report_verdict_reading(c->verdict, bh_report_case_reason(c))) {
    case BH_READING_TOO_FEW:
        return "too few runs to judge";
    case BH_READING_UNDETECTED:
        return "no change detected";
    default:
        return c->verdict;
    }
}

/* See report_case.h. */
const char *bh_report_case_reason(const bh_rv_case *c)
{
    if (!c->verdict || !c->head || compares_nothing(c->verdict) || !*c->head->reason)
        return NULL;
    return c->head->reason;
}
