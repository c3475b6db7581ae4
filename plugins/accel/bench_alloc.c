// SPDX-License-Identifier: MIT
/*
 * bench_alloc.c -- alloc.latency: one backend alloc() and free() of
 * 'bytes' per iteration, host clock (manual timing). memory: device,
 * pinned or host_visible (unsupported where the backend refuses that
 * kind). Counting: items = allocations (no bytes: allocating is not
 * traffic); work profile with no stream. verify() allocates once more and
 * round-trips a 64-byte pattern through the buffer.
 */
#include "accel.h"

#include <inttypes.h>
#include <string.h>

typedef struct alloc_inst {
    bh_accel_base base;
    uint64_t bytes;
    uint32_t flags;
    uint32_t reserved;
} alloc_inst;

static const char *const kinds[] = {"device", "pinned", "host_visible", NULL};

static const bhost_param_desc params[] = {
    BH_PARAM_I64("bytes", "Bytes per allocation", "1048576", 1,
                 BH_PLUGIN_I64_MAX),
    BH_PARAM_STR("memory", "device, pinned or host_visible", "device",
                 kinds),
};

/* Reads bytes and memory. [instance] */
static bhost_status BHOST_ABI alloc_create(bhost_host *h,
                                           const bhost_backend *be,
                                           bhost_dev *dev, void **out)
{
    alloc_inst *a = bh_accel_alloc(h, sizeof(*a));
    int64_t bytes = 0;
    char kind[16] = "device";
    bhost_status st;

    if (a == NULL)
        return BHOST_E_NOMEM;
    memset(a, 0, sizeof(*a));
    st = bh_accel_base_init(&a->base, h, be, dev, "alloc.latency");
    if (st == BHOST_OK)
        st = bh_plugin_i64(h, ACCEL_PREFIX, "bytes", 1, INT64_MAX, &bytes);
    if (st == BHOST_OK)
        st = bh_plugin_str(h, ACCEL_PREFIX, "memory", kind, sizeof(kind));
    if (st != BHOST_OK) {
        bh_accel_free(h, a);
        return st;
    }
    a->bytes = (uint64_t)bytes;
    a->flags = strcmp(kind, "pinned") == 0         ? BHOST_MEM_HOST_PINNED
               : strcmp(kind, "host_visible") == 0 ? BHOST_MEM_HOST_VISIBLE
                                                   : BHOST_MEM_DEVICE;
    a->base.items = 1;
    *out = a;
    return BHOST_OK;
}

/* Nothing to prepare. [instance] */
static bhost_status BHOST_ABI alloc_setup(void *inst, bhost_stream *s)
{
    (void)inst;
    (void)s;
    return BHOST_OK;
}

/* iterations alloc + free pairs; wall time. [instance] */
static bhost_status BHOST_ABI alloc_run(void *inst, bhost_stream *s,
                                        uint64_t iterations)
{
    alloc_inst *a = inst;
    const bhost_backend *be = a->base.be;
    uint64_t t0 = bh_accel_api->now_ns(a->base.h);

    (void)s;
    for (uint64_t i = 0; i < iterations; i++) {
        bhost_buf *b = NULL;
        bhost_status st = be->alloc(a->base.dev, a->bytes, a->flags, &b);

        if (st != BHOST_OK)
            return st;
        be->free(a->base.dev, b);
    }
    return bh_accel_manual(a->base.h, t0);
}

/* A fresh buffer of the same kind holds what is written into it. */
static bhost_status BHOST_ABI alloc_verify(void *inst)
{
    alloc_inst *a = inst;
    const bhost_backend *be = a->base.be;
    unsigned char in[64], back[64];
    uint64_t n = a->bytes < 64 ? a->bytes : 64;
    bhost_buf *b = NULL;
    bhost_status st = be->alloc(a->base.dev, a->bytes, a->flags, &b);

    for (int i = 0; i < 64; i++) {
        in[i] = (unsigned char)(i * 7 + 3);
        back[i] = 0;
    }
    if (st == BHOST_OK)
        st = be->copy_h2d(a->base.dev, NULL, b, 0, in, n);
    if (st == BHOST_OK)
        st = be->copy_d2h(a->base.dev, NULL, back, b, 0, n);
    if (st == BHOST_OK)
        st = be->stream_sync(a->base.dev, NULL);
    if (b != NULL)
        be->free(a->base.dev, b);
    if (st == BHOST_OK && memcmp(in, back, (size_t)n) != 0)
        st = bh_accel_fail(a->base.h, BHOST_E_VERIFY,
                           "alloc.latency: a %" PRIu64 "-byte buffer did not "
                           "hold its data", a->bytes);
    return st;
}

static void BHOST_ABI alloc_destroy(void *inst)
{
    alloc_inst *a = inst;

    bh_accel_free(a->base.h, a);
}

const bhost_bench_desc bh_accel_alloc_bench = {
    .struct_size = sizeof(bhost_bench_desc),
    .flags = BHOST_BENCH_NEEDS_DEVICE | BHOST_BENCH_MANUAL_TIMING,
    .id = "alloc.latency",
    .summary = "Device allocation latency: alloc + free per iteration",
    .params = params,
    .param_count = sizeof(params) / sizeof(params[0]),
    .create = alloc_create,
    .setup = alloc_setup,
    .run = alloc_run,
    .verify = alloc_verify,
    .destroy = alloc_destroy,
    .items_per_iter = bh_accel_items,
    .work_profile = bh_accel_profile,
};
