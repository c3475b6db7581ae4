// SPDX-License-Identifier: MIT
/*
 * memory_plugin.c -- entry point and benchmark list of the memory plugin
 * (mem.h).
 */
#include "mem.h"

const bhost_host_api *bh_mem_api;

static const bhost_bench_desc *const benches[] = {
    &bh_mem_alloc_latency,
    &bh_mem_alloc_throughput,
    &bh_mem_frag,
    &bh_mem_touch,
};

BH_PLUGIN_FACTORY(benches, BH_PLUGIN_COUNT(benches))
BH_PLUGIN_ENTRY(bh_mem_api, "org.bhost.memory", "memory", BH_PLUGIN_VERSION,
                "Allocators (glibc, jemalloc, mimalloc, tcmalloc, own pool and arena): "
                "latency, throughput, fragmentation under tensor traces, first touch",
                bh_plugin_no_setup)
