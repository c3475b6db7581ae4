// SPDX-License-Identifier: MIT
/* The console's ratios section: each pair of the config's ratios: (doc
 * .ratios, host/pipeline/ratio_build.c) as the ratio of median times with
 * its bootstrap interval, or why it has none. */
#include "console.h"

#include <math.h>
#include <string.h>

/* The number key of o, NAN when absent. */
static double num(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

    return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

/* The string key of o, "?" when absent. */
static const char *str(const cJSON *o, const char *key)
{
    const char *s = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, key));

    return s ? s : "?";
}

void bh_report_console_ratios(FILE *out, const cJSON *doc)
{
    const cJSON *list = cJSON_GetObjectItemCaseSensitive(doc, "ratios"), *r;
    int width = 4;

    if (cJSON_GetArraySize(list) == 0)
        return;
    cJSON_ArrayForEach(r, list) {
        int n = (int)strlen(str(r, "name"));

        width = n > width ? (n < 48 ? n : 48) : width;
    }
    fprintf(out,
            "ratios (time of case / time of reference, ratio of medians, %.0f%% bootstrap "
            "CI over runs; below 1: bhost is faster):\n",
            isnan(num(cJSON_GetArrayItem(list, 0), "level"))
                ? 95.0
                : num(cJSON_GetArrayItem(list, 0), "level") * 100);
    cJSON_ArrayForEach(r, list) {
        if (strcmp(str(r, "status"), "ok") != 0) {
            fprintf(out, "  %-*s  unavailable: %s\n", width, str(r, "name"), str(r, "reason"));
            continue;
        }
        fprintf(out, "  %-*s  %8.3fx  [%.3f, %.3f]  %s / %s\n", width, str(r, "name"),
                num(r, "ratio"), num(r, "ci_lo"), num(r, "ci_hi"), str(r, "case"),
                str(r, "reference"));
    }
}
