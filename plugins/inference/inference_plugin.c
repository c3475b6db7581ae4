// SPDX-License-Identifier: MIT
/*
 * inference_plugin.c -- entry point and benchmark list of the inference
 * plugin. The benchmarks (bench_*.c) adapt libinfer_engine (engine/) to
 * the ABI; see README.md for what each measures and verifies.
 */
#include "ip.h"

#include <string.h>

const bhost_host_api *bh_inf_api;

static const bhost_bench_desc *const benches[] = {
    &bh_inf_prefill, &bh_inf_decode,   &bh_inf_generate,
    &bh_inf_encode,  &bh_inf_scenario,
};

#define BENCH_COUNT ((uint32_t)(sizeof(benches) / sizeof(benches[0])))

/* Keeps api; BHOST_E_VERSION when the host's table predates 1.0. [main] */
static bhost_status BHOST_ABI inf_init(const bhost_host_api *api)
{
    if (api == NULL || !BHOST_HAS(bhost_host_api, api, set_error))
        return BHOST_E_VERSION;
    if (!BHOST_HAS(bhost_host_api, api, get_extension)) {
        api->set_error(NULL, "inference: host API table older than 1.0");
        return BHOST_E_VERSION;
    }
    bh_inf_api = api;
    return BHOST_OK;
}

/* Forgets the host API; instances joined their threads in destroy().
 * [main] */
static void BHOST_ABI inf_deinit(void)
{
    bh_inf_api = NULL;
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
static const void *BHOST_ABI inf_get_interface(const char *id)
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
    "org.bhost.inference",
    "inference",
    BH_PLUGIN_VERSION,
    "Transformer inference: prefill, decode, generation, encoder, load "
    "scenarios",
    inf_init,
    inf_deinit,
    inf_get_interface,
};
