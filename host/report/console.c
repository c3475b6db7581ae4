// SPDX-License-Identifier: MIT
/* The console table of a result document (see console.h). */
#include "console.h"

#include "bh_mem.h"
#include "result_view.h"
#include "report_text.h"
#include "units.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define RED "\033[31m"
#define GREEN "\033[32m"
#define YELLOW "\033[33m"
#define BOLD "\033[1m"
#define RESET "\033[0m"
#define MAX_ID_WIDTH 72

/* See console.h. */
int bh_report_use_color(int fd)
{
    const char *nc = getenv("NO_COLOR");
    const char *term = getenv("TERM");

    if (nc && *nc)
        return 0;
    if (term && strcmp(term, "dumb") == 0)
        return 0;
    return isatty(fd);
}

/* The ANSI color of a case status: green ok, yellow skipped or unsupported, red
 * the rest. */
static const char *status_color(const char *s)
{
    if (strcmp(s, "ok") == 0)
        return GREEN;
    if (strcmp(s, "skipped") == 0 || strcmp(s, "unsupported") == 0)
        return YELLOW;
    return RED;
}

/* The ANSI color of a row's verdict ("" for none and the quiet ones). */
static const char *verdict_color(const bh_rv_case *r)
{
    int rank = bh_rv_verdict_rank(r->verdict, r->severity);

    if (rank <= 1)
        return RED;
    if (rank == 2 || rank == 4)
        return YELLOW;
    if (rank == 3)
        return GREEN;
    return "";
}

/* "regressed (critical) +12.3%", "improved -8.1%", "no change". */
static void verdict_text(const bh_rv_case *r, char *buf, size_t cap)
{
    char ch[32] = "";

    if (!r->verdict) {
        snprintf(buf, cap, "-");
        return;
    }
    if (r->head && isfinite(r->head->change) && strcmp(r->verdict, "new") != 0 &&
        strcmp(r->verdict, "missing") != 0) {
        ch[0] = ' ';
        bh_report_fmt_change(r->head->change, ch + 1, sizeof(ch) - 1);
    }
    if (r->severity && *r->severity)
        snprintf(buf, cap, "%s (%s)%s", r->verdict, r->severity, ch);
    else
        snprintf(buf, cap, "%s%s", r->verdict, ch);
}

/* The group of each row as an index into a list of distinct groups in
 * order of first appearance; returns the rows ordered by group. */
static size_t *group_order(const bh_result_view *view, int verbose, size_t **gsize_out)
{
    const char **groups = bh_xcalloc(view->n_cases + 1, sizeof(char *));
    size_t *gof = bh_xcalloc(view->n_cases + 1, sizeof(size_t));
    size_t *gsize = bh_xcalloc(view->n_cases + 1, sizeof(size_t));
    size_t *start = bh_xcalloc(view->n_cases + 1, sizeof(size_t));
    size_t *order = bh_xcalloc(view->n_cases + 1, sizeof(size_t));
    size_t ng = 0;

    for (size_t i = 0; i < view->n_cases; i++) {
        size_t g = 0;

        if (bh_report_case_grouped(&view->cases[i], verbose)) {
            gof[i] = SIZE_MAX;
            continue;
        }
        while (g < ng && strcmp(groups[g], view->cases[i].group) != 0)
            g++;
        if (g == ng)
            groups[ng++] = view->cases[i].group;
        gof[i] = g;
        gsize[g]++;
    }
    for (size_t g = 1; g < ng; g++)
        start[g] = start[g - 1] + gsize[g - 1];
    for (size_t i = 0; i < view->n_cases; i++)
        if (gof[i] != SIZE_MAX)
            order[start[gof[i]]++] = i;
    /* per row: the size of its group (0: not in the table) */
    for (size_t i = 0; i < view->n_cases; i++)
        start[i] = gof[i] != SIZE_MAX ? gsize[gof[i]] : 0;
    free(groups);
    free(gof);
    free(gsize);
    *gsize_out = start;
    return order;
}

typedef struct widths {
    int id;
    int roof;    /* 0 when no case has a roofline */
    int verdict; /* 0 when no case has a verdict */
} widths;

/* One table row of r under label (the id, or the indented rest of it). */
static void print_row(FILE *out, const bh_rv_case *r, const char *label, const widths *w,
                      int color)
{
    char med[32] = "-", lo[32], hi[32], ci[80] = "-", cv[32] = "-", tp[48] = "", roof[48] = "";
    char vt[96];

    if (r->summary.present) {
        bh_fmt_time(r->summary.median, med, sizeof(med));
        if (isfinite(r->summary.median_ci_lo) && isfinite(r->summary.median_ci_hi)) {
            bh_fmt_time(r->summary.median_ci_lo, lo, sizeof(lo));
            bh_fmt_time(r->summary.median_ci_hi, hi, sizeof(hi));
            snprintf(ci, sizeof(ci), "[%s, %s]", lo, hi);
        }
        bh_fmt_pct(r->summary.spread_cv, cv, sizeof(cv));
        if (isfinite(r->rate))
            bh_fmt_rate(r->rate, r->rate_unit, tp, sizeof(tp));
    }
    fprintf(out, "%-*.*s  %s%-11s%s  %10s  %-23s  %7s  %-*s", w->id, w->id, label,
            color ? status_color(r->status) : "", r->status, color ? RESET : "", med, ci, cv,
            w->roof || w->verdict ? 15 : 0, tp);
    if (w->roof) {
        if (isfinite(r->roof.fraction))
            snprintf(roof, sizeof(roof), "%.0f%% %s", r->roof.fraction * 100,
                     strcmp(r->roof.bound, "memory") == 0 ? "mem" : "comp");
        fprintf(out, "  %-*s", w->verdict ? 9 : 0, roof);
    }
    if (w->verdict) {
        const char *vc = color ? verdict_color(r) : "";

        verdict_text(r, vt, sizeof(vt));
        fprintf(out, "  %s%s%s", vc, vt, *vc ? RESET : "");
    }
    fputc('\n', out);
    bh_report_console_metrics(out, r);
}

/* Column widths from the labels the table will show. */
static void measure(const bh_result_view *view, const size_t *gsize, widths *w)
{
    w->id = 4;
    for (size_t i = 0; i < view->n_cases; i++) {
        const bh_rv_case *r = &view->cases[i];
        size_t len;

        if (gsize[i] == 0)
            continue;
        len = gsize[i] > 1 ? strlen(r->group) : strlen(r->id);
        if (gsize[i] > 1 && 2 + strlen(r->rest) > len)
            len = 2 + strlen(r->rest);
        if ((int)len > w->id)
            w->id = len > MAX_ID_WIDTH ? MAX_ID_WIDTH : (int)len;
    }
    w->roof = view->n_roofline > 0;
    w->verdict = view->n_verdicts > 0;
}

/* The "N cases: ..." line, statuses in their fixed order. */
static void print_counts(FILE *out, const bh_result_view *view)
{
    static const char *const order[] = {"ok",    "skipped", "unsupported", "failed",
                                        "invalid", "crashed", "timeout",    "oom"};
    size_t other = view->n_cases;

    fprintf(out, "%zu cases:", view->n_cases);
    for (size_t k = 0; k < sizeof(order) / sizeof(*order); k++) {
        size_t n = 0;

        for (size_t i = 0; i < view->n_cases; i++)
            n += strcmp(view->cases[i].status, order[k]) == 0;
        other -= n;
        if (n)
            fprintf(out, " %zu %s", n, order[k]);
    }
    if (other)
        fprintf(out, " %zu other", other);
    fputc('\n', out);
}

/* One line per plugin whose describe worker left a warning, then one per
 * case whose runs carry one (what went wrong after a final report): the
 * first warning and whether other runs had one. */
static void print_warnings(FILE *out, const bh_result_view *view, int color)
{
    for (size_t i = 0; i < view->run.n_plugins; i++) {
        bh_rv_plugin pl = bh_rv_run_plugin(&view->run, i);
        const char *name = pl.name ? pl.name : pl.requested ? pl.requested : "?";

        if (pl.warning)
            fprintf(out, "  plugin %s: %swarning%s: %s\n", name, color ? YELLOW : "",
                    color ? RESET : "", pl.warning);
    }
    for (size_t i = 0; i < view->n_cases; i++) {
        const bh_rv_case *c = &view->cases[i];
        const char *first = NULL;
        int n = 0;

        for (size_t k = 0; k < c->n_runs; k++)
            if (c->runs[k].warning && !n++)
                first = c->runs[k].warning;
        if (first)
            fprintf(out, "  %s: %swarning%s: %s%s\n", c->id, color ? YELLOW : "",
                    color ? RESET : "", first, n > 1 ? " (and in other runs)" : "");
    }
}

/* See console.h. */
void bh_report_console(FILE *out, const cJSON *doc, const bh_report_console_opts *o)
{
    bh_result_view view;
    size_t *gsize;
    size_t *order;
    widths w;
    const char *prev = NULL;
    int color = o && o->color;
    size_t n_grouped = 0;

    bh_result_view_load(doc, &view);
    for (size_t i = 0; i < view.n_cases; i++)
        n_grouped += (size_t)bh_report_case_grouped(&view.cases[i], o && o->verbose);
    order = group_order(&view, o && o->verbose, &gsize);
    measure(&view, gsize, &w);
    fprintf(out, "%-*s  %-11s  %10s  %-23s  %7s  %-*s", w.id, "case", "status", "median",
            "99% CI", "CV", w.roof || w.verdict ? 15 : 0, "throughput");
    if (w.roof)
        fprintf(out, "  %-*s", w.verdict ? 9 : 0, "roofline");
    if (w.verdict)
        fprintf(out, "  %s", "verdict");
    fputc('\n', out);
    for (size_t k = 0; k < view.n_cases - n_grouped; k++) {
        const bh_rv_case *r = &view.cases[order[k]];
        char label[MAX_ID_WIDTH + 8];

        if (gsize[order[k]] == 1) {
            print_row(out, r, r->id, &w, color);
            prev = NULL;
            continue;
        }
        if (!prev || strcmp(prev, r->group) != 0) {
            fprintf(out, "%s%s%s\n", color ? BOLD : "", r->group, color ? RESET : "");
            prev = r->group;
        }
        snprintf(label, sizeof(label), "  %s", *r->rest ? r->rest : "(default)");
        print_row(out, r, label, &w, color);
    }
    bh_report_console_skips(out, &view, o && o->verbose, color);
    for (size_t i = 0; i < view.n_cases; i++) {
        const bh_rv_case *r = &view.cases[i];

        if (!r->ok && *r->message && !bh_report_case_grouped(r, o && o->verbose))
            fprintf(out, "  %s: %s: %s\n", r->id, r->status, r->message);
    }
    print_warnings(out, &view, color);
    print_counts(out, &view);
    if (o && o->verbose)
        bh_report_console_details(out, &view, color);
    free(order);
    free(gsize);
    bh_result_view_free(&view);
}
