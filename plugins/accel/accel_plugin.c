// SPDX-License-Identifier: MIT
/*
 * accel_plugin.c -- entry of accel.so: the factory over the accelerator
 * benchmarks (accel.h lists them).
 */
#include "accel.h"

#include <string.h>

const bhost_host_api *bh_accel_api;

static const bhost_bench_desc *benches[13];
static uint32_t n_benches;

/* The benchmark count; stable between init and deinit. [any-thread] */
static uint32_t BHOST_ABI accel_count(void)
{
    return n_benches;
}

/* Descriptor index, or NULL past the end. [any-thread] */
static const bhost_bench_desc *BHOST_ABI accel_get(uint32_t index)
{
    return index < n_benches ? benches[index] : NULL;
}

static const bhost_bench_factory factory = {sizeof(bhost_bench_factory), 0,
                                            accel_count, accel_get};

/* Keeps api and lists the benchmarks. [main] */
static bhost_status BHOST_ABI accel_init(const bhost_host_api *api)
{
    if (api == NULL || !BHOST_HAS(bhost_host_api, api, set_error))
        return BHOST_E_VERSION;
    if (!BHOST_HAS(bhost_host_api, api, get_extension)) {
        api->set_error(NULL, "accel: host API table older than 1.0");
        return BHOST_E_VERSION;
    }
    bh_accel_api = api;
    n_benches = 0;
    for (int i = 0; i < 3; i++)
        benches[n_benches++] = bh_accel_copy_benches[i];
    benches[n_benches++] = &bh_accel_axpy;
    benches[n_benches++] = &bh_accel_reduce;
    benches[n_benches++] = &bh_accel_gemm;
    benches[n_benches++] = &bh_accel_launch;
    benches[n_benches++] = &bh_accel_alloc_bench;
    benches[n_benches++] = &bh_accel_build;
    benches[n_benches++] = &bh_accel_open;
    benches[n_benches++] = &bh_accel_query;
    benches[n_benches++] = &bh_accel_multi;
    return BHOST_OK;
}

/* Forgets the host API. [main] */
static void BHOST_ABI accel_deinit(void)
{
    bh_accel_api = NULL;
}

/* The factory for BHOST_IFACE_BENCHMARKS, else NULL. [any-thread] */
static const void *BHOST_ABI accel_get_interface(const char *id)
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
    "org.bhost.accel",
    "accel",
    BH_PLUGIN_VERSION,
    "Accelerator suite: transfer bandwidth, verified backend kernels, launch "
    "and allocation latency, kernel build time, device open/query, "
    "multi-device scaling",
    accel_init,
    accel_deinit,
    accel_get_interface,
};
