// SPDX-License-Identifier: MIT
/* Conformance checks of the benchmark factory, each descriptor and each
 * parameter descriptor: everything that can be judged without calling a
 * benchmark. */
#include "check_plugin.h"

#include "describe.h"
#include "ipc.h"

#include <errno.h>
#include <stdarg.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Worst result so far and the reason that made it so. */
typedef struct verdict {
    int level; /* 0 PASS, 1 WARN, 2 FAIL */
    char reason[512];
} verdict;

/* Raises v to level with reason, keeping the first reason of the worst
 * level seen. */
static void note(verdict *v, int level, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void note(verdict *v, int level, const char *fmt, ...)
{
    va_list ap;

    if (level <= v->level)
        return;
    v->level = level;
    va_start(ap, fmt);
    vsnprintf(v->reason, sizeof(v->reason), fmt, ap);
    va_end(ap);
}

/* "PASS", "WARN" or "FAIL" for a verdict level. */
static const char *level_name(int level)
{
    return level == 2 ? "FAIL" : level == 1 ? "WARN" : "PASS";
}

/* True when s is non-empty, at most max bytes, and made only of [a-z0-9]
 * and the bytes in extra. */
static int word(const char *s, size_t max, const char *extra)
{
    size_t n = 0;

    if (!s || !*s)
        return 0;
    for (; s[n]; n++)
        if (n >= max || !((s[n] >= 'a' && s[n] <= 'z') ||
                          (s[n] >= '0' && s[n] <= '9') || strchr(extra, s[n])))
            return 0;
    return 1;
}

/* Parses a default as the host's planner reads it (YAML plain scalar):
 * I64 a decimal integer, F64 any number, BOOL true/false, STR anything.
 * Returns 0 and sets *num, or -1. */
static int parse_default(bhost_param_type type, const char *text, double *num,
                         int64_t *ival)
{
    char *end = NULL;

    *num = 0;
    *ival = 0;
    if (type == BHOST_PARAM_STR)
        return 0;
    if (type == BHOST_PARAM_BOOL) {
        *ival = strcmp(text, "true") == 0;
        return strcmp(text, "true") == 0 || strcmp(text, "false") == 0 ? 0
                                                                         : -1;
    }
    errno = 0;
    *ival = strtoll(text, &end, 10);
    if (*text && *end == '\0' && errno == 0) {
        *num = (double)*ival;
        return 0;
    }
    if (type != BHOST_PARAM_F64)
        return -1;
    *num = strtod(text, &end);
    return *text && *end == '\0' && isfinite(*num) ? 0 : -1;
}

const bhost_param_desc *bh_check_param_at(const bhost_bench_desc *d,
                                          uint32_t i)
{
    uint32_t stride = d->params[0].struct_size;

    return (const bhost_param_desc *)(const void *)((const char *)d->params +
                                                    (size_t)i * stride);
}

/* Checks choices (STR only, NULL-terminated, non-empty strings) and that
 * the default is one of them. */
static void check_choices(const bhost_param_desc *p, verdict *v)
{
    int found = 0;
    size_t i = 0;

    if (!p->choices)
        return;
    if (p->type != BHOST_PARAM_STR) {
        note(v, 2, "choices given for a %s parameter (STR only)",
             bh_param_type_name(p->type));
        return;
    }
    for (; i < 1024 && p->choices[i]; i++) {
        if (!*p->choices[i])
            note(v, 2, "choice %zu is empty", i);
        if (p->default_value && strcmp(p->choices[i], p->default_value) == 0)
            found = 1;
    }
    if (i == 0)
        note(v, 2, "choices list is empty (use NULL for free text)");
    else if (i == 1024)
        note(v, 2, "choices list not NULL-terminated within 1024 entries");
    else if (p->default_value && !found)
        note(v, 2, "default '%s' is not one of the choices", p->default_value);
}

/* Checks the range and that the default lies in it. */
static void check_range(const bhost_param_desc *p, double num, int has_num,
                        verdict *v)
{
    int numeric = p->type == BHOST_PARAM_I64 || p->type == BHOST_PARAM_F64;

    if (isnan(p->min) || isnan(p->max)) {
        note(v, 1, "min or max is NaN (use min > max for unbounded)");
        return;
    }
    if (!(p->min <= p->max))
        return; /* unbounded */
    if (!numeric) {
        note(v, 1, "range [%g, %g] set on a %s parameter is ignored", p->min,
             p->max, bh_param_type_name(p->type));
        return;
    }
    if (isinf(p->min) || isinf(p->max))
        note(v, 1, "infinite bound in [%g, %g]", p->min, p->max);
    if (p->type == BHOST_PARAM_I64 &&
        (p->min != floor(p->min) || p->max != floor(p->max)))
        note(v, 1, "integer parameter with fractional bounds [%g, %g]", p->min,
             p->max);
    if (has_num && (num < p->min || num > p->max))
        note(v, 2, "default %s outside [%g, %g]", p->default_value, p->min,
             p->max);
}

/* Checks one parameter descriptor; adds its key to keys (for the
 * uniqueness check). */
static void check_param(int fd, const char *bench, uint32_t index,
                        const bhost_param_desc *p, cJSON *keys)
{
    verdict v = {0, ""};
    char id[256];
    const char *type = bh_param_type_name(p->type);
    const cJSON *k;
    double num = 0;
    int64_t ival = 0;
    int has_num = 0;

    if (word(p->key, 64, "_"))
        snprintf(id, sizeof(id), "bench[%s].param[%s]", bench, p->key);
    else
        snprintf(id, sizeof(id), "bench[%s].param[#%u]", bench, index);
    if (!word(p->key, 64, "_"))
        note(&v, 2, "key '%.64s' does not match [a-z0-9_]+",
             p->key ? p->key : "(null)");
    cJSON_ArrayForEach(k, keys) if (p->key && strcmp(k->valuestring,
                                                     p->key) == 0)
        note(&v, 2, "key '%s' declared twice", p->key);
    if (p->key)
        cJSON_AddItemToArray(keys, cJSON_CreateString(p->key));
    if (!type)
        note(&v, 2, "unknown type %d (expected I64, F64, STR or BOOL)",
             p->type);
    if (!p->summary || !*p->summary)
        note(&v, 1, "no summary");
    if (!p->default_value) {
        note(&v, 1, "required (no default): the cycle check cannot run "
                    "this benchmark");
    } else if (type) {
        if (parse_default(p->type, p->default_value, &num, &ival) != 0)
            note(&v, 2, "default '%s' does not parse as %s", p->default_value,
                 type);
        else
            has_num = p->type == BHOST_PARAM_I64 ||
                      p->type == BHOST_PARAM_F64;
    }
    check_choices(p, &v);
    if (type)
        check_range(p, num, has_num, &v);
    if (v.level == 0 && p->choices)
        snprintf(v.reason, sizeof(v.reason), "%s, default %s, with choices",
                 type, p->default_value);
    else if (v.level == 0 && p->min <= p->max)
        snprintf(v.reason, sizeof(v.reason), "%s, default %s, range [%g, %g]",
                 type, p->default_value, p->min, p->max);
    else if (v.level == 0)
        snprintf(v.reason, sizeof(v.reason), "%s, default %s", type,
                 p->default_value);
    bh_check_report(fd, id, level_name(v.level), "%s", v.reason);
}

/* Checks the parameter array of d. */
static void check_params(int fd, const char *label, const bhost_bench_desc *d)
{
    char id[200];
    uint32_t stride;
    cJSON *keys;

    snprintf(id, sizeof(id), "bench[%s].params", label);
    if (d->param_count == 0) {
        bh_check_report(fd, id, "PASS", "none");
        return;
    }
    if (!d->params || d->param_count > 256) {
        bh_check_report(fd, id, "FAIL",
                        "param_count %u with params %s (expected a non-NULL "
                        "array of at most 256)",
                        d->param_count, d->params ? "set" : "NULL");
        return;
    }
    stride = d->params[0].struct_size;
    if (stride < BH_CHECK_PARAM_SIZE_1_0) {
        bh_check_report(fd, id, "FAIL",
                        "params[0].struct_size %u, smaller than the ABI 1.0 "
                        "size %zu",
                        stride, (size_t)BH_CHECK_PARAM_SIZE_1_0);
        return;
    }
    for (uint32_t i = 1; i < d->param_count; i++) {
        if (bh_check_param_at(d, i)->struct_size != stride) {
            bh_check_report(fd, id, "FAIL",
                            "params[%u].struct_size %u differs from "
                            "params[0]'s %u (all elements must match)",
                            i, bh_check_param_at(d, i)->struct_size, stride);
            return;
        }
    }
    bh_check_report(fd, id, "PASS", "%u parameter%s, element size %u",
                    d->param_count, d->param_count == 1 ? "" : "s", stride);
    keys = cJSON_CreateArray();
    for (uint32_t i = 0; i < d->param_count; i++)
        check_param(fd, label, i, bh_check_param_at(d, i), keys);
    cJSON_Delete(keys);
}

/* Checks the lifecycle functions and flags; 1 when a cycle can run. */
static int check_functions(int fd, const char *label,
                           const bhost_bench_desc *d)
{
    char id[200];
    int ok = d->create && d->run && d->destroy;

    snprintf(id, sizeof(id), "bench[%s].descriptor", label);
    if (d->flags & ~(BHOST_BENCH_NEEDS_DEVICE | BHOST_BENCH_MANUAL_TIMING))
        bh_check_report(fd, id, "FAIL", "unknown flag bits 0x%x",
                        d->flags & ~(BHOST_BENCH_NEEDS_DEVICE |
                                     BHOST_BENCH_MANUAL_TIMING));
    else if (d->reserved != 0)
        bh_check_report(fd, id, "FAIL", "reserved is %u, must be 0",
                        d->reserved);
    else if (!ok)
        bh_check_report(fd, id, "FAIL", "%s%s%sis NULL",
                        d->create ? "" : "create ", d->run ? "" : "run ",
                        d->destroy ? "" : "destroy ");
    else
        bh_check_report(fd, id, d->setup ? "PASS" : "WARN",
                        "%u bytes, %s%s%s", d->struct_size,
                        d->flags & BHOST_BENCH_NEEDS_DEVICE ? "device"
                                                            : "host-only",
                        d->flags & BHOST_BENCH_MANUAL_TIMING
                            ? ", manual timing"
                            : "",
                        d->setup ? "" : ", setup is NULL (skipped)");
    snprintf(id, sizeof(id), "bench[%s].verify", label);
    bh_check_report(fd, id, d->verify ? "PASS" : "FAIL", "%s",
                    d->verify ? "present"
                              : "verify is NULL: every benchmark must "
                                "check its output");
    return ok && d->verify;
}

/* Checks required_caps against the capability bits this header knows. */
static void check_caps(int fd, const char *label, const bhost_bench_desc *d)
{
    char id[200];
    bhost_caps unknown = d->required_caps & ~BHOST_CAPS_KNOWN;

    snprintf(id, sizeof(id), "bench[%s].caps", label);
    if (unknown & UINT64_C(0xFFFFFFFF))
        bh_check_report(fd, id, "FAIL",
                        "required_caps has bits 0x%llx that bhost does not "
                        "define",
                        (unsigned long long)(unknown & 0xFFFFFFFFu));
    else if (unknown)
        bh_check_report(fd, id, "WARN",
                        "vendor-specific bits 0x%llx (32..63) required",
                        (unsigned long long)unknown);
    else if (d->required_caps && !(d->flags & BHOST_BENCH_NEEDS_DEVICE))
        bh_check_report(fd, id, "WARN",
                        "required_caps 0x%llx on a host-only benchmark are "
                        "ignored",
                        (unsigned long long)d->required_caps);
    else
        bh_check_report(fd, id, "PASS", "0x%llx",
                        (unsigned long long)d->required_caps);
}

/* Checks descriptor i; adds its plan entry. */
static void check_one(int fd, const bhost_bench_factory *f, uint32_t i,
                      cJSON *plan)
{
    const bhost_bench_desc *d;
    char label[160];
    char id[200];
    int id_ok;
    int unique = 1;
    const cJSON *other;
    cJSON *entry;
    int runnable;

    snprintf(label, sizeof(label), "#%u", i);
    bh_check_stage(fd, "factory get()");
    d = f->get(i);
    if (!d) {
        snprintf(id, sizeof(id), "bench[%s].descriptor", label);
        bh_check_report(fd, id, "FAIL", "get(%u) returned NULL below count()",
                        i);
        return;
    }
    if (d->struct_size < BH_CHECK_DESC_SIZE_1_0) {
        snprintf(id, sizeof(id), "bench[%s].descriptor", label);
        bh_check_report(fd, id, "FAIL",
                        "struct_size %u, smaller than the ABI 1.0 size %zu",
                        d->struct_size, (size_t)BH_CHECK_DESC_SIZE_1_0);
        return;
    }
    id_ok = word(d->id, 128, "_.-");
    if (id_ok)
        snprintf(label, sizeof(label), "%s", d->id);
    cJSON_ArrayForEach(other, plan) if (id_ok &&
                                        strcmp(bh_json_str(other, "id", ""),
                                               d->id) == 0) unique = 0;
    snprintf(id, sizeof(id), "bench[%s].id", label);
    if (!id_ok)
        bh_check_report(fd, id, "FAIL",
                        "id '%.64s' does not match [a-z0-9_.-]+ (at most 128 "
                        "bytes)",
                        d->id ? d->id : "(null)");
    else if (!unique)
        bh_check_report(fd, id, "FAIL", "id '%s' used by two descriptors",
                        d->id);
    else
        bh_check_report(fd, id, "PASS", "%s", d->id);
    snprintf(id, sizeof(id), "bench[%s].summary", label);
    if (d->summary && *d->summary && !strchr(d->summary, '\n'))
        bh_check_report(fd, id, "PASS", "%s", d->summary);
    else
        bh_check_report(fd, id, "FAIL", "missing or multi-line summary");
    runnable = check_functions(fd, label, d);
    check_caps(fd, label, d);
    check_params(fd, label, d);
    if (!id_ok || !unique)
        return;
    entry = cJSON_CreateObject();
    cJSON_AddStringToObject(entry, "id", d->id);
    cJSON_AddBoolToObject(entry, "needs_device",
                          (d->flags & BHOST_BENCH_NEEDS_DEVICE) != 0);
    cJSON_AddBoolToObject(entry, "runnable", runnable);
    cJSON_AddItemToArray(plan, entry);
}

void bh_check_benchmarks(int fd, const bhost_bench_factory *f, cJSON *plan)
{
    uint32_t n, again;

    if (f->struct_size < BH_CHECK_FACTORY_SIZE_1_0 || !f->count || !f->get) {
        bh_check_report(fd, "benchmarks.factory", "FAIL",
                        "struct_size %u (ABI 1.0: %zu) or count/get missing",
                        f->struct_size, (size_t)BH_CHECK_FACTORY_SIZE_1_0);
        return;
    }
    bh_check_report(fd, "benchmarks.factory", "PASS", "%u bytes",
                    f->struct_size);
    bh_check_stage(fd, "factory count()");
    n = f->count();
    again = f->count();
    if (n != again || n > 100000) {
        bh_check_report(fd, "benchmarks.count", "FAIL",
                        "count() returned %u then %u (must be stable and at "
                        "most 100000)",
                        n, again);
        return;
    }
    bh_check_stage(fd, "factory get(count())");
    if (f->get(n) != NULL) {
        bh_check_report(fd, "benchmarks.count", "FAIL",
                        "get(%u) past the end returned a descriptor, "
                        "expected NULL",
                        n);
        return;
    }
    bh_check_report(fd, "benchmarks.count", n ? "PASS" : "WARN",
                    "%u benchmark%s", n, n == 1 ? "" : "s");
    for (uint32_t i = 0; i < n; i++)
        check_one(fd, f, i, plan);
}

cJSON *bh_check_default_params(const bhost_bench_desc *d, char *why,
                               size_t cap)
{
    cJSON *params = cJSON_CreateObject();

    for (uint32_t i = 0; i < d->param_count && d->params; i++) {
        const bhost_param_desc *p = bh_check_param_at(d, i);
        cJSON *t;
        double num;
        int64_t ival;
        char text[32];

        if (!p->key || !p->default_value || !bh_param_type_name(p->type) ||
            parse_default(p->type, p->default_value, &num, &ival) != 0) {
            snprintf(why, cap, "parameter '%s' has no usable default",
                     p->key ? p->key : "?");
            cJSON_Delete(params);
            return NULL;
        }
        t = cJSON_AddObjectToObject(params, p->key);
        cJSON_AddStringToObject(t, "type", bh_param_type_name(p->type));
        if (p->type == BHOST_PARAM_I64) {
            snprintf(text, sizeof(text), "%lld", (long long)ival);
            cJSON_AddStringToObject(t, "value", text);
        } else if (p->type == BHOST_PARAM_F64) {
            cJSON_AddNumberToObject(t, "value", num);
        } else if (p->type == BHOST_PARAM_BOOL) {
            cJSON_AddBoolToObject(t, "value", ival != 0);
        } else {
            cJSON_AddStringToObject(t, "value", p->default_value);
        }
    }
    return params;
}
