// SPDX-License-Identifier: MIT
/* Internal to the HTML report's roofline section (html_roof.c, the chart
 * in html_roof_chart.c, the bar list in html_roof_bars.c): the run's
 * ceilings as the section draws them, each with a colour, and which of
 * them each case was held against (docs/results-schema.md, "roofline and
 * roofs"). */
#ifndef BH_REPORT_HTML_ROOF_H
#define BH_REPORT_HTML_ROOF_H

#include "bh_strbuf.h"
#include "result_view.h"

#include <stddef.h>

/* One ceiling of the run. */
typedef struct bh_html_ceil {
    bh_rv_ceiling c;   /* borrowed from the document (or a stand-in, below) */
    int bandwidth;     /* kind "bandwidth" (B/s), else 0 */
    int compute;       /* kind "compute" (FLOP/s), else 0 */
    const char *color; /* its line, points and bars; grey when no case binds */
    size_t n_cases;    /* cases whose binding ceiling it is */
} bh_html_ceil;

/* Every ceiling of the run. A document from before roofs.ceilings (only
 * roofs.bandwidth_bytes_per_s and roofs.flops_per_s) gets the two as the
 * stand-ins "DRAM read-write" and "f32", which is what they were. */
typedef struct bh_html_roofs {
    bh_html_ceil *v; /* owned */
    size_t n;
    size_t n_binding; /* ceilings with n_cases > 0 */
} bh_html_roofs;

/* Reads the ceilings of view and counts the cases bound by each. Free
 * with bh_html_roofs_free; borrows from the view. */
void bh_html_roofs_load(const bh_result_view *view, bh_html_roofs *r);
void bh_html_roofs_free(bh_html_roofs *r);

/* The ceiling by name, or NULL. */
const bh_html_ceil *bh_html_roofs_find(const bh_html_roofs *r, const char *name);

/* The ceiling that sets the attainable rate of case c (its roofline): the
 * memory ceiling when intensity x bandwidth is under the compute ceiling
 * or the case has bytes alone, else the compute ceiling; NULL when c has
 * no roofline or names no ceiling the run lists. */
const bh_html_ceil *bh_html_roofs_binding(const bh_html_roofs *r, const bh_rv_case *c);

/* "73.4% of L2 read x1 (memory-bound)": the fraction of case c's binding
 * ceiling, into buf. */
void bh_html_roof_fraction_text(const bh_html_roofs *r, const bh_rv_case *c, char *buf,
                                size_t cap);

/* The log-log chart (arithmetic intensity against FLOP/s): every
 * bandwidth ceiling a sloped line, every compute ceiling a flat one, each
 * labelled with its name, one point per case with both rates, coloured by
 * its binding ceiling. Nothing when no case has an intensity. */
void bh_html_roof_chart(bh_strbuf *b, const bh_result_view *view, const bh_html_roofs *r);

/* One bar per case with a roofline fraction: the fraction of its binding
 * ceiling, with the ceiling's name. */
void bh_html_roof_bars(bh_strbuf *b, const bh_result_view *view, const bh_html_roofs *r);

/* The grey of ceilings and bars no case binds to. */
#define BH_HTML_ROOF_GREY "#90a4ae"
/* The red of a fraction above its ceiling. */
#define BH_HTML_ROOF_WARN "#c62828"

#endif
