// SPDX-License-Identifier: MIT
/*
 * tensor_plugin.c -- entry point and benchmark list of the tensor plugin.
 * The roof benchmarks come first, so a config that includes everything
 * measures the roofs the other cases are compared with.
 */
#include "tp.h"

#include <stdio.h>
#include <string.h>

const bhost_host_api *bh_tensor_api;

#define MAX_BENCHES 64

static const bhost_bench_desc *benches[MAX_BENCHES];
static uint32_t bench_count;

/* Appends a NULL-terminated family to benches[]. [main] */
static void add_family(const bhost_bench_desc *const *family)
{
    for (; *family != NULL && bench_count < MAX_BENCHES; family++)
        benches[bench_count++] = *family;
}

/* Builds the list once. [main] */
static void list_benches(void)
{
    static const bhost_bench_desc *const singles[] = {
        &bh_tensor_roof_bandwidth, &bh_tensor_roof_compute, NULL};
    static const bhost_bench_desc *const matmuls[] = {
        &bh_tensor_matmul, &bh_tensor_matmul_int8, &bh_tensor_qmatmul, NULL};

    if (bench_count != 0)
        return;
    add_family(singles);
    add_family(bh_tensor_stream_benches);
    add_family(bh_tensor_create_benches);
    add_family(bh_tensor_ew_benches);
    add_family(matmuls);
    add_family(bh_tensor_reduce_benches);
    add_family(bh_tensor_norm_benches);
    add_family(bh_tensor_manip_benches);
    add_family(bh_tensor_quant_benches);
}

/* Keeps api and logs the instruction set the kernels use. Fails with
 * BHOST_E_VERSION when the host's table is smaller than the 1.0 table.
 * [main] */
static bhost_status BHOST_ABI tensor_init(const bhost_host_api *api)
{
    char msg[128];

    if (api == NULL || !BHOST_HAS(bhost_host_api, api, set_error))
        return BHOST_E_VERSION;
    if (!BHOST_HAS(bhost_host_api, api, get_extension)) {
        api->set_error(NULL, "tensor: host API table older than 1.0");
        return BHOST_E_VERSION;
    }
    bh_tensor_api = api;
    list_benches();
    snprintf(msg, sizeof(msg),
             "tensor: kernels use %s%s; f32 polynomials within 1e-6 relative",
             tk_isa_name(tk_isa()), tk_has_vnni() ? " + VNNI (int8)" : "");
    api->log(NULL, BHOST_LOG_DEBUG, msg);
    return BHOST_OK;
}

/* Forgets the host API; instances own their threads. [main] */
static void BHOST_ABI tensor_deinit(void)
{
    bh_tensor_api = NULL;
}

/* Number of benchmarks. [any-thread] */
static uint32_t BHOST_ABI factory_count(void)
{
    return bench_count;
}

/* Descriptor index, static; NULL past the end. [any-thread] */
static const bhost_bench_desc *BHOST_ABI factory_get(uint32_t index)
{
    return index < bench_count ? benches[index] : NULL;
}

static const bhost_bench_factory factory = {
    sizeof(bhost_bench_factory), 0, factory_count, factory_get,
};

/* The benchmark factory for BHOST_IFACE_BENCHMARKS, else NULL. [any-thread] */
static const void *BHOST_ABI tensor_get_interface(const char *id)
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
    "org.bhost.tensor",
    "tensor",
    BH_PLUGIN_VERSION,
    "Tensor ops: creation, element-wise, matmul, reductions, norms, "
    "manipulation, quantization, STREAM and the roofline roofs",
    tensor_init,
    tensor_deinit,
    tensor_get_interface,
};
