// SPDX-License-Identifier: MIT
#include "result_check.h"

#include "bh_status.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* What v holds, for a message: a quoted string (cut at 40 bytes), a
 * number, true, false, null, a list or an object. */
static const char *got(const cJSON *v, char *buf, size_t n)
{
    if (!v)
        snprintf(buf, n, "nothing");
    else if (cJSON_IsString(v))
        snprintf(buf, n, "\"%.40s%s\"", v->valuestring, strlen(v->valuestring) > 40 ? "..." : "");
    else if (cJSON_IsNumber(v))
        snprintf(buf, n, "%.17g", v->valuedouble);
    else if (cJSON_IsBool(v))
        snprintf(buf, n, "%s", cJSON_IsTrue(v) ? "true" : "false");
    else if (cJSON_IsNull(v))
        snprintf(buf, n, "null");
    else
        snprintf(buf, n, "%s", cJSON_IsArray(v) ? "a list" : "an object");
    return buf;
}

/* See result_check.h. */
int bh_result_check_fail(bh_error *e, const char *name, const char *path, const char *what,
                         const cJSON *v)
{
    char g[96];

    return bh_error_set(e, "%s: %s: expected %s, got %s", name, path, what, got(v, g, sizeof(g)));
}

/* A status string member key of o (required or not) naming a known status. */
static int check_status(const cJSON *o, int required, const char *name, const char *at, bh_error *e)
{
    const cJSON *s = cJSON_GetObjectItemCaseSensitive(o, "status");
    char path[160];

    if (!s && !required)
        return 0;
    if (cJSON_IsString(s) && bh_status_parse(s->valuestring) >= 0)
        return 0;
    snprintf(path, sizeof(path), "%s.status", at);
    return bh_result_check_fail(
        e, name, path, "one of ok, skipped, unsupported, failed, invalid, crashed, timeout, oom",
        s);
}

/* The samples of a run: [iterations, ns] pairs. */
static int check_samples(const cJSON *samples, const char *name, const char *at, bh_error *e)
{
    const cJSON *s;
    size_t k = 0;
    char path[200];

    if (!samples)
        return 0;
    snprintf(path, sizeof(path), "%s.samples", at);
    if (!cJSON_IsArray(samples))
        return bh_result_check_fail(e, name, path, "a list of [iterations, ns] pairs", samples);
    cJSON_ArrayForEach(s, samples) {
        const cJSON *it = cJSON_GetArrayItem(s, 0);
        const cJSON *ns = cJSON_GetArrayItem(s, 1);

        snprintf(path, sizeof(path), "%s.samples[%zu]", at, k);
        if (!cJSON_IsArray(s) || cJSON_GetArraySize(s) != 2)
            return bh_result_check_fail(e, name, path, "an [iterations, ns] pair", s);
        snprintf(path, sizeof(path), "%s.samples[%zu][0]", at, k);
        if (!cJSON_IsNumber(it) || !isfinite(it->valuedouble) || it->valuedouble < 1 ||
            it->valuedouble != floor(it->valuedouble))
            return bh_result_check_fail(e, name, path, "a whole number of iterations >= 1", it);
        snprintf(path, sizeof(path), "%s.samples[%zu][1]", at, k);
        if (!cJSON_IsNumber(ns) || !isfinite(ns->valuedouble) || ns->valuedouble < 0)
            return bh_result_check_fail(e, name, path, "a non-negative number of nanoseconds", ns);
        k++;
    }
    return 0;
}

/* A number or null (non-finite values are written as null). */
static int check_value(const cJSON *v, const char *name, const char *path, bh_error *e)
{
    if (cJSON_IsNumber(v) || cJSON_IsNull(v))
        return 0;
    return bh_result_check_fail(e, name, path, "a number or null", v);
}

/* The metrics a run reported: objects whose "value" is a number or null. */
static int check_run_metrics(const cJSON *m, const char *name, const char *at, bh_error *e)
{
    const cJSON *it;
    size_t k = 0;
    char path[200];

    if (!m)
        return 0;
    snprintf(path, sizeof(path), "%s.metrics", at);
    if (!cJSON_IsArray(m))
        return bh_result_check_fail(e, name, path, "a list of metrics", m);
    cJSON_ArrayForEach(it, m) {
        snprintf(path, sizeof(path), "%s.metrics[%zu].value", at, k++);
        if (!cJSON_IsObject(it))
            return bh_result_check_fail(e, name, path, "a number or null in a metric object", it);
        if (check_value(cJSON_GetObjectItemCaseSensitive(it, "value"), name, path, e) != 0)
            return -1;
    }
    return 0;
}

/* The case's metrics: name -> {"values": [numbers or null]}. */
static int check_case_metrics(const cJSON *m, const char *name, const char *at, bh_error *e)
{
    const cJSON *it;
    char path[400];

    if (!m)
        return 0;
    snprintf(path, sizeof(path), "%s.metrics", at);
    if (!cJSON_IsObject(m))
        return bh_result_check_fail(e, name, path, "a map of metric name -> {values}", m);
    cJSON_ArrayForEach(it, m) {
        const cJSON *vals = cJSON_GetObjectItemCaseSensitive(it, "values");
        const cJSON *v;
        size_t k = 0;

        snprintf(path, sizeof(path), "%s.metrics.%.100s.values", at, it->string);
        if (!cJSON_IsObject(it) || (vals && !cJSON_IsArray(vals)))
            return bh_result_check_fail(e, name, path, "a list of numbers",
                                        cJSON_IsObject(it) ? vals : it);
        cJSON_ArrayForEach(v, vals) {
            snprintf(path, sizeof(path), "%s.metrics.%.100s.values[%zu]", at, it->string, k++);
            if (check_value(v, name, path, e) != 0)
                return -1;
        }
    }
    return 0;
}

int bh_result_check_case(const cJSON *c, size_t i, const char *name, bh_error *e)
{
    const cJSON *runs = cJSON_GetObjectItemCaseSensitive(c, "runs");
    const cJSON *r;
    char at[64], run_at[96];
    size_t k = 0;

    snprintf(at, sizeof(at), "cases[%zu]", i);
    if (check_status(c, 1, name, at, e) != 0 ||
        check_case_metrics(cJSON_GetObjectItemCaseSensitive(c, "metrics"), name, at, e) != 0)
        return -1;
    if (!runs)
        return 0;
    if (!cJSON_IsArray(runs)) {
        snprintf(run_at, sizeof(run_at), "%s.runs", at);
        return bh_result_check_fail(e, name, run_at, "a list of runs", runs);
    }
    cJSON_ArrayForEach(r, runs) {
        snprintf(run_at, sizeof(run_at), "%s.runs[%zu]", at, k++);
        if (!cJSON_IsObject(r))
            return bh_result_check_fail(e, name, run_at, "a run object", r);
        if (check_status(r, 0, name, run_at, e) != 0 ||
            check_samples(cJSON_GetObjectItemCaseSensitive(r, "samples"), name, run_at, e) != 0 ||
            check_run_metrics(cJSON_GetObjectItemCaseSensitive(r, "metrics"), name, run_at, e) != 0)
            return -1;
    }
    return 0;
}
