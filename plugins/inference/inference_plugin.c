// SPDX-License-Identifier: MIT
/*
 * inference_plugin.c -- entry point and benchmark list of the inference
 * plugin. The benchmarks (bench_*.c) adapt libinfer_engine (engine/) to
 * the ABI; see README.md for what each measures and verifies.
 */
#include "ip.h"

const bhost_host_api *bh_inf_api;

static const bhost_bench_desc *const benches[] = {
    &bh_inf_prefill, &bh_inf_decode,   &bh_inf_generate,
    &bh_inf_encode,  &bh_inf_scenario, &bh_inf_load,
};

BH_PLUGIN_FACTORY(benches, BH_PLUGIN_COUNT(benches))
BH_PLUGIN_ENTRY(bh_inf_api, "org.bhost.inference", "inference", BH_PLUGIN_VERSION,
                "Transformer inference: prefill, decode, generation, encoder, load "
                "scenarios, model loading",
                bh_plugin_no_setup)
