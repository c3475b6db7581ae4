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
}
