// SPDX-License-Identifier: MIT
#include "job.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static const char *const string_keys[] = {"plugin", "bench", "backend", "part",
                                          "seed",   "pin",   "measure", "counters"};
#define N_STRING_KEYS (sizeof(string_keys) / sizeof(string_keys[0]))

/* Integer-valued members and their inclusive ranges. */
static const struct {
    const char *key;
    double min, max;
} int_keys[] = {
    {"device", 0, 4294967295.0},
    {"run_index", 0, 4294967295.0},
    {"samples", 1, 4294967295.0},
    {"iterations", 1, 4294967295.0},
};
#define N_INT_KEYS (sizeof(int_keys) / sizeof(int_keys[0]))

/* Non-negative quantities cast to uint64_t by the worker. */
static const char *const u64_keys[] = {"warmup_ns", "sample_time_ns",
                                       "budget_ns", "memory_limit"};
#define N_U64_KEYS (sizeof(u64_keys) / sizeof(u64_keys[0]))

/* True when text is an optional '-' and 1 to 19 decimal digits whose value
 * fits int64_t. */
static int is_i64_text(const char *text)
{
    const char *p = text + (*text == '-');
    char *end = NULL;
    size_t digits = strspn(p, "0123456789");

    if (digits == 0 || digits > 19 || p[digits] != '\0')
        return 0;
    errno = 0;
    (void)strtoll(text, &end, 10);
    return errno == 0 && *end == '\0';
}

/* Checks one {type, value} parameter record named key. */
static int check_param(const cJSON *p, bh_error *e)
{
    const cJSON *type = cJSON_GetObjectItemCaseSensitive(p, "type");
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(p, "value");
    const char *t;

    if (!cJSON_IsObject(p) || !cJSON_IsString(type) || !v)
        return bh_error_set(e, "job: params.%s: expected {type, value}",
                            p->string ? p->string : "?");
    t = type->valuestring;
    if ((strcmp(t, "i64") == 0 && cJSON_IsString(v) &&
         is_i64_text(v->valuestring)) ||
        (strcmp(t, "f64") == 0 && cJSON_IsNumber(v) &&
         isfinite(v->valuedouble)) ||
        (strcmp(t, "str") == 0 && cJSON_IsString(v)) ||
        (strcmp(t, "bool") == 0 && cJSON_IsBool(v)))
        return 0;
    return bh_error_set(e, "job: params.%s: value does not match type '%s'",
                        p->string ? p->string : "?", t);
}

/* Checks every member the worker reads; 0 or -1 with e set. */
static int check_job(const cJSON *job, bh_error *e)
{
    const cJSON *mode = cJSON_GetObjectItemCaseSensitive(job, "mode");
    const cJSON *params = cJSON_GetObjectItemCaseSensitive(job, "params");
    const cJSON *p;

    if (!cJSON_IsString(mode))
        return bh_error_set(e, "job: \"mode\" must be a string");
    if (strcmp(mode->valuestring, "run") != 0 &&
        strcmp(mode->valuestring, "describe") != 0 &&
        strcmp(mode->valuestring, "check") != 0 &&
        strcmp(mode->valuestring, "ranks") != 0 && strcmp(mode->valuestring, "probe") != 0 &&
        strcmp(mode->valuestring, "rank_probe") != 0)
        return bh_error_set(e, "job: unknown job mode (expected run, "
                               "describe, check, ranks, probe or rank_probe)");
    if (!cJSON_IsString(cJSON_GetObjectItemCaseSensitive(job, "plugin")))
        return bh_error_set(e, "job: \"plugin\" must be a string");
    for (size_t i = 0; i < N_STRING_KEYS; i++) {
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(job, string_keys[i]);

        if (v && !cJSON_IsString(v))
            return bh_error_set(e, "job: \"%s\" must be a string",
                                string_keys[i]);
    }
    for (size_t i = 0; i < N_INT_KEYS; i++) {
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(job, int_keys[i].key);

        if (v && (!cJSON_IsNumber(v) || !(v->valuedouble >= int_keys[i].min) ||
                  !(v->valuedouble <= int_keys[i].max) ||
                  v->valuedouble != floor(v->valuedouble)))
            return bh_error_set(e, "job: \"%s\" must be an integer in "
                                   "[%.0f, %.0f]",
                                int_keys[i].key, int_keys[i].min,
                                int_keys[i].max);
    }
    for (size_t i = 0; i < N_U64_KEYS; i++) {
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(job, u64_keys[i]);

        if (v && (!cJSON_IsNumber(v) || !(v->valuedouble >= 0) ||
                  !(v->valuedouble < 9223372036854775808.0)))
            return bh_error_set(e, "job: \"%s\" must be a number in "
                                   "[0, 2^63)",
                                u64_keys[i]);
    }
    p = cJSON_GetObjectItemCaseSensitive(job, "measure");
    if (p && strcmp(p->valuestring, "time") != 0 &&
        strcmp(p->valuestring, "instructions") != 0)
        return bh_error_set(e, "job: \"measure\" must be time or instructions");
    p = cJSON_GetObjectItemCaseSensitive(job, "counters");
    if (p && strcmp(p->valuestring, "on") != 0 && strcmp(p->valuestring, "off") != 0)
        return bh_error_set(e, "job: \"counters\" must be on or off");
    if (params && !cJSON_IsObject(params))
        return bh_error_set(e, "job: \"params\" must be an object");
    cJSON_ArrayForEach(p, params) {
        if (check_param(p, e) != 0)
            return -1;
    }
    return 0;
}

cJSON *bh_job_parse(const char *text, size_t n, bh_error *e)
{
    cJSON *job;

    if (n > BH_JOB_MAX_BYTES) {
        bh_error_set(e, "job larger than %u bytes", BH_JOB_MAX_BYTES);
        return NULL;
    }
    job = cJSON_ParseWithLength(text ? text : "", text ? n : 0);
    if (!cJSON_IsObject(job)) {
        cJSON_Delete(job);
        bh_error_set(e, "job is not a JSON object");
        return NULL;
    }
    if (check_job(job, e) != 0) {
        cJSON_Delete(job);
        return NULL;
    }
    return job;
}
