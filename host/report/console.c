#include "console.h"

#include "bh_mem.h"
#include "bh_strbuf.h"
#include "ipc.h"
#include "units.h"

#include <math.h>
#include <string.h>

/* The throughput column of c: the largest meaningful rate. */
static void throughput(const bh_case *c, char *buf, size_t cap)
{
    double sec = c->summary.median * 1e-9;
    const cJSON *res = NULL;

    buf[0] = '\0';
    for (uint32_t r = 0; r < c->n_runs && !res; r++)
        if (c->runs[r].status == BH_ST_OK)
            res = c->runs[r].result;
    if (!res || !(sec > 0))
        return;
    if (bh_json_num(res, "flops_per_iter", 0) > 0)
        bh_fmt_rate(bh_json_num(res, "flops_per_iter", 0) / sec, "FLOP/s",
                    buf, cap);
    else if (bh_json_num(res, "bytes_per_iter", 0) > 0)
        bh_fmt_rate(bh_json_num(res, "bytes_per_iter", 0) / sec, "B/s", buf,
                    cap);
    else if (bh_json_num(res, "items_per_iter", 0) > 0)
        bh_fmt_rate(bh_json_num(res, "items_per_iter", 0) / sec, "items/s",
                    buf, cap);
}

static const char *status_color(bh_status s)
{
    switch (s) {
    case BH_ST_OK:
        return "\033[32m";
    case BH_ST_SKIPPED:
    case BH_ST_UNSUPPORTED:
        return "\033[33m";
    default:
        return "\033[31m";
    }
}

void bh_console_print(FILE *out, const bh_plan *plan, int color)
{
    size_t idw = 4;
    size_t counts[BH_ST_COUNT] = {0};

    for (size_t i = 0; i < plan->n; i++)
        if (strlen(plan->cases[i].id) > idw)
            idw = strlen(plan->cases[i].id);
    if (idw > 72)
        idw = 72;
    fprintf(out, "%-*s  %-11s  %10s  %-23s  %7s  %s\n", (int)idw, "case",
            "status", "median", "99% CI", "CV", "throughput");
    for (size_t i = 0; i < plan->n; i++) {
        const bh_case *c = &plan->cases[i];
        char med[32] = "-", lo[32] = "", hi[32] = "", ci[48] = "-";
        char cv[32] = "-", tp[48] = "";

        counts[c->status]++;
        if (c->has_summary) {
            bh_fmt_time(c->summary.median, med, sizeof(med));
            if (isfinite(c->summary.median_ci_lo) &&
                isfinite(c->summary.median_ci_hi)) {
                bh_fmt_time(c->summary.median_ci_lo, lo, sizeof(lo));
                bh_fmt_time(c->summary.median_ci_hi, hi, sizeof(hi));
                snprintf(ci, sizeof(ci), "[%s, %s]", lo, hi);
            }
            bh_fmt_pct(c->summary.n_runs > 1 ? c->summary.between_run_cv
                                             : c->summary.cv,
                       cv, sizeof(cv));
            throughput(c, tp, sizeof(tp));
        }
        fprintf(out, "%-*.*s  %s%-11s%s  %10s  %-23s  %7s  %s\n", (int)idw,
                (int)idw, c->id, color ? status_color(c->status) : "",
                bh_status_name(c->status), color ? "\033[0m" : "", med, ci,
                cv, tp);
    }
    for (size_t i = 0; i < plan->n; i++) {
        const bh_case *c = &plan->cases[i];
        if (c->status != BH_ST_OK && c->message)
            fprintf(out, "  %s: %s: %s\n", c->id, bh_status_name(c->status),
                    c->message);
    }
    fprintf(out, "%zu cases:", plan->n);
    for (int s = 0; s < BH_ST_COUNT; s++)
        if (counts[s])
            fprintf(out, " %zu %s", counts[s], bh_status_name((bh_status)s));
    fprintf(out, "\n");
}
