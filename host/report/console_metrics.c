// SPDX-License-Identifier: MIT
/* The plugin-metrics line under a row of the console table (see console.h). */
#include "console.h"

#include <math.h>

#define MAX_SHOWN 6 /* metrics named on the line; the rest are counted */

/* See console.h. */
void bh_report_console_metrics(FILE *out, const bh_rv_case *c)
{
    int shown = 0, more = 0;

    for (size_t i = 0; i < c->n_metrics; i++) {
        const bh_rv_metric *m = &c->metrics[i];

        /* the row's throughput already shows the metric it came from */
        if (!isfinite(m->median) || (*m->unit && m->unit == c->rate_unit))
            continue;
        if (shown == MAX_SHOWN) {
            more++;
            continue;
        }
        fprintf(out, "%s%s %.4g%s%s", shown++ ? ", " : "    metrics: ", m->name, m->median,
                *m->unit ? " " : "", m->unit);
    }
    if (more)
        fprintf(out, " (and %d more)", more);
    if (shown)
        fputc('\n', out);
}
