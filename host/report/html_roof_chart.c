// SPDX-License-Identifier: MIT
/* The roofline chart of the HTML report (see html_roof.h): log-log,
 * arithmetic intensity (FLOP per byte) against FLOP/s. A bandwidth
 * ceiling is the line intensity x bandwidth, drawn up to the highest
 * compute ceiling of its device; a compute ceiling is flat from where it
 * meets the highest bandwidth of its device. The axes hold every point
 * and every ceiling's line; only a range of more than MAX_DECADES would
 * clip, and then the chart says how many points lie beyond it. */
#include "html_roof.h"

#include "html.h"
#include "roofline.h"
#include "units.h"

#include "bh_mem.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define L 84.0      /* left of the plot: the FLOP/s tick labels */
#define PW 640.0    /* plot width */
#define T 14.0      /* top of the plot */
#define B 44.0      /* below the plot: tick labels and the axis title */
#define LINE_H 13.0 /* the least distance of two ceiling labels */
#define MAX_DECADES 12.0

/* A ceiling label: its wanted and its laid-out baseline. */
typedef struct label {
    const bh_html_ceil *k;
    double want, y;
} label;

/* The plot's two log axes. */
typedef struct plot {
    bh_svg_axis x, y; /* in log10 units */
    double h;         /* plot height */
} plot;

/* Pixel of value v on log axis a. */
static double lp(const bh_svg_axis *a, double v)
{
    return bh_svg_pos(a, log10(v));
}

/* Whether two "@backend:device" strings (NULL on the host) are one. */
static int same_at(const char *a, const char *b)
{
    return strcmp(a ? a : "", b ? b : "") == 0;
}

/* The highest value of the ceilings of one kind (bandwidth or compute) on
 * device at; of every device when that one has none. */
static double top_of(const bh_html_roofs *r, int bandwidth, const char *at)
{
    double mine = 0, any = 0;

    for (size_t i = 0; i < r->n; i++) {
        const bh_html_ceil *k = &r->v[i];

        if (bandwidth ? !k->bandwidth : !k->compute)
            continue;
        any = fmax(any, k->c.value);
        if (same_at(k->c.at, at))
            mine = fmax(mine, k->c.value);
    }
    return mine > 0 ? mine : any;
}

/* Whether case c is a point of the chart. */
static int is_point(const bh_rv_case *c)
{
    return c->roof.intensity > 0 && isfinite(c->roof.intensity) && c->flop_per_s > 0 &&
           isfinite(c->flop_per_s);
}

/* A log axis [lo, hi] with a margin, at least two decades, at most
 * MAX_DECADES (keeping the top, where the ceilings are). */
static bh_svg_axis log_axis(double lo, double hi, double margin, double p0, double p1)
{
    double d0 = log10(lo) - margin, d1 = log10(hi) + margin;

    if (d1 - d0 < 2) {
        d0 -= (2 - (d1 - d0)) / 2;
        d1 = d0 + 2;
    }
    if (d1 - d0 > MAX_DECADES)
        d0 = d1 - MAX_DECADES;
    return (bh_svg_axis){d0, d1, p0, p1};
}

/* Lays labels v[0..n) (sorted by want, top first) out at least LINE_H
 * apart within [top, bottom]. */
static void lay_out(label *v, size_t n, double top, double bottom)
{
    for (size_t i = 0; i < n; i++) {
        v[i].y = fmax(v[i].want, top);
        if (i > 0 && v[i].y < v[i - 1].y + LINE_H)
            v[i].y = v[i - 1].y + LINE_H;
    }
    for (size_t i = n; i-- > 0;) {
        if (v[i].y > bottom)
            v[i].y = bottom;
        if (i + 1 < n && v[i].y > v[i + 1].y - LINE_H)
            v[i].y = v[i + 1].y - LINE_H;
    }
}

/* qsort order of labels: wanted baseline, top first. */
static int cmp_label(const void *a, const void *b)
{
    const label *x = a, *y = b;

    return (x->want > y->want) - (x->want < y->want);
}

/* Draws labels v[0..n) at x with anchor ("start" or "end"). */
static void draw_labels(bh_strbuf *b, label *v, size_t n, double x, const char *anchor,
                        const plot *p)
{
    qsort(v, n, sizeof(label), cmp_label);
    lay_out(v, n, T + 10, T + p->h - 4);
    for (size_t i = 0; i < n; i++) {
        const bh_html_ceil *k = v[i].k;

        bh_strbuf_printf(b, "<text x=\"%.1f\" y=\"%.1f\"%s%s style=\"fill:%s\">", x, v[i].y,
                         strcmp(anchor, "end") == 0 ? " text-anchor=\"end\"" : "",
                         k->n_cases ? " class=\"b\"" : "",
                         k->n_cases ? k->color : "#5f6b7a");
        bh_html_esc(b, k->c.name);
        bh_strbuf_puts(b, "</text>");
    }
}

/* Every ceiling's line and its label. */
static void ceilings(bh_strbuf *b, const bh_html_roofs *r, const plot *p)
{
    label *left = bh_xcalloc(r->n + 1, sizeof(label));
    label *right = bh_xcalloc(r->n + 1, sizeof(label));
    size_t nl = 0, nr = 0;
    double x0 = pow(10, p->x.d0), x1 = pow(10, p->x.d1);

    bh_strbuf_puts(b, "<g clip-path=\"url(#roof-plot)\">");
    for (size_t i = 0; i < r->n; i++) {
        const bh_html_ceil *k = &r->v[i];
        double ax, ay, bx, by;

        if (k->bandwidth) {
            double cap = top_of(r, 0, k->c.at);

            ax = x0;
            ay = x0 * k->c.value;
            bx = cap > 0 ? cap / k->c.value : x1;
            by = cap > 0 ? cap : x1 * k->c.value;
            left[nl++] = (label){k, lp(&p->y, ay) - 3, 0};
        } else if (k->compute) {
            double bw = top_of(r, 1, k->c.at);

            ax = bw > 0 ? fmax(k->c.value / bw, x0) : x0;
            ay = k->c.value;
            bx = x1;
            by = k->c.value;
            right[nr++] = (label){k, lp(&p->y, ay) - 3, 0};
        } else {
            continue;
        }
        bh_strbuf_printf(b,
                         "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
                         "stroke-width=\"%s\"%s>",
                         lp(&p->x, ax), lp(&p->y, ay), lp(&p->x, bx), lp(&p->y, by), k->color,
                         k->n_cases ? "2" : "1.2",
                         k->n_cases ? "" : " stroke-dasharray=\"5 3\"");
        bh_svg_title(b, k->c.name);
        bh_strbuf_puts(b, "</line>");
    }
    bh_strbuf_puts(b, "</g>");
    draw_labels(b, left, nl, L + 4, "start", p);
    draw_labels(b, right, nr, L + PW - 4, "end", p);
    free(left);
    free(right);
}

/* Grid lines and tick labels at whole decades. */
static void grid(bh_strbuf *b, const plot *p)
{
    char lab[48];

    for (double e = ceil(p->x.d0 - 1e-9); e <= p->x.d1 + 1e-9; e++) {
        double x = bh_svg_pos(&p->x, e);

        snprintf(lab, sizeof(lab), "%g", pow(10, e));
        bh_strbuf_printf(b,
                         "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
                         "stroke=\"#e3e7ec\"/>",
                         x, T, x, T + p->h);
        bh_svg_text(b, x, T + p->h + 14, "middle", "m", lab);
    }
    for (double e = ceil(p->y.d0 - 1e-9); e <= p->y.d1 + 1e-9; e++) {
        double y = bh_svg_pos(&p->y, e);

        bh_fmt_rate(pow(10, e), "FLOP/s", lab, sizeof(lab));
        bh_strbuf_printf(b,
                         "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
                         "stroke=\"#e3e7ec\"/>",
                         L, y, L + PW, y);
        bh_svg_text(b, L - 6, y + 4, "end", "m", lab);
    }
    bh_strbuf_printf(b,
                     "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" "
                     "stroke=\"#b0bec5\"/>",
                     L, T, PW, p->h);
    bh_svg_text(b, L + PW / 2, T + p->h + 34, "middle", NULL,
                "arithmetic intensity (FLOP per byte), log scale");
}

/* One case's point: filled, hollow when latency-bound, with a red ring
 * when above its ceiling; *beyond counts points outside the axes. */
static void point(bh_strbuf *b, const bh_rv_case *c, const bh_html_roofs *r, const plot *p,
                  size_t *beyond)
{
    const bh_html_ceil *k = bh_html_roofs_binding(r, c);
    const char *col = k ? k->color : BH_HTML_ROOF_GREY;
    double lx = log10(c->roof.intensity), ly = log10(c->flop_per_s);
    int out = lx < p->x.d0 || lx > p->x.d1 || ly < p->y.d0 || ly > p->y.d1;
    double x = bh_svg_pos(&p->x, fmin(fmax(lx, p->x.d0), p->x.d1));
    double y = bh_svg_pos(&p->y, fmin(fmax(ly, p->y.d0), p->y.d1));
    int latency = strcmp(c->roof.bound, "latency") == 0;
    char frac[200], rate[48], *tip;

    *beyond += out;
    bh_html_roof_fraction_text(r, c, frac, sizeof(frac));
    bh_fmt_rate(c->flop_per_s, "FLOP/s", rate, sizeof(rate));
    tip = bh_xasprintf("%s: %s at %.3g FLOP/B, %s%s%s%s", c->id, rate, c->roof.intensity, frac,
                       out ? " (beyond the axis, drawn at its edge)" : "",
                       c->roof.above == 1 ? "; " : "",
                       c->roof.above == 1 ? BH_ROOF_ABOVE_TEXT : "");
    bh_strbuf_printf(b, "<g class=\"pt%s\">", c->roof.above == 1 ? " above" : "");
    bh_svg_title(b, tip);
    if (c->roof.above == 1)
        bh_strbuf_printf(b,
                         "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"8\" fill=\"none\" stroke=\"%s\" "
                         "stroke-width=\"2.5\"/>",
                         x, y, BH_HTML_ROOF_WARN);
    bh_strbuf_printf(b,
                     "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4.5\" fill=\"%s\" stroke=\"%s\" "
                     "stroke-width=\"%s\"%s/>",
                     x, y, latency ? "#fff" : col, col, latency ? "2" : "0.5",
                     out ? " stroke-dasharray=\"2 1\"" : "");
    bh_strbuf_puts(b, "</g>");
    free(tip);
}

/* See html_roof.h. */
void bh_html_roof_chart(bh_strbuf *b, const bh_result_view *view, const bh_html_roofs *r)
{
    double xlo = INFINITY, xhi = 0, ylo = INFINITY, yhi = 0;
    size_t n = 0, nbw = 0, ncomp = 0, beyond = 0;
    plot p;

    for (size_t i = 0; i < view->n_cases; i++) {
        const bh_rv_case *c = &view->cases[i];

        if (!is_point(c))
            continue;
        xlo = fmin(xlo, c->roof.intensity);
        xhi = fmax(xhi, c->roof.intensity);
        ylo = fmin(ylo, c->flop_per_s);
        yhi = fmax(yhi, c->flop_per_s);
        n++;
    }
    if (n == 0)
        return;
    /* every ceiling's line within the axes: each ridge on x, each peak on y */
    for (size_t i = 0; i < r->n; i++) {
        const bh_html_ceil *k = &r->v[i];
        double other = top_of(r, !k->bandwidth, k->c.at);

        nbw += k->bandwidth;
        ncomp += k->compute;
        if (k->compute) {
            ylo = fmin(ylo, k->c.value);
            yhi = fmax(yhi, k->c.value);
        }
        if (k->bandwidth && other > 0) {
            xlo = fmin(xlo, other / k->c.value);
            xhi = fmax(xhi, other / k->c.value);
        } else if (k->compute && other > 0) {
            xlo = fmin(xlo, k->c.value / other);
            xhi = fmax(xhi, k->c.value / other);
        }
    }
    p.h = fmax(300, LINE_H * (double)(nbw > ncomp ? nbw : ncomp) + 24);
    p.x = log_axis(xlo, xhi, 0.3, L, L + PW);
    /* each bandwidth line enters at the left edge, above the bottom */
    for (size_t i = 0; i < r->n; i++)
        if (r->v[i].bandwidth)
            ylo = fmin(ylo, pow(10, p.x.d0) * r->v[i].c.value);
    p.y = log_axis(ylo, yhi, 0.25, T + p.h, T);
    bh_svg_open(b, L + PW + 16, T + p.h + B, "roofline chart");
    bh_strbuf_printf(b,
                     "<defs><clipPath id=\"roof-plot\"><rect x=\"%.1f\" y=\"%.1f\" "
                     "width=\"%.1f\" height=\"%.1f\"/></clipPath></defs>",
                     L, T, PW, p.h);
    grid(b, &p);
    ceilings(b, r, &p);
    for (size_t i = 0; i < view->n_cases; i++)
        if (is_point(&view->cases[i]))
            point(b, &view->cases[i], r, &p, &beyond);
    bh_strbuf_puts(b, "</svg>\n");
    if (beyond)
        bh_strbuf_printf(b, "<p class=\"warn\">%zu point%s beyond the axis (more than %.0f "
                            "decades apart), drawn dashed at its edge.</p>\n",
                         beyond, beyond == 1 ? "" : "s", MAX_DECADES);
    bh_strbuf_printf(b, "<p class=\"note\">%zu case%s with both FLOP/s and bytes/s are points; "
                        "the bars below give every case's fraction of its ceiling, bytes or "
                        "FLOP alone included.</p>\n",
                     n, n == 1 ? "" : "s");
}
