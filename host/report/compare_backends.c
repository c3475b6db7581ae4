// SPDX-License-Identifier: MIT
/* Backends side by side, console and JSON (see compare_backends.h). */
#include "compare_backends.h"

#include "bh_mem.h"
#include "report_case.h"
#include "result_view.h"
#include "units.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define BOLD "\033[1m"
#define DIM "\033[2m"
#define RESET "\033[0m"

/* The largest value of metric name in case c, NAN when absent. */
static double metric_max(const bh_rv_case *c, const char *name)
{
    const bh_rv_metric *m = bh_rv_case_metric(c, name);

    /* the view keeps a metric's values sorted */
    return m && m->n_values ? m->values[m->n_values - 1] : NAN;
}

/* Operations with two or more backend:device rows, in order of first
 * appearance; *n_out of them. The strings are borrowed from rows. */
static const char **compared_ops(const bh_result_view *view, size_t *n_out)
{
    const char **ops = bh_xcalloc(view->n_cases + 1, sizeof(char *));
    size_t *count = bh_xcalloc(view->n_cases + 1, sizeof(size_t));
    size_t n = 0, kept = 0;

    for (size_t i = 0; i < view->n_cases; i++) {
        size_t o = 0;

        if (!*view->cases[i].at)
            continue;
        while (o < n && strcmp(ops[o], view->cases[i].op) != 0)
            o++;
        if (o == n)
            ops[n++] = view->cases[i].op;
        count[o]++;
    }
    for (size_t o = 0; o < n; o++)
        if (count[o] >= 2)
            ops[kept++] = ops[o];
    free(count);
    *n_out = kept;
    return ops;
}

/* The median a report prints for r (of its run medians); NAN without a
 * summary. */
static double case_median(const bh_rv_case *r)
{
    bh_report_median m;

    bh_report_case_median(r, &m);
    return m.med;
}

/* The fastest median among the rows of op with a summary; NAN if none. */
static double best_median(const bh_result_view *view, const char *op)
{
    double best = NAN;

    for (size_t i = 0; i < view->n_cases; i++) {
        const bh_rv_case *r = &view->cases[i];
        double m = case_median(r);

        if (*r->at && strcmp(r->op, op) == 0 && r->summary.present && m > 0 &&
            (isnan(best) || m < best))
            best = m;
    }
    return best;
}

/* True when the row ran (it has timings, or it failed while running). */
static int ran(const bh_rv_case *r)
{
    return r->summary.present || (strcmp(r->status, "skipped") != 0 &&
                              strcmp(r->status, "unsupported") != 0);
}

/* One line of a pair that ran. */
static void print_pair(FILE *out, const bh_rv_case *r, double best,
                       int width)
{
    char med[32] = "-", tp[48] = "", rel[32] = "", agree[48] = "";
    double e = metric_max(r, "verify.err_to_tol");

    if (r->summary.present) {
        double m = case_median(r);

        bh_fmt_time(m, med, sizeof(med));
        if (isfinite(r->rate))
            bh_fmt_rate(r->rate, r->rate_unit, tp, sizeof(tp));
        if (isfinite(best) && best > 0)
            snprintf(rel, sizeof(rel), m == best ? "fastest" : "%.3gx", m / best);
    }
    if (isfinite(e))
        snprintf(agree, sizeof(agree), "err/tol %.3g", e);
    fprintf(out, "  %-*s  %-9s  %10s  %-16s  %-9s  %s\n", width, r->at + 1,
            r->status, med, tp, rel, agree);
}

int bh_report_console_backends(FILE *out, const cJSON *doc, int color)
{
    bh_result_view view;
    size_t n_ops = 0;
    const char **ops;
    int width = 8;

    bh_result_view_load(doc, &view);
    ops = compared_ops(&view, &n_ops);
    for (size_t i = 0; i < view.n_cases; i++)
        if (*view.cases[i].at && (int)strlen(view.cases[i].at) > width)
            width = (int)strlen(view.cases[i].at);
    if (n_ops > 0)
        fprintf(out, "\n%sBackends side by side%s (median per iteration, "
                     "throughput, time vs the fastest, err/tol: worst "
                     "|result - host reference| / tolerance, <= 1 passes)\n",
                color ? BOLD : "", color ? RESET : "");
    for (size_t o = 0; o < n_ops; o++) {
        double best = best_median(&view, ops[o]);
        int folded = 0;

        fprintf(out, "%s%s%s\n", color ? BOLD : "", ops[o], color ? RESET : "");
        for (size_t i = 0; i < view.n_cases; i++)
            if (*view.cases[i].at && strcmp(view.cases[i].op, ops[o]) == 0 &&
                ran(&view.cases[i]))
                print_pair(out, &view.cases[i], best, width);
        for (size_t i = 0; i < view.n_cases; i++) {
            const bh_rv_case *r = &view.cases[i];

            if (!*r->at || strcmp(r->op, ops[o]) != 0 || ran(r))
                continue;
            fprintf(out, "%s %s (%s)",
                    folded++ ? "," : color ? DIM "  not run:" : "  not run:",
                    r->at + 1, r->status);
        }
        if (folded)
            fprintf(out, "%s\n", color ? RESET : "");
    }
    free(ops);
    bh_result_view_free(&view);
    return (int)n_ops;
}

/* Adds number key = v to o when v is finite. */
static void add_num(cJSON *o, const char *key, double v)
{
    if (isfinite(v))
        cJSON_AddNumberToObject(o, key, v);
}

cJSON *bh_report_backend_groups(const cJSON *doc)
{
    bh_result_view view;
    size_t n_ops = 0;
    const char **ops;
    cJSON *arr = cJSON_CreateArray();

    bh_result_view_load(doc, &view);
    ops = compared_ops(&view, &n_ops);
    for (size_t o = 0; o < n_ops; o++) {
        cJSON *g = cJSON_CreateObject();
        cJSON *cases = cJSON_CreateArray();
        double best = best_median(&view, ops[o]);

        cJSON_AddStringToObject(g, "op", ops[o]);
        for (size_t i = 0; i < view.n_cases; i++) {
            const bh_rv_case *r = &view.cases[i];
            cJSON *c;

            if (!*r->at || strcmp(r->op, ops[o]) != 0)
                continue;
            c = cJSON_CreateObject();
            cJSON_AddStringToObject(c, "at", r->at + 1);
            cJSON_AddStringToObject(c, "id", r->id);
            cJSON_AddStringToObject(c, "status", r->status);
            if (r->summary.present) {
                add_num(c, "median_ns", case_median(r));
                add_num(c, "rate", r->rate);
                if (isfinite(r->rate))
                    cJSON_AddStringToObject(c, "rate_unit", r->rate_unit);
                add_num(c, "relative", best > 0 ? case_median(r) / best : NAN);
            }
            add_num(c, "err_to_tol", metric_max(r, "verify.err_to_tol"));
            add_num(c, "max_abs_err", metric_max(r, "verify.max_abs_err"));
            cJSON_AddItemToArray(cases, c);
        }
        cJSON_AddItemToObject(g, "cases", cases);
        cJSON_AddItemToArray(arr, g);
    }
    free(ops);
    bh_result_view_free(&view);
    return arr;
}
