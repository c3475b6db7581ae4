// SPDX-License-Identifier: MIT
/*
 * optimizer_plugin.c -- entry point and benchmark list of the optimizer
 * plugin; owns the host API pointer.
 */
#include "op.h"

#include <string.h>

const bhost_host_api *bh_optim_api;

static const bhost_bench_desc *const benches[] = {
    &bh_optim_step,     &bh_optim_zero, &bh_optim_zero_mpi,
    &bh_optim_schedule, &bh_optim_roof,
};

#define BENCH_COUNT ((uint32_t)(sizeof(benches) / sizeof(benches[0])))

/* Keeps api; BHOST_E_VERSION when the host's table is older than 1.0.
 * [main] */
static bhost_status BHOST_ABI optim_init(const bhost_host_api *api)
{
    if (api == NULL || !BHOST_HAS(bhost_host_api, api, set_error))
        return BHOST_E_VERSION;
    if (!BHOST_HAS(bhost_host_api, api, get_extension)) {
        api->set_error(NULL, "optimizer: host API table older than 1.0");
        return BHOST_E_VERSION;
    }
    bh_optim_api = api;
    return BHOST_OK;
}

/* Forgets the host API; instances joined their threads in destroy().
 * [main] */
static void BHOST_ABI optim_deinit(void)
{
    bh_optim_api = NULL;
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
static const void *BHOST_ABI optim_get_interface(const char *id)
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
    "org.bhost.optimizer",
    "optimizer",
    BH_PLUGIN_VERSION,
    "Optimizer suite: fused SGD/Adam/AdamW/Adagrad/RMSprop/LAMB/Lion steps, "
    "schedulers, model-scale and ZeRO cases",
    optim_init,
    optim_deinit,
    optim_get_interface,
};
