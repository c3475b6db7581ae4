// SPDX-License-Identifier: MIT
/* Scaling curves (doc.scaling, host/pipeline/scaling_build.c,
 * docs/scaling.md) in every report format: one table row per point of a
 * curve, in the same words everywhere, and the HTML charts. The console
 * printer is the only function that writes to a stream. */
#ifndef BH_REPORT_SCALING_H
#define BH_REPORT_SCALING_H

#include "bh_strbuf.h"

#include <cjson/cJSON.h>
#include <stdio.h>

/* The cells of one point p of curve c, as text: the axis value, the
 * median time (and the rate in throughput mode), the speedup and the
 * efficiency each with its interval, and the flag: "LOW" under the
 * threshold, "gap: STATUS: why" for a point without a figure, else "". */
typedef struct bh_scaling_cells {
    char value[32];
    char median[64];
    char speedup[24], speedup_ci[48];
    char efficiency[24], efficiency_ci[48];
    char flag[200];
} bh_scaling_cells;

void bh_report_scaling_cells(const cJSON *c, const cJSON *p, bh_scaling_cells *out);

/* The heading of curve c in words: "NAME: AXIS, MODE scaling, min
 * efficiency 0.80 (base AXIS=P0)", with the reason when unavailable. */
void bh_report_scaling_title(const cJSON *c, char *buf, size_t cap);

/* Prints doc.scaling to out: a "scaling" heading, then per curve its
 * title and a small table (axis value, median, speedup, efficiency,
 * flag). Nothing when the document has no curve. */
void bh_report_console_scaling(FILE *out, const cJSON *doc);

/* The "### Scaling" section of the Markdown report: per curve its title
 * and a table; nothing without curves. */
void bh_report_markdown_scaling(const cJSON *doc, bh_strbuf *out);

/* The "Scaling" section of the HTML report (id "scaling", html_scaling.c):
 * per curve two inline SVG charts, speedup against the ideal and
 * efficiency against the threshold line, gaps where a point has no
 * figure, and the table; nothing without curves. */
void bh_report_html_scaling(bh_strbuf *out, const cJSON *doc);

#endif
