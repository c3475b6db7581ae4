// SPDX-License-Identifier: MIT
/*
 * accel_plugin.c -- entry of accel.so: the factory over the accelerator
 * benchmarks (accel.h lists them).
 */
#include "accel.h"

const bhost_host_api *bh_accel_api;

static bh_plugin_list benches;

/* Lists the benchmarks (afresh at each init). [main] */
static bhost_status accel_setup(const bhost_host_api *api)
{
    (void)api;
    benches.count = 0;
    for (int i = 0; i < 3; i++)
        bh_plugin_list_add(&benches, bh_accel_copy_benches[i]);
    bh_plugin_list_add(&benches, &bh_accel_axpy);
    bh_plugin_list_add(&benches, &bh_accel_reduce);
    bh_plugin_list_add(&benches, &bh_accel_gemm);
    bh_plugin_list_add(&benches, &bh_accel_launch);
    bh_plugin_list_add(&benches, &bh_accel_alloc_bench);
    bh_plugin_list_add(&benches, &bh_accel_build);
    bh_plugin_list_add(&benches, &bh_accel_open);
    bh_plugin_list_add(&benches, &bh_accel_query);
    bh_plugin_list_add(&benches, &bh_accel_multi);
    return BHOST_OK;
}

BH_PLUGIN_FACTORY(benches.desc, benches.count)
BH_PLUGIN_ENTRY(bh_accel_api, "org.bhost.accel", "accel", BH_PLUGIN_VERSION,
                "Accelerator suite: transfer bandwidth, verified backend kernels, launch "
                "and allocation latency, kernel build time, device open/query, "
                "multi-device scaling",
                accel_setup)
