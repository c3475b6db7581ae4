// SPDX-License-Identifier: MIT
/* The roofline section of the HTML report: the ceilings measured in the
 * run (a legend with the colour of each that a case was held against, and
 * the full list), the log-log roofline chart, the bar list of fractions
 * and every case above its ceiling by name (see html_roof.h). */
#include "html_roof.h"

#include "html.h"
#include "report_text.h"
#include "roofline.h"
#include "units.h"

#include "bh_mem.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Colours of the binding ceilings, in the order the run lists them (a
 * palette that stays apart for the common colour blindnesses first). */
static const char *const palette[] = {"#1e88e5", "#fb8c00", "#43a047", "#8e24aa",
                                      "#00acc1", "#6d4c41", "#d81b60", "#3949ab",
                                      "#7cb342", "#f4511e", "#546e7a", "#c0ca33"};
#define N_PALETTE (sizeof(palette) / sizeof(*palette))

/* See html_roof.h. */
const bh_html_ceil *bh_html_roofs_find(const bh_html_roofs *r, const char *name)
{
    for (size_t i = 0; name && i < r->n; i++)
        if (strcmp(r->v[i].c.name, name) == 0)
            return &r->v[i];
    return NULL;
}

/* See html_roof.h. */
const bh_html_ceil *bh_html_roofs_binding(const bh_html_roofs *r, const bh_rv_case *c)
{
    const char *mname = c->roof.memory_ceiling, *cname = c->roof.compute_ceiling;
    const bh_html_ceil *mem, *peak;

    if (!isfinite(c->roof.fraction))
        return NULL;
    if (!mname && !cname) {
        /* a document from before ceiling names: the two stand-ins */
        if (isfinite(c->roof.intensity) || strcmp(c->roof.unit, "FLOP/s") == 0)
            cname = "f32";
        if (isfinite(c->roof.intensity) || strcmp(c->roof.unit, "FLOP/s") != 0)
            mname = "DRAM read-write";
    }
    mem = bh_html_roofs_find(r, mname);
    peak = bh_html_roofs_find(r, cname);
    if (mem && peak && isfinite(c->roof.intensity))
        return c->roof.intensity * mem->c.value < peak->c.value ? mem : peak;
    return peak && strcmp(c->roof.unit, "FLOP/s") == 0 ? peak : mem ? mem : peak;
}

/* See html_roof.h. */
void bh_html_roof_fraction_text(const bh_html_roofs *r, const bh_rv_case *c, char *buf,
                                size_t cap)
{
    const bh_html_ceil *k = bh_html_roofs_binding(r, c);
    const char *bound = *c->roof.bound ? c->roof.bound : "?";

    snprintf(buf, cap, "%.1f%% of %s (%s-bound)", c->roof.fraction * 100,
             k ? k->c.name : "its ceiling", bound);
}

/* Adds the stand-in ceiling of a document without roofs.ceilings. */
static void add_standin(bh_html_roofs *r, size_t *cap, const char *name, int bw, double v,
                        const char *case_id)
{
    bh_html_ceil k;

    memset(&k, 0, sizeof(k));
    k.c.name = name;
    k.c.kind = bw ? "bandwidth" : "compute";
    k.c.level = bw ? "DRAM" : NULL;
    k.c.access = bw ? "read-write" : NULL;
    k.c.compute = bw ? NULL : "f32";
    k.c.unit = bw ? "B/s" : "FLOP/s";
    k.c.case_id = case_id;
    k.c.threads = NAN;
    k.c.value = v;
    BH_PUSH(r->v, r->n, *cap, k);
}

/* See html_roof.h. */
void bh_html_roofs_load(const bh_result_view *view, bh_html_roofs *r)
{
    const bh_rv_roofs *roofs = &view->roofs;
    size_t cap = 0, used = 0;

    memset(r, 0, sizeof(*r));
    for (size_t i = 0; i < roofs->n_ceilings; i++) {
        bh_html_ceil k;

        memset(&k, 0, sizeof(k));
        k.c = bh_rv_roofs_ceiling(roofs, i);
        BH_PUSH(r->v, r->n, cap, k);
    }
    if (roofs->n_ceilings == 0 && roofs->bandwidth_bytes_per_s > 0)
        add_standin(r, &cap, "DRAM read-write", 1, roofs->bandwidth_bytes_per_s,
                    roofs->bandwidth_case);
    if (roofs->n_ceilings == 0 && roofs->flops_per_s > 0)
        add_standin(r, &cap, "f32", 0, roofs->flops_per_s, roofs->flops_case);
    for (size_t i = 0; i < r->n; i++) {
        bh_html_ceil *k = &r->v[i];

        k->bandwidth = strcmp(k->c.kind, "bandwidth") == 0 && k->c.value > 0;
        k->compute = strcmp(k->c.kind, "compute") == 0 && k->c.value > 0;
        k->color = BH_HTML_ROOF_GREY;
    }
    for (size_t i = 0; i < view->n_cases; i++) {
        const bh_html_ceil *k = bh_html_roofs_binding(r, &view->cases[i]);

        if (k)
            r->v[k - r->v].n_cases++;
    }
    for (size_t i = 0; i < r->n; i++)
        if (r->v[i].n_cases > 0) {
            r->v[i].color = palette[used++ % N_PALETTE];
            r->n_binding++;
        }
}

/* See html_roof.h. */
void bh_html_roofs_free(bh_html_roofs *r)
{
    free(r->v);
    memset(r, 0, sizeof(*r));
}

/* The value of a ceiling in its unit ("52.1 GB/s", "1.20 us per call"). */
static void ceiling_value(const bh_rv_ceiling *c, char *buf, size_t cap)
{
    if (strcmp(c->unit, "ns") == 0) {
        bh_fmt_time(c->value, buf, cap);
        strncat(buf, " per call", cap - strlen(buf) - 1);
    } else {
        bh_fmt_rate(c->value, c->unit, buf, cap);
    }
}

/* The legend: a swatch per ceiling some case was held against, and the
 * point and bar styles. */
static void legend(bh_strbuf *b, const bh_html_roofs *r)
{
    bh_strbuf_puts(b, "<p class=\"legend\">");
    for (size_t i = 0; i < r->n; i++) {
        const bh_html_ceil *k = &r->v[i];
        char v[48];

        if (k->n_cases == 0)
            continue;
        ceiling_value(&k->c, v, sizeof(v));
        bh_strbuf_printf(b, "<span><i style=\"background:%s\"></i>", k->color);
        bh_html_esc(b, k->c.name);
        bh_strbuf_printf(b, " <span class=\"note\">%s, %zu case%s</span></span>", v, k->n_cases,
                         k->n_cases == 1 ? "" : "s");
    }
    bh_strbuf_printf(b, "<span><i class=\"hollow\"></i>latency-bound</span>"
                        "<span><i class=\"ring\" style=\"border-color:%s\"></i>above its "
                        "ceiling</span></p>\n",
                     BH_HTML_ROOF_WARN);
}

/* Every ceiling of the run in a collapsed table. */
static void ceiling_table(bh_strbuf *b, const bh_html_roofs *r)
{
    bh_strbuf_printf(b, "<details><summary>All %zu ceilings measured in this run</summary>"
                        "<table><thead><tr><th>ceiling</th><th>kind</th><th>value</th>"
                        "<th>cases held against it</th><th>measured by</th></tr></thead>"
                        "<tbody>\n",
                     r->n);
    for (size_t i = 0; i < r->n; i++) {
        const bh_html_ceil *k = &r->v[i];
        char v[48];

        ceiling_value(&k->c, v, sizeof(v));
        bh_strbuf_printf(b, "<tr><td><i class=\"sw\" style=\"background:%s\"></i>", k->color);
        bh_html_esc(b, k->c.name);
        bh_strbuf_puts(b, "</td><td>");
        bh_html_esc(b, k->c.kind);
        bh_strbuf_printf(b, "</td><td class=\"n\">%s</td><td class=\"n\">%zu</td>"
                            "<td class=\"id\">",
                         v, k->n_cases);
        bh_html_esc(b, bh_report_str_or(k->c.case_id, "-"));
        bh_strbuf_puts(b, "</td></tr>\n");
    }
    bh_strbuf_puts(b, "</tbody></table></details>\n");
}

/* The cases above their ceiling, each by name with the warning. */
static void above_list(bh_strbuf *b, const bh_result_view *view, const bh_html_roofs *r)
{
    size_t n = 0;

    for (size_t i = 0; i < view->n_cases; i++)
        n += view->cases[i].roof.above == 1;
    if (n == 0)
        return;
    bh_strbuf_printf(b, "<ul class=\"warn\" id=\"roof-above\">");
    for (size_t i = 0; i < view->n_cases; i++) {
        const bh_rv_case *c = &view->cases[i];
        char txt[200];

        if (c->roof.above != 1)
            continue;
        bh_html_roof_fraction_text(r, c, txt, sizeof(txt));
        bh_strbuf_puts(b, "<li><span class=\"id\">");
        bh_html_esc(b, c->id);
        bh_strbuf_puts(b, "</span>: ");
        bh_html_esc(b, txt);
        bh_strbuf_puts(b, ", " BH_ROOF_ABOVE_TEXT "</li>\n");
    }
    bh_strbuf_puts(b, "</ul>\n");
}

/* See html.h. */
void bh_report_html_roofline(bh_strbuf *b, const bh_result_view *view)
{
    bh_html_roofs r;
    size_t n_above = 0;

    bh_strbuf_puts(b, "<section id=\"roofline\"><h2>Roofline</h2>\n");
    if (view->n_roofline == 0) {
        bh_strbuf_puts(b, "<p class=\"note\">No roofline: the run measured no ceiling (the "
                          "roof plugin's bw and peak benchmarks, or tensor's roof.bandwidth "
                          "and roof.compute) or no case reported its work per "
                          "iteration.</p></section>\n");
        return;
    }
    bh_html_roofs_load(view, &r);
    for (size_t i = 0; i < view->n_cases; i++)
        n_above += view->cases[i].roof.above == 1;
    bh_strbuf_printf(b, "<p class=\"note\">%zu ceilings measured in this run; each case is "
                        "held against the ones that match its working set, access, "
                        "arithmetic type and threads. Colours: the ceiling that sets a case's "
                        "attainable rate (grey lines: ceilings no case was held "
                        "against).</p>\n",
                     r.n);
    if (n_above)
        bh_strbuf_printf(b, "<p class=\"warn\">%zu case%s above %s ceiling: check the "
                            "bytes/FLOP accounting or the ceiling (listed below).</p>\n",
                         n_above, n_above == 1 ? "" : "s", n_above == 1 ? "its" : "their");
    legend(b, &r);
    bh_html_roof_chart(b, view, &r);
    bh_html_roof_bars(b, view, &r);
    above_list(b, view, &r);
    ceiling_table(b, &r);
    bh_strbuf_puts(b, "</section>\n");
    bh_html_roofs_free(&r);
}
