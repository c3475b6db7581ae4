// SPDX-License-Identifier: MIT
/* The backends section of the HTML report: cases that differ only in
 * their @backend:device part side by side, one table row per operation
 * (the id without that part) and one column per backend:device, with the
 * median time (the median of the run medians, as in the summary table),
 * the throughput and the speed relative to the fastest. */
#include "html.h"

#include "bh_mem.h"
#include "report_case.h"
#include "units.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Index of s in list[0..n), or n. */
static size_t find(const char *const *list, size_t n, const char *s)
{
    size_t i = 0;

    while (i < n && strcmp(list[i], s) != 0)
        i++;
    return i;
}

/* The row of ops[o] for column cols[c], or NULL. */
static const bh_rv_case *cell_row(const bh_result_view *view, const char *op, const char *at)
{
    for (size_t i = 0; i < view->n_cases; i++)
        if (strcmp(view->cases[i].op, op) == 0 && strcmp(view->cases[i].at, at) == 0)
            return &view->cases[i];
    return NULL;
}

/* The median of r (bh_report_case_median), NAN without one. */
static double median_of(const bh_rv_case *r)
{
    bh_report_median m;

    bh_report_case_median(r, &m);
    return m.med;
}

/* One table cell: r's median, throughput and slowdown against best (NULL r:
 * a dash; no summary: its status). */
static void cell(bh_strbuf *b, const bh_rv_case *r, double best)
{
    char med[32], tp[48];
    double m;

    if (!r) {
        bh_strbuf_puts(b, "<td class=\"n note\">&ndash;</td>");
        return;
    }
    if (!r->summary.present) {
        bh_strbuf_puts(b, "<td class=\"n bad\" title=\"");
        bh_html_esc(b, r->message);
        bh_strbuf_puts(b, "\">");
        bh_html_esc(b, r->status);
        bh_strbuf_puts(b, "</td>");
        return;
    }
    m = median_of(r);
    bh_fmt_time(m, med, sizeof(med));
    bh_strbuf_printf(b, "<td class=\"n%s\">%s", m == best ? " best" : "", med);
    if (isfinite(r->rate)) {
        bh_fmt_rate(r->rate, r->rate_unit, tp, sizeof(tp));
        bh_strbuf_puts(b, "<br>");
        bh_html_esc(b, tp);
    }
    if (best > 0 && m != best)
        bh_strbuf_printf(b, "<br><span class=\"note\">%.3g&times; slower</span>", m / best);
    bh_strbuf_puts(b, "</td>");
}

/* See html.h. */
void bh_report_html_backends(bh_strbuf *b, const bh_result_view *view)
{
    const char **ops = bh_xcalloc(view->n_cases + 1, sizeof(char *));
    const char **cols = bh_xcalloc(view->n_cases + 1, sizeof(char *));
    size_t *variants = bh_xcalloc(view->n_cases + 1, sizeof(size_t));
    size_t nops = 0, ncols = 0, shown = 0;

    /* ops with an @backend:device part and how many variants each has */
    for (size_t i = 0; i < view->n_cases; i++) {
        size_t o;

        if (!*view->cases[i].at)
            continue;
        o = find(ops, nops, view->cases[i].op);
        if (o == nops)
            ops[nops++] = view->cases[i].op;
        variants[o]++;
    }
    for (size_t i = 0; i < view->n_cases; i++) {
        size_t o = find(ops, nops, view->cases[i].op);

        if (o < nops && variants[o] > 1 && find(cols, ncols, view->cases[i].at) == ncols)
            cols[ncols++] = view->cases[i].at;
    }
    bh_strbuf_puts(b, "<section id=\"backends\"><h2>Backends side by side</h2>\n");
    for (size_t o = 0; o < nops; o++)
        shown += variants[o] > 1;
    if (shown == 0) {
        bh_strbuf_puts(b, "<p class=\"note\">No operation ran on more than one "
                          "backend:device in this result.</p>\n");
    } else {
        bh_strbuf_puts(b, "<p class=\"note\">Median time per iteration (of the run medians) of "
                          "each operation on each backend:device; the fastest is highlighted.</p>\n"
                          "<div class=\"scroll\"><table><thead><tr><th>operation</th>");
        for (size_t c = 0; c < ncols; c++) {
            bh_strbuf_puts(b, "<th class=\"id\">");
            bh_html_esc(b, cols[c] + 1);
            bh_strbuf_puts(b, "</th>");
        }
        bh_strbuf_puts(b, "</tr></thead><tbody>\n");
        for (size_t o = 0; o < nops; o++) {
            double best = INFINITY;

            if (variants[o] < 2)
                continue;
            for (size_t c = 0; c < ncols; c++) {
                const bh_rv_case *r = cell_row(view, ops[o], cols[c]);

                if (r && median_of(r) > 0)
                    best = fmin(best, median_of(r));
            }
            bh_strbuf_puts(b, "<tr><td class=\"id\">");
            bh_html_esc(b, ops[o]);
            bh_strbuf_puts(b, "</td>");
            for (size_t c = 0; c < ncols; c++)
                cell(b, cell_row(view, ops[o], cols[c]), isfinite(best) ? best : 0);
            bh_strbuf_puts(b, "</tr>\n");
        }
        bh_strbuf_puts(b, "</tbody></table></div>\n");
    }
    bh_strbuf_puts(b, "</section>\n");
    free(ops);
    free(cols);
    free(variants);
}
