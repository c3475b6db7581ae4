// SPDX-License-Identifier: MIT
/* Reading the compared values out of the cases of a result view, and the
 * keys cases are matched by. */
#include "regress_compare.h"

#include "bh_mem.h"
#include "bh_strbuf.h"
#include "memory_compare.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Run indexes at or above this are ignored (a slot array is allocated up
 * to the largest index). */
#define MAX_RUN_INDEX 1000000

/* The value of metric for one run, NAN unless the run is ok: its median
 * ns/iter for BH_REGRESS_TIME (NAN unless > 0), else the median of the
 * values it reported for the metric. */
static double run_value(const bh_rv_run *r, const char *metric)
{
    if (!r->ok)
        return NAN;
    if (strcmp(metric, BH_REGRESS_TIME) == 0)
        return isfinite(r->median_ns) && r->median_ns > 0 ? r->median_ns : NAN;
    {
        double v = bh_rv_run_metric_value(r, metric);

        /* a memory metric, unless the plugin reports one of that name */
        if (isnan(v) && bh_regress_is_memory_metric(metric))
            return bh_regress_memory_run_value(r, metric);
        return v;
    }
}

void bh_regress_run_values_indexed(const bh_rv_case *c, const char *metric,
                                   double **out, size_t *n)
{
    size_t top = 0;

    *out = NULL;
    *n = 0;
    for (size_t i = 0; i < c->n_runs; i++)
        if (c->runs[i].index >= 0 && c->runs[i].index < MAX_RUN_INDEX &&
            (size_t)c->runs[i].index + 1 > top)
            top = (size_t)c->runs[i].index + 1;
    if (top == 0)
        return;
    *out = bh_xcalloc(top, sizeof(double));
    for (size_t i = 0; i < top; i++)
        (*out)[i] = NAN;
    for (size_t i = 0; i < c->n_runs; i++)
        if (c->runs[i].index >= 0 && c->runs[i].index < MAX_RUN_INDEX)
            (*out)[c->runs[i].index] = run_value(&c->runs[i], metric);
    *n = top;
}

void bh_regress_run_values(const bh_rv_case *c, const char *metric, double **out,
                           size_t *n)
{
    *out = NULL;
    *n = 0;
    if (c->n_runs == 0)
        return;
    *out = bh_xcalloc(c->n_runs, sizeof(double));
    for (size_t i = 0; i < c->n_runs; i++) {
        double v = run_value(&c->runs[i], metric);

        if (!isnan(v))
            (*out)[(*n)++] = v;
    }
    if (*n == 0) {
        free(*out);
        *out = NULL;
    }
}

/* True when key is among the ignored parameters. */
static int ignored(const bh_regress_match *m, const char *key, size_t len)
{
    for (size_t i = 0; m && i < m->n_ignore; i++)
        if (strlen(m->ignore_params[i]) == len && strncmp(m->ignore_params[i], key, len) == 0)
            return 1;
    return 0;
}

/* Length of the parameter key starting at s when it is one of the case's
 * parameters followed by '=', else 0. */
static size_t param_key_at(const cJSON *params, const char *s)
{
    const cJSON *p;

    cJSON_ArrayForEach(p, params) {
        size_t len = strlen(p->string);

        if (strncmp(s, p->string, len) == 0 && s[len] == '=')
            return len;
    }
    return 0;
}

char *bh_regress_match_key(const bh_rv_case *c, const bh_regress_match *match)
{
    return bh_regress_id_key(c->id, c->params, match);
}

char *bh_regress_id_key(const char *id, const cJSON *params, const bh_regress_match *match)
{
    const char *open = strchr(id, '[');
    const char *at = strrchr(id, '@');
    const char *close;
    bh_strbuf b = BH_STRBUF_INIT;
    size_t kept = 0;
    char *key;

    if (!match || match->n_ignore == 0 || !open)
        return bh_xstrdup(id);
    close = at && at > open ? at - 1 : id + strlen(id) - 1;
    if (close <= open || *close != ']')
        return bh_xstrdup(id);
    bh_strbuf_printf(&b, "%.*s", (int)(open - id), id);
    for (const char *s = open + 1; s < close;) {
        size_t klen = param_key_at(params, s);
        const char *e = s;

        /* A segment runs to the next ",key=" of a known parameter. */
        do {
            e = memchr(e + 1, ',', (size_t)(close - e - 1));
        } while (e && !param_key_at(params, e + 1));
        if (!e)
            e = close;
        if (!(klen && ignored(match, s, klen))) {
            bh_strbuf_printf(&b, "%s%.*s", kept ? "," : "[", (int)(e - s), s);
            kept++;
        }
        s = e < close ? e + 1 : close;
    }
    if (kept)
        bh_strbuf_printf(&b, "]");
    bh_strbuf_printf(&b, "%s", close + 1);
    key = bh_xstrdup(bh_strbuf_str(&b));
    bh_strbuf_free(&b);
    return key;
}
