// SPDX-License-Identifier: MIT
/* The trend lines of bhost history --trend N (history_trend.h). */
#define _GNU_SOURCE
#include "history_trend.h"

#include "units.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "main@1a2b3c4d5e6f" or "-" into buf. */
static void revision(const bh_history_runs_info *info, size_t file, char *buf, size_t n)
{
    const char *b = info && file < info->n ? info->branch[file] : NULL;
    const char *c = info && file < info->n ? info->commit[file] : NULL;

    if (!b && !c)
        snprintf(buf, n, "-");
    else
        snprintf(buf, n, "%s%s%.12s", b ? b : "", b && c ? "@" : "", c ? c : "");
}

void bh_history_print_trend(FILE *out, const bh_history_set *set,
                            const bh_history_runs_info *info, const bh_history_series *s,
                            size_t last)
{
    static const char *const bars[] = {"\xe2\x96\x81", "\xe2\x96\x82", "\xe2\x96\x83",
                                       "\xe2\x96\x84", "\xe2\x96\x85", "\xe2\x96\x86",
                                       "\xe2\x96\x87", "\xe2\x96\x88"};
    size_t from = last && s->n > last ? s->n - last : 0;
    double lo = INFINITY, hi = -INFINITY;
    char a[32], b[32], rev[96];

    if (s->n == 0)
        return;
    for (size_t i = from; i < s->n; i++) {
        lo = fmin(lo, s->pts[i].value);
        hi = fmax(hi, s->pts[i].value);
    }
    fprintf(out, "  trend   ");
    for (size_t i = from; i < s->n; i++) {
        int k = hi > lo ? (int)floor(7.999 * (s->pts[i].value - lo) / (hi - lo)) : 0;

        fputs(bars[k], out);
    }
    bh_fmt_time(s->pts[from].value, a, sizeof(a));
    bh_fmt_time(s->pts[s->n - 1].value, b, sizeof(b));
    fprintf(out, "  last %zu of %zu: %s -> %s (%+.2f%%)\n", s->n - from, s->n, a, b,
            100.0 * (s->pts[s->n - 1].value / s->pts[from].value - 1.0));
    for (size_t i = from; i < s->n; i++) {
        const bh_history_point *p = &s->pts[i];

        bh_fmt_time(p->value, a, sizeof(a));
        revision(info, p->file, rev, sizeof(rev));
        fprintf(out, "    %s  %-28s %12s", set->files[p->file].started_at, rev, a);
        if (i > from)
            fprintf(out, "  %+7.2f%%", 100.0 * (p->value / s->pts[i - 1].value - 1.0));
        fputc('\n', out);
    }
}

/* A string or null. */
static cJSON *str_or_null(const char *s)
{
    return s ? cJSON_CreateString(s) : cJSON_CreateNull();
}

cJSON *bh_history_trend_json(const bh_history_set *set, const bh_history_runs_info *info,
                             const bh_history_series *s, size_t last)
{
    cJSON *arr = cJSON_CreateArray();
    size_t from = last && s->n > last ? s->n - last : 0;

    for (size_t i = from; i < s->n; i++) {
        const bh_history_point *p = &s->pts[i];
        int known = info && p->file < info->n;
        cJSON *j = cJSON_CreateObject();

        cJSON_AddStringToObject(j, "date", set->files[p->file].started_at);
        cJSON_AddStringToObject(j, "file", set->files[p->file].path);
        if (known)
            cJSON_AddNumberToObject(j, "run", (double)info->run_id[p->file]);
        else
            cJSON_AddNullToObject(j, "run");
        cJSON_AddItemToObject(j, "commit", str_or_null(known ? info->commit[p->file] : NULL));
        cJSON_AddItemToObject(j, "branch", str_or_null(known ? info->branch[p->file] : NULL));
        cJSON_AddNumberToObject(j, "value", p->value);
        cJSON_AddItemToArray(arr, j);
    }
    return arr;
}
