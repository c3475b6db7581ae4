// SPDX-License-Identifier: MIT
/* Internal to the HTML report: the sections (one file each) and the SVG
 * helpers they share. Every section appends well-formed HTML with all
 * document text escaped, and inline SVG only: no scripts, no external
 * resources. */
#ifndef BH_REPORT_HTML_H
#define BH_REPORT_HTML_H

#include "bh_strbuf.h"
#include "report.h"
#include "result_view.h"

#include <cjson/cJSON.h>

/* A linear map from data [d0, d1] to pixels [p0, p1]. */
typedef struct bh_svg_axis {
    double d0, d1, p0, p1;
} bh_svg_axis;

/* The pixel of v on a (not clamped). */
double bh_svg_pos(const bh_svg_axis *a, double v);

/* The smallest of 1, 2, 5 x 10^k that is >= max(v, least) (least > 0). */
double bh_svg_nice_ceil(double v, double least);

/* Opens an <svg> of w x h pixels with role="img" and an escaped
 * aria-label; close it with "</svg>". */
void bh_svg_open(bh_strbuf *b, double w, double h, const char *label);

/* <text> at (x, y) with anchor "start", "middle" or "end", an optional
 * class (NULL for none) and escaped content. */
void bh_svg_text(bh_strbuf *b, double x, double y, const char *anchor, const char *cls,
                 const char *text);

/* s shortened to at most max bytes for a chart label: its start, an
 * ellipsis and its end (the part that tells cases apart); whole when it
 * fits. */
void bh_svg_clip(const char *s, size_t max, char *buf, size_t cap);

/* <title> with escaped content (a native tooltip). */
void bh_svg_title(bh_strbuf *b, const char *text);

/* A CSS fill color for a verdict (see bh_rv_verdict_rank). */
const char *bh_svg_verdict_color(const char *verdict, const char *severity);

/* The sections, each from the view of the document (never NULL, though
 * it may hold no case). */
void bh_report_html_changes(bh_strbuf *b, const bh_result_view *view);
void bh_report_html_dist(bh_strbuf *b, const bh_result_view *view);
void bh_report_html_roofline(bh_strbuf *b, const bh_result_view *view);
void bh_report_html_backends(bh_strbuf *b, const bh_result_view *view);
void bh_report_html_history(bh_strbuf *b, const cJSON *doc, const bh_report_history *h);

/* Escapes s into b (HTML text and attribute values alike). */
void bh_html_esc(bh_strbuf *b, const char *s);

#endif
