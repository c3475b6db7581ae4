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
#include "bh_mem.h"
#include "report_case.h"
#include "report_text.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* qsort order of doubles, ascending. */
static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;

    return (x > y) - (x < y);
}

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

/* An extra metric: median of its run values, bounded by min and max. */
static void extra(cJSON *bench, const char *name, const cJSON *vals)
{
    size_t cap = (size_t)cJSON_GetArraySize(vals);
    double *v = bh_xcalloc(cap ? cap : 1, sizeof(double));
    size_t n = 0;
    const cJSON *it;

    cJSON_ArrayForEach(it, vals) if (cJSON_IsNumber(it) && isfinite(it->valuedouble)) v[n++] =
        it->valuedouble;
    if (n) {
        qsort(v, n, sizeof(double), cmp_double);
        measure(bench, name, n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]), v[0],
                v[n - 1]);
    }
    free(v);
}

/* See report.h: the BMF document of doc, appended to out. */
void bh_report_bmf(const cJSON *doc, bh_strbuf *out)
{
    bh_report_rows rows;
    cJSON *root = cJSON_CreateObject();
    char *text;

    bh_report_rows_load(doc, &rows);
    for (size_t i = 0; i < rows.n; i++) {
        const bh_report_row *r = &rows.v[i];
        const cJSON *tp = cJSON_GetObjectItemCaseSensitive(r->json, "throughput");
        const cJSON *m;
        cJSON *bench;

        if (!r->has_summary || cJSON_GetObjectItemCaseSensitive(root, r->id))
            continue;
        bench = cJSON_AddObjectToObject(root, r->id);
        measure(bench, "latency", r->median, r->lo, r->hi);
        measure(bench, "throughput", bh_report_num(tp, "items_per_s"), NAN, NAN);
        measure(bench, "flop_per_s", bh_report_num(tp, "flop_per_s"), NAN, NAN);
        measure(bench, "bytes_per_s", bh_report_num(tp, "bytes_per_s"), NAN, NAN);
        cJSON_ArrayForEach(m, cJSON_GetObjectItemCaseSensitive(r->json, "metrics")) if (m->string)
            extra(bench, m->string, cJSON_GetObjectItemCaseSensitive(m, "values"));
        measure(bench, "roofline_fraction", r->roof_fraction, NAN, NAN);
    }
    text = bh_json_print(root);
    if (text) {
        bh_strbuf_puts(out, text);
        bh_strbuf_puts(out, "\n");
        free(text);
    }
    cJSON_Delete(root);
    bh_report_rows_free(&rows);
}
