// SPDX-License-Identifier: MIT
/* Conformance checks of the benchmark factory, each descriptor and each
 * parameter descriptor: everything that can be judged without calling a
 * benchmark. */
#include "check_plugin.h"

#include "describe.h"
#include "rules.h"
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

/* The range warnings (the refusals are bh_rules_param's). */
static void check_range(const bhost_param_desc *p, verdict *v)
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
}

/* Checks parameter i of d: the refusals of bh_rules_param (FAIL), then
 * the warnings. */
static void check_param(int fd, const char *bench, const bhost_bench_desc *d,
                        uint32_t index)
{
    const bhost_param_desc *p = bh_rules_param_at(d, index);
    verdict v = {0, ""};
    char id[256];
    char why[512];
    const char *type = bh_param_type_name(p->type);

    if (p->key && strnlen(p->key, 65) <= 64 && strspn(p->key,
            "abcdefghijklmnopqrstuvwxyz0123456789_") == strlen(p->key))
        snprintf(id, sizeof(id), "bench[%s].param[%s]", bench, p->key);
    else
        snprintf(id, sizeof(id), "bench[%s].param[#%u]", bench, index);
    if (bh_rules_param(d, index, why, sizeof(why)) != 0)
        note(&v, 2, "%s", why);
    if (!p->summary || !*p->summary)
        note(&v, 1, "no summary");
    if (!p->default_value)
        note(&v, 1, "required (no default): the cycle check cannot run "
                    "this benchmark");
    if (type)
        check_range(p, &v);
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
    char why[512];

    snprintf(id, sizeof(id), "bench[%s].params", label);
    if (bh_rules_params_layout(d, why, sizeof(why)) != 0) {
        bh_check_report(fd, id, "FAIL", "%s", why);
        return;
    }
    if (d->param_count == 0) {
        bh_check_report(fd, id, "PASS", "none");
        return;
    }
    bh_check_report(fd, id, "PASS", "%u parameter%s, element size %u",
                    d->param_count, d->param_count == 1 ? "" : "s",
                    d->params[0].struct_size);
    for (uint32_t i = 0; i < d->param_count; i++)
        check_param(fd, label, d, i);
}

/* Checks the lifecycle functions and flags; 1 when a cycle can run. */
static int check_functions(int fd, const char *label,
                           const bhost_bench_desc *d)
{
    char id[200];
    char why[512];
    int ok = bh_rules_bench_functions(d, why, sizeof(why)) == 0;

    snprintf(id, sizeof(id), "bench[%s].descriptor", label);
    if (!ok)
        bh_check_report(fd, id, "FAIL", "%s", why);
    else if (bh_rules_bench_size_warning(d, why, sizeof(why)))
        bh_check_report(fd, id, "WARN", "%s", why);
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
    char why[512];
    bhost_caps unknown = d->required_caps & ~BHOST_CAPS_KNOWN;

    snprintf(id, sizeof(id), "bench[%s].caps", label);
    if (bh_rules_bench_caps(d, why, sizeof(why)) != 0)
        bh_check_report(fd, id, "FAIL", "%s", why);
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

/* Checks descriptor i; adds its plan entry. A descriptor that `run`
 * refuses (bh_rules_bench) is never cycled. */
static void check_one(int fd, const bhost_bench_factory *f, uint32_t i,
                      cJSON *plan)
{
    const bhost_bench_desc *d;
    char label[160];
    char id[200];
    char why[512];
    int id_ok;
    int unique = 1;
    const cJSON *other;
    cJSON *entry;
    int runnable;

    snprintf(label, sizeof(label), "#%u", i);
    snprintf(id, sizeof(id), "bench[%s].descriptor", label);
    bh_check_stage(fd, "factory get()");
    d = f->get(i);
    if (!d) {
        bh_check_report(fd, id, "FAIL", "get(%u) returned NULL below count()",
                        i);
        return;
    }
    if (bh_rules_bench_size(d, why, sizeof(why)) != 0) {
        bh_check_report(fd, id, "FAIL", "%s", why);
        return;
    }
    id_ok = bh_rules_bench_id(d->id, why, sizeof(why)) == 0;
    if (id_ok)
        snprintf(label, sizeof(label), "%s", d->id);
    cJSON_ArrayForEach(other, plan) if (id_ok &&
                                        strcmp(bh_json_str(other, "id", ""),
                                               d->id) == 0) unique = 0;
    snprintf(id, sizeof(id), "bench[%s].id", label);
    if (!id_ok)
        bh_check_report(fd, id, "FAIL", "%s", why);
    else if (!unique)
        bh_check_report(fd, id, "FAIL", "id '%s' used by two descriptors",
                        d->id);
    else
        bh_check_report(fd, id, "PASS", "%s", d->id);
    snprintf(id, sizeof(id), "bench[%s].summary", label);
    if (d->summary && *d->summary && !strchr(d->summary, '\n'))
        bh_check_report(fd, id, "PASS", "%.200s", d->summary);
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
    cJSON_AddBoolToObject(entry, "runnable",
                          runnable && bh_rules_bench(d, why, sizeof(why)) == 0);
    cJSON_AddItemToArray(plan, entry);
}

void bh_check_benchmarks(int fd, const bhost_bench_factory *f, cJSON *plan)
{
    uint32_t n, again;

    if (f->struct_size < BHOST_BENCH_FACTORY_SIZE_1_0 || !f->count || !f->get) {
        bh_check_report(fd, "benchmarks.factory", "FAIL",
                        "struct_size %u (ABI 1.0: %zu) or count/get missing",
                        f->struct_size, (size_t)BHOST_BENCH_FACTORY_SIZE_1_0);
        return;
    }
    bh_check_report(fd, "benchmarks.factory", "PASS", "%u bytes",
                    f->struct_size);
    bh_check_stage(fd, "factory count()");
    n = f->count();
    again = f->count();
    if (n != again || n > BH_RULE_BENCHES_MAX) {
        bh_check_report(fd, "benchmarks.count", "FAIL",
                        "count() returned %u then %u (must be stable and at "
                        "most %d)",
                        n, again, BH_RULE_BENCHES_MAX);
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
        const bhost_param_desc *p = bh_rules_param_at(d, i);
        cJSON *t;
        double num;
        int64_t ival;
        char text[32];

        if (!p->key || !p->default_value || !bh_param_type_name(p->type) ||
            bh_rules_parse_default(p->type, p->default_value, &num,
                                   &ival) != 0) {
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
