// SPDX-License-Identifier: MIT
/*
 * wasm_sim_plugin.c -- entry point and benchmark list of wasm-sim: tensor
 * kernels under real WebAssembly semantics (wasm2c), 128-bit SIMD in the
 * linear memory, WebGPU-limited Vulkan, linear-memory patterns, and the
 * mobile simulation.
 */
#include "ws.h"

#include <string.h>

const bhost_host_api *ws_api;

#define MAX_BENCHES 32

static const bhost_bench_desc *benches[MAX_BENCHES];
static uint32_t bench_count;

/* Appends a NULL-terminated family to benches[]. [main] */
static void add_family(const bhost_bench_desc *const *family)
{
    for (; *family != NULL && bench_count < MAX_BENCHES; family++)
        benches[bench_count++] = *family;
}

/* Keeps api and builds the list. [main] */
static bhost_status BHOST_ABI ws_init(const bhost_host_api *api)
{
    if (api == NULL || !BHOST_HAS(bhost_host_api, api, set_error))
        return BHOST_E_VERSION;
    if (!BHOST_HAS(bhost_host_api, api, get_extension)) {
        api->set_error(NULL, "wasm-sim: host API table older than 1.0");
        return BHOST_E_VERSION;
    }
    ws_api = api;
    if (bench_count == 0) {
        add_family(ws_kernel_benches);
        add_family(ws_webgpu_benches);
        add_family(ws_mem_benches);
        add_family(ws_mobile_benches);
    }
    return BHOST_OK;
}

/* Forgets the host API. [main] */
static void BHOST_ABI ws_deinit(void)
{
    ws_api = NULL;
}

static uint32_t BHOST_ABI factory_count(void)
{
    return bench_count;
}

static const bhost_bench_desc *BHOST_ABI factory_get(uint32_t index)
{
    return index < bench_count ? benches[index] : NULL;
}

static const bhost_bench_factory factory = {
    sizeof(bhost_bench_factory), 0, factory_count, factory_get,
};

/* The benchmark factory for BHOST_IFACE_BENCHMARKS, else NULL. */
static const void *BHOST_ABI ws_get_interface(const char *id)
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
    "org.bhost.wasm-sim",
    "wasm-sim",
    WSIM_PLUGIN_VERSION,
    "WASM and mobile simulation: kernels as wasm32 via wasm2c "
    WSIM_WASM2C_VERSION " (" WSIM_WASM_CC "), 128-bit SIMD, WebGPU-limited "
    "Vulkan, linear-memory patterns, device profiles and thermal model",
    ws_init,
    ws_deinit,
    ws_get_interface,
};
