// SPDX-License-Identifier: MIT
/* The console table of a result document (see console.h). */
#include "console.h"

#include "bh_mem.h"
#include "result_view.h"
#include "report_case.h"
#include "report_scaling.h"
#include "report_text.h"
#include "units.h"
#include "verdict.h"

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
    if (rank == 2 || rank == 4 || rank == 9) /* 9: noisier */
        return YELLOW;
    if (rank == 3)
        return GREEN;
    return "";
}

/* "45% mem", "100% comp", "3% latency", with " above" when the case went
 * over 1.05 of its ceiling; "" without a roofline. */
static void roof_text(const bh_rv_roof *roof, char *buf, size_t cap)
{
    const char *b = roof->bound;

    *buf = '\0';
    if (!isfinite(roof->fraction))
        return;
    snprintf(buf, cap, "%.0f%% %s%s", roof->fraction * 100,
             strcmp(b, "memory") == 0 ? "mem" : strcmp(b, "compute") == 0 ? "comp" : b,
             roof->above ? " above" : "");
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
    int roof;     /* 0 when no case has a roofline */
    int verdict;  /* 0 when no case has a verdict */
    double alpha; /* the level of the comparison's tests (fdr / family) */
} widths;

/* One table row of r under label (the id, or the indented rest of it). */
static void print_row(FILE *out, const bh_rv_case *r, const char *label, const widths *w,
                      int color)
{
    char cv[32] = "-", tp[48] = "", roof[48] = "";
    char vt[128];
    const char *noisy = "";
    bh_report_median m;

    bh_report_case_median(r, &m);
    if (r->summary.present) {
        bh_fmt_pct(r->summary.spread_cv, cv, sizeof(cv));
        if (bh_report_case_noisy(r))
            noisy = "noisy";
        if (isfinite(r->rate))
            bh_fmt_rate(r->rate, r->rate_unit, tp, sizeof(tp));
    }
    fprintf(out, "%-*.*s  %s%-11s%s  %10s  %-23s  %7s %s%-5s%s  %-*s", w->id, w->id, label,
            color ? status_color(r->status) : "", r->status, color ? RESET : "", m.med_text,
            m.ci_text, cv,
            color && *noisy ? YELLOW : "", noisy, color && *noisy ? RESET : "",
            w->roof || w->verdict ? 15 : 0, tp);
    if (w->roof) {
        roof_text(&r->roof, roof, sizeof(roof));
        fprintf(out, "  %s%-*s%s", color && r->roof.above ? YELLOW : "", w->verdict ? 14 : 0,
                roof, color && r->roof.above ? RESET : "");
    }
    if (w->verdict) {
        const char *vc = color ? verdict_color(r) : "";

        bh_report_case_verdict_words(r, w->alpha, vt, sizeof(vt));
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
    w->alpha = bh_report_alpha(view);
}

/* The legend line under the table: what each column is, per what, at
 * what confidence (README.md, "Reading the results"). */
static void print_legend(FILE *out, const widths *w, const bh_result_view *view)
{
    fprintf(out, "median: median of the run medians, time per iteration; %.0f%% CI: its interval "
                 "(- under 6 runs); CV: spread of the run medians, noisy above max_cv",
            BH_REPORT_CI_LEVEL * 100);
    if (w->roof)
        fprintf(out, "; roofline: share of the ceiling it is held against");
    if (w->verdict) {
        fprintf(out, "; verdict: change of the median vs the baseline");
        if (isfinite(view->comparison.confidence))
            fprintf(out, " (%.0f%% interval with -v or compare)",
                    view->comparison.confidence * 100);
    }
    fputc('\n', out);
}

/* The "N cases: ..." line, statuses in their fixed order. */
static void print_counts(FILE *out, const bh_result_view *view)
{
    static const char *const order[] = {"ok",    "skipped", "unsupported", "failed",
                                        "invalid", "crashed", "timeout",    "oom"};
    size_t other = view->n_cases;

    fprintf(out, "%zu case%s:", view->n_cases, view->n_cases == 1 ? "" : "s");
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
        if (c->roof.above)
            fprintf(out, "  %s: %swarning%s: %.0f%% of %s: above its ceiling: check the "
                         "bytes/FLOP accounting or the ceiling\n",
                    c->id, color ? YELLOW : "", color ? RESET : "", c->roof.fraction * 100,
                    bh_report_str_or(bh_report_roof_ceiling(&c->roof), "its ceiling"));
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
    char cil[16];

    bh_result_view_load(doc, &view);
    for (size_t i = 0; i < view.n_cases; i++)
        n_grouped += (size_t)bh_report_case_grouped(&view.cases[i], o && o->verbose);
    order = group_order(&view, o && o->verbose, &gsize);
    measure(&view, gsize, &w);
    snprintf(cil, sizeof(cil), "%.0f%% CI", BH_REPORT_CI_LEVEL * 100);
    fprintf(out, "%-*s  %-11s  %10s  %-23s  %7s %-5s  %-*s", w.id, "case", "status", "median",
            cil, "CV", "", w.roof || w.verdict ? 15 : 0, "throughput");
    if (w.roof)
        fprintf(out, "  %-*s", w.verdict ? 14 : 0, "roofline");
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
    if (view.n_cases > n_grouped)
        print_legend(out, &w, &view);
    bh_report_console_skips(out, &view, o && o->verbose, color);
    for (size_t i = 0; i < view.n_cases; i++) {
        const bh_rv_case *r = &view.cases[i];

        if (!r->ok && *r->message && !bh_report_case_grouped(r, o && o->verbose))
            fprintf(out, "  %s: %s: %s\n", r->id, r->status, r->message);
    }
    print_warnings(out, &view, color);
    bh_report_console_meters(out, doc);
    bh_report_console_ratios(out, doc);
    bh_report_console_scaling(out, doc);
    print_counts(out, &view);
    if (o && o->verbose)
        bh_report_console_details(out, &view, color);
    free(order);
    free(gsize);
    bh_result_view_free(&view);
}
