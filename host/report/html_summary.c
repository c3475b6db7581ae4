// SPDX-License-Identifier: MIT
/* The summary table of the HTML report (see html.h): one row per case,
 * the reason beside the status of every case that did not end ok, the
 * filters (status, verdict, text) and sortable headers that the report's
 * one script drives. The verdict words come from the document. */
#include "html.h"

#include "bh_mem.h"
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

/* A verdict chip: colored label with the change. */
static void verdict_chip(bh_strbuf *b, const bh_rv_case *r)
{
    char c[32] = "";

    if (!r->verdict) {
        bh_strbuf_puts(b, "<span class=\"note\">-</span>");
        return;
    }
    bh_strbuf_printf(b, "<span class=\"v\" style=\"background:%s\">",
                     bh_svg_verdict_color(r->verdict, r->severity));
    bh_html_esc(b, r->verdict);
    if (r->severity && *r->severity) {
        bh_strbuf_puts(b, " (");
        bh_html_esc(b, r->severity);
        bh_strbuf_puts(b, ")");
    }
    bh_strbuf_puts(b, "</span>");
    if (r->head && isfinite(r->head->change)) {
        bh_report_fmt_change(r->head->change, c, sizeof(c));
        bh_strbuf_printf(b, " %s", c);
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

/* The status of a case, and its verdict word (NULL without one). */
static const char *status_of(const bh_rv_case *r)
{
    return r->status;
}

static const char *verdict_of(const bh_rv_case *r)
{
    return r->verdict;
}

/* A number cell: text, with the raw value to sort by when finite, and
 * a warning line under it when warn is not NULL. */
static void num_cell(bh_strbuf *b, double v, const char *text, const char *warn)
{
    bh_strbuf_puts(b, "<td class=\"n\"");
    if (isfinite(v))
        bh_strbuf_printf(b, " data-v=\"%.9g\"", v);
    bh_strbuf_puts(b, ">");
    bh_html_esc(b, text);
    if (warn) {
        bh_strbuf_puts(b, "<div class=\"why warn\">");
        bh_html_esc(b, warn);
        bh_strbuf_puts(b, "</div>");
    }
    bh_strbuf_puts(b, "</td>");
}

/* The roofline cell: the fraction, what bounds the case, and the flag
 * when above its ceiling. */
static void roof_cell(bh_strbuf *b, const bh_rv_case *r)
{
    char txt[64] = "";

    if (isfinite(r->roof.fraction))
        snprintf(txt, sizeof(txt), "%.1f%% %s", r->roof.fraction * 100,
                 strcmp(r->roof.bound, "memory") == 0    ? "mem"
                 : strcmp(r->roof.bound, "latency") == 0 ? "lat"
                                                         : "comp");
    num_cell(b, r->roof.fraction, txt, r->roof.above == 1 ? "above its ceiling" : NULL);
}

/* One row of the table. */
static void row(bh_strbuf *b, const bh_result_view *view, const bh_rv_case *r)
{
    char med[32] = "-", lo[32] = "", hi[32] = "", ci[80] = "", cv[32] = "-", tp[48] = "-";
    double vmed = NAN, vci = NAN, vcv = NAN, vtp = NAN;

    if (r->summary.present) {
        vmed = r->summary.median;
        bh_fmt_time(vmed, med, sizeof(med));
        if (isfinite(r->summary.median_ci_lo) && isfinite(r->summary.median_ci_hi)) {
            bh_fmt_time(r->summary.median_ci_lo, lo, sizeof(lo));
            bh_fmt_time(r->summary.median_ci_hi, hi, sizeof(hi));
            snprintf(ci, sizeof(ci), "[%s, %s]", lo, hi);
            vci = r->summary.median_ci_lo;
        }
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
    bh_html_esc(b, r->verdict ? r->verdict : "");
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
    num_cell(b, vmed, med, NULL);
    num_cell(b, vci, ci, NULL);
    num_cell(b, vcv, cv, NULL);
    num_cell(b, vtp, tp, NULL);
    if (view->n_roofline)
        roof_cell(b, r);
    if (view->n_verdicts) {
        bh_strbuf_puts(b, "<td>");
        verdict_chip(b, r);
        bh_strbuf_puts(b, "</td>");
    }
    bh_strbuf_puts(b, "</tr>\n");
}

/* See html.h. */
void bh_report_html_summary(bh_strbuf *b, const bh_result_view *view)
{
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
                      "<th data-sort=\"n\">median</th><th data-sort=\"n\">99% CI</th>"
                      "<th data-sort=\"n\">CV</th><th data-sort=\"n\">throughput</th>");
    if (view->n_roofline)
        bh_strbuf_puts(b, "<th data-sort=\"n\">roofline</th>");
    if (view->n_verdicts)
        bh_strbuf_puts(b, "<th data-sort=\"s\">verdict</th>");
    bh_strbuf_puts(b, "</tr></thead><tbody>\n");
    for (size_t i = 0; i < view->n_cases; i++)
        row(b, view, &view->cases[i]);
    bh_strbuf_puts(b, "</tbody></table></div>\n</section>\n");
}
