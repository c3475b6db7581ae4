// SPDX-License-Identifier: MIT
/* The changes section of the HTML report: one row per compared (case,
 * metric) with a bar from 0 to the estimated change and its confidence
 * interval as a line with caps, colored by verdict, the noise floor as a
 * grey band, most notable first. The axis is symmetric-logarithmic
 * (linear within +-1%, logarithmic beyond) so +1% and +300% both read;
 * it ends at -100% on the left when no change or bound goes below it (a
 * ratio of positive values, a time or a rate, cannot fall further), and
 * an interval is drawn only when both its bounds are finite (a comparison
 * with too few runs has none: its text says so). Row labels keep the
 * parameters that tell rows apart (bh_html_labels), never cut. */
#include "html.h"

#include "bh_mem.h"
#include "report_case.h"
#include "report_text.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PLOT 400.0
#define TEXT 430.0 /* the change, its interval and the verdict at the right */
#define ROW 20.0
#define TOP 30.0
#define LIN 0.01 /* symlog: linear scale below 1% */

typedef struct item {
    const bh_rv_case *r;
    const bh_rv_change *ch;
    int rank;
    size_t pos;
    const char *label; /* the row's label (borrowed from the label set) */
} item;

/* Rows order: verdict rank, then the larger change, then document order. */
static int cmp_item(const void *a, const void *b)
{
    const item *x = a, *y = b;
    double mx = fabs(x->ch->change), my = fabs(y->ch->change);

    if (x->rank != y->rank)
        return x->rank < y->rank ? -1 : 1;
    if (mx != my)
        return mx > my ? -1 : 1;
    return (x->pos > y->pos) - (x->pos < y->pos);
}

/* symlog transform of a relative change. */
static double slog(double v)
{
    return (v < 0 ? -1 : 1) * log10(1 + fabs(v) / LIN);
}

/* Pixel of change v, clamped to the plot; *edge is -1 / +1 when clamped. */
static double px(const bh_svg_axis *ax, double v, int *edge)
{
    double s = isinf(v) ? (v < 0 ? -1e9 : 1e9) : slog(v);

    *edge = s < ax->d0 ? -1 : s > ax->d1 ? 1 : 0;
    return bh_svg_pos(ax, fmin(fmax(s, ax->d0), ax->d1));
}

/* Grid lines and labels at 0 and +-1%, 10%, 100%, 1000% within the axis
 * (-100% is the left end when the axis stops there). */
static void axis(bh_strbuf *b, const bh_svg_axis *ax, double decades, double h)
{
    for (int k = -4; k <= 4; k++) {
        double v = k == 0 ? 0 : (k < 0 ? -1 : 1) * LIN * pow(10, abs(k) - 1);
        int e;
        double x;
        char lab[32];

        if (slog(v) < ax->d0 - 0.01 || slog(v) > ax->d1 + 0.01)
            continue;
        /* +-1% crowd the 0 label on wide axes: lines only */
        if (abs(k) == 1 && decades >= 3) {
            x = px(ax, v, &e);
            bh_strbuf_printf(b,
                             "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
                             "stroke=\"#e3e7ec\"/>",
                             x, TOP - 6, x, h - 4);
            continue;
        }
        x = px(ax, v, &e);
        if (k != 0)
            snprintf(lab, sizeof(lab), "%+g%%", v * 100);
        else
            snprintf(lab, sizeof(lab), "0");
        bh_strbuf_printf(b,
                         "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"/>",
                         x, TOP - 6, x, h - 4, k == 0 ? "#607d8b" : "#e3e7ec");
        bh_svg_text(b, x, TOP - 10, "middle", "m", lab);
    }
}

/* The end of an interval at (x, y): a cap, or an arrow pointing out of
 * the plot (side -1 left, +1 right) when the end lies beyond the axis. */
static void cap_mark(bh_strbuf *b, double x, double y, int clamped, int side)
{
    if (clamped)
        bh_strbuf_printf(b, "<path d=\"M%.1f %.1f l%d -4 v8 z\" fill=\"#263238\"/>", x, y,
                         -6 * side);
    else
        bh_strbuf_printf(b,
                         "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
                         "stroke=\"#263238\" stroke-width=\"1.5\"/>",
                         x, y - 4, x, y + 4);
}

/* One (case, metric) row: noise band, change bar, interval, labels; the
 * verdict in the console's words (alpha: the level of the comparison's
 * tests), its reason in the tooltip. */
static void row(bh_strbuf *b, const item *it, const bh_svg_axis *ax, double y, double alpha)
{
    const bh_rv_change *ch = it->ch;
    const char *col = bh_svg_verdict_color(ch->verdict, ch->severity);
    double cy = y + ROW / 2;
    int e0, e1, e2;
    double x0 = px(ax, 0, &e0);
    double xc = px(ax, ch->change, &e0);
    double xl = px(ax, ch->lo, &e1);
    double xh = px(ax, ch->hi, &e2);
    int finite = isfinite(ch->lo) && isfinite(ch->hi);
    char c[32], lo[32], hi[32], ci[80], q[32], txt[320], label[600], clipped[640], words[160];

    bh_report_fmt_change(ch->change, c, sizeof(c));
    bh_report_fmt_change(ch->lo, lo, sizeof(lo));
    bh_report_fmt_change(ch->hi, hi, sizeof(hi));
    bh_report_fmt_p(ch->q, q, sizeof(q));
    if (finite)
        snprintf(ci, sizeof(ci), "[%s, %s]", lo, hi);
    else
        snprintf(ci, sizeof(ci), "(no finite interval)");
    if (strcmp(ch->metric, "time") == 0)
        snprintf(label, sizeof(label), "%s", it->label);
    else
        snprintf(label, sizeof(label), "%s \xc2\xb7 %s", it->label, ch->metric);
    bh_report_change_words(ch, alpha, 0, words, sizeof(words));
    bh_strbuf_puts(b, "<g>");
    {
        char *tip = bh_xasprintf("%s: %s %s %s, q=%s, %s%s%s", it->r->id, ch->metric, c, ci, q,
                                 words, *ch->reason ? "; why: " : "", ch->reason);
        bh_svg_title(b, tip);
        free(tip);
    }
    if (isfinite(ch->noise_floor) && ch->noise_floor > 0) {
        double a = px(ax, -ch->noise_floor, &e0), z = px(ax, ch->noise_floor, &e0);

        bh_strbuf_printf(b,
                         "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
                         "fill=\"#eceff1\"/>",
                         a, y + 1, z - a, ROW - 2);
    }
    bh_strbuf_printf(b,
                     "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"10\" fill=\"%s\" "
                     "fill-opacity=\"0.85\"/>",
                     fmin(x0, xc), cy - 5, fmax(fabs(xc - x0), 1.0), col);
    if (finite) {
        bh_strbuf_printf(b,
                         "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
                         "stroke=\"#263238\" stroke-width=\"1.5\"/>",
                         xl, cy, xh, cy);
        cap_mark(b, xl, cy, e1, -1);
        cap_mark(b, xh, cy, e2, 1);
    }
    bh_svg_clip(label, BH_HTML_LABEL_MAX, clipped, sizeof(clipped));
    bh_svg_text(b, ax->p0 - 8, cy + 4, "end", "c", clipped);
    snprintf(txt, sizeof(txt), "%s %s %s", c, finite ? ci : "(no interval)", words);
    bh_svg_text(b, ax->p1 + 12, cy + 4, "start", NULL, txt);
    bh_strbuf_puts(b, "</g>\n");
}

/* The extent of one side of the axis in symlog decades for the largest
 * change w (>= 0) on that side: whole decades, at least one; to -100%
 * exactly when bounded there. */
static double side(double w, int bounded)
{
    double d = fmax(ceil(slog(fmin(w, 1000.0)) - 1e-9), 1);

    return bounded && d > slog(1.0) ? slog(1.0) : d;
}

/* See html.h. */
void bh_report_html_changes(bh_strbuf *b, const bh_result_view *view)
{
    size_t cap = 0, n = 0;
    item *items = NULL;
    double neg = LIN, pos = LIN, h, lw;
    int bounded = 1;
    const char **ids;
    char **labels;
    bh_svg_axis ax;

    bh_strbuf_puts(b, "<section id=\"changes\"><h2>Changes against the baseline</h2>\n");
    for (size_t i = 0; i < view->n_cases; i++)
        for (size_t k = 0; k < view->cases[i].n_changes; k++) {
            const bh_rv_change *ch = &view->cases[i].changes[k];
            double v[3] = {ch->change, ch->lo, ch->hi};

            if (!isfinite(ch->change))
                continue;
            BH_PUSH(items, n, cap,
                    ((item){&view->cases[i], ch, bh_rv_verdict_rank(ch->verdict, ch->severity),
                            n, NULL}));
            /* the interval sets the axis only where it is drawn */
            for (int j = 0; j < (isfinite(ch->lo) && isfinite(ch->hi) ? 3 : 1); j++) {
                neg = fmax(neg, -v[j]);
                pos = fmax(pos, v[j]);
                bounded &= v[j] >= -1.0;
            }
        }
    if (n == 0) {
        bh_strbuf_puts(b, "<p class=\"note\">No comparison with a baseline in this result "
                          "(run with <code>--baseline</code>, or pass "
                          "<code>bhost report RESULT --baseline BASE.json</code>).</p>"
                          "</section>\n");
        return;
    }
    qsort(items, n, sizeof(item), cmp_item);
    ids = bh_xcalloc(n, sizeof(char *));
    for (size_t k = 0; k < n; k++)
        ids[k] = items[k].r->id;
    labels = bh_html_labels(ids, n, 0);
    for (size_t k = 0; k < n; k++)
        items[k].label = labels[k];
    lw = bh_html_label_px(labels, n) + 40; /* room for " · metric" */
    ax = (bh_svg_axis){-side(neg, bounded), side(pos, 0), lw, lw + PLOT};
    h = TOP + ROW * (double)n + 8;
    bh_strbuf_puts(b, "<p class=\"note\">Relative change of each metric, candidate against "
                      "baseline (for time, + is slower), with its confidence interval where "
                      "both its ends are finite; grey band: the noise floor. Colors: the "
                      "verdict.</p>\n<div class=\"scroll\">");
    bh_svg_open(b, lw + PLOT + TEXT, h, "changes against the baseline");
    axis(b, &ax, fmax(-ax.d0, ax.d1), h);
    for (size_t k = 0; k < n; k++)
        row(b, &items[k], &ax, TOP + ROW * (double)k, bh_report_alpha(view));
    bh_strbuf_puts(b, "</svg></div>\n</section>\n");
    bh_html_labels_free(labels, n);
    free(ids);
    free(items);
}
