// SPDX-License-Identifier: MIT
/* SVG helpers shared by the HTML report's charts (see html.h). */
#include "html.h"

#include "report_text.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* See html.h. */
void bh_html_esc(bh_strbuf *b, const char *s)
{
    bh_report_xml_escape(b, s);
}

/* See html.h. */
double bh_svg_pos(const bh_svg_axis *a, double v)
{
    if (a->d1 == a->d0)
        return 0.5 * (a->p0 + a->p1);
    return a->p0 + (v - a->d0) / (a->d1 - a->d0) * (a->p1 - a->p0);
}

/* See html.h. */
double bh_svg_nice_ceil(double v, double least)
{
    double e;
    double m;

    if (!(v > least))
        v = least;
    if (!isfinite(v) || v <= 0)
        return 1;
    e = pow(10, floor(log10(v)));
    m = v / e;
    if (m <= 1 + 1e-9)
        return e;
    if (m <= 2 + 1e-9)
        return 2 * e;
    if (m <= 5 + 1e-9)
        return 5 * e;
    return 10 * e;
}

/* See html.h. */
void bh_svg_open(bh_strbuf *b, double w, double h, const char *label)
{
    bh_strbuf_printf(b,
                     "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
                     "viewBox=\"0 0 %.0f %.0f\" role=\"img\" aria-label=\"",
                     w, h, w, h);
    bh_html_esc(b, label);
    bh_strbuf_puts(b, "\">");
}

/* See html.h. */
void bh_svg_clip(const char *s, size_t max, char *buf, size_t cap)
{
    size_t chars = 0, cut = 0;

    for (const char *p = s; *p; p++) {
        if (((unsigned char)*p & 0xc0) != 0x80) {
            if (chars == max - 1)
                cut = (size_t)(p - s);
            chars++;
        }
    }
    if (chars <= max || max < 2) {
        snprintf(buf, cap, "%s", s);
        return;
    }
    snprintf(buf, cap, "%.*s\xe2\x80\xa6", (int)cut, s);
}

/* See html.h. */
void bh_svg_text(bh_strbuf *b, double x, double y, const char *anchor, const char *cls,
                 const char *text)
{
    bh_strbuf_printf(b, "<text x=\"%.1f\" y=\"%.1f\"", x, y);
    if (strcmp(anchor, "start") != 0)
        bh_strbuf_printf(b, " text-anchor=\"%s\"", anchor);
    if (cls)
        bh_strbuf_printf(b, " class=\"%s\"", cls);
    bh_strbuf_puts(b, ">");
    bh_html_esc(b, text);
    bh_strbuf_puts(b, "</text>");
}

/* See html.h. */
void bh_svg_title(bh_strbuf *b, const char *text)
{
    bh_strbuf_puts(b, "<title>");
    bh_html_esc(b, text);
    bh_strbuf_puts(b, "</title>");
}

/* See html.h. */
const char *bh_svg_verdict_color(const char *verdict, const char *severity)
{
    static const char *const colors[] = {
        "#c62828", /* critical */
        "#ef6c00", /* warning */
        "#f9a825", /* minor */
        "#2e7d32", /* improved */
        "#9e9e9e", /* inconclusive */
        "#5c6bc0", /* new */
        "#5c6bc0", /* missing */
        "#78909c", /* within noise */
        "#90a4ae", /* no change */
        "#8e24aa", /* noisier */
        "#b0bec5", /* none */
    };

    return colors[bh_rv_verdict_rank(verdict, severity)];
}
