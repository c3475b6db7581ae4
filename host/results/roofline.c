// SPDX-License-Identifier: MIT
#include "roofline.h"

#include "result_read.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The highest median of metric name over ok cases, and its case id. */
static double best_roof(const cJSON *cases, const char *name,
                        const char **from)
{
    double best = NAN;
    const cJSON *c;

    cJSON_ArrayForEach(c, cases) {
        const cJSON *st = cJSON_GetObjectItemCaseSensitive(c, "status");
        const cJSON *m = cJSON_GetObjectItemCaseSensitive(
            cJSON_GetObjectItemCaseSensitive(c, "metrics"), name);
        double v;

        if (!m || !cJSON_IsString(st) || strcmp(st->valuestring, "ok") != 0)
            continue;
        v = bh_result_metric_median(m);
        if (isfinite(v) && v > 0 && !(v <= best)) {
            best = v;
            *from = cJSON_GetObjectItemCaseSensitive(c, "id")->valuestring;
        }
    }
    return best;
}

static double num(const cJSON *o, const char *key)
{
    const cJSON *it = cJSON_GetObjectItemCaseSensitive(o, key);

    return cJSON_IsNumber(it) ? it->valuedouble : NAN;
}

/* Adds the roofline object of one case. */
static void apply_case(cJSON *c, double bw, double peak)
{
    const cJSON *tp = cJSON_GetObjectItemCaseSensitive(c, "throughput");
    double flops = num(tp, "flop_per_s");
    double bytes = num(tp, "bytes_per_s");
    cJSON *r;

    if (!(flops > 0) && !(bytes > 0))
        return;
    r = cJSON_CreateObject();
    if (flops > 0 && bytes > 0 && bw > 0 && peak > 0) {
        double ai = flops / bytes;
        double attainable = fmin(peak, ai * bw);

        cJSON_AddNumberToObject(r, "intensity_flop_per_byte", ai);
        cJSON_AddNumberToObject(r, "attainable", attainable);
        cJSON_AddStringToObject(r, "unit", "FLOP/s");
        cJSON_AddStringToObject(r, "bound",
                                ai * bw < peak ? "memory" : "compute");
        cJSON_AddNumberToObject(r, "fraction", flops / attainable);
    } else if (flops > 0 && peak > 0) {
        cJSON_AddNumberToObject(r, "attainable", peak);
        cJSON_AddStringToObject(r, "unit", "FLOP/s");
        cJSON_AddStringToObject(r, "bound", "compute");
        cJSON_AddNumberToObject(r, "fraction", flops / peak);
    } else if (bytes > 0 && bw > 0) {
        cJSON_AddNumberToObject(r, "attainable", bw);
        cJSON_AddStringToObject(r, "unit", "B/s");
        cJSON_AddStringToObject(r, "bound", "memory");
        cJSON_AddNumberToObject(r, "fraction", bytes / bw);
    } else {
        cJSON_Delete(r);
        return;
    }
    cJSON_AddItemToObject(c, "roofline", r);
}

void bh_roofline_apply(cJSON *doc)
{
    cJSON *cases = cJSON_GetObjectItemCaseSensitive(doc, "cases");
    const char *bw_from = NULL;
    const char *peak_from = NULL;
    double bw = best_roof(cases, BH_ROOF_BANDWIDTH, &bw_from);
    double peak = best_roof(cases, BH_ROOF_FLOPS, &peak_from);
    cJSON *roofs;
    cJSON *c;

    if (!isfinite(bw) && !isfinite(peak))
        return;
    roofs = cJSON_AddObjectToObject(doc, "roofs");
    if (isfinite(bw)) {
        cJSON_AddNumberToObject(roofs, "bandwidth_bytes_per_s", bw);
        cJSON_AddStringToObject(roofs, "bandwidth_case", bw_from);
    }
    if (isfinite(peak)) {
        cJSON_AddNumberToObject(roofs, "flops_per_s", peak);
        cJSON_AddStringToObject(roofs, "flops_case", peak_from);
    }
    cJSON_ArrayForEach(c, cases)
        apply_case(c, isfinite(bw) ? bw : 0, isfinite(peak) ? peak : 0);
}
