// SPDX-License-Identifier: MIT
/* Reading what the importers import (import_internal.h): JSON text with
 * the line of a syntax error, numbers, strings, units of time and dates
 * as the sources write them. */
#define _GNU_SOURCE
#include "import_internal.h"

#include "bh_mem.h"
#include "result_read.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

/* The 1-based line of offset off in text. */
static size_t line_of(const char *text, size_t off)
{
    size_t line = 1;

    for (size_t i = 0; i < off; i++)
        line += text[i] == '\n';
    return line;
}

cJSON *bh_imp_parse(const char *text, size_t len, const char *expected, bh_error *e)
{
    const char *end = NULL;
    cJSON *root = cJSON_ParseWithLengthOpts(text, len, &end, 0);
    size_t off, rest, open = 0;

    if (root)
        return root;
    off = end && end >= text && end <= text + len ? (size_t)(end - text) : 0;
    rest = off;
    while (rest < len && strchr(" \t\r\n", text[rest]))
        rest++;
    /* a text cut short ends inside a string or with a bracket left open */
    bh_result_json_depth(text, len, &open);
    if (len == 0 || rest >= len || open > 0)
        bh_error_set(e, "%zu: the JSON ends early, a truncated file? (expected %s)",
                     line_of(text, off), expected);
    else
        bh_error_set(e, "%zu: not valid JSON (expected %s)", line_of(text, off), expected);
    return NULL;
}

double bh_imp_unit_ns(const char *unit)
{
    static const struct {
        const char *name;
        double ns;
    } units[] = {{"ns", 1},
                 {"nanosecond", 1},
                 {"nanoseconds", 1},
                 {"us", 1e3},
                 {"\xc2\xb5s", 1e3},
                 {"microsecond", 1e3},
                 {"microseconds", 1e3},
                 {"ms", 1e6},
                 {"millisecond", 1e6},
                 {"milliseconds", 1e6},
                 {"s", 1e9},
                 {"sec", 1e9},
                 {"second", 1e9},
                 {"seconds", 1e9}};

    for (size_t i = 0; unit && i < sizeof(units) / sizeof(*units); i++)
        if (strcasecmp(unit, units[i].name) == 0)
            return units[i].ns;
    return 0;
}

int bh_imp_num(const cJSON *o, const char *key, double *v)
{
    const cJSON *n = cJSON_GetObjectItemCaseSensitive(o, key);

    if (!cJSON_IsNumber(n) || !isfinite(n->valuedouble))
        return 0;
    *v = n->valuedouble;
    return 1;
}

const char *bh_imp_str(const cJSON *o, const char *key)
{
    return cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, key));
}

int bh_imp_whole(double v)
{
    return isfinite(v) && v >= 1 && v <= 9007199254740992.0 && floor(v) == v;
}

/* The UTC ISO 8601 text of tm (UTC). */
static char *iso(struct tm *tm)
{
    char buf[32];

    if (strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", tm) == 0)
        return NULL;
    return bh_xstrdup(buf);
}

char *bh_imp_date(const char *text)
{
    struct tm tm;
    const char *rest;
    int sign, hh = 0, mm = 0;
    time_t t;

    memset(&tm, 0, sizeof(tm));
    if (!text || !(rest = strptime(text, "%Y-%m-%d", &tm)) || (*rest != 'T' && *rest != ' '))
        return NULL;
    if (!(rest = strptime(rest + 1, "%H:%M:%S", &tm)))
        return NULL;
    if (*rest == '.')
        rest += 1 + strspn(rest + 1, "0123456789");
    t = timegm(&tm);
    sign = *rest == '+' ? -1 : *rest == '-' ? 1 : 0;
    if (sign && sscanf(rest + 1, "%2d:%2d", &hh, &mm) >= 1)
        t += sign * (hh * 3600 + mm * 60);
    if (!gmtime_r(&t, &tm))
        return NULL;
    return iso(&tm);
}

char *bh_imp_date_ms(double ms)
{
    struct tm tm;
    time_t t;

    if (!isfinite(ms) || ms < 0 || ms > 253402300799000.0)
        return NULL;
    t = (time_t)(ms / 1000);
    if (!gmtime_r(&t, &tm))
        return NULL;
    return iso(&tm);
}
