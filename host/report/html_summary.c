// SPDX-License-Identifier: MIT
/* The summary table of the HTML report (see html.h): one row per case,
 * the reason beside the status of every case that did not end ok, the
 * filters (status, verdict, text) and sortable headers that the report's
 * one script drives. The median, its interval, the noisy mark and the
 * verdict words are the console's (report_case.h); the verdict filter
 * offers the verdict words of the document and the readings of
 * "inconclusive" (too few runs to judge, no change detected). */
#include "html.h"

#include "bh_mem.h"
#include "report_case.h"
#include "report_text.h"
#include "units.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The CSS class of a status cell. */
static const char *status_class(const char *st)
{
    if (strcmp(st, "ok") == 0)
        return "ok";
    if (strcmp(st, "skipped") == 0 || strcmp(st, "unsupported") == 0)
        return "skip";
    return "bad";
}

/* A verdict chip: the verdict in the console's words (alpha: the level
 * of the comparison's tests), colored by the verdict, with its reason
 * under it. */
static void verdict_chip(bh_strbuf *b, const bh_rv_case *r, double alpha)
{
    char words[160];
    const char *why = bh_report_case_reason(r);

    if (!r->verdict) {
        bh_strbuf_puts(b, "<span class=\"note\">-</span>");
        return;
    }
    bh_report_case_verdict_words(r, alpha, words, sizeof(words));
    bh_strbuf_printf(b, "<span class=\"v\" style=\"background:%s\">",
                     bh_svg_verdict_color(r->verdict, r->severity));
    bh_html_esc(b, words);
    bh_strbuf_puts(b, "</span>");
    if (why) {
        bh_strbuf_puts(b, "<div class=\"why\">");
        bh_html_esc(b, why);
        bh_strbuf_puts(b, "</div>");
    }
}

/* Whether s is among v[0..n). */
static int has(const char *const *v, size_t n, const char *s)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(v[i], s) == 0)
            return 1;
    return 0;
}

/* One <select> of the distinct values got(case) of the cases, in order of
 * first appearance ("" for all); nothing when fewer than two differ. */
static void select_of(bh_strbuf *b, const bh_result_view *view, const char *id,
                      const char *what, const char *(*got)(const bh_rv_case *))
{
    const char **v = bh_xcalloc(view->n_cases + 1, sizeof(char *));
    size_t n = 0;

    for (size_t i = 0; i < view->n_cases; i++) {
        const char *s = got(&view->cases[i]);

        if (s && !has(v, n, s))
            v[n++] = s;
    }
    if (n >= 2) {
        bh_strbuf_printf(b, "<label>%s <select id=\"%s\"><option value=\"\">all</option>", what,
                         id);
        for (size_t i = 0; i < n; i++) {
            bh_strbuf_puts(b, "<option>");
            bh_html_esc(b, v[i]);
            bh_strbuf_puts(b, "</option>");
        }
        bh_strbuf_puts(b, "</select></label>");
    }
    free(v);
}

/* The status of a case, and its verdict word or reading (NULL without
 * one). */
static const char *status_of(const bh_rv_case *r)
{
    return r->status;
}

static const char *verdict_of(const bh_rv_case *r)
{
    return bh_report_case_verdict_label(r);
}

/* Opens a number cell: text, with the raw value to sort by when finite;
 * the caller closes it with "</td>". */
static void num_cell_open(bh_strbuf *b, double v, const char *text)
{
    bh_strbuf_puts(b, "<td class=\"n\"");
    if (isfinite(v))
        bh_strbuf_printf(b, " data-v=\"%.9g\"", v);
    bh_strbuf_puts(b, ">");
    bh_html_esc(b, text);
}

/* A number cell (num_cell_open), with a warning line under it when warn
 * is not NULL. */
static void num_cell(bh_strbuf *b, double v, const char *text, const char *warn)
{
    num_cell_open(b, v, text);
    if (warn) {
        bh_strbuf_puts(b, "<div class=\"why warn\">");
        bh_html_esc(b, warn);
        bh_strbuf_puts(b, "</div>");
    }
    bh_strbuf_puts(b, "</td>");
}

/* The roofline cell: the fraction, what bounds the case, the name of the
 * ceiling it is held against, and the flag when above that ceiling. */
static void roof_cell(bh_strbuf *b, const bh_rv_case *r)
{
    char txt[64] = "";
    const char *ceiling = bh_report_roof_ceiling(&r->roof);

    if (isfinite(r->roof.fraction))
        snprintf(txt, sizeof(txt), "%.1f%% %s", r->roof.fraction * 100,
                 strcmp(r->roof.bound, "memory") == 0    ? "mem"
                 : strcmp(r->roof.bound, "latency") == 0 ? "lat"
                                                         : "comp");
    num_cell_open(b, r->roof.fraction, txt);
    if (isfinite(r->roof.fraction) && ceiling) {
        bh_strbuf_puts(b, "<div class=\"why\">of ");
        bh_html_esc(b, ceiling);
        bh_strbuf_puts(b, "</div>");
    }
    if (r->roof.above == 1)
        bh_strbuf_puts(b, "<div class=\"why warn\">above its ceiling</div>");
    bh_strbuf_puts(b, "</td>");
}

/* One row of the table (alpha: the level of the comparison's tests). */
static void row(bh_strbuf *b, const bh_result_view *view, const bh_rv_case *r, double alpha)
{
    char cv[32] = "-", tp[48] = "-";
    double vcv = NAN, vtp = NAN;
    const char *label = bh_report_case_verdict_label(r);
    bh_report_median m;

    bh_report_case_median(r, &m);
    if (r->summary.present) {
        vcv = r->summary.spread_cv;
        bh_fmt_pct(vcv, cv, sizeof(cv));
        if (isfinite(r->rate)) {
            vtp = r->rate;
            bh_fmt_rate(r->rate, r->rate_unit, tp, sizeof(tp));
        }
    }
    bh_strbuf_puts(b, "<tr data-status=\"");
    bh_html_esc(b, r->status);
    bh_strbuf_puts(b, "\" data-verdict=\"");
    bh_html_esc(b, label ? label : "");
    bh_strbuf_puts(b, "\"><td class=\"id\">");
    bh_html_esc(b, r->id);
    bh_strbuf_printf(b, "</td><td class=\"%s\">", status_class(r->status));
    bh_html_esc(b, r->status);
    if (*r->message) {
        bh_strbuf_puts(b, "<div class=\"why\">");
        bh_html_esc(b, r->message);
        bh_strbuf_puts(b, "</div>");
    }
    bh_strbuf_puts(b, "</td>");
    num_cell(b, m.med, m.med_text, NULL);
    num_cell(b, m.lo, m.ci_text, NULL);
    num_cell(b, vcv, cv, r->summary.present && bh_report_case_noisy(r) ? "noisy" : NULL);
    num_cell(b, vtp, tp, NULL);
    if (view->n_roofline)
        roof_cell(b, r);
    if (view->n_verdicts) {
        bh_strbuf_puts(b, "<td>");
        verdict_chip(b, r, alpha);
        bh_strbuf_puts(b, "</td>");
    }
    bh_strbuf_puts(b, "</tr>\n");
}

/* The legend under the table: what each column is, per what, at what
 * confidence (the console's legend line, README.md "Reading the
 * results"). */
static void legend(bh_strbuf *b, const bh_result_view *view)
{
    bh_strbuf_printf(b, "<p class=\"note\" id=\"summary-legend\">median: the median of the "
                        "run medians, time per iteration; %.0f%% CI: its interval from the run "
                        "medians (- under 6 runs); CV: the spread of the run medians, "
                        "<em>noisy</em> above max_cv",
                     BH_REPORT_CI_LEVEL * 100);
    if (view->n_roofline)
        bh_strbuf_puts(b, "; roofline: the share of the ceiling named under it");
    if (view->n_verdicts) {
        bh_strbuf_puts(b, "; verdict: the change of the median against the baseline, in words, "
                          "with its reason");
        if (isfinite(view->comparison.confidence))
            bh_strbuf_printf(b, " (%.0f%% intervals under Changes)",
                             view->comparison.confidence * 100);
    }
    bh_strbuf_puts(b, ".</p>\n");
}

/* See html.h. */
void bh_report_html_summary(bh_strbuf *b, const bh_result_view *view)
{
    double alpha = bh_report_alpha(view);

    bh_strbuf_puts(b, "<section id=\"summary\"><h2>Summary</h2>\n<div class=\"filters\">");
    select_of(b, view, "f-status", "status", status_of);
    select_of(b, view, "f-verdict", "verdict", verdict_of);
    bh_strbuf_printf(b, "<label>text <input id=\"f-text\" type=\"search\" "
                        "placeholder=\"case or reason\"></label> <span class=\"note\" "
                        "id=\"summary-count\">%zu cases</span> <span class=\"note\">Click a "
                        "header to sort.</span></div>\n",
                     view->n_cases);
    bh_strbuf_puts(b, "<div class=\"scroll\"><table id=\"summary-table\"><thead><tr>"
                      "<th data-sort=\"s\">case</th><th data-sort=\"s\">status</th>"
                      "<th data-sort=\"n\">median</th><th data-sort=\"n\">95% CI</th>"
                      "<th data-sort=\"n\">CV</th><th data-sort=\"n\">throughput</th>");
    if (view->n_roofline)
        bh_strbuf_puts(b, "<th data-sort=\"n\">roofline</th>");
    if (view->n_verdicts)
        bh_strbuf_puts(b, "<th data-sort=\"s\">verdict</th>");
    bh_strbuf_puts(b, "</tr></thead><tbody>\n");
    for (size_t i = 0; i < view->n_cases; i++)
        row(b, view, &view->cases[i], alpha);
    bh_strbuf_puts(b, "</tbody></table></div>\n");
    legend(b, view);
    bh_strbuf_puts(b, "</section>\n");
}
