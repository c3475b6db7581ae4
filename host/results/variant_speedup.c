// SPDX-License-Identifier: MIT
/* SIMD speedup of vector variants over their scalar twins (see
 * variant_speedup.h). */
#include "variant_speedup.h"

#include "bh_mem.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A string member, or NULL. */
static const char *str(const cJSON *o, const char *key)
{
    const cJSON *it = cJSON_GetObjectItemCaseSensitive(o, key);

    return cJSON_IsString(it) ? it->valuestring : NULL;
}

/* The summary median of an ok case, NAN otherwise. */
static double ok_median(const cJSON *c)
{
    const cJSON *m = cJSON_GetObjectItemCaseSensitive(
        cJSON_GetObjectItemCaseSensitive(c, "summary"), "median");
    const char *st = str(c, "status");

    return st && strcmp(st, "ok") == 0 && cJSON_IsNumber(m) ? m->valuedouble : NAN;
}

/* The id of c with its "variant=vector" parameter as "variant=scalar"
 * (new string), or NULL when the id does not carry it. */
static char *twin_id(const char *id)
{
    const char *v = strstr(id, "variant=vector");
    size_t pre;

    if (!v || (v[14] != ',' && v[14] != ']') || (v[-1] != '[' && v[-1] != ','))
        return NULL;
    pre = (size_t)(v - id);
    return bh_xasprintf("%.*svariant=scalar%s", (int)pre, id, v + 14);
}

/* The case of doc with the given id, or NULL. */
static const cJSON *find(const cJSON *cases, const char *id)
{
    const cJSON *c;

    cJSON_ArrayForEach(c, cases) {
        const char *cid = str(c, "id");

        if (cid && strcmp(cid, id) == 0)
            return c;
    }
    return NULL;
}

/* See variant_speedup.h. */
int bh_variant_speedup_apply(cJSON *doc)
{
    cJSON *cases = cJSON_GetObjectItemCaseSensitive(doc, "cases");
    cJSON *c;
    int n = 0;

    cJSON_ArrayForEach(c, cases) {
        const char *id = str(c, "id");
        char *twin = id ? twin_id(id) : NULL;
        const cJSON *t = twin ? find(cases, twin) : NULL;
        double vec = ok_median(c), sca = t ? ok_median(t) : NAN;
        cJSON *metrics = cJSON_GetObjectItemCaseSensitive(c, "metrics");
        cJSON *m;

        if (vec > 0 && sca > 0 && cJSON_IsObject(metrics) &&
            !cJSON_GetObjectItemCaseSensitive(metrics, BH_SIMD_SPEEDUP)) {
            m = cJSON_AddObjectToObject(metrics, BH_SIMD_SPEEDUP);
            cJSON_AddStringToObject(m, "unit", "x");
            cJSON_AddStringToObject(m, "direction", "higher");
            cJSON_AddStringToObject(m, "kind", "informational");
            cJSON_AddItemToArray(cJSON_AddArrayToObject(m, "values"),
                                 cJSON_CreateNumber(sca / vec));
            cJSON_AddStringToObject(c, "speedup_over", twin);
            n++;
        }
        free(twin);
    }
    return n;
}
