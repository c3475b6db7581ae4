// SPDX-License-Identifier: MIT
/*
 * bench_device.c -- device.open (open + close of the case's device per
 * iteration) and device.query (device_info per iteration: the
 * feature-query latency), host clock (manual timing). The device index
 * comes from bhost.backend.device_index/1; a backend without it is
 * measured on device 0 (logged). verify(): the last open succeeded / the
 * last query returned a named device. Counting: items = opens or
 * queries; no bytes or FLOPs; work profile with no stream.
 */
#include "accel.h"

#include <string.h>

typedef struct dev_inst {
    bh_accel_base base;
    uint32_t index;
    uint32_t done; /* iterations that succeeded */
    bhost_device_info info;
} dev_inst;

/* Reads the device index. [instance] */
static bhost_status dev_create(bhost_host *h, const bhost_backend *be,
                               bhost_dev *dev, void **out, const char *name)
{
    dev_inst *d = bh_accel_alloc(h, sizeof(*d));
    const bhost_ext_device_index *ext;
    bhost_status st;

    if (d == NULL)
        return BHOST_E_NOMEM;
    memset(d, 0, sizeof(*d));
    st = bh_accel_base_init(&d->base, h, be, dev, name);
    if (st != BHOST_OK) {
        bh_accel_free(h, d);
        return st;
    }
    ext = be->get_kernel(dev, BHOST_EXT_DEVICE_INDEX);
    if (ext != NULL && ext->struct_size >= sizeof(*ext) && ext->index != NULL)
        d->index = ext->index(dev);
    else
        bh_accel_api->log(h, BHOST_LOG_WARN,
                          "accel: backend has no bhost.backend.device_index/1;"
                          " measuring device 0");
    d->base.items = 1;
    *out = d;
    return BHOST_OK;
}

static bhost_status BHOST_ABI open_create(bhost_host *h,
                                          const bhost_backend *be,
                                          bhost_dev *dev, void **out)
{
    return dev_create(h, be, dev, out, "device.open");
}

static bhost_status BHOST_ABI query_create(bhost_host *h,
                                           const bhost_backend *be,
                                           bhost_dev *dev, void **out)
{
    return dev_create(h, be, dev, out, "device.query");
}

/* Nothing to prepare. [instance] */
static bhost_status BHOST_ABI dev_setup(void *inst, bhost_stream *s)
{
    (void)inst;
    (void)s;
    return BHOST_OK;
}

/* iterations open + close pairs; wall time. [instance] */
static bhost_status BHOST_ABI open_run(void *inst, bhost_stream *s,
                                       uint64_t iterations)
{
    dev_inst *d = inst;
    uint64_t t0 = bh_accel_api->now_ns(d->base.h);

    (void)s;
    for (uint64_t i = 0; i < iterations; i++) {
        bhost_dev *other = NULL;
        bhost_status st = d->base.be->open(d->index, d->base.h, &other);

        if (st != BHOST_OK)
            return st;
        d->base.be->close(other);
        d->done++;
    }
    return bh_accel_manual(d->base.h, t0);
}

/* iterations device_info calls; wall time. [instance] */
static bhost_status BHOST_ABI query_run(void *inst, bhost_stream *s,
                                        uint64_t iterations)
{
    dev_inst *d = inst;
    uint64_t t0 = bh_accel_api->now_ns(d->base.h);

    (void)s;
    for (uint64_t i = 0; i < iterations; i++) {
        bhost_status st;

        memset(&d->info, 0, sizeof(d->info));
        d->info.struct_size = sizeof(d->info);
        st = d->base.be->device_info(d->index, &d->info);
        if (st != BHOST_OK)
            return st;
        d->done++;
    }
    return bh_accel_manual(d->base.h, t0);
}

/* Every open succeeded (run() returns the first failure). */
static bhost_status BHOST_ABI open_verify(void *inst)
{
    dev_inst *d = inst;

    return d->done > 0 ? BHOST_OK
                       : bh_accel_fail(d->base.h, BHOST_E_VERIFY,
                                       "device.open: never opened");
}

/* The last query named the device. */
static bhost_status BHOST_ABI query_verify(void *inst)
{
    dev_inst *d = inst;

    if (d->done == 0 || d->info.name[0] == '\0' ||
        memchr(d->info.name, '\0', sizeof(d->info.name)) == NULL)
        return bh_accel_fail(d->base.h, BHOST_E_VERIFY,
                             "device.query: device_info gave no name");
    return BHOST_OK;
}

static void BHOST_ABI dev_destroy(void *inst)
{
    dev_inst *d = inst;

    bh_accel_free(d->base.h, d);
}

const bhost_bench_desc bh_accel_open = {
    .struct_size = sizeof(bhost_bench_desc),
    .flags = BHOST_BENCH_NEEDS_DEVICE | BHOST_BENCH_MANUAL_TIMING,
    .id = "device.open",
    .summary = "Device open time: backend open() + close() per iteration",
    .params = NULL,
    .param_count = 0,
    .create = open_create,
    .setup = dev_setup,
    .run = open_run,
    .verify = open_verify,
    .destroy = dev_destroy,
    .items_per_iter = bh_accel_items,
    .work_profile = bh_accel_profile,
};

const bhost_bench_desc bh_accel_query = {
    .struct_size = sizeof(bhost_bench_desc),
    .flags = BHOST_BENCH_NEEDS_DEVICE | BHOST_BENCH_MANUAL_TIMING,
    .id = "device.query",
    .summary = "Feature-query latency: backend device_info() per iteration",
    .params = NULL,
    .param_count = 0,
    .create = query_create,
    .setup = dev_setup,
    .run = query_run,
    .verify = query_verify,
    .destroy = dev_destroy,
    .items_per_iter = bh_accel_items,
    .work_profile = bh_accel_profile,
};
