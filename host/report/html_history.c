// SPDX-License-Identifier: MIT
/* The history section of the HTML report: per case of the result, the
 * trend of its median time per iteration over the results folder given
 * with --history (oldest to newest), the change points the history module
 * found (dashed lines, with the segment medians either side) and the
 * newest-value prediction interval (the band at the last point, red when
 * the newest value falls outside). */
#include "html.h"

#include "units.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define CW 420.0
#define CH 150.0
#define CL 64.0
#define CR 12.0
#define CT 10.0
#define CB 26.0

/* The date and time to the minute of an ISO time, in its own zone
 * ("2026-11-22 02:15Z"; runs a day apart and runs minutes apart both
 * read). */
static void date_of(const char *iso, char *buf, size_t cap)
{
    const char *s = iso ? iso : "";
    size_t n = strlen(s);

    if (n >= 16 && s[10] == 'T')
        snprintf(buf, cap, "%.10s %.5s%s", s, s + 11, s[n - 1] == 'Z' ? "Z" : "");
    else
        snprintf(buf, cap, "%s", s);
}

/* The trend chart of one series: points, change points with their segment
 * medians, and the newest-value interval. */
static void chart(bh_strbuf *b, const bh_report_history *h, const bh_history_result *res)
{
    const bh_history_series *s = res->series;
    double lo = INFINITY, hi = -INFINITY;
    bh_svg_axis ax, ay;
    char lab[48], d0[40], d1[40], sub[160];

    for (size_t i = 0; i < s->n; i++) {
        lo = fmin(lo, s->pts[i].value);
        hi = fmax(hi, s->pts[i].value);
    }
    if (res->newest.status != BH_HISTORY_PI_NONE && isfinite(res->newest.lo) &&
        isfinite(res->newest.hi)) {
        lo = fmin(lo, res->newest.lo);
        hi = fmax(hi, res->newest.hi);
    }
    if (hi <= lo) {
        lo *= 0.95;
        hi *= 1.05;
    }
    ax = (bh_svg_axis){0, s->n > 1 ? (double)(s->n - 1) : 1, CL, CW - CR};
    ay = (bh_svg_axis){lo - 0.06 * (hi - lo), hi + 0.06 * (hi - lo), CH - CB, CT};
    snprintf(sub, sizeof(sub), "%zu results, %zu change point%s, newest: %s", s->n, res->n_cps,
             res->n_cps == 1 ? "" : "s", bh_history_pi_status_name(res->newest.status));
    bh_strbuf_puts(b, "<div class=\"card\"><h3>");
    bh_html_esc(b, s->case_id);
    bh_strbuf_puts(b, "</h3><span class=\"note\">");
    bh_html_esc(b, sub);
    bh_strbuf_puts(b, "</span>");
    bh_svg_open(b, CW, CH, s->case_id);
    for (int t = 0; t <= 2; t++) {
        double v = ay.d0 + (ay.d1 - ay.d0) * (0.1 + 0.4 * t);

        bh_fmt_time(v, lab, sizeof(lab));
        bh_strbuf_printf(b,
                         "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
                         "stroke=\"#eceff1\"/>",
                         CL, bh_svg_pos(&ay, v), CW - CR, bh_svg_pos(&ay, v));
        bh_svg_text(b, CL - 6, bh_svg_pos(&ay, v) + 4, "end", "m", lab);
    }
    date_of(h->set.files[s->pts[0].file].started_at, d0, sizeof(d0));
    date_of(h->set.files[s->pts[s->n - 1].file].started_at, d1, sizeof(d1));
    bh_svg_text(b, CL, CH - 8, "start", "m", d0);
    bh_svg_text(b, CW - CR, CH - 8, "end", "m", d1);
    for (size_t k = 0; k < res->n_cps; k++) {
        const bh_history_cp *cp = &res->cps[k];
        double x = bh_svg_pos(&ax, (double)cp->index - 0.5);
        char tip[96];

        bh_strbuf_printf(b,
                         "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
                         "stroke=\"#c62828\" stroke-dasharray=\"4 3\">",
                         x, CT, x, CH - CB);
        snprintf(tip, sizeof(tip), "change point: %+.1f%% (p=%.2g, best of %zu splits)",
                 cp->change * 100, cp->p_adjusted, cp->candidates);
        bh_svg_title(b, tip);
        bh_strbuf_puts(b, "</line>");
        bh_strbuf_printf(b,
                         "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
                         "stroke=\"#ef9a9a\" stroke-width=\"2\"/>"
                         "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
                         "stroke=\"#ef9a9a\" stroke-width=\"2\"/>",
                         bh_svg_pos(&ax, (double)cp->lo), bh_svg_pos(&ay, cp->before), x,
                         bh_svg_pos(&ay, cp->before), x, bh_svg_pos(&ay, cp->after),
                         bh_svg_pos(&ax, (double)cp->hi - 1), bh_svg_pos(&ay, cp->after));
    }
    if (res->newest.status != BH_HISTORY_PI_NONE && isfinite(res->newest.lo) &&
        isfinite(res->newest.hi)) {
        double x = bh_svg_pos(&ax, (double)(s->n - 1));
        int out = res->newest.status != BH_HISTORY_PI_INSIDE;

        bh_strbuf_printf(b,
                         "<rect x=\"%.1f\" y=\"%.1f\" width=\"10\" height=\"%.1f\" "
                         "fill=\"%s\" fill-opacity=\"0.25\"/>",
                         x - 5, bh_svg_pos(&ay, res->newest.hi),
                         fmax(bh_svg_pos(&ay, res->newest.lo) - bh_svg_pos(&ay, res->newest.hi),
                              1.0),
                         out ? "#c62828" : "#1e88e5");
    }
    bh_strbuf_puts(b, "<polyline fill=\"none\" stroke=\"#1e88e5\" stroke-width=\"1.5\" "
                      "points=\"");
    for (size_t i = 0; i < s->n; i++)
        bh_strbuf_printf(b, "%s%.1f,%.1f", i ? " " : "", bh_svg_pos(&ax, (double)i),
                         bh_svg_pos(&ay, s->pts[i].value));
    bh_strbuf_puts(b, "\"/>");
    bh_strbuf_puts(b, "<g fill=\"#0d47a1\">");
    for (size_t i = 0; i < s->n; i++)
        bh_strbuf_printf(b, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2.3\"/>",
                         bh_svg_pos(&ax, (double)i), bh_svg_pos(&ay, s->pts[i].value));
    bh_strbuf_puts(b, "</g>");
    {
        char tip[160], v[32];
        const bh_history_point *last = &s->pts[s->n - 1];

        bh_fmt_time(last->value, v, sizeof(v));
        snprintf(tip, sizeof(tip), "newest %s: %s", h->set.files[last->file].started_at, v);
        bh_svg_title(b, tip);
    }
    bh_strbuf_puts(b, "</svg></div>\n");
}

/* See html.h. */
void bh_report_html_history(bh_strbuf *b, const cJSON *doc, const bh_report_history *h)
{
    size_t shown = 0;

    (void)doc;
    bh_strbuf_puts(b, "<section id=\"history\"><h2>History</h2>\n");
    if (!h) {
        bh_strbuf_puts(b, "<p class=\"note\">No history: pass <code>bhost report RESULT "
                          "--history RESULTS_DIR</code> for trend lines.</p></section>\n");
        return;
    }
    bh_strbuf_puts(b, "<p class=\"note\">Median time per iteration of each result under ");
    bh_html_esc(b, h->root);
    bh_strbuf_printf(b, " (%zu result files", h->set.n_files);
    if (h->set.n_skipped)
        bh_strbuf_printf(b, ", %zu unreadable skipped", h->set.n_skipped);
    bh_strbuf_puts(b, "), oldest first. Red dashed lines: change points, with the medians "
                      "of the segments either side; band at the newest point: its 99% "
                      "prediction interval (red when the newest value is outside).</p>\n"
                      "<div class=\"grid\">\n");
    /* series with a finding first (a change point, or the newest value
       outside its interval), then the others, each in the set's order */
    for (int pass = 0; pass < 2; pass++)
        for (size_t i = 0; i < h->an.n; i++) {
            const bh_history_result *res = &h->an.r[i];
            int finding = res->n_cps > 0 || res->newest.status == BH_HISTORY_PI_BELOW ||
                          res->newest.status == BH_HISTORY_PI_ABOVE;

            if (!res->series || res->series->n < 2 || finding != (pass == 0))
                continue;
            chart(b, h, res);
            shown++;
        }
    bh_strbuf_puts(b, "</div>\n");
    if (shown == 0)
        bh_strbuf_puts(b, "<p class=\"note\">No case of this result has two or more results "
                          "in that folder.</p>\n");
    bh_strbuf_puts(b, "</section>\n");
}
