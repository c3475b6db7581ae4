// SPDX-License-Identifier: MIT
/* The roofline bar list of the HTML report (see html_roof.h): one bar per
 * case with a roofline, the fraction of the ceiling that sets its
 * attainable rate, coloured like that ceiling; latency-bound bars pale,
 * bars above their ceiling outlined red. The axis runs to the largest
 * fraction (in steps of 25%) but no further than MAX_FRACTION, so one
 * absurd figure does not flatten the rest; a bar beyond it ends in an
 * arrow and the chart says how many there are. */
#include "html_roof.h"

#include "html.h"
#include "roofline.h"
#include "units.h"

#include "bh_mem.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PLOT 400.0
#define ROW 20.0
#define TOP 28.0
#define TEXT 470.0 /* the fraction and the ceiling's name at the right */
#define MAX_FRACTION 2.0

/* The axis end: the largest fraction up in steps of 25%, 100% to
 * MAX_FRACTION. */
static double axis_top(const bh_result_view *view)
{
    double top = 1;

    for (size_t i = 0; i < view->n_cases; i++)
        if (isfinite(view->cases[i].roof.fraction))
            top = fmax(top, view->cases[i].roof.fraction);
    return fmin(ceil(top * 4 - 1e-9) / 4, MAX_FRACTION);
}

/* Grid lines and percent labels, 100% dashed. */
static void axis(bh_strbuf *b, const bh_svg_axis *ax, double top, double h)
{
    for (double t = 0; t <= top + 1e-9; t += top > 1.5 ? 0.5 : 0.25) {
        char lab[16];
        double x = bh_svg_pos(ax, t);
        int one = fabs(t - 1) < 1e-9;

        snprintf(lab, sizeof(lab), "%.0f%%", t * 100);
        bh_strbuf_printf(b,
                         "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"%s/>",
                         x, TOP - 6, x, h - 4, one ? "#37474f" : "#e3e7ec",
                         one ? " stroke-dasharray=\"4 3\"" : "");
        bh_svg_text(b, x, TOP - 10, "middle", "m", lab);
    }
}

/* One bar at y for case c with label; *beyond counts bars past the axis. */
static void bar(bh_strbuf *b, const bh_rv_case *c, const char *label, const bh_html_roofs *r,
                const bh_svg_axis *ax, double y, size_t *beyond)
{
    const bh_html_ceil *k = bh_html_roofs_binding(r, c);
    double f = c->roof.fraction, cy = y + ROW / 2;
    double x0 = ax->p0, x1 = bh_svg_pos(ax, fmin(fmax(f, 0), ax->d1));
    int past = f > ax->d1, latency = strcmp(c->roof.bound, "latency") == 0;
    char txt[200], clipped[512], *tip;

    *beyond += past;
    bh_html_roof_fraction_text(r, c, txt, sizeof(txt));
    tip = bh_xasprintf("%s: %s%s%s", c->id, txt, c->roof.above == 1 ? "; " : "",
                       c->roof.above == 1 ? BH_ROOF_ABOVE_TEXT : "");
    bh_strbuf_printf(b, "<g%s>", c->roof.above == 1 ? " class=\"above\"" : "");
    bh_svg_title(b, tip);
    bh_svg_clip(label, BH_HTML_LABEL_MAX, clipped, sizeof(clipped));
    bh_svg_text(b, x0 - 8, cy + 4, "end", "c", clipped);
    bh_strbuf_printf(b,
                     "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"11\" fill=\"%s\" "
                     "fill-opacity=\"%s\"%s/>",
                     x0, cy - 5.5, fmax(x1 - x0, 1.0), k ? k->color : BH_HTML_ROOF_GREY,
                     latency ? "0.4" : "0.9",
                     c->roof.above == 1 ? " stroke=\"" BH_HTML_ROOF_WARN "\" stroke-width=\"2\""
                                        : "");
    if (past)
        bh_strbuf_printf(b, "<path d=\"M%.1f %.1f l7 5.5 l-7 5.5 z\" fill=\"%s\"/>", x1,
                         cy - 5.5, BH_HTML_ROOF_WARN);
    if (c->roof.above == 1) {
        size_t l = strlen(txt);

        snprintf(txt + l, sizeof(txt) - l, ": above its ceiling");
    }
    bh_strbuf_printf(b, "<text x=\"%.1f\" y=\"%.1f\"%s>", x0 + PLOT + 14, cy + 4,
                     c->roof.above == 1 ? " class=\"b\" style=\"fill:" BH_HTML_ROOF_WARN "\""
                                        : "");
    bh_html_esc(b, txt);
    bh_strbuf_puts(b, "</text></g>\n");
    free(tip);
}

/* See html_roof.h. */
void bh_html_roof_bars(bh_strbuf *b, const bh_result_view *view, const bh_html_roofs *r)
{
    const char **ids = bh_xcalloc(view->n_cases + 1, sizeof(char *));
    const bh_rv_case **rows = bh_xcalloc(view->n_cases + 1, sizeof(bh_rv_case *));
    size_t n = 0, beyond = 0;
    double top = axis_top(view), lw, h;
    char **labels;
    bh_svg_axis ax;

    for (size_t i = 0; i < view->n_cases; i++)
        if (isfinite(view->cases[i].roof.fraction)) {
            rows[n] = &view->cases[i];
            ids[n++] = view->cases[i].id;
        }
    labels = bh_html_labels(ids, n, 0);
    lw = bh_html_label_px(labels, n);
    ax = (bh_svg_axis){0, top, lw, lw + PLOT};
    h = TOP + ROW * (double)n + 8;
    bh_strbuf_puts(b, "<div class=\"scroll\">");
    bh_svg_open(b, lw + PLOT + TEXT, h, "roofline fractions");
    axis(b, &ax, top, h);
    for (size_t i = 0; i < n; i++)
        bar(b, rows[i], labels[i], r, &ax, TOP + ROW * (double)i, &beyond);
    bh_strbuf_puts(b, "</svg></div>\n");
    if (beyond)
        bh_strbuf_printf(b, "<p class=\"warn\">%zu bar%s beyond the %.0f%% axis (arrow): the "
                            "figure is at the right of each.</p>\n",
                         beyond, beyond == 1 ? "" : "s", top * 100);
    bh_html_labels_free(labels, n);
    free(ids);
    free(rows);
}
