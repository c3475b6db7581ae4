// SPDX-License-Identifier: MIT
/* Reading the compared values out of result case objects, and the keys
 * cases are matched by. */
#include "regress_compare.h"

#include "bh_mem.h"
#include "bh_strbuf.h"
#include "descriptive.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Median of v[0..n) (reordered); NAN when n == 0. */
static double median_inplace(double *v, size_t n)
{
    if (n == 0)
        return NAN;
    bh_stats_sort(v, n);
    return bh_stats_median_sorted(v, n);
}

/* The median ns/iter of a run's samples; NAN when none is valid or the
 * median is not > 0. */
static double run_time(const cJSON *run)
{
    const cJSON *samples = cJSON_GetObjectItemCaseSensitive(run, "samples");
    size_t cap = (size_t)cJSON_GetArraySize(samples), n = 0;
    double *v, m;
    const cJSON *p;

    if (cap == 0)
        return NAN;
    v = bh_xcalloc(cap, sizeof(*v));
    cJSON_ArrayForEach(p, samples) {
        const cJSON *it = cJSON_GetArrayItem(p, 0);
        const cJSON *ns = cJSON_GetArrayItem(p, 1);

        if (cJSON_IsNumber(it) && cJSON_IsNumber(ns) && it->valuedouble >= 1 &&
            ns->valuedouble >= 0 && isfinite(ns->valuedouble) && isfinite(it->valuedouble))
            v[n++] = ns->valuedouble / it->valuedouble;
    }
    m = median_inplace(v, n);
    free(v);
    return isfinite(m) && m > 0 ? m : NAN;
}

/* The median of the values a run reported for metric; NAN when none. */
static double run_metric(const cJSON *run, const char *metric)
{
    const cJSON *ms = cJSON_GetObjectItemCaseSensitive(run, "metrics");
    size_t cap = (size_t)cJSON_GetArraySize(ms), n = 0;
    double *v, m;
    const cJSON *it;

    if (cap == 0)
        return NAN;
    v = bh_xcalloc(cap, sizeof(*v));
    cJSON_ArrayForEach(it, ms) {
        const cJSON *name = cJSON_GetObjectItemCaseSensitive(it, "name");
        const cJSON *val = cJSON_GetObjectItemCaseSensitive(it, "value");

        if (cJSON_IsString(name) && strcmp(name->valuestring, metric) == 0 &&
            cJSON_IsNumber(val) && isfinite(val->valuedouble))
            v[n++] = val->valuedouble;
    }
    m = median_inplace(v, n);
    free(v);
    return m;
}

/* The value of metric for one run object, NAN unless the run is ok. */
static double run_value(const cJSON *run, const char *metric)
{
    const cJSON *st = cJSON_GetObjectItemCaseSensitive(run, "status");

    if (!cJSON_IsString(st) || strcmp(st->valuestring, "ok") != 0)
        return NAN;
    return strcmp(metric, BH_REGRESS_TIME) == 0 ? run_time(run) : run_metric(run, metric);
}

void bh_regress_run_values_indexed(const cJSON *c, const char *metric,
                                   double **out, size_t *n)
{
    const cJSON *runs = cJSON_GetObjectItemCaseSensitive(c, "runs");
    const cJSON *r;
    size_t top = 0;

    *out = NULL;
    *n = 0;
    cJSON_ArrayForEach(r, runs) {
        const cJSON *ix = cJSON_GetObjectItemCaseSensitive(r, "index");

        if (cJSON_IsNumber(ix) && ix->valuedouble >= 0 && ix->valuedouble < 1e6 &&
            (size_t)ix->valuedouble + 1 > top)
            top = (size_t)ix->valuedouble + 1;
    }
    if (top == 0)
        return;
    *out = bh_xcalloc(top, sizeof(double));
    for (size_t i = 0; i < top; i++)
        (*out)[i] = NAN;
    cJSON_ArrayForEach(r, runs) {
        const cJSON *ix = cJSON_GetObjectItemCaseSensitive(r, "index");

        if (cJSON_IsNumber(ix) && ix->valuedouble >= 0 && ix->valuedouble < 1e6)
            (*out)[(size_t)ix->valuedouble] = run_value(r, metric);
    }
    *n = top;
}

void bh_regress_run_values(const cJSON *c, const char *metric, double **out,
                           size_t *n)
{
    const cJSON *runs = cJSON_GetObjectItemCaseSensitive(c, "runs");
    size_t cap = (size_t)cJSON_GetArraySize(runs);
    const cJSON *r;

    *out = NULL;
    *n = 0;
    if (cap == 0)
        return;
    *out = bh_xcalloc(cap, sizeof(double));
    cJSON_ArrayForEach(r, runs) {
        double v = run_value(r, metric);

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

char *bh_regress_match_key(const cJSON *c, const bh_regress_match *match)
{
    const cJSON *idj = cJSON_GetObjectItemCaseSensitive(c, "id");
    const cJSON *params = cJSON_GetObjectItemCaseSensitive(c, "params");
    const char *id = cJSON_IsString(idj) ? idj->valuestring : "";
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
