// SPDX-License-Identifier: MIT
/*
 * tensor_plugin.c -- entry point and benchmark list of the tensor plugin.
 * The roof benchmarks come first, so a config that includes everything
 * measures the roofs the other cases are compared with.
 */
#include "tp.h"

#include <stdio.h>

const bhost_host_api *bh_tensor_api;

static bh_plugin_list benches;

/* Builds the list once and logs the instruction set the kernels use.
 * [main] */
static bhost_status tensor_setup(const bhost_host_api *api)
{
    static const bhost_bench_desc *const singles[] = {
        &bh_tensor_roof_bandwidth, &bh_tensor_roof_compute, NULL};
    static const bhost_bench_desc *const matmuls[] = {
        &bh_tensor_matmul, &bh_tensor_matmul_int8, &bh_tensor_qmatmul, NULL};
    char msg[128];

    if (benches.count == 0) {
        bh_plugin_list_add_all(&benches, singles);
        bh_plugin_list_add_all(&benches, bh_tensor_stream_benches);
        bh_plugin_list_add_all(&benches, bh_tensor_create_benches);
        bh_plugin_list_add_all(&benches, bh_tensor_ew_benches);
        bh_plugin_list_add_all(&benches, matmuls);
        bh_plugin_list_add_all(&benches, bh_tensor_reduce_benches);
        bh_plugin_list_add_all(&benches, bh_tensor_norm_benches);
        bh_plugin_list_add_all(&benches, bh_tensor_manip_benches);
        bh_plugin_list_add_all(&benches, bh_tensor_quant_benches);
    }
    snprintf(msg, sizeof(msg),
             "tensor: kernels use %s%s; f32 polynomials within 1e-6 relative",
             tk_isa_name(tk_isa()), tk_has_vnni() ? " + VNNI (int8)" : "");
    api->log(NULL, BHOST_LOG_DEBUG, msg);
    return BHOST_OK;
}

BH_PLUGIN_FACTORY(benches.desc, benches.count)
BH_PLUGIN_ENTRY(bh_tensor_api, "org.bhost.tensor", "tensor", BH_PLUGIN_VERSION,
                "Tensor ops: creation, element-wise, matmul, reductions, norms, "
                "manipulation, quantization, STREAM and the roofline roofs",
                tensor_setup)
