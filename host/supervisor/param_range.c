// SPDX-License-Identifier: MIT
/* Parameter ranges in words (see param_range.h). */
#include "param_range.h"

#include "ipc.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* Beyond this an integer bound means "no limit": 2^53, the largest double
 * every integer below is exact in (plugins write INT64_MAX or 2^53). */
#define OPEN_I64 9007199254740992.0
/* The same for a real bound. */
#define OPEN_F64 (DBL_MAX / 2)

/* Prints one bound v into buf: an integer for i64, %g otherwise. */
static void bound_text(double v, int integer, char *buf, size_t cap)
{
    if (integer)
        snprintf(buf, cap, "%.0f", v);
    else
        snprintf(buf, cap, "%g", v);
}

const char *bh_param_range_text(const cJSON *pd, char *buf, size_t cap)
{
    int integer = strcmp(bh_json_str(pd, "type", ""), "i64") == 0;
    double open = integer ? OPEN_I64 : OPEN_F64;
    double lo, hi;
    int lo_open, hi_open;
    char a[40], b[40];

    if (cap)
        buf[0] = '\0';
    if (!cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(pd, "min")) ||
        !cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(pd, "max")))
        return buf;
    lo = bh_json_num(pd, "min", 0);
    hi = bh_json_num(pd, "max", 0);
    lo_open = lo <= -open || isinf(lo);
    hi_open = hi >= open || isinf(hi);
    bound_text(lo, integer, a, sizeof(a));
    bound_text(hi, integer, b, sizeof(b));
    if (lo_open && hi_open)
        snprintf(buf, cap, "any value");
    else if (hi_open)
        snprintf(buf, cap, ">= %s", a);
    else if (lo_open)
        snprintf(buf, cap, "<= %s", b);
    else
        snprintf(buf, cap, "[%s, %s]", a, b);
    return buf;
}
