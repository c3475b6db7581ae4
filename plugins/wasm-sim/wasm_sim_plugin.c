// SPDX-License-Identifier: MIT
/*
 * wasm_sim_plugin.c -- entry point and benchmark list of wasm-sim: tensor
 * kernels under real WebAssembly semantics (wasm2c), 128-bit SIMD in the
 * linear memory, WebGPU-limited Vulkan, linear-memory patterns, and the
 * mobile simulation.
 */
#include "ws.h"

const bhost_host_api *ws_api;

static bh_plugin_list benches;

/* Builds the list once. [main] */
static bhost_status ws_setup(const bhost_host_api *api)
{
    (void)api;
    if (benches.count == 0) {
        bh_plugin_list_add_all(&benches, ws_kernel_benches);
        bh_plugin_list_add_all(&benches, ws_webgpu_benches);
        bh_plugin_list_add_all(&benches, ws_mem_benches);
        bh_plugin_list_add_all(&benches, ws_mobile_benches);
    }
    return BHOST_OK;
}

BH_PLUGIN_FACTORY(benches.desc, benches.count)
BH_PLUGIN_ENTRY(ws_api, "org.bhost.wasm-sim", "wasm-sim", WSIM_PLUGIN_VERSION,
                "WASM and mobile simulation: kernels as wasm32 via wasm2c " WSIM_WASM2C_VERSION
                " (" WSIM_WASM_CC "), 128-bit SIMD, WebGPU-limited "
                "Vulkan, linear-memory patterns, device profiles and thermal model",
                ws_setup)
