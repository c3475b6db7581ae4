// SPDX-License-Identifier: MIT
/*
 * bh_plugin_param.c -- the failure helper, the typed parameter readers and
 * the CPU count the in-tree plugins share (contracts in bh_plugin.h).
 */
#define _GNU_SOURCE
#include "bh_plugin.h"

#include <inttypes.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bhost_status bh_plugin_vfail(bhost_host *h, bhost_status st, const char *prefix,
                             const char *fmt, va_list ap)
{
    char msg[512];
    int len = snprintf(msg, sizeof(msg), "%s", prefix);

    vsnprintf(msg + len, sizeof(msg) - (size_t)len, fmt, ap);
    if (bh_plugin_api != NULL)
        bh_plugin_api->set_error(h, msg);
    return st;
}

bhost_status bh_plugin_fail(bhost_host *h, bhost_status st, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    st = bh_plugin_vfail(h, st, "", fmt, ap);
    va_end(ap);
    return st;
}

/* bh_plugin_vfail() with a prefix and arguments. */
static bhost_status fail_p(bhost_host *h, bhost_status st, const char *prefix, const char *fmt,
                           ...) BH_PRINTF(4, 5);
static bhost_status fail_p(bhost_host *h, bhost_status st, const char *prefix, const char *fmt,
                           ...)
{
    va_list ap;

    va_start(ap, fmt);
    st = bh_plugin_vfail(h, st, prefix, fmt, ap);
    va_end(ap);
    return st;
}

bhost_status bh_plugin_i64(bhost_host *h, const char *prefix, const char *key, int64_t lo,
                           int64_t hi, int64_t *out)
{
    bhost_status st = bh_plugin_api->param_i64(h, key, out);

    if (st != BHOST_OK)
        return fail_p(h, st, prefix, "host has no I64 parameter '%s'", key);
    if (*out < lo || *out > hi)
        return fail_p(h, BHOST_E_INVALID, prefix,
                      "%s=%" PRId64 " outside [%" PRId64 ", %" PRId64 "]", key, *out, lo, hi);
    return BHOST_OK;
}

bhost_status bh_plugin_f64(bhost_host *h, const char *prefix, const char *key, int check_nan,
                           double *out)
{
    bhost_status st = bh_plugin_api->param_f64(h, key, out);

    if (st != BHOST_OK)
        return fail_p(h, st, prefix, "host has no F64 parameter '%s'", key);
    if (check_nan && *out != *out)
        return fail_p(h, BHOST_E_INVALID, prefix, "%s is NaN", key);
    return BHOST_OK;
}

bhost_status bh_plugin_f64_in(bhost_host *h, const char *prefix, const char *key, double lo,
                              double hi, double *out)
{
    bhost_status st = bh_plugin_api->param_f64(h, key, out);

    if (st != BHOST_OK)
        return fail_p(h, st, prefix, "host has no F64 parameter '%s'", key);
    if (!(*out >= lo && *out <= hi))
        return fail_p(h, BHOST_E_INVALID, prefix, "%s=%g outside [%g, %g]", key, *out, lo, hi);
    return BHOST_OK;
}

bhost_status bh_plugin_choice(bhost_host *h, const char *prefix, const char *key,
                              const char *const *choices, int *out)
{
    char buf[64];
    bhost_status st = bh_plugin_str(h, prefix, key, buf, sizeof(buf));

    if (st != BHOST_OK)
        return st;
    for (int i = 0; choices[i] != NULL; i++)
        if (strcmp(choices[i], buf) == 0) {
            *out = i;
            return BHOST_OK;
        }
    return fail_p(h, BHOST_E_INVALID, prefix, "%s='%s' is not one of its choices", key, buf);
}

bhost_status bh_plugin_str(bhost_host *h, const char *prefix, const char *key, char *buf,
                           uint32_t cap)
{
    uint32_t len = 0;
    bhost_status st = bh_plugin_api->param_str(h, key, buf, cap, &len);

    if (st != BHOST_OK)
        return fail_p(h, st, prefix, "host has no STR parameter '%s'", key);
    if (len >= cap)
        return fail_p(h, BHOST_E_INVALID, prefix, "%s is longer than %" PRIu32 " bytes", key,
                      cap - 1);
    return BHOST_OK;
}

unsigned bh_plugin_cpu_threads(void)
{
    const char *env = getenv("BHOST_CPU_THREADS");
    cpu_set_t set;
    int n;

    if (env != NULL && *env != '\0') {
        char *end = NULL;
        long v = strtol(env, &end, 10);

        if (end != NULL && *end == '\0' && v >= 1 && v <= 256)
            return (unsigned)v;
    }
    if (sched_getaffinity(0, sizeof(set), &set) != 0)
        return 1;
    n = CPU_COUNT(&set);
    return n < 1 ? 1 : n > 256 ? 256 : (unsigned)n;
}
