// SPDX-License-Identifier: MIT
/*
 * op_common.c -- helpers every optimizer benchmark shares: errors,
 * parameters, threads and instruction set, memory, the counter-based
 * random generator (the rate record and the CPU count are plugins/common's).
 *
 * Contracts of the exported functions: op.h.
 */
#include "op.h"

#include "bh_rng.h"

#include <stdarg.h>
#include <string.h>

#define HUGE_PAGE ((uint64_t)2 << 20)

bhost_status bh_optim_fail(bhost_host *h, bhost_status st, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    st = bh_plugin_vfail(h, st, "optimizer: ", fmt, ap);
    va_end(ap);
    return st;
}

bhost_status bh_optim_threads_isa(bhost_host *h, unsigned *threads)
{
    char isa[16];
    int64_t t;
    int level;
    bhost_status st = bh_plugin_i64(h, BH_OPTIM_PREFIX, "threads", 0, 256, &t);

    if (st == BHOST_OK)
        st = bh_plugin_str(h, BH_OPTIM_PREFIX, "isa", isa, sizeof(isa));
    if (st != BHOST_OK)
        return st;
    level = strcmp(isa, "auto") == 0 ? -1 : opt_isa_from_name(isa);
    if (strcmp(isa, "auto") != 0 && level < 0)
        return bh_optim_fail(h, BHOST_E_INVALID, "unknown isa '%s'", isa);
    if (level > opt_isa_detected())
        return bh_optim_fail(h, BHOST_E_UNSUPPORTED, "this CPU lacks %s", isa);
    opt_isa_limit(level);
    *threads = t == 0 ? bh_plugin_cpu_threads() : (unsigned)t;
    bh_plugin_metric_info(h, "threads", "", (double)*threads);
    bh_plugin_metric_info(h, "isa_level", "0=portable 1=avx2 2=avx512", (double)opt_isa());
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
    uint64_t z = seed ^ (stream * UINT64_C(0xD1B54A32D192ED03)) ^ (i * BH_RNG_GAMMA);

    return lo + (hi - lo) * bh_rng_unit(bh_rng_finalize(z));
}
