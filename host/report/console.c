// SPDX-License-Identifier: MIT
/* The console table of a result document (see console.h). */
#include "console.h"

#include "bh_mem.h"
#include "report_case.h"
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
static const char *verdict_color(const bh_report_row *r)
{
    int rank = bh_report_verdict_rank(r->verdict, r->severity);

    if (rank <= 1)
        return RED;
    if (rank == 2 || rank == 4)
        return YELLOW;
    if (rank == 3)
        return GREEN;
    return "";
}

/* "regressed (critical) +12.3%", "improved -8.1%", "no change". */
static void verdict_text(const bh_report_row *r, char *buf, size_t cap)
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
static size_t *group_order(const bh_report_rows *rows, int verbose, size_t **gsize_out)
{
    const char **groups = bh_xcalloc(rows->n + 1, sizeof(char *));
    size_t *gof = bh_xcalloc(rows->n + 1, sizeof(size_t));
    size_t *gsize = bh_xcalloc(rows->n + 1, sizeof(size_t));
    size_t *start = bh_xcalloc(rows->n + 1, sizeof(size_t));
    size_t *order = bh_xcalloc(rows->n + 1, sizeof(size_t));
    size_t ng = 0;

    for (size_t i = 0; i < rows->n; i++) {
        size_t g = 0;

        if (bh_report_row_grouped(&rows->v[i], verbose)) {
            gof[i] = SIZE_MAX;
            continue;
        }
        while (g < ng && strcmp(groups[g], rows->v[i].group) != 0)
            g++;
        if (g == ng)
            groups[ng++] = rows->v[i].group;
        gof[i] = g;
        gsize[g]++;
    }
    for (size_t g = 1; g < ng; g++)
        start[g] = start[g - 1] + gsize[g - 1];
    for (size_t i = 0; i < rows->n; i++)
        if (gof[i] != SIZE_MAX)
            order[start[gof[i]]++] = i;
    /* per row: the size of its group (0: not in the table) */
    for (size_t i = 0; i < rows->n; i++)
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
static void print_row(FILE *out, const bh_report_row *r, const char *label, const widths *w,
                      int color)
{
    char med[32] = "-", lo[32], hi[32], ci[80] = "-", cv[32] = "-", tp[48] = "", roof[48] = "";
    char vt[96];

    if (r->has_summary) {
        bh_fmt_time(r->median, med, sizeof(med));
        if (isfinite(r->lo) && isfinite(r->hi)) {
            bh_fmt_time(r->lo, lo, sizeof(lo));
            bh_fmt_time(r->hi, hi, sizeof(hi));
            snprintf(ci, sizeof(ci), "[%s, %s]", lo, hi);
        }
        bh_fmt_pct(r->cv, cv, sizeof(cv));
        if (isfinite(r->rate))
            bh_fmt_rate(r->rate, r->rate_unit, tp, sizeof(tp));
    }
    fprintf(out, "%-*.*s  %s%-11s%s  %10s  %-23s  %7s  %-*s", w->id, w->id, label,
            color ? status_color(r->status) : "", r->status, color ? RESET : "", med, ci, cv,
            w->roof || w->verdict ? 15 : 0, tp);
    if (w->roof) {
        if (isfinite(r->roof_fraction))
            snprintf(roof, sizeof(roof), "%.0f%% %s", r->roof_fraction * 100,
                     strcmp(r->roof_bound, "memory") == 0 ? "mem" : "comp");
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
static void measure(const bh_report_rows *rows, const size_t *gsize, widths *w)
{
    w->id = 4;
    for (size_t i = 0; i < rows->n; i++) {
        const bh_report_row *r = &rows->v[i];
        size_t len;

        if (gsize[i] == 0)
            continue;
        len = gsize[i] > 1 ? strlen(r->group) : strlen(r->id);
        if (gsize[i] > 1 && 2 + strlen(r->rest) > len)
            len = 2 + strlen(r->rest);
        if ((int)len > w->id)
            w->id = len > MAX_ID_WIDTH ? MAX_ID_WIDTH : (int)len;
    }
    w->roof = rows->n_roofline > 0;
    w->verdict = rows->n_verdicts > 0;
}

/* The "N cases: ..." line, statuses in their fixed order. */
static void print_counts(FILE *out, const bh_report_rows *rows)
{
    static const char *const order[] = {"ok",    "skipped", "unsupported", "failed",
                                        "invalid", "crashed", "timeout",    "oom"};
    size_t other = rows->n;

    fprintf(out, "%zu cases:", rows->n);
    for (size_t k = 0; k < sizeof(order) / sizeof(*order); k++) {
        size_t n = 0;

        for (size_t i = 0; i < rows->n; i++)
            n += strcmp(rows->v[i].status, order[k]) == 0;
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
static void print_warnings(FILE *out, const cJSON *doc, const bh_report_rows *rows, int color)
{
    const cJSON *pl;

    cJSON_ArrayForEach(pl, cJSON_GetObjectItemCaseSensitive(
                               cJSON_GetObjectItemCaseSensitive(doc, "run"), "plugins")) {
        const char *w = bh_report_str(pl, "warning", NULL);

        if (w)
            fprintf(out, "  plugin %s: %swarning%s: %s\n", bh_report_str(pl, "name", bh_report_str(pl, "requested", "?")),
                    color ? YELLOW : "", color ? RESET : "", w);
    }
    for (size_t i = 0; i < rows->n; i++) {
        const cJSON *run;
        const char *first = NULL;
        int n = 0;

        cJSON_ArrayForEach(run, cJSON_GetObjectItemCaseSensitive(rows->v[i].json, "runs")) {
            const char *w = bh_report_str(run, "warning", NULL);

            if (w && !n++)
                first = w;
        }
        if (first)
            fprintf(out, "  %s: %swarning%s: %s%s\n", rows->v[i].id, color ? YELLOW : "",
                    color ? RESET : "", first, n > 1 ? " (and in other runs)" : "");
    }
}

/* See console.h. */
void bh_report_console(FILE *out, const cJSON *doc, const bh_report_console_opts *o)
{
    bh_report_rows rows;
    size_t *gsize;
    size_t *order;
    widths w;
    const char *prev = NULL;
    int color = o && o->color;
    size_t n_grouped = 0;

    bh_report_rows_load(doc, &rows);
    for (size_t i = 0; i < rows.n; i++)
        n_grouped += (size_t)bh_report_row_grouped(&rows.v[i], o && o->verbose);
    order = group_order(&rows, o && o->verbose, &gsize);
    measure(&rows, gsize, &w);
    fprintf(out, "%-*s  %-11s  %10s  %-23s  %7s  %-*s", w.id, "case", "status", "median",
            "99% CI", "CV", w.roof || w.verdict ? 15 : 0, "throughput");
    if (w.roof)
        fprintf(out, "  %-*s", w.verdict ? 9 : 0, "roofline");
    if (w.verdict)
        fprintf(out, "  %s", "verdict");
    fputc('\n', out);
    for (size_t k = 0; k < rows.n - n_grouped; k++) {
        const bh_report_row *r = &rows.v[order[k]];
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
    bh_report_console_skips(out, &rows, o && o->verbose, color);
    for (size_t i = 0; i < rows.n; i++) {
        const bh_report_row *r = &rows.v[i];

        if (!r->ok && *r->message && !bh_report_row_grouped(r, o && o->verbose))
            fprintf(out, "  %s: %s: %s\n", r->id, r->status, r->message);
    }
    print_warnings(out, doc, &rows, color);
    print_counts(out, &rows);
    if (o && o->verbose)
        bh_report_console_details(out, doc, color);
    free(order);
    free(gsize);
    bh_report_rows_free(&rows);
}
