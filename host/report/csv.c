// SPDX-License-Identifier: MIT
/* CSV export (RFC 4180: CRLF line ends, fields quoted when they hold a
 * comma, a quote or a line break): one row per case and metric.
 *
 * Columns: id, plugin, benchmark, params (the parameters as compact JSON),
 * backend, device, status, metric, unit, direction (lower or higher is
 * better), value, lower, upper, n, verdict, severity, change, change_lo,
 * change_hi, q, message.
 * Metrics: "time" (median ns per iteration; lower/upper its CI, n the
 * samples), the throughputs "flop_per_s", "bytes_per_s", "items_per_s",
 * every extra metric (median of its run values; lower/upper their range, n
 * their count), "roofline_fraction" and "peak_rss_kb". A case without any
 * metric (not ok) has one row with an empty metric. Numbers are printed
 * with %.17g, so they read back as the same doubles. */
#include "report.h"

#include "bh_json_write.h"
#include "bh_mem.h"
#include "result_view.h"
#include "report_case.h"
#include "report_text.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char header[] = "id,plugin,benchmark,params,backend,device,status,metric,unit,"
                             "direction,value,lower,upper,n,verdict,severity,change,change_lo,"
                             "change_hi,q,message\r\n";

/* One metric's figures. */
typedef struct mrow {
    const char *metric, *unit, *direction;
    double value, lower, upper, n;
} mrow;

/* Appends one field and its separator. */
static void field(bh_strbuf *b, const char *s)
{
    bh_report_csv_field(b, s);
    bh_strbuf_append(b, ",", 1);
}

/* Appends one number field (empty when not finite) and its separator. */
static void num(bh_strbuf *b, double v)
{
    bh_report_num17(b, v);
    bh_strbuf_append(b, ",", 1);
}

/* The change of r for metric, or NULL. */
static const bh_rv_change *change_for(const bh_rv_case *r, const char *metric)
{
    for (size_t i = 0; i < r->n_changes; i++)
        if (strcmp(r->changes[i].metric, metric) == 0)
            return &r->changes[i];
    return NULL;
}

/* Appends the row of case r for metric m (NULL: the row of a case without
 * metrics). */
static void emit(bh_strbuf *b, const bh_rv_case *r, const char *params, const mrow *m)
{
    const bh_rv_change *ch = m ? change_for(r, m->metric) : NULL;

    field(b, r->id);
    field(b, r->plugin);
    field(b, r->bench);
    field(b, params);
    field(b, r->backend);
    if (r->device >= 0)
        bh_strbuf_printf(b, "%ld", r->device);
    bh_strbuf_append(b, ",", 1);
    field(b, r->status);
    field(b, m ? m->metric : "");
    field(b, m ? m->unit : "");
    field(b, m ? m->direction : "");
    num(b, m ? m->value : NAN);
    num(b, m ? m->lower : NAN);
    num(b, m ? m->upper : NAN);
    num(b, m ? m->n : NAN);
    field(b, ch ? ch->verdict : "");
    field(b, ch && ch->severity ? ch->severity : "");
    num(b, ch ? ch->change : NAN);
    num(b, ch ? ch->lo : NAN);
    num(b, ch ? ch->hi : NAN);
    num(b, ch ? ch->q : NAN);
    bh_report_csv_field(b, r->message);
    bh_strbuf_puts(b, "\r\n");
}

/* Median, min, max and count of a metric's values. */
static void metric_stats(const bh_rv_metric *k, mrow *m)
{
    m->metric = k->name;
    m->unit = k->unit;
    m->direction = k->higher_better ? "higher" : "lower";
    m->value = k->median;
    /* the view keeps a metric's values sorted */
    m->lower = k->n_values ? k->values[0] : NAN;
    m->upper = k->n_values ? k->values[k->n_values - 1] : NAN;
    m->n = (double)k->n_values;
}

/* Appends every row of one case. */
static void case_rows(bh_strbuf *b, const bh_rv_case *r)
{
    static const char *const tkeys[] = {"flop_per_s", "bytes_per_s", "items_per_s"};
    static const char *const tunits[] = {"FLOP/s", "B/s", "items/s"};
    const double tvals[] = {r->flop_per_s, r->bytes_per_s, r->items_per_s};
    const cJSON *params = r->params;
    char *ptext = params ? bh_json_print_unformatted(params) : NULL;
    const char *pt = ptext ? ptext : "";
    size_t rows = 0;
    double rss = r->memory_peak_rss_kb;

    if (r->summary.present) {
        bh_report_median m;
        mrow t;

        /* the median every report prints: of the run medians (n: how many),
         * with its 95% interval */
        bh_report_case_median(r, &m);
        t = (mrow){"time", "ns/iter", "lower", m.med, m.lo, m.hi,
                   m.runs ? (double)m.runs : r->summary.n};
        emit(b, r, pt, &t);
        rows++;
    }
    for (int k = 0; k < 3; k++) {
        mrow t = {tkeys[k], tunits[k], "higher", tvals[k], NAN, NAN, NAN};

        if (isfinite(t.value)) {
            emit(b, r, pt, &t);
            rows++;
        }
    }
    for (size_t i = 0; i < r->n_metrics; i++) {
        mrow t;

        metric_stats(&r->metrics[i], &t);
        emit(b, r, pt, &t);
        rows++;
    }
    if (isfinite(r->roof.fraction)) {
        mrow t = {"roofline_fraction", "fraction", "higher", r->roof.fraction, NAN, NAN, NAN};
        emit(b, r, pt, &t);
        rows++;
    }
    if (rss > 0 && rows) {
        mrow t = {"peak_rss_kb", "KiB", "lower", rss, NAN, NAN, NAN};
        emit(b, r, pt, &t);
        rows++;
    }
    for (size_t i = 0; i < r->n_changes && rows; i++) {
        /* compared figures without a row above: host-API allocations and
           the spread of the time (time_spread, verdict noisier) */
        const bh_rv_change *ch = &r->changes[i];
        mrow t = {ch->metric, ch->unit, ch->higher_better ? "higher" : "lower", ch->cand,
                  NAN, NAN, ch->n_cand};

        if (strcmp(ch->metric, "alloc_bytes") == 0 || strcmp(ch->metric, "alloc_count") == 0 ||
            strcmp(ch->metric, "time_spread") == 0) {
            emit(b, r, pt, &t);
            rows++;
        }
    }
    if (rows == 0)
        emit(b, r, pt, NULL);
    free(ptext);
}

/* See report.h: the CSV of doc, appended to out. */
void bh_report_csv(const cJSON *doc, bh_strbuf *out)
{
    bh_result_view view;

    bh_result_view_load(doc, &view);
    bh_strbuf_puts(out, header);
    for (size_t i = 0; i < view.n_cases; i++)
        case_rows(out, &view.cases[i]);
    bh_result_view_free(&view);
}
