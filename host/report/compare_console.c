// SPDX-License-Identifier: MIT
/* Console lines of a comparison (see compare_console.h). */
#include "compare_console.h"

#include "report_text.h"
#include "units.h"

#include <math.h>
#include <string.h>

#define RED "\033[31m"
#define GREEN "\033[32m"
#define YELLOW "\033[33m"
#define BOLD "\033[1m"
#define RESET "\033[0m"

/* "+3.4%" style, or "-inf%" / "+inf%" for unbounded ends. */
static void pct(double f, char *buf, size_t n)
{
    if (isnan(f))
        snprintf(buf, n, "?");
    else if (isinf(f))
        snprintf(buf, n, "%sinf", f < 0 ? "-" : "+");
    else
        snprintf(buf, n, "%+.1f%%", f * 100.0);
}

/* p or q with enough digits to tell small ones apart. */
static void pval(double p, char *buf, size_t n)
{
    if (isnan(p))
        snprintf(buf, n, "-");
    else if (p < 1e-4)
        snprintf(buf, n, "%.1e", p);
    else
        snprintf(buf, n, "%.4f", p);
}

/* A value in the item's unit ("1.64 us" for ns/iter). */
static void value(const bh_regress_item *it, double v, char *buf, size_t n)
{
    if (isnan(v))
        snprintf(buf, n, "-");
    else if (strcmp(it->unit, "ns/iter") == 0)
        bh_fmt_time(v, buf, n);
    else
        snprintf(buf, n, "%.4g%s%s", v, *it->unit ? " " : "", it->unit);
}

static const char *verdict_color(const bh_regress_verdict *v)
{
    switch (v->kind) {
    case BH_VERDICT_REGRESSED:
        return v->severity == BH_SEVERITY_MINOR ? YELLOW : RED;
    case BH_VERDICT_IMPROVED:
        return GREEN;
    case BH_VERDICT_INCONCLUSIVE:
        return YELLOW;
    default:
        return "";
    }
}

/* "regressed (warning)", "inconclusive (needs ~40 runs per side)", "no
 * change detected (smallest detectable change 12.0%)", "too few runs to
 * judge (3 a side, 7 needed)"; need: the runs per side at which the test
 * can reach its level (0 unknown). */
static void verdict_text(const bh_regress_verdict *v, size_t nb, size_t nc, int paired,
                         uint32_t need, char *buf, size_t n)
{
    const char *kind = bh_regress_kind_name(v->kind);
    char mde[32];

    switch (bh_report_verdict_reading(kind, v->reason)) {
    case BH_READING_TOO_FEW:
        if (need)
            snprintf(buf, n, "too few runs to judge (%zu %s, %u needed)", nb < nc ? nb : nc,
                     paired ? "pairs" : "a side", need);
        else
            snprintf(buf, n, "too few runs to judge (%zu %s)", nb < nc ? nb : nc,
                     paired ? "pairs" : "a side");
        return;
    case BH_READING_UNDETECTED:
        pct(v->mde, mde, sizeof(mde));
        snprintf(buf, n, "no change detected (smallest detectable change %s)", mde + 1);
        return;
    default:
        break;
    }
    if (v->kind == BH_VERDICT_REGRESSED)
        snprintf(buf, n, "regressed (%s)", bh_regress_severity_name(v->severity));
    else if (v->kind == BH_VERDICT_INCONCLUSIVE && v->runs_needed >= BH_REGRESS_MAX_RUNS)
        snprintf(buf, n, "inconclusive (needs more than %u %s)", BH_REGRESS_MAX_RUNS - 1,
                 paired ? "pairs" : "runs per side");
    else if (v->kind == BH_VERDICT_INCONCLUSIVE && v->runs_needed)
        snprintf(buf, n, "inconclusive (needs ~%u %s)", v->runs_needed,
                 paired ? "pairs" : "runs per side");
    else
        snprintf(buf, n, "%s", kind);
}

/* "change: [lo est hi] (95% CI, p=..., q=...) verdict", then the verdict's
 * reason; a test that could never reach its level draws no interval:
 * "change: +7.6% (p=..., q=...) too few runs to judge (3 a side, 7
 * needed)". */
static void change_line(FILE *out, const char *label, const bh_regress_stat *st,
                        const bh_regress_verdict *v, const char *extra, uint32_t need,
                        int color)
{
    char lo[24], est[24], hi[24], p[24], q[24], vt[128];
    const char *vc = color ? verdict_color(v) : "";

    pct(st->change_lo, lo, sizeof(lo));
    pct(st->change, est, sizeof(est));
    pct(st->change_hi, hi, sizeof(hi));
    pval(st->p, p, sizeof(p));
    pval(st->q, q, sizeof(q));
    verdict_text(v, st->n_base, st->n_cand, st->paired, need, vt, sizeof(vt));
    if (bh_report_verdict_reading(bh_regress_kind_name(v->kind), v->reason) ==
        BH_READING_TOO_FEW)
        fprintf(out, "    %s: %s (%sp=%s, q=%s) %s%s%s\n", label, est, extra, p, q, vc, vt,
                *vc ? RESET : "");
    else
        fprintf(out, "    %s: [%s %s %s] (%.0f%% CI, %sp=%s, q=%s) %s%s%s\n", label, lo, est,
                hi, 100.0 * st->level, extra, p, q, vc, vt, *vc ? RESET : "");
    if (v->reason && *v->reason)
        fprintf(out, "      why: %s\n", v->reason);
}

static void print_item(FILE *out, const bh_regress_item *it, uint32_t need, int fails,
                       int color)
{
    char b[32], c[32];

    if (it->spread) {
        bh_compare_print_spread(out, it, fails, color);
        return;
    }
    if (it->v.kind == BH_VERDICT_NEW || it->v.kind == BH_VERDICT_MISSING) {
        fprintf(out, "  %s: %s (%s)\n", it->metric, bh_regress_kind_name(it->v.kind),
                it->v.reason);
        return;
    }
    value(it, it->st.base_center, b, sizeof(b));
    value(it, it->st.cand_center, c, sizeof(c));
    fprintf(out, "  %s: %s -> %s (%zu vs %zu runs)%s\n", it->metric, b, c, it->st.n_base,
            it->st.n_cand, it->direction < 0 ? ", higher is better" : "");
    if (it->decided) {
        bh_compare_print_decided(out, it);
        return;
    }
    if (!it->tested) {
        fprintf(out, "    change: not tested (%s) %sinconclusive%s\n", it->v.reason,
                color ? YELLOW : "", color ? RESET : "");
        return;
    }
    change_line(out, "change", &it->st, it->conf.done && !it->conf.error ? &it->conf.first : &it->v,
                "", need, color);
    if (it->drift.runs && it->th.noise_floor > it->drift.config_floor)
        fprintf(out, "    noise floor %.1f%%: the drift of %zu earlier runs (configured %.1f%%)\n",
                100.0 * it->th.noise_floor, it->drift.runs, 100.0 * it->drift.config_floor);
    if (it->conf.done && it->conf.error) {
        fprintf(out, "    confirmation failed: %s\n", it->conf.error);
    } else if (it->conf.done) {
        char extra[96];

        if (it->conf.paired)
            snprintf(extra, sizeof(extra), "ABBA, %zu pairs, ", it->conf.n_cand_values);
        else
            snprintf(extra, sizeof(extra), "rerun, %zu vs %zu runs, ", it->conf.n_base_values,
                     it->conf.n_cand_values);
        change_line(out, it->conf.confirmed ? "confirmed" : "not confirmed", &it->conf.st,
                    &it->conf.v, extra, 0, color);
    }
}

/* True when every item of the case starting at index i says no change. */
static int all_quiet(const bh_regress_report *r, size_t i)
{
    for (size_t k = i; k < r->n && strcmp(r->items[k].case_id, r->items[i].case_id) == 0; k++)
        if (r->items[k].v.kind != BH_VERDICT_NO_CHANGE)
            return 0;
    return 1;
}

/* The runs per side at which the rank tests of r can reach their level
 * (fdr over the whole family); 0 for Welch, which has no such floor. */
static uint32_t runs_to_reach(const bh_regress_report *r)
{
    size_t m = r->m_tests + r->family_extra;

    if (r->method == BH_REGRESS_WELCH)
        return 0;
    return bh_regress_runs_to_reach(r->fdr / (double)(m ? m : 1), 0);
}

void bh_compare_print(FILE *out, const bh_regress_report *r, int quiet_ok, int color)
{
    uint32_t need = runs_to_reach(r);

    for (size_t i = 0; i < r->n;) {
        const char *id = r->items[i].case_id;
        size_t k = i;

        if (!(quiet_ok && all_quiet(r, i))) {
            fprintf(out, "%s%s%s", color ? BOLD : "", id, color ? RESET : "");
            if (r->items[i].base_id && strcmp(r->items[i].base_id, id) != 0)
                fprintf(out, "  (baseline: %s)", r->items[i].base_id);
            fputc('\n', out);
            for (; k < r->n && strcmp(r->items[k].case_id, id) == 0; k++)
                print_item(out, &r->items[k], need, r->noisier_fail, color);
        }
        while (k < r->n && strcmp(r->items[k].case_id, id) == 0)
            k++;
        i = k;
    }
}

/* "noise floor widened by recorded drift: N comparisons (up to F% on
 * CASE [METRIC], from K runs)", when the drift floor widened any. */
static void print_drift(FILE *out, const bh_regress_report *r)
{
    const bh_regress_item *top = NULL;

    if (r->n_drift == 0)
        return;
    for (size_t i = 0; i < r->n; i++) {
        const bh_regress_item *it = &r->items[i];

        if (it->drift.runs && it->drift.floor > it->drift.config_floor &&
            (!top || it->drift.floor > top->drift.floor))
            top = it;
    }
    fprintf(out, "noise floor widened by recorded drift: %zu comparison%s (up to %.1f%% on %s [%s], "
                 "from %zu earlier runs)\n",
            r->n_drift, r->n_drift == 1 ? "" : "s", 100.0 * top->drift.floor, top->case_id,
            top->metric, top->drift.runs);
}

/* " (N too few runs to judge, N no change detected, N undecided)": how
 * the inconclusive verdicts read (docs/statistics.md section 11.6). */
static void print_readings(FILE *out, const bh_regress_report *r)
{
    size_t few = 0, undetected = 0, rest = 0;

    for (size_t i = 0; i < r->n; i++) {
        const bh_regress_verdict *v = &r->items[i].v;

        if (v->kind != BH_VERDICT_INCONCLUSIVE)
            continue;
        switch (bh_report_verdict_reading("inconclusive", v->reason)) {
        case BH_READING_TOO_FEW:
            few++;
            break;
        case BH_READING_UNDETECTED:
            undetected++;
            break;
        default:
            rest++;
        }
    }
    fprintf(out, " (%zu too few runs to judge, %zu no change detected, %zu undecided)", few,
            undetected, rest);
}

void bh_compare_print_summary(FILE *out, const bh_regress_report *r)
{
    static const bh_regress_kind order[] = {
        BH_VERDICT_REGRESSED, BH_VERDICT_IMPROVED, BH_VERDICT_WITHIN_NOISE,
        BH_VERDICT_NO_CHANGE, BH_VERDICT_INCONCLUSIVE, BH_VERDICT_NEW, BH_VERDICT_MISSING,
        BH_VERDICT_NOISIER};
    size_t cases = 0;

    for (size_t i = 0; i < r->n; i++)
        cases += i == 0 || strcmp(r->items[i].case_id, r->items[i - 1].case_id) != 0;
    fprintf(out, "compared %zu case%s, %zu test%s (BH fdr %g", cases, cases == 1 ? "" : "s",
            r->m_tests, r->m_tests == 1 ? "" : "s", r->fdr);
    if (r->n_confirm_tests)
        fprintf(out, "; %zu confirmed by rerun", r->n_confirm_tests);
    fprintf(out, "):");
    for (size_t k = 0; k < sizeof(order) / sizeof(*order); k++) {
        fprintf(out, "%s %zu %s", k ? "," : "", r->counts[order[k]],
                bh_regress_kind_name(order[k]));
        if (order[k] == BH_VERDICT_REGRESSED && r->counts[order[k]])
            fprintf(out, " (%zu critical, %zu warning, %zu minor)",
                    r->severities[BH_SEVERITY_CRITICAL], r->severities[BH_SEVERITY_WARNING],
                    r->severities[BH_SEVERITY_MINOR]);
        if (order[k] == BH_VERDICT_INCONCLUSIVE && r->counts[order[k]])
            print_readings(out, r);
    }
    if (r->counts[BH_VERDICT_NOISIER])
        fprintf(out, " (%s)", r->noisier_fail ? "failing the gate" : "warnings");
    if (r->n_memory_tests || r->n_spread_tests)
        fprintf(out, "; %zu memory and %zu spread test%s in families of their own",
                r->n_memory_tests, r->n_spread_tests, r->n_spread_tests == 1 ? "" : "s");
    fputc('\n', out);
    print_drift(out, r);
}
