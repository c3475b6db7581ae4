// SPDX-License-Identifier: MIT
/* Bencher Metric Format export: {benchmark: {measure: {value,
 * lower_value, upper_value}}} (bencher.dev BMF JSON).
 *
 * Benchmark names are the case ids; only cases with a summary appear (BMF
 * has no status). Measures: "latency" (median ns per iteration, bounds
 * the CI of the median), "throughput" (items/s), "flop_per_s",
 * "bytes_per_s", every extra metric by its name (median of the run values,
 * bounds their range), and "roofline_fraction". Numbers are written with
 * up to 17 significant digits, so they read back as the same doubles. */
#include "report.h"

#include "bh_json_write.h"
#include "result_view.h"
#include "report_case.h"
#include "report_text.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Adds measure name with value and, when finite, its bounds. */
static void measure(cJSON *bench, const char *name, double v, double lo, double hi)
{
    cJSON *m;

    if (!isfinite(v) || cJSON_GetObjectItemCaseSensitive(bench, name))
        return;
    m = cJSON_AddObjectToObject(bench, name);
    bh_report_json_num(m, "value", v);
    bh_report_json_num(m, "lower_value", lo);
    bh_report_json_num(m, "upper_value", hi);
}

/* An extra metric: median of its run values, bounded by min and max (the
 * view keeps the values sorted). Only performance metrics: BMF measures
 * are tracked over time and thresholded, which informational values
 * (threads, sizes) and errors held against a limit are not. */
static void extra(cJSON *bench, const bh_rv_metric *m)
{
    if (m->n_values && m->compared)
        measure(bench, m->name, m->median, m->values[0], m->values[m->n_values - 1]);
}

/* See report.h: the BMF document of doc, appended to out. */
void bh_report_bmf(const cJSON *doc, bh_strbuf *out)
{
    bh_result_view view;
    cJSON *root = cJSON_CreateObject();
    char *text;

    bh_result_view_load(doc, &view);
    for (size_t i = 0; i < view.n_cases; i++) {
        const bh_rv_case *r = &view.cases[i];
        bh_report_median med;
        cJSON *bench;

        if (!r->summary.present || cJSON_GetObjectItemCaseSensitive(root, r->id))
            continue;
        bench = cJSON_AddObjectToObject(root, r->id);
        bh_report_case_median(r, &med); /* of the run medians, 95% CI */
        measure(bench, "latency", med.med, med.lo, med.hi);
        measure(bench, "throughput", r->items_per_s, NAN, NAN);
        measure(bench, "flop_per_s", r->flop_per_s, NAN, NAN);
        measure(bench, "bytes_per_s", r->bytes_per_s, NAN, NAN);
        for (size_t k = 0; k < r->n_metrics; k++)
            extra(bench, &r->metrics[k]);
        measure(bench, "roofline_fraction", r->roof.fraction, NAN, NAN);
    }
    text = bh_json_print(root);
    if (text) {
        bh_strbuf_puts(out, text);
        bh_strbuf_puts(out, "\n");
        free(text);
    }
    cJSON_Delete(root);
    bh_result_view_free(&view);
}
