// SPDX-License-Identifier: MIT
/*
 * bench_build.c -- build.kernels: the backend builds every kernel program
 * (pipelines, modules, programs) again per iteration through the
 * extension bhost.backend.build_stats/1, cold (no cache the backend
 * controls; OpenCL also defeats the driver's cache with a unique define)
 * or cached (Vulkan: the device's VkPipelineCache; OpenCL: program
 * binaries on disk). Host clock (manual timing). Metrics:
 * build.programs, build.cache_hits, build.cache_misses of the last
 * build, and build.first_ms: the device's own first build (at open or
 * first kernel use). Unsupported where the backend lacks the extension.
 * verify() checks the last build produced at least one program.
 * Counting: items = builds; no bytes or FLOPs; work profile with no
 * stream.
 */
#include "accel.h"

#include <string.h>

typedef struct build_inst {
    bh_accel_base base;
    const bhost_ext_build_stats *ext;
    uint32_t mode;
    uint32_t reserved;
    bhost_build_stats last;
} build_inst;

static const char *const caches[] = {"cold", "cached", NULL};

static const bhost_param_desc params[] = {
    BH_PARAM_STR("cache", "cold: no cache; cached: the backend's "
                          "pipeline/program cache",
                 "cold", caches),
};

/* Reads cache; needs the build_stats extension. [instance] */
static bhost_status BHOST_ABI build_create(bhost_host *h,
                                           const bhost_backend *be,
                                           bhost_dev *dev, void **out)
{
    build_inst *b = bh_accel_alloc(h, sizeof(*b));
    char cache[8] = "cold";
    bhost_status st;

    if (b == NULL)
        return BHOST_E_NOMEM;
    memset(b, 0, sizeof(*b));
    st = bh_accel_base_init(&b->base, h, be, dev, "build.kernels");
    if (st == BHOST_OK)
        st = bh_plugin_str(h, ACCEL_PREFIX, "cache", cache, sizeof(cache));
    if (st == BHOST_OK) {
        b->ext = be->get_kernel(dev, BHOST_EXT_BUILD_STATS);
        if (b->ext == NULL || b->ext->struct_size < sizeof(*b->ext) ||
            b->ext->build == NULL || b->ext->last == NULL)
            st = bh_accel_fail(h, BHOST_E_UNSUPPORTED,
                               "backend '%s' does not report kernel builds "
                               "(no %s)", be->id, BHOST_EXT_BUILD_STATS);
    }
    if (st != BHOST_OK) {
        bh_accel_free(h, b);
        return st;
    }
    b->mode = strcmp(cache, "cached") == 0 ? BHOST_BUILD_CACHED
                                           : BHOST_BUILD_COLD;
    b->base.items = 1;
    *out = b;
    return BHOST_OK;
}

/* Makes the device build its own kernels (so that a cache is warm) and
 * reports that first build. [instance] */
static bhost_status BHOST_ABI build_setup(void *inst, bhost_stream *s)
{
    build_inst *b = inst;
    bhost_build_stats first;
    bhost_status st;

    (void)s;
    (void)b->base.be->get_kernel(b->base.dev, BHOST_KERNEL_AXPY);
    memset(&first, 0, sizeof(first));
    first.struct_size = sizeof(first);
    st = b->ext->last(b->base.dev, &first);
    if (st == BHOST_OK && first.programs > 0)
        bh_plugin_metric(b->base.h, "build.first_ms", "ms", BHOST_LOWER_IS_BETTER,
                         first.build_ns / 1e6);
    return st;
}

/* iterations builds; wall time. [instance] */
static bhost_status BHOST_ABI build_run(void *inst, bhost_stream *s,
                                        uint64_t iterations)
{
    build_inst *b = inst;
    uint64_t t0 = bh_accel_api->now_ns(b->base.h);

    (void)s;
    for (uint64_t i = 0; i < iterations; i++) {
        bhost_status st;

        memset(&b->last, 0, sizeof(b->last));
        b->last.struct_size = sizeof(b->last);
        st = b->ext->build(b->base.dev, b->mode, &b->last);
        if (st != BHOST_OK)
            return st;
    }
    return bh_accel_manual(b->base.h, t0);
}

/* The last build made programs; its counts become metrics. */
static bhost_status BHOST_ABI build_verify(void *inst)
{
    build_inst *b = inst;

    if (b->last.programs == 0)
        return bh_accel_fail(b->base.h, BHOST_E_VERIFY,
                             "build.kernels: the backend built no program");
    bh_plugin_metric_info(b->base.h, "build.programs", "", (double)b->last.programs);
    bh_plugin_metric_info(b->base.h, "build.cache_hits", "", (double)b->last.cache_hits);
    bh_plugin_metric_info(b->base.h, "build.cache_misses", "", (double)b->last.cache_misses);
    return BHOST_OK;
}

static void BHOST_ABI build_destroy(void *inst)
{
    build_inst *b = inst;

    bh_accel_free(b->base.h, b);
}

const bhost_bench_desc bh_accel_build = {
    .struct_size = sizeof(bhost_bench_desc),
    .flags = BHOST_BENCH_NEEDS_DEVICE | BHOST_BENCH_MANUAL_TIMING,
    .id = "build.kernels",
    .summary = "Kernel/pipeline build time of the backend, cold or through "
               "its cache (bhost.backend.build_stats/1)",
    .params = params,
    .param_count = sizeof(params) / sizeof(params[0]),
    .create = build_create,
    .setup = build_setup,
    .run = build_run,
    .verify = build_verify,
    .destroy = build_destroy,
    .items_per_iter = bh_accel_items,
    .work_profile = bh_accel_profile,
};
