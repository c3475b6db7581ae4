// SPDX-License-Identifier: MIT
/* The run's note on counters and energy meters under the console table
 * (see console.h): printed once, not per case. */
#include "console.h"

#include <string.h>

/* obj's string member key, or dflt. */
static const char *str(const cJSON *obj, const char *key, const char *dflt)
{
    const char *v = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(obj, key));

    return v ? v : dflt;
}

/* The first case's record key that is an object, or NULL. */
static const cJSON *first_record(const cJSON *doc, const char *key)
{
    const cJSON *c;

    cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(doc, "cases")) {
        const cJSON *r = cJSON_GetObjectItemCaseSensitive(c, key);

        if (cJSON_IsObject(r))
            return r;
    }
    return NULL;
}

/* One line on the energy domains whose figures were left out (status
 * too_short or implausible, docs/measurement.md) over every case: how
 * many, and the first one's case, domain and reason. */
static void energy_left_out(FILE *out, const cJSON *doc)
{
    const cJSON *c, *d, *first = NULL, *first_case = NULL;
    int n = 0, all = 0;

    cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(doc, "cases")) {
        const cJSON *en = cJSON_GetObjectItemCaseSensitive(c, "energy");

        cJSON_ArrayForEach(d, cJSON_GetObjectItemCaseSensitive(en, "domains")) {
            all++;
            if (strcmp(str(d, "status", "ok"), "ok") == 0)
                continue;
            if (!first) {
                first = d;
                first_case = c;
            }
            n++;
        }
    }
    if (n)
        fprintf(out,
                "  energy: %d of %d domain figures left out (too short a window or "
                "implausible); first, %s %s: %s: %s\n",
                n, all, str(first_case, "id", "?"), str(first, "name", "?"),
                str(first, "status", "?"), str(first, "reason", "no reason given"));
}

/* See console.h. */
void bh_report_console_meters(FILE *out, const cJSON *doc)
{
    const cJSON *ctr = first_record(doc, "counters");
    const cJSON *en = first_record(doc, "energy");

    const char *st = str(ctr, "status", "ok");

    if (ctr && strcmp(st, "ok") != 0 && strcmp(st, "off") != 0) {
        const cJSON *sw = cJSON_GetObjectItemCaseSensitive(ctr, "software");

        fprintf(out, "  counters: %s: %s", st, str(ctr, "reason", "no reason given"));
        if (strcmp(str(sw, "status", ""), "ok") == 0)
            fprintf(out, "; software events counted (task-clock, context switches, "
                         "page faults)");
        fputc('\n', out);
    } else if (ctr && cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(ctr, "multiplexed"))) {
        fprintf(out, "  counters: the groups were multiplexed: counts scaled by "
                     "time_enabled / time_running\n");
    }
    if (en && strcmp(str(en, "status", "ok"), "unsupported") == 0)
        fprintf(out, "  energy: unsupported: %s\n", str(en, "reason", "no reason given"));
    energy_left_out(out, doc);
}
