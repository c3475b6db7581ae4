// SPDX-License-Identifier: MIT
/*
 * op_common.c -- helpers every optimizer benchmark shares: errors,
 * parameters, threads and instruction set, memory, the counter-based
 * random generator and the roof's rate record.
 *
 * Contracts of the exported functions: op.h.
 */
#define _GNU_SOURCE 1
#include "op.h"

#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HUGE_PAGE ((uint64_t)2 << 20)

bhost_status bh_optim_fail(bhost_host *h, bhost_status st, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    int n = snprintf(msg, sizeof(msg), "optimizer: ");

    va_start(ap, fmt);
    vsnprintf(msg + n, sizeof(msg) - (size_t)n, fmt, ap);
    va_end(ap);
    bh_optim_api->set_error(h, msg);
    return st;
}

bhost_status bh_optim_i64(bhost_host *h, const char *key, int64_t lo,
                          int64_t hi, int64_t *out)
{
    if (bh_optim_api->param_i64(h, key, out) != BHOST_OK)
        return bh_optim_fail(h, BHOST_E_INVALID, "no integer parameter '%s'", key);
    if (*out < lo || *out > hi)
        return bh_optim_fail(h, BHOST_E_INVALID,
                             "%s=%lld outside [%lld, %lld]", key,
                             (long long)*out, (long long)lo, (long long)hi);
    return BHOST_OK;
}

bhost_status bh_optim_f64(bhost_host *h, const char *key, double lo,
                          double hi, double *out)
{
    if (bh_optim_api->param_f64(h, key, out) != BHOST_OK)
        return bh_optim_fail(h, BHOST_E_INVALID, "no number parameter '%s'", key);
    if (!(*out >= lo && *out <= hi))
        return bh_optim_fail(h, BHOST_E_INVALID, "%s=%g outside [%g, %g]", key,
                             *out, lo, hi);
    return BHOST_OK;
}

bhost_status bh_optim_str(bhost_host *h, const char *key, char *buf,
                          uint32_t cap)
{
    uint32_t len = 0;

    if (bh_optim_api->param_str(h, key, buf, cap, &len) != BHOST_OK)
        return bh_optim_fail(h, BHOST_E_INVALID, "no string parameter '%s'", key);
    if (len >= cap)
        return bh_optim_fail(h, BHOST_E_INVALID, "%s is too long", key);
    return BHOST_OK;
}

void bh_optim_metric(bhost_host *h, const char *name, const char *unit,
                     int lower, double value)
{
    (void)bh_optim_api->report_metric(
        h, name, unit, lower ? BHOST_LOWER_IS_BETTER : BHOST_HIGHER_IS_BETTER,
        value);
}

/* Threads this process may use: BHOST_CPU_THREADS when set to a positive
 * number, else the CPUs in its affinity mask. */
static unsigned all_threads(void)
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

bhost_status bh_optim_threads_isa(bhost_host *h, unsigned *threads)
{
    char isa[16];
    int64_t t;
    int level;
    bhost_status st = bh_optim_i64(h, "threads", 0, 256, &t);

    if (st == BHOST_OK)
        st = bh_optim_str(h, "isa", isa, sizeof(isa));
    if (st != BHOST_OK)
        return st;
    level = strcmp(isa, "auto") == 0 ? -1 : opt_isa_from_name(isa);
    if (strcmp(isa, "auto") != 0 && level < 0)
        return bh_optim_fail(h, BHOST_E_INVALID, "unknown isa '%s'", isa);
    if (level > opt_isa_detected())
        return bh_optim_fail(h, BHOST_E_UNSUPPORTED, "this CPU lacks %s", isa);
    opt_isa_limit(level);
    *threads = t == 0 ? all_threads() : (unsigned)t;
    bh_optim_metric(h, "threads", "", 0, (double)*threads);
    bh_optim_metric(h, "isa_level", "0=portable 1=avx2 2=avx512", 0,
                    (double)opt_isa());
    return BHOST_OK;
}

void *bh_optim_alloc(bhost_host *h, uint64_t bytes)
{
    uint64_t align = bytes >= HUGE_PAGE ? HUGE_PAGE : 64;
    void *p = bh_optim_api->alloc(h, bytes == 0 ? 1 : bytes, align);

    if (p == NULL) {
        bh_optim_fail(h, BHOST_E_NOMEM, "out of memory allocating %llu bytes",
                      (unsigned long long)bytes);
        return NULL;
    }
    return p;
}

void bh_optim_free(bhost_host *h, void *p)
{
    bh_optim_api->free(h, p);
}

double bh_optim_uniform(uint64_t seed, uint64_t stream, uint64_t i, double lo,
                        double hi)
{
    uint64_t z = seed ^ (stream * UINT64_C(0xD1B54A32D192ED03)) ^
                 (i * UINT64_C(0x9E3779B97F4A7C15));

    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    z ^= z >> 31;
    return lo + (hi - lo) * (double)(z >> 11) * 0x1.0p-53;
}

void bh_optim_rate_add(bh_optim_rates *r, double work_per_iter, uint64_t iters,
                       uint64_t ns)
{
    if (ns == 0 || iters == 0)
        return;
    r->rate[r->count % 64] = work_per_iter * (double)iters * 1e9 / (double)ns;
    r->count++;
}

/* qsort order of doubles. */
static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;

    return (x > y) - (x < y);
}

double bh_optim_rate_median(const bh_optim_rates *r)
{
    double v[64];
    uint32_t n = r->count < 64 ? r->count : 64;

    if (n == 0)
        return 0;
    memcpy(v, r->rate, n * sizeof(double));
    qsort(v, n, sizeof(double), cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}
