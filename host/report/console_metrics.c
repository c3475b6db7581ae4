// SPDX-License-Identifier: MIT
/* The plugin-metrics line under a row of the console table (see console.h). */
#include "console.h"

#include "report_case.h"

#include <math.h>
#include <string.h>

#define MAX_SHOWN 6 /* metrics named on the line; the rest are counted */

/* See console.h. */
void bh_report_console_metrics(FILE *out, const bh_report_row *r)
{
    const cJSON *m;
    int shown = 0, more = 0;

    cJSON_ArrayForEach(m, cJSON_GetObjectItemCaseSensitive(r->json, "metrics")) {
        const cJSON *u = cJSON_GetObjectItemCaseSensitive(m, "unit");
        const char *unit = cJSON_IsString(u) ? u->valuestring : "";
        double v = bh_report_array_median(cJSON_GetObjectItemCaseSensitive(m, "values"));

        /* the row's throughput already shows the metric it came from */
        if (!m->string || !isfinite(v) || (*unit && unit == r->rate_unit))
            continue;
        if (shown == MAX_SHOWN) {
            more++;
            continue;
        }
        fprintf(out, "%s%s %.4g%s%s", shown++ ? ", " : "    metrics: ", m->string, v,
                *unit ? " " : "", unit);
    }
    if (more)
        fprintf(out, " (and %d more)", more);
    if (shown)
        fputc('\n', out);
}
