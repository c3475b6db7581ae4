// SPDX-License-Identifier: MIT
/* The roofline section of the HTML report: the machine's roofs measured
 * in the run, a log-log roofline chart (arithmetic intensity against
 * FLOP/s, the roof min(peak, intensity x bandwidth), one dot per case
 * that has both), and one bar per case with the fraction of its attainable
 * rate it reached, colored by what bounds it. */
#include "html.h"

#include "units.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define W 1120.0
#define LABEL 330.0
#define PLOT 400.0
#define ROW 20.0
#define LABEL_CHARS 48 /* monospace 11px characters in LABEL - 8 pixels */
#define TOP 28.0

/* Blue for memory-bound, orange for compute-bound. */
static const char *bound_color(const char *bound)
{
    return strcmp(bound, "memory") == 0 ? "#1e88e5" : "#fb8c00";
}

/* One bar per case with a roofline: the fraction of its attainable rate. */
static void bars(bh_strbuf *b, const bh_result_view *view)
{
    double top = 1;
    size_t n = 0, k = 0;
    double h;
    bh_svg_axis ax;

    for (size_t i = 0; i < view->n_cases; i++)
        if (isfinite(view->cases[i].roof.fraction)) {
            top = fmax(top, view->cases[i].roof.fraction);
            n++;
        }
    top = fmin(ceil(top * 4 - 1e-9) / 4, 4.0); /* steps of 25%, at most 400% */
    ax = (bh_svg_axis){0, top, LABEL, LABEL + PLOT};
    h = TOP + ROW * (double)n + 8;
    bh_svg_open(b, W, h, "roofline fractions");
    for (double t = 0; t <= top + 1e-9; t += top > 2 ? 0.5 : 0.25) {
        char lab[16];
        double x = bh_svg_pos(&ax, t);

        snprintf(lab, sizeof(lab), "%.0f%%", t * 100);
        bh_strbuf_printf(b,
                         "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"%s/>",
                         x, TOP - 6, x, h - 4, fabs(t - 1) < 1e-9 ? "#37474f" : "#e3e7ec",
                         fabs(t - 1) < 1e-9 ? " stroke-dasharray=\"4 3\"" : "");
        bh_svg_text(b, x, TOP - 10, "middle", "m", lab);
    }
    for (size_t i = 0; i < view->n_cases; i++) {
        const bh_rv_case *r = &view->cases[i];
        double y = TOP + ROW * (double)k;
        double f = r->roof.fraction;
        char att[48], txt[160], clipped[256];

        if (!isfinite(f))
            continue;
        k++;
        bh_fmt_rate(r->roof.attainable, *r->roof.unit ? r->roof.unit : "FLOP/s", att,
                    sizeof(att));
        snprintf(txt, sizeof(txt), "%.1f%% of %s (%s-bound)", f * 100, att,
                 *r->roof.bound ? r->roof.bound : "?");
        bh_strbuf_puts(b, "<g>");
        bh_svg_title(b, txt);
        bh_svg_clip(r->id, LABEL_CHARS, clipped, sizeof(clipped));
        bh_svg_text(b, LABEL - 8, y + ROW / 2 + 4, "end", "c", clipped);
        bh_strbuf_printf(b,
                         "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"11\" fill=\"%s\"/>",
                         LABEL, y + ROW / 2 - 5.5,
                         fmax(bh_svg_pos(&ax, fmin(fmax(f, 0), top)) - LABEL, 1.0),
                         bound_color(r->roof.bound));
        bh_svg_text(b, LABEL + PLOT + 12, y + ROW / 2 + 4, "start", NULL, txt);
        bh_strbuf_puts(b, "</g>\n");
    }
    bh_strbuf_puts(b, "</svg>\n");
}

/* log10 axis position */
static double lx(const bh_svg_axis *a, double v)
{
    return bh_svg_pos(a, log10(v));
}

/* The classic roofline chart, when both roofs and at least one case with
 * an arithmetic intensity exist. */
static void chart(bh_strbuf *b, const bh_result_view *view, double bw, double peak)
{
    const double w = 680, h = 340, l = 96, r = 20, t = 16, bt = 40;
    double amin = 1e300, amax = 0, fmin_ = peak, fmax_ = peak;
    bh_svg_axis ax, ay;
    size_t n = 0;
    double ridge = peak / bw;
    char lab[48];

    for (size_t i = 0; i < view->n_cases; i++) {
        const bh_rv_case *rw = &view->cases[i];
        double ai = rw->roof.intensity;
        double fl = rw->flop_per_s;

        if (!(ai > 0) || !(fl > 0))
            continue;
        amin = fmin(amin, ai);
        amax = fmax(amax, ai);
        fmin_ = fmin(fmin_, fl);
        fmax_ = fmax(fmax_, fl);
        n++;
    }
    if (n == 0)
        return;
    amin = fmin(amin, ridge);
    amax = fmax(amax, ridge);
    ax = (bh_svg_axis){floor(log10(amin)) - 0.5, ceil(log10(amax)) + 0.5, l, w - r};
    ay = (bh_svg_axis){floor(log10(fmin_)) - 0.3, ceil(log10(fmax_)) + 0.3, h - bt, t};
    bh_svg_open(b, w, h, "roofline chart");
    for (double e = ceil(ax.d0); e <= ax.d1; e++) {
        snprintf(lab, sizeof(lab), "%g", pow(10, e));
        bh_strbuf_printf(b,
                         "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
                         "stroke=\"#e3e7ec\"/>",
                         bh_svg_pos(&ax, e), t, bh_svg_pos(&ax, e), h - bt);
        bh_svg_text(b, bh_svg_pos(&ax, e), h - bt + 14, "middle", "m", lab);
    }
    for (double e = ceil(ay.d0); e <= ay.d1; e++) {
        bh_fmt_rate(pow(10, e), "FLOP/s", lab, sizeof(lab));
        bh_strbuf_printf(b,
                         "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
                         "stroke=\"#e3e7ec\"/>",
                         l, bh_svg_pos(&ay, e), w - r, bh_svg_pos(&ay, e));
        bh_svg_text(b, l - 6, bh_svg_pos(&ay, e) + 4, "end", "m", lab);
    }
    bh_svg_text(b, (l + w - r) / 2, h - 6, "middle", NULL,
                "arithmetic intensity (FLOP per byte)");
    /* the roof: bandwidth slope up to the ridge, then flat */
    {
        double a0 = pow(10, ax.d0), a1 = pow(10, ax.d1);
        double y0 = fmax(a0 * bw, pow(10, ay.d0));
        double x0 = y0 / bw;

        bh_strbuf_printf(b,
                         "<polyline fill=\"none\" stroke=\"#37474f\" stroke-width=\"2\" "
                         "points=\"%.1f,%.1f %.1f,%.1f %.1f,%.1f\"/>",
                         lx(&ax, x0), lx(&ay, y0), lx(&ax, ridge), lx(&ay, peak), lx(&ax, a1),
                         lx(&ay, peak));
    }
    for (size_t i = 0; i < view->n_cases; i++) {
        const bh_rv_case *rw = &view->cases[i];
        double ai = rw->roof.intensity;
        double fl = rw->flop_per_s;

        if (!(ai > 0) || !(fl > 0))
            continue;
        bh_strbuf_printf(b, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4.5\" fill=\"%s\" "
                            "fill-opacity=\"0.85\">",
                         lx(&ax, ai), lx(&ay, fl), bound_color(rw->roof.bound));
        bh_svg_title(b, rw->id);
        bh_strbuf_puts(b, "</circle>");
    }
    bh_strbuf_puts(b, "</svg>\n");
}

/* See html.h. */
void bh_report_html_roofline(bh_strbuf *b, const bh_result_view *view)
{
    const bh_rv_roofs *roofs = &view->roofs;
    double bw = roofs->bandwidth_bytes_per_s;
    double peak = roofs->flops_per_s;
    char v[48];

    bh_strbuf_puts(b, "<section id=\"roofline\"><h2>Roofline</h2>\n");
    if (view->n_roofline == 0) {
        bh_strbuf_puts(b, "<p class=\"note\">No roofline: the run measured no roof (the "
                          "tensor plugin's roof.bandwidth and roof.compute benchmarks) or no "
                          "case reported its work per iteration.</p></section>\n");
        return;
    }
    bh_strbuf_puts(b, "<p class=\"note\">Roofs measured in this run:");
    if (isfinite(bw)) {
        bh_fmt_rate(bw, "B/s", v, sizeof(v));
        bh_strbuf_printf(b, " bandwidth %s (", v);
        bh_html_esc(b, roofs->bandwidth_case ? roofs->bandwidth_case : "?");
        bh_strbuf_puts(b, ")");
    }
    if (isfinite(peak)) {
        bh_fmt_rate(peak, "FLOP/s", v, sizeof(v));
        bh_strbuf_printf(b, "%s compute %s (", isfinite(bw) ? ";" : "", v);
        bh_html_esc(b, roofs->flops_case ? roofs->flops_case : "?");
        bh_strbuf_puts(b, ")");
    }
    bh_strbuf_puts(b, ". Blue: memory-bound, orange: compute-bound; the dashed line is the "
                      "attainable rate.</p>\n");
    if (isfinite(bw) && isfinite(peak) && bw > 0 && peak > 0)
        chart(b, view, bw, peak);
    bars(b, view);
    bh_strbuf_puts(b, "</section>\n");
}
