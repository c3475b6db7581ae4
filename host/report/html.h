// SPDX-License-Identifier: MIT
/* Internal to the HTML report: the sections (one file each) and the SVG
 * helpers they share. Every section appends well-formed HTML with all
 * document text escaped, and inline SVG only: no external resources, and
 * no script but the one of html_script.c (allowed by its hash). */
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

/* s shortened to at most max characters for a chart label: its start
 * and an ellipsis, never its middle cut out (the end of an id holds the
 * parameters and device that tell rows apart, so labels come from
 * bh_html_labels first); whole when it fits. */
void bh_svg_clip(const char *s, size_t max, char *buf, size_t cap);

/* The longest chart label drawn whole, in characters. */
#define BH_HTML_LABEL_MAX 110

/* Chart labels of the case ids ids[0..n) of one chart: each id without
 * the parameters ("k=v") that all n ids share (no empty "[]"), and without
 * the "plugin/benchmark" group when drop_group is set and all share it;
 * with one id, the id. Labels of distinct ids stay distinct unless they
 * differ only in parameter order. Returns n new strings (free with
 * bh_html_labels_free). */
char **bh_html_labels(const char *const *ids, size_t n, int drop_group);
void bh_html_labels_free(char **labels, size_t n);

/* The characters (UTF-8 code points) of s. */
size_t bh_html_text_chars(const char *s);

/* The width in pixels of a label column for labels[0..n) in the charts'
 * 11px monospace (right-aligned, 8px from the plot), at most
 * BH_HTML_LABEL_MAX characters. */
double bh_html_label_px(char *const *labels, size_t n);

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

/* The profiles section (bhost run --profile), when a case has a
 * "profile": its tool, region and file, and its flame graph SVG read from
 * base_dir (NULL: the current folder) and embedded inline when it is an
 * inert SVG; a line saying why not otherwise. Nothing without profiles. */
void bh_report_html_profiles(bh_strbuf *b, const bh_result_view *view, const char *base_dir);

/* The summary section: a table of every case (status with the reason
 * when not ok, median, CI, CV, throughput, roofline, verdict) with the
 * controls the report's script uses to filter and sort it. */
void bh_report_html_summary(bh_strbuf *b, const bh_result_view *view);
/* The Ratios section (html_ratios.c): one row per entry of doc.ratios;
 * nothing when the document has none. */
void bh_report_html_ratios(bh_strbuf *out, const cJSON *doc);

/* The report's one inline script (sorting and filtering the summary
 * table; the page works without it), static text. */
const char *bh_html_script(void);

/* The Content-Security-Policy source of that script, "sha256-" not
 * included: the base64 SHA-256 of its text (44 characters and a NUL). */
#define BH_HTML_HASH_LEN 45
void bh_html_script_hash(char out[BH_HTML_HASH_LEN]);

/* Escapes s into b (HTML text and attribute values alike). */
void bh_html_esc(bh_strbuf *b, const char *s);

#endif
