// SPDX-License-Identifier: MIT
/* The distributions section of the HTML report: per plugin/benchmark
 * group one SVG with one row per case: a box plot of its samples (box
 * Q1-Q3, whiskers p5-p95, line at the median) and its run medians as dots,
 * on a logarithmic axis of the ratio to the case's median, labelled in
 * percent (so cases of very different speeds share one axis), with the
 * median and its 95% CI in absolute units at the right. The median is the
 * median of the run medians, as in the summary table (report_case.h). */
#include "html.h"

#include "bh_mem.h"
#include "report_case.h"
#include "units.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PLOT 440.0
#define TEXT 380.0 /* the median and its CI at the right */
#define ROW 22.0
#define TOP 28.0

/* The deviation of v from m on the axis: ln(v / m) (timings are skewed
 * to the right; on a log scale the spread reads the same both sides). */
static double rel(double v, double m)
{
    return v > 0 && m > 0 ? log(v / m) : 0;
}

/* Half-ranges of the axis as ratios to the median: the axis of a group
 * spans [median / R, median x R] for the first R that holds its values. */
static const double ratios[] = {1.01, 1.02, 1.05, 1.1, 1.2, 1.5, 2, 3, 5, 10};
#define N_RATIOS (sizeof(ratios) / sizeof(*ratios))

/* The index into ratios of the first ratio whose log reaches d >= 0
 * (the last one when none does). */
static size_t ratio_index(double d)
{
    size_t k = 0;

    while (k + 1 < N_RATIOS && log(ratios[k]) < d * 1.02)
        k++;
    return k;
}

/* The centre of case r's row: its median (bh_report_case_median); NAN
 * when it has no positive one. */
static double centre(const bh_rv_case *r)
{
    bh_report_median m;

    bh_report_case_median(r, &m);
    return m.med > 0 ? m.med : NAN;
}

/* The axis of one group, as indexes into ratios below (*lo) and above
 * (*hi) the median: the smallest that hold p5, p95 and the run medians of
 * every row. Timings are skewed to the right, so the two sides differ. */
static void group_range(const bh_result_view *view, const size_t *idx, size_t n, size_t *lo,
                        size_t *hi)
{
    double below = 0, above = 0;

    for (size_t k = 0; k < n; k++) {
        const bh_rv_case *r = &view->cases[idx[k]];
        double *v = NULL;
        size_t nv = 0;
        double d, m = centre(r);

        if (!isfinite(m))
            continue;
        if (isfinite(r->summary.p5) && (d = rel(r->summary.p5, m)) < 0)
            below = fmax(below, -d);
        if (isfinite(r->summary.p95) && (d = rel(r->summary.p95, m)) > 0)
            above = fmax(above, d);
        bh_rv_case_run_medians(r, &v, &nv);
        for (size_t j = 0; j < nv; j++) {
            d = rel(v[j], m);
            below = fmax(below, -d);
            above = fmax(above, d);
        }
        free(v);
    }
    *lo = ratio_index(below);
    *hi = ratio_index(above);
}

/* The pixel of a deviation, clamped into the plot; *clamped set when it
 * was outside. */
static double xpos(const bh_svg_axis *ax, double d, int *clamped)
{
    double lo = ax->d0, hi = ax->d1;

    *clamped = d < lo || d > hi;
    return bh_svg_pos(ax, fmin(fmax(d, lo), hi));
}

/* Ticks at the median and at the axis ends, and at the next smaller
 * ratio on each side, labelled as percent changes from the median. */
static void axis(bh_strbuf *b, const bh_svg_axis *ax, size_t lo, size_t hi, double height)
{
    double t[5];
    int n = 0;

    t[n++] = 0;
    t[n++] = -log(ratios[lo]);
    t[n++] = log(ratios[hi]);
    if (lo > 0)
        t[n++] = -log(ratios[lo - 1]);
    if (hi > 0)
        t[n++] = log(ratios[hi - 1]);
    double drawn[5];
    int nd = 0;

    for (int i = 0; i < n; i++) {
        double x = bh_svg_pos(ax, t[i]);
        char lab[32];
        int room = 1;

        /* a label only where it does not run into one already drawn */
        for (int j = 0; j < nd; j++)
            room &= fabs(drawn[j] - x) >= 48;
        snprintf(lab, sizeof(lab), "%+.3g%%", (exp(t[i]) - 1) * 100);
        bh_strbuf_printf(b,
                         "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
                         "stroke=\"%s\"/>",
                         x, TOP - 6, x, height - 4, i ? "#e3e7ec" : "#9aa5b1");
        if (room) {
            bh_svg_text(b, x, TOP - 10, "middle", "m", i ? lab : "median");
            drawn[nd++] = x;
        }
    }
}

/* One case row at y: box, whiskers, median line, run-median dots and the
 * absolute median with its CI; cases without timing show their status. */
static void row(bh_strbuf *b, const bh_rv_case *r, const bh_svg_axis *ax, double y,
                const char *full_label)
{
    char label[640];
    const double left = ax->p0; /* the plot; labels end 8 pixels before it */
    double *v = NULL;
    size_t nv = 0;
    double cy = y + ROW / 2;
    int c1, c2;
    char txt[160], tip[512];
    bh_report_median m;

    bh_svg_clip(full_label, BH_HTML_LABEL_MAX, label, sizeof(label));

    bh_strbuf_puts(b, "<g>");
    bh_report_case_median(r, &m);
    if (!(m.med > 0)) {
        bh_svg_text(b, left - 8, cy + 4, "end", "c", label);
        snprintf(txt, sizeof(txt), "%s: no timing", r->status);
        bh_svg_text(b, left + 4, cy + 4, "start", "m", txt);
        bh_strbuf_puts(b, "</g>");
        return;
    }
    bh_rv_case_run_medians(r, &v, &nv);
    snprintf(tip, sizeof(tip), "%s: median of %zu run medians %s, %.0f%% CI %s", r->id, nv,
             m.med_text, BH_REPORT_CI_LEVEL * 100, m.ci_text);
    bh_svg_title(b, tip);
    bh_svg_text(b, left - 8, cy + 4, "end", "c", label);
    if (isfinite(r->summary.p5) && isfinite(r->summary.p95)) {
        double x1 = xpos(ax, rel(r->summary.p5, m.med), &c1);
        double x2 = xpos(ax, rel(r->summary.p95, m.med), &c2);

        bh_strbuf_printf(b,
                         "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
                         "stroke=\"#607d8b\"/>"
                         "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
                         "stroke=\"#607d8b\"/><line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
                         "y2=\"%.1f\" stroke=\"#607d8b\"/>",
                         x1, cy, x2, cy, x1, cy - 4, x1, cy + 4, x2, cy - 4, x2, cy + 4);
    }
    if (isfinite(r->summary.q1) && isfinite(r->summary.q3)) {
        double x1 = xpos(ax, rel(r->summary.q1, m.med), &c1);
        double x2 = xpos(ax, rel(r->summary.q3, m.med), &c2);

        bh_strbuf_printf(b,
                         "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"12\" "
                         "fill=\"#bbdefb\" stroke=\"#1e88e5\"/>",
                         x1, cy - 6, fmax(x2 - x1, 1.0));
    }
    bh_strbuf_printf(b,
                     "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#0d47a1\" "
                     "stroke-width=\"2\"/>",
                     bh_svg_pos(ax, 0), cy - 7, bh_svg_pos(ax, 0), cy + 7);
    for (size_t j = 0; j < nv; j++) {
        int clamped;
        double x = xpos(ax, rel(v[j], m.med), &clamped);
        double jy = cy + ((double)(j % 5) - 2) * 1.6;

        bh_strbuf_printf(b,
                         "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2.6\" fill=\"%s\" "
                         "fill-opacity=\"0.75\"/>",
                         x, jy, clamped ? "#c62828" : "#37474f");
    }
    if (isfinite(m.lo))
        snprintf(txt, sizeof(txt), "%s  %.0f%% CI %s", m.med_text, BH_REPORT_CI_LEVEL * 100,
                 m.ci_text);
    else
        snprintf(txt, sizeof(txt), "%s  (%zu run%s: no %.0f%% CI)", m.med_text, nv,
                 nv == 1 ? "" : "s", BH_REPORT_CI_LEVEL * 100);
    bh_svg_text(b, ax->p1 + 12, cy + 4, "start", NULL, txt);
    bh_strbuf_puts(b, "</g>");
    free(v);
}

/* The chart of one plugin/benchmark group: cases idx[0..n) of view. */
static void group_chart(bh_strbuf *b, const bh_result_view *view, const size_t *idx, size_t n)
{
    size_t lo, hi;
    double h = TOP + ROW * (double)n + 8, lw;
    bh_svg_axis ax;
    const bh_rv_case *first = &view->cases[idx[0]];
    const char **ids = bh_xcalloc(n, sizeof(char *));
    char **labels;

    for (size_t i = 0; i < n; i++)
        ids[i] = view->cases[idx[i]].id;
    /* the heading names the group; rows say what differs */
    labels = bh_html_labels(ids, n, 1);
    lw = bh_html_label_px(labels, n);
    group_range(view, idx, n, &lo, &hi);
    ax = (bh_svg_axis){-log(ratios[lo]), log(ratios[hi]), lw, lw + PLOT};
    bh_strbuf_puts(b, "<h3>");
    bh_html_esc(b, first->group);
    bh_strbuf_puts(b, "</h3>\n<div class=\"scroll\">");
    bh_svg_open(b, lw + PLOT + TEXT, h, first->group);
    axis(b, &ax, lo, hi, h);
    for (size_t i = 0; i < n; i++)
        row(b, &view->cases[idx[i]], &ax, TOP + ROW * (double)i, labels[i]);
    bh_strbuf_puts(b, "</svg></div>\n");
    bh_html_labels_free(labels, n);
    free(ids);
}

/* See html.h. */
void bh_report_html_dist(bh_strbuf *b, const bh_result_view *view)
{
    size_t *idx = bh_xcalloc(view->n_cases + 1, sizeof(size_t));
    char *done = bh_xcalloc(view->n_cases + 1, 1);

    bh_strbuf_puts(b, "<section id=\"distributions\"><h2>Distributions</h2>\n"
                      "<p class=\"note\">Per case: box Q1&ndash;Q3 of the samples (ns per "
                      "iteration), whiskers p5&ndash;p95, dots the median of each run (red: "
                      "beyond the axis), on a log scale of the ratio to the case's median (the "
                      "median of the run medians, the line); that median and its 95% CI from "
                      "the run medians at the right (none under 6 runs).</p>\n");
    if (view->n_cases == 0)
        bh_strbuf_puts(b, "<p class=\"note\">The result has no cases.</p>\n");
    for (size_t i = 0; i < view->n_cases; i++) {
        size_t n = 0;

        if (done[i])
            continue;
        for (size_t j = i; j < view->n_cases; j++)
            if (!done[j] && strcmp(view->cases[j].group, view->cases[i].group) == 0) {
                idx[n++] = j;
                done[j] = 1;
            }
        group_chart(b, view, idx, n);
    }
    bh_strbuf_puts(b, "</section>\n");
    free(idx);
    free(done);
}
