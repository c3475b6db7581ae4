// SPDX-License-Identifier: MIT
/* Typed member access for the result view (see view_json.h). */
#include "view_json.h"

#include "bh_mem.h"
#include "descriptive.h"

#include <math.h>
#include <stdlib.h>

/* See view_json.h. */
double bh_vj_num(const cJSON *o, const char *key)
{
    const cJSON *it = cJSON_IsObject(o) ? cJSON_GetObjectItemCaseSensitive(o, key) : NULL;

    return cJSON_IsNumber(it) ? it->valuedouble : NAN;
}

/* See view_json.h. */
const char *bh_vj_str(const cJSON *o, const char *key, const char *dflt)
{
    const cJSON *it = cJSON_IsObject(o) ? cJSON_GetObjectItemCaseSensitive(o, key) : NULL;

    return cJSON_IsString(it) && it->valuestring ? it->valuestring : dflt;
}

/* See view_json.h. */
const cJSON *bh_vj_obj(const cJSON *o, const char *key)
{
    const cJSON *it = cJSON_IsObject(o) ? cJSON_GetObjectItemCaseSensitive(o, key) : NULL;

    return cJSON_IsObject(it) ? it : NULL;
}

/* See view_json.h. */
const cJSON *bh_vj_arr(const cJSON *o, const char *key)
{
    const cJSON *it = cJSON_IsObject(o) ? cJSON_GetObjectItemCaseSensitive(o, key) : NULL;

    return cJSON_IsArray(it) ? it : NULL;
}

/* See view_json.h. */
int bh_vj_bool(const cJSON *o, const char *key)
{
    const cJSON *it = cJSON_IsObject(o) ? cJSON_GetObjectItemCaseSensitive(o, key) : NULL;

    return cJSON_IsBool(it) ? cJSON_IsTrue(it) : -1;
}

/* See view_json.h. */
long bh_vj_index(const cJSON *o, const char *key)
{
    double v = bh_vj_num(o, key);

    return isfinite(v) && v >= 0 && v < 1e9 && v == floor(v) ? (long)v : -1;
}

/* See view_json.h. */
double bh_vj_array_median(const cJSON *arr, double **vals, size_t *n)
{
    size_t cap = cJSON_IsArray(arr) ? (size_t)cJSON_GetArraySize(arr) : 0, k = 0;
    double *v = cap ? bh_xcalloc(cap, sizeof(double)) : NULL;
    double m;
    const cJSON *it;

    if (cap)
        cJSON_ArrayForEach(it, arr) if (cJSON_IsNumber(it) && isfinite(it->valuedouble)) v[k++] =
            it->valuedouble;
    m = k ? bh_stats_median(v, k) : NAN;
    if (k == 0) {
        free(v);
        v = NULL;
    }
    if (vals)
        *vals = v;
    else
        free(v);
    if (n)
        *n = k;
    return m;
}
