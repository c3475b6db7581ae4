// SPDX-License-Identifier: MIT
/* The HTML report's Scaling section (report_scaling.h): per curve of
 * doc.scaling two inline SVG charts over the axis (log scale): the
 * measured speedup with its intervals against the ideal p / p0, and the
 * efficiency against the threshold line; a point without a figure is a
 * gap in the line and a cross on the axis. Then the curve's table. */
#include "html.h"
#include "report_scaling.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define CHART_W 380.0
#define CHART_H 230.0
#define LEFT    52.0
#define RIGHT   14.0
#define TOP     24.0
#define BOTTOM  40.0

/* The number key of o, NAN when absent or null. */
static double num(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

    return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

/* What one chart draws: the figure's keys and its reference. */
typedef struct chart_kind {
    const char *key, *lo, *hi; /* "speedup", "speedup_lo", ... */
    const char *label;         /* the y axis */
    int efficiency;            /* reference: the threshold line, else the
                                  ideal p / p0 */
} chart_kind;

/* The axes of curve c for kind k: x over log(value), y from 0. */
static void axes(const cJSON *c, const chart_kind *k, bh_svg_axis *x, bh_svg_axis *y)
{
    const cJSON *p;
    double lo = INFINITY, hi = -INFINITY, top = 1.0;

    cJSON_ArrayForEach(p, cJSON_GetObjectItemCaseSensitive(c, "points")) {
        double v = log(num(p, "value")), f = num(p, k->hi);

        lo = v < lo ? v : lo;
        hi = v > hi ? v : hi;
        if (isfinite(f) && f > top)
            top = f;
        if (!k->efficiency && isfinite(num(p, "ideal_speedup")) && num(p, "ideal_speedup") > top)
            top = num(p, "ideal_speedup");
    }
    x->d0 = lo;
    x->d1 = hi;
    x->p0 = LEFT + 12;
    x->p1 = CHART_W - RIGHT - 12;
    y->d0 = 0;
    y->d1 = k->efficiency && top * 1.05 <= 1.2 ? 1.2 : bh_svg_nice_ceil(top * 1.05, 1);
    y->p0 = CHART_H - BOTTOM;
    y->p1 = TOP;
}

/* The frame: y ticks at 0, half and top, x ticks at every axis value. */
static void frame(bh_strbuf *b, const cJSON *c, const chart_kind *k, const bh_svg_axis *x,
                  const bh_svg_axis *y)
{
    const cJSON *p;
    char t[48];

    for (int i = 0; i <= 2; i++) {
        double v = y->d1 * i / 2, py = bh_svg_pos(y, v);

        bh_strbuf_printf(b,
                         "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>",
                         LEFT, py, CHART_W - RIGHT, py);
        snprintf(t, sizeof(t), "%g", v);
        bh_svg_text(b, LEFT - 4, py + 4, "end", "tick", t);
    }
    cJSON_ArrayForEach(p, cJSON_GetObjectItemCaseSensitive(c, "points")) {
        snprintf(t, sizeof(t), "%g", num(p, "value"));
        bh_svg_text(b, bh_svg_pos(x, log(num(p, "value"))), CHART_H - BOTTOM + 14, "middle", "tick",
                    t);
    }
    bh_svg_text(b, (LEFT + CHART_W - RIGHT) / 2, CHART_H - 6, "middle", "tick",
                cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(c, "axis")));
    bh_svg_text(b, 4, 11, "start", "tick", k->label);
}

/* The reference line: the threshold (efficiency) or the ideal. */
static void reference(bh_strbuf *b, const cJSON *c, const chart_kind *k, const bh_svg_axis *x,
                      const bh_svg_axis *y)
{
    const cJSON *p;
    const char *sep = "";

    if (k->efficiency) {
        double py = bh_svg_pos(y, num(c, "min_efficiency"));

        bh_strbuf_printf(b,
                         "<line class=\"threshold\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
                         "y2=\"%.1f\" stroke=\"#c62828\" stroke-dasharray=\"5 3\"><title>min "
                         "efficiency %.2f</title></line>",
                         LEFT, py, CHART_W - RIGHT, py, num(c, "min_efficiency"));
        return;
    }
    bh_strbuf_puts(b, "<polyline class=\"ideal\" fill=\"none\" stroke=\"#9e9e9e\" "
                      "stroke-dasharray=\"5 3\" points=\"");
    cJSON_ArrayForEach(p, cJSON_GetObjectItemCaseSensitive(c, "points")) {
        if (!isfinite(num(p, "ideal_speedup")))
            continue;
        bh_strbuf_printf(b, "%s%.1f,%.1f", sep, bh_svg_pos(x, log(num(p, "value"))),
                         bh_svg_pos(y, num(p, "ideal_speedup")));
        sep = " ";
    }
    bh_strbuf_puts(b, "\"><title>ideal</title></polyline>");
}

/* The measured line, broken at gaps. */
static void line(bh_strbuf *b, const cJSON *c, const chart_kind *k, const bh_svg_axis *x,
                 const bh_svg_axis *y)
{
    const cJSON *p;
    int open = 0;

    cJSON_ArrayForEach(p, cJSON_GetObjectItemCaseSensitive(c, "points")) {
        double px = bh_svg_pos(x, log(num(p, "value"))), f = num(p, k->key);

        if (!isfinite(f)) {
            bh_strbuf_puts(b, open ? "\"/>" : "");
            open = 0;
            continue;
        }
        bh_strbuf_printf(b, "%s%.1f,%.1f",
                         open ? " "
                              : "<polyline class=\"measured\" "
                                "fill=\"none\" stroke=\"#1565c0\" stroke-width=\"2\" points=\"",
                         px, bh_svg_pos(y, f));
        open = 1;
    }
    bh_strbuf_puts(b, open ? "\"/>" : "");
}

/* Point p's mark: a dot (red when flagged) with its interval, or a cross
 * on the axis for a gap, each with a tooltip. */
static void mark(bh_strbuf *b, const cJSON *p, const chart_kind *k, const bh_svg_axis *x,
                 const bh_svg_axis *y)
{
    double px = bh_svg_pos(x, log(num(p, "value"))), f = num(p, k->key);
    int low = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(p, "below_threshold"));
    const char *st = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(p, "status"));
    char tip[200];

    if (!isfinite(f)) {
        snprintf(tip, sizeof(tip), "%g: gap (%s)", num(p, "value"), st ? st : "no time");
        bh_strbuf_printf(b,
                         "<text class=\"gap\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" "
                         "style=\"fill:#c62828\">&#215;",
                         px, y->p0 - 3);
        bh_svg_title(b, tip);
        bh_strbuf_puts(b, "</text>");
        return;
    }
    bh_strbuf_printf(b,
                     "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
                     "stroke=\"#1565c0\"/><circle class=\"point\" cx=\"%.1f\" cy=\"%.1f\" "
                     "r=\"3.5\" fill=\"%s\">",
                     px, bh_svg_pos(y, num(p, k->lo)), px, bh_svg_pos(y, num(p, k->hi)), px,
                     bh_svg_pos(y, f), low ? "#c62828" : "#1565c0");
    snprintf(tip, sizeof(tip), "%g: %s %.3f [%.3f, %.3f]%s", num(p, "value"), k->key, f,
             num(p, k->lo), num(p, k->hi), low ? ", below min efficiency" : "");
    bh_svg_title(b, tip);
    bh_strbuf_puts(b, "</circle>");
}

/* One chart of curve c. */
static void chart(bh_strbuf *b, const cJSON *c, const chart_kind *k, const char *title)
{
    const cJSON *p;
    bh_svg_axis x, y;
    char label[700];

    axes(c, k, &x, &y);
    snprintf(label, sizeof(label), "%s of %s", k->key, title);
    bh_svg_open(b, CHART_W, CHART_H, label);
    frame(b, c, k, &x, &y);
    reference(b, c, k, &x, &y);
    line(b, c, k, &x, &y);
    cJSON_ArrayForEach(p, cJSON_GetObjectItemCaseSensitive(c, "points"))
        mark(b, p, k, &x, &y);
    bh_strbuf_puts(b, "</svg>");
}

/* The table of curve c. */
static void table(bh_strbuf *b, const cJSON *c)
{
    const cJSON *p;

    bh_strbuf_puts(b, "<table><thead><tr><th>");
    bh_html_esc(b, cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(c, "axis")));
    bh_strbuf_puts(b, "</th><th>median</th><th>speedup</th><th>95% CI</th><th>efficiency</th>"
                      "<th>95% CI</th><th>flag</th></tr></thead><tbody>\n");
    cJSON_ArrayForEach(p, cJSON_GetObjectItemCaseSensitive(c, "points")) {
        bh_scaling_cells k;
        const char *cells[7];

        bh_report_scaling_cells(c, p, &k);
        cells[0] = k.value, cells[1] = k.median, cells[2] = k.speedup;
        cells[3] = k.speedup_ci, cells[4] = k.efficiency, cells[5] = k.efficiency_ci;
        cells[6] = k.flag;
        bh_strbuf_puts(b, "<tr>");
        for (int i = 0; i < 7; i++) {
            bh_strbuf_puts(b, i < 6                        ? "<td class=\"n\">"
                              : strcmp(k.flag, "LOW") == 0 ? "<td class=\"bad\">"
                                                           : "<td>");
            bh_html_esc(b, cells[i]);
            bh_strbuf_puts(b, "</td>");
        }
        bh_strbuf_puts(b, "</tr>\n");
    }
    bh_strbuf_puts(b, "</tbody></table>\n");
}

void bh_report_html_scaling(bh_strbuf *out, const cJSON *doc)
{
    static const chart_kind speedup = {"speedup", "speedup_lo", "speedup_hi", "speedup", 0};
    static const chart_kind efficiency = {"efficiency", "efficiency_lo", "efficiency_hi",
                                          "efficiency", 1};
    const cJSON *list = cJSON_GetObjectItemCaseSensitive(doc, "scaling"), *c;
    char title[600];

    if (cJSON_GetArraySize(list) == 0)
        return;
    bh_strbuf_puts(out, "<section id=\"scaling\"><h2>Scaling</h2><p>Speedup against the ideal "
                        "(dashed) and parallel efficiency against the curve's minimum (red "
                        "dashed), from the smallest axis value with a time; bars are 95% "
                        "bootstrap intervals, a cross marks a point without a time.</p>\n");
    cJSON_ArrayForEach(c, list) {
        bh_report_scaling_title(c, title, sizeof(title));
        bh_strbuf_puts(out, "<div class=\"scaling-curve\"><h3>");
        bh_html_esc(out, title);
        bh_strbuf_puts(out, "</h3>\n");
        if (cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(c, "points")) > 0) {
            bh_strbuf_puts(out, "<div class=\"charts\">");
            chart(out, c, &speedup, title);
            chart(out, c, &efficiency, title);
            bh_strbuf_puts(out, "</div>");
        }
        bh_strbuf_puts(out, "\n");
        table(out, c);
        bh_strbuf_puts(out, "</div>\n");
    }
    bh_strbuf_puts(out, "</section>\n");
}
