// SPDX-License-Identifier: MIT
/* Markdown summary for a CI job summary or a pull-request comment
 * (GitHub-flavoured tables): a headline, regressions first (critical,
 * warning, minor; largest change first), then improvements, then cases
 * that did not end ok, then the full table collapsed in <details>. All
 * text from the document is escaped for table cells. Medians, intervals,
 * the noisy mark and the verdict words are the console's (report_case.h):
 * the median of the run medians with its 95% interval, and an
 * inconclusive verdict by its reading, with the verdict's reason. */
#include "report.h"

#include "bh_mem.h"
#include "result_view.h"
#include "report_case.h"
#include "report_expect.h"
#include "report_scaling.h"
#include "report_text.h"
#include "roofline.h"
#include "units.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Appends one escaped table cell and its closing bar. */
static void cell(bh_strbuf *b, const char *s)
{
    bh_strbuf_puts(b, " ");
    bh_report_md_escape(b, s);
    bh_strbuf_puts(b, " |");
}

/* Appends s as a code span: fenced with one backtick more than its
 * longest run of backticks, padded with a space where it starts or ends
 * with one, line breaks as spaces; nothing escaped (a code span shows its
 * text as it is). Not for table cells, where "|" would end the cell. */
static void code_span(bh_strbuf *b, const char *s)
{
    size_t run = 0, most = 0, n = strlen(s);
    int pad = n > 0 && (s[0] == '`' || s[n - 1] == '`');

    for (const char *p = s; *p; p++) {
        run = *p == '`' ? run + 1 : 0;
        most = run > most ? run : most;
    }
    for (size_t i = 0; i <= most; i++)
        bh_strbuf_puts(b, "`");
    if (pad)
        bh_strbuf_puts(b, " ");
    for (const char *p = s; *p; p++)
        bh_strbuf_append(b, *p == '\n' || *p == '\r' ? " " : p, 1);
    if (pad)
        bh_strbuf_puts(b, " ");
    for (size_t i = 0; i <= most; i++)
        bh_strbuf_puts(b, "`");
}

/* One roofline row: case, level, ceiling, fraction, bound, flag. */
static void roof_row(bh_strbuf *b, const bh_rv_case *c)
{
    char f[32];

    snprintf(f, sizeof(f), "%.1f%%", c->roof.fraction * 100);
    bh_strbuf_puts(b, "|");
    cell(b, c->id);
    cell(b, c->roof.level ? c->roof.level : "-");
    cell(b, bh_report_str_or(bh_report_roof_ceiling(&c->roof), "-"));
    bh_strbuf_printf(b, " %s%s%s |", c->roof.above == 1 ? "**" : "", f,
                     c->roof.above == 1 ? "**" : "");
    cell(b, *c->roof.bound ? c->roof.bound : "-");
    cell(b, c->roof.above == 1 ? "above its ceiling" : "");
    bh_strbuf_puts(b, "\n");
}

/* The roofline section: cases above their ceiling in the open, then the
 * fraction of every case, collapsed (nothing without a roofline). */
static void roofline(bh_strbuf *b, const bh_result_view *view)
{
    static const char head[] = "| case | level | ceiling | of ceiling | bound | flag |\n"
                               "|---|---|---|--:|---|---|\n";
    size_t above = 0;

    if (view->n_roofline == 0)
        return;
    for (size_t i = 0; i < view->n_cases; i++)
        above += view->cases[i].roof.above == 1;
    bh_strbuf_printf(b, "### Roofline\n\n%zu case%s against %zu ceiling%s measured in this run",
                     view->n_roofline, view->n_roofline == 1 ? "" : "s",
                     view->roofs.n_ceilings, view->roofs.n_ceilings == 1 ? "" : "s");
    if (above) {
        bh_strbuf_printf(b, "; **%zu above %s ceiling**: " BH_ROOF_ABOVE_TEXT ".\n\n%s", above,
                         above == 1 ? "its" : "their", head);
        for (size_t i = 0; i < view->n_cases; i++)
            if (view->cases[i].roof.above == 1)
                roof_row(b, &view->cases[i]);
    } else {
        bh_strbuf_puts(b, ", none above its ceiling.\n");
    }
    bh_strbuf_printf(b, "\n<details><summary>Roofline of %zu cases</summary>\n\n%s",
                     view->n_roofline, head);
    for (size_t i = 0; i < view->n_cases; i++)
        if (isfinite(view->cases[i].roof.fraction))
            roof_row(b, &view->cases[i]);
    bh_strbuf_puts(b, "\n</details>\n\n");
}

/* Sort key for the change sections: rank, then |change| descending, then
 * document order. */
typedef struct ranked {
    const bh_rv_case *r;
    int rank;
    double mag;
    size_t pos;
} ranked;

/* qsort order of ranked rows. */
static int cmp_ranked(const void *a, const void *b)
{
    const ranked *x = a, *y = b;

    if (x->rank != y->rank)
        return x->rank < y->rank ? -1 : 1;
    if (x->mag != y->mag)
        return x->mag > y->mag ? -1 : 1;
    return (x->pos > y->pos) - (x->pos < y->pos);
}

/* Rows whose verdict rank is in [lo, hi], sorted; *n gets their count. */
static ranked *select_rows(const bh_result_view *view, int lo, int hi, size_t *n)
{
    ranked *v = bh_xcalloc(view->n_cases + 1, sizeof(ranked));

    *n = 0;
    for (size_t i = 0; i < view->n_cases; i++) {
        const bh_rv_case *r = &view->cases[i];
        int rank = bh_rv_verdict_rank(r->verdict, r->severity);

        if (rank < lo || rank > hi)
            continue;
        v[*n].r = r;
        v[*n].rank = rank;
        v[*n].mag = r->head && isfinite(r->head->change) ? fabs(r->head->change) : 0;
        v[*n].pos = i;
        (*n)++;
    }
    qsort(v, *n, sizeof(ranked), cmp_ranked);
    return v;
}

/* The table of the rows v[0..n) of one change section, each with its
 * verdict's reason. */
static void change_table(bh_strbuf *b, const ranked *v, size_t n, int with_severity)
{
    bh_strbuf_puts(b, "| case | metric | change | CI | q | baseline | candidate |");
    if (with_severity)
        bh_strbuf_puts(b, " severity |");
    bh_strbuf_puts(b, " why |\n|---|---|--:|---|--:|--:|--:|");
    if (with_severity)
        bh_strbuf_puts(b, "---|");
    bh_strbuf_puts(b, "---|\n");
    for (size_t i = 0; i < n; i++) {
        const bh_rv_case *r = v[i].r;
        const bh_rv_change *ch = r->head;
        char c[32] = "-", lo[32] = "-", hi[32] = "-", ci[80] = "-", q[32] = "-";
        char bv[48] = "-", cv[48] = "-";

        if (ch) {
            bh_report_fmt_change(ch->change, c, sizeof(c));
            bh_report_fmt_change(ch->lo, lo, sizeof(lo));
            bh_report_fmt_change(ch->hi, hi, sizeof(hi));
            snprintf(ci, sizeof(ci), "[%s, %s]", lo, hi);
            bh_report_fmt_p(ch->q, q, sizeof(q));
            bh_report_fmt_value(ch->base, ch->unit, bv, sizeof(bv));
            bh_report_fmt_value(ch->cand, ch->unit, cv, sizeof(cv));
        }
        bh_strbuf_puts(b, "|");
        cell(b, r->id);
        cell(b, ch ? ch->metric : "time");
        bh_strbuf_printf(b, " **%s** |", c);
        cell(b, ci);
        cell(b, q);
        cell(b, bv);
        cell(b, cv);
        if (with_severity)
            cell(b, r->severity ? r->severity : "");
        cell(b, bh_report_str_or(bh_report_case_reason(r), ""));
        bh_strbuf_puts(b, "\n");
    }
    bh_strbuf_puts(b, "\n");
}

/* The section of cases that did not end ok (nothing when all did). */
static void failures(bh_strbuf *b, const bh_result_view *view)
{
    size_t n = 0;

    for (size_t i = 0; i < view->n_cases; i++)
        n += !view->cases[i].ok;
    if (n == 0)
        return;
    bh_strbuf_printf(b, "### Not ok (%zu)\n\n| case | status | message |\n|---|---|---|\n", n);
    for (size_t i = 0; i < view->n_cases; i++) {
        const bh_rv_case *r = &view->cases[i];

        if (r->ok)
            continue;
        bh_strbuf_puts(b, "|");
        cell(b, r->id);
        bh_strbuf_printf(b, " %s%s%s |", bh_rv_status_failed(r->status) ? "**" : "",
                         r->status, bh_rv_status_failed(r->status) ? "**" : "");
        cell(b, r->message);
        bh_strbuf_puts(b, "\n");
    }
    bh_strbuf_puts(b, "\n");
}

/* The verdict cell of r: its words (alpha: the level of the comparison's
 * tests) and its reason after a line break; empty without a verdict. */
static void verdict_cell(bh_strbuf *b, const bh_rv_case *r, double alpha)
{
    char words[160];
    const char *why = bh_report_case_reason(r);

    bh_strbuf_puts(b, " ");
    if (r->verdict) {
        bh_report_case_verdict_words(r, alpha, words, sizeof(words));
        bh_report_md_escape(b, words);
    }
    if (why) {
        bh_strbuf_puts(b, "<br>why: ");
        bh_report_md_escape(b, why);
    }
    bh_strbuf_puts(b, " |");
}

/* Every case, collapsed in <details>, with a legend under the table. */
static void full_table(bh_strbuf *b, const bh_result_view *view)
{
    double alpha = bh_report_alpha(view);

    bh_strbuf_printf(b, "<details><summary>All %zu case%s</summary>\n\n", view->n_cases,
                     view->n_cases == 1 ? "" : "s");
    bh_strbuf_printf(b,
                     "| case | status | median | %.0f%% CI | CV | throughput | verdict |\n"
                     "|---|---|--:|---|--:|--:|---|\n",
                     BH_REPORT_CI_LEVEL * 100);
    for (size_t i = 0; i < view->n_cases; i++) {
        const bh_rv_case *r = &view->cases[i];
        char cv[48] = "-", tp[48] = "-";
        bh_report_median m;

        bh_report_case_median(r, &m);
        if (r->summary.present) {
            bh_fmt_pct(r->summary.spread_cv, cv, sizeof(cv));
            if (bh_report_case_noisy(r))
                snprintf(cv + strlen(cv), sizeof(cv) - strlen(cv), " noisy");
            if (isfinite(r->rate))
                bh_fmt_rate(r->rate, r->rate_unit, tp, sizeof(tp));
        }
        bh_strbuf_puts(b, "|");
        cell(b, r->id);
        cell(b, r->status);
        cell(b, m.med_text);
        cell(b, m.ci_text);
        cell(b, cv);
        cell(b, tp);
        verdict_cell(b, r, alpha);
        bh_strbuf_puts(b, "\n");
    }
    bh_strbuf_printf(b,
                     "\nmedian: the median of the run medians, time per iteration; %.0f%% CI: "
                     "its interval from the run medians (- under 6 runs); CV: the spread of "
                     "the run medians, noisy above max\\_cv",
                     BH_REPORT_CI_LEVEL * 100);
    if (view->n_verdicts)
        bh_strbuf_puts(b, "; verdict: the change of the median against the baseline, in words, "
                          "with its reason");
    bh_strbuf_puts(b, ".\n\n</details>\n");
}

/* "smoke: 5 cases, 1 regressed (1 critical), 2 improved, 1 failed" */
static void headline(bh_strbuf *b, const bh_result_view *view, size_t n_reg, size_t n_crit,
                     size_t n_imp)
{
    size_t bad = 0;

    for (size_t i = 0; i < view->n_cases; i++)
        bad += bh_rv_status_failed(view->cases[i].status);
    bh_strbuf_puts(b, "## bhost: ");
    bh_report_md_escape(b, bh_report_str_or(view->run.config_name, "result"));
    bh_strbuf_printf(b, " \xe2\x80\x94 %zu case%s", view->n_cases, view->n_cases == 1 ? "" : "s");
    if (view->n_verdicts)
        bh_strbuf_printf(b, ", %zu regressed (%zu critical), %zu improved", n_reg, n_crit, n_imp);
    if (bad)
        bh_strbuf_printf(b, ", %zu failed", bad);
    bh_strbuf_puts(b, "\n\n");
    bh_strbuf_puts(b, "config ");
    code_span(b, bh_report_str_or(view->run.config_path, ""));
    bh_strbuf_puts(b, " \xc2\xb7 ");
    bh_report_md_escape(b, bh_report_str_or(view->run.started_at, ""));
    bh_strbuf_puts(b, " \xc2\xb7 host ");
    bh_report_md_escape(b, bh_report_str_or(view->system.hostname, "?"));
    bh_strbuf_puts(b, " \xc2\xb7 bhost ");
    bh_report_md_escape(b, bh_report_str_or(view->run.host_version, "?"));
    if (view->comparison.json) {
        bh_strbuf_puts(b, " \xc2\xb7 baseline ");
        bh_report_md_escape(b, bh_report_str_or(view->comparison.baseline, "?"));
    }
    bh_strbuf_puts(b, "\n\n");
}

/* See report.h: the Markdown summary of doc, appended to out. */
void bh_report_markdown(const cJSON *doc, bh_strbuf *out)
{
    bh_result_view view;
    size_t n_reg, n_imp, n_noisy, n_crit = 0;
    ranked *reg, *imp, *noisy;

    bh_result_view_load(doc, &view);
    reg = select_rows(&view, 0, 2, &n_reg);
    imp = select_rows(&view, 3, 3, &n_imp);
    noisy = select_rows(&view, 9, 9, &n_noisy); /* noisier (bh_rv_verdict_rank) */
    for (size_t i = 0; i < n_reg; i++)
        n_crit += reg[i].rank == 0;
    headline(out, &view, n_reg, n_crit, n_imp);
    if (view.n_verdicts == 0) {
        bh_strbuf_puts(out, "No baseline comparison in this result.\n\n");
    } else {
        bh_strbuf_printf(out, "### Regressions (%zu)\n\n", n_reg);
        if (n_reg)
            change_table(out, reg, n_reg, 1);
        else
            bh_strbuf_puts(out, "None.\n\n");
        bh_strbuf_printf(out, "### Improvements (%zu)\n\n", n_imp);
        if (n_imp)
            change_table(out, imp, n_imp, 0);
        else
            bh_strbuf_puts(out, "None.\n\n");
        if (n_noisy) {
            bh_strbuf_printf(out, "### Noisier between runs (%zu)\n\n", n_noisy);
            change_table(out, noisy, n_noisy, 0);
        }
    }
    failures(out, &view);
    bh_report_markdown_expect(doc, out);
    bh_report_markdown_scaling(doc, out);
    roofline(out, &view);
    full_table(out, &view);
    free(reg);
    free(imp);
    free(noisy);
    bh_result_view_free(&view);
}
