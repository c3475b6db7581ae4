// SPDX-License-Identifier: MIT
/*
 * selftest.c -- entry point, benchmark list and shared helpers of the
 * selftest plugin.
 */
#include "selftest.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

const bhost_host_api *bh_selftest_api;

static const bhost_bench_desc *const benches[] = {
    &bh_selftest_noop,
    &bh_selftest_spin,
    &bh_selftest_memcpy,
    &bh_selftest_device_copy,
};

#define BENCH_COUNT ((uint32_t)(sizeof(benches) / sizeof(benches[0])))

bhost_status bh_selftest_fail(bhost_host *h, bhost_status st, const char *fmt,
                              ...)
{
    char msg[256];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    bh_selftest_api->set_error(h, msg);
    return st;
}

bhost_status bh_selftest_param_i64(bhost_host *h, const char *key,
                                   int64_t *out)
{
    bhost_status st = bh_selftest_api->param_i64(h, key, out);

    if (st != BHOST_OK)
        return bh_selftest_fail(h, st, "host has no I64 parameter '%s'", key);
    return BHOST_OK;
}

bhost_status bh_selftest_param_f64(bhost_host *h, const char *key,
                                   double *out)
{
    bhost_status st = bh_selftest_api->param_f64(h, key, out);

    if (st != BHOST_OK)
        return bh_selftest_fail(h, st, "host has no F64 parameter '%s'", key);
    return BHOST_OK;
}

uint64_t bh_selftest_mix(uint64_t *state)
{
    uint64_t z = (*state += UINT64_C(0x9E3779B97F4A7C15));

    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

/* Keeps api. Fails with BHOST_E_VERSION when the host's table is smaller
 * than the 1.0 table this plugin calls into. [main] */
static bhost_status BHOST_ABI selftest_init(const bhost_host_api *api)
{
    if (api == NULL || !BHOST_HAS(bhost_host_api, api, set_error))
        return BHOST_E_VERSION;
    if (!BHOST_HAS(bhost_host_api, api, get_extension)) {
        api->set_error(NULL, "selftest: host API table older than 1.0");
        return BHOST_E_VERSION;
    }
    bh_selftest_api = api;
    return BHOST_OK;
}

/* Forgets the host API; the plugin holds no other global state. [main] */
static void BHOST_ABI selftest_deinit(void)
{
    bh_selftest_api = NULL;
}

/* Number of benchmarks. [any-thread] */
static uint32_t BHOST_ABI factory_count(void)
{
    return BENCH_COUNT;
}

/* Descriptor index, static; NULL past the end. [any-thread] */
static const bhost_bench_desc *BHOST_ABI factory_get(uint32_t index)
{
    return index < BENCH_COUNT ? benches[index] : NULL;
}

static const bhost_bench_factory factory = {
    sizeof(bhost_bench_factory), 0, factory_count, factory_get,
};

/* The benchmark factory for BHOST_IFACE_BENCHMARKS, else NULL. [any-thread] */
static const void *BHOST_ABI selftest_get_interface(const char *id)
{
    if (id != NULL && strcmp(id, BHOST_IFACE_BENCHMARKS) == 0)
        return &factory;
    return NULL;
}

const bhost_entry bhost_entry_v1 = {
    sizeof(bhost_entry),
    BHOST_ABI_MAJOR,
    BHOST_ABI_MINOR,
    0,
    "org.bhost.selftest",
    "selftest",
    BH_PLUGIN_VERSION,
    "Host self-checks: overhead, calibrated spin, memcpy, device copies",
    selftest_init,
    selftest_deinit,
    selftest_get_interface,
};
