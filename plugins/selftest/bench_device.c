// SPDX-License-Identifier: MIT
/*
 * bench_device.c -- device_copy: device-to-device copies through a backend.
 *
 * Counting: 2 x bytes per iteration (the source read and the destination
 * written on the device, as CUDA's bandwidthTest counts). Work profile: a
 * read-write stream over both buffers, no arithmetic, threads unknown
 * (the backend's). It is one of its device's memory ceilings
 * (BHOST_BENCH_CEILING), with accel's copy.d2d: the best of the two is
 * what the device's cases are held against.
 */
#include "selftest.h"

#include <inttypes.h>
#include <string.h>

struct dcopy {
    bhost_host *h;
    const bhost_backend *be;
    bhost_dev *dev;
    uint64_t bytes;
    bhost_buf *a;           /* device source, holds pattern */
    bhost_buf *b;           /* device destination */
    unsigned char *pattern; /* host copy of a's contents */
    unsigned char *back;    /* host staging for b: ~pattern, then readback */
};

static const bhost_param_desc dcopy_params[] = {
    {
        .struct_size = sizeof(bhost_param_desc),
        .type = BHOST_PARAM_I64,
        .key = "bytes",
        .summary = "Bytes copied device-to-device per iteration",
        .default_value = "1048576",
        .min = 1,
        .max = BH_PLUGIN_I64_MAX,
    },
};

/* Reads 'bytes' and keeps the backend and device for the later calls.
 * BHOST_E_INVALID without a device or with a backend table older than 1.0.
 * [instance] */
static bhost_status BHOST_ABI dcopy_create(bhost_host *h,
                                           const bhost_backend *be,
                                           bhost_dev *dev, void **inst)
{
    struct dcopy *d;
    int64_t bytes;
    bhost_status st;

    if (be == NULL || dev == NULL)
        return bh_plugin_fail(h, BHOST_E_INVALID,
                              "device_copy: needs a backend device");
    if (!BHOST_HAS(bhost_backend, be, get_kernel))
        return bh_plugin_fail(h, BHOST_E_VERSION,
                              "device_copy: backend table older than 1.0");
    st = bh_plugin_i64(h, "", "bytes", INT64_MIN, INT64_MAX, &bytes);
    if (st != BHOST_OK)
        return st;
    if (bytes < 1 || (double)bytes > BH_PLUGIN_I64_MAX)
        return bh_plugin_fail(h, BHOST_E_INVALID,
                              "device_copy: bytes=%" PRId64
                              " outside [1, 2^53]",
                              bytes);
    d = bh_selftest_api->alloc(h, sizeof(*d), 0);
    if (d == NULL)
        return bh_plugin_fail(h, BHOST_E_NOMEM, "device_copy: out of memory");
    memset(d, 0, sizeof(*d));
    d->h = h;
    d->be = be;
    d->dev = dev;
    d->bytes = (uint64_t)bytes;
    *inst = d;
    return BHOST_OK;
}

/* Allocates (first call only) host staging and two device buffers, uploads
 * a seeded pattern into a and its complement into b, and waits for the
 * uploads. Returns the failing backend status (the backend set the message)
 * or BHOST_E_NOMEM. [instance] */
static bhost_status BHOST_ABI dcopy_setup(void *inst, bhost_stream *s)
{
    struct dcopy *d = inst;
    uint64_t state = bh_selftest_api->seed(d->h) ^ UINT64_C(0xDC0B1);
    uint64_t word = 0;
    bhost_status st;

    if (d->pattern == NULL)
        d->pattern = bh_selftest_api->alloc(d->h, d->bytes, 64);
    if (d->back == NULL)
        d->back = bh_selftest_api->alloc(d->h, d->bytes, 64);
    if (d->pattern == NULL || d->back == NULL)
        return bh_plugin_fail(d->h, BHOST_E_NOMEM,
                              "device_copy: cannot allocate 2 x %" PRIu64
                              " host bytes",
                              d->bytes);
    if (d->a == NULL) {
        st = d->be->alloc(d->dev, d->bytes, BHOST_MEM_DEVICE, &d->a);
        if (st != BHOST_OK)
            return st;
    }
    if (d->b == NULL) {
        st = d->be->alloc(d->dev, d->bytes, BHOST_MEM_DEVICE, &d->b);
        if (st != BHOST_OK)
            return st;
    }
    for (uint64_t i = 0; i < d->bytes; i++) {
        if ((i & 7) == 0)
            word = bh_rng_next(&state);
        d->pattern[i] = (unsigned char)(word >> (8 * (i & 7)));
        d->back[i] = (unsigned char)~d->pattern[i];
    }
    st = d->be->copy_h2d(d->dev, s, d->a, 0, d->pattern, d->bytes);
    if (st == BHOST_OK)
        st = d->be->copy_h2d(d->dev, s, d->b, 0, d->back, d->bytes);
    if (st == BHOST_OK)
        st = d->be->stream_sync(d->dev, s);
    return st;
}

/* Enqueues one a -> b copy per iteration on s. Returns the first failing
 * backend status. [instance] */
static bhost_status BHOST_ABI dcopy_run(void *inst, bhost_stream *s,
                                        uint64_t iterations)
{
    struct dcopy *d = inst;

    for (uint64_t i = 0; i < iterations; i++) {
        bhost_status st =
            d->be->copy_d2d(d->dev, s, d->b, 0, d->a, 0, d->bytes);

        if (st != BHOST_OK)
            return st;
    }
    return BHOST_OK;
}

/* Waits for the device, reads b back and compares it with the pattern.
 * BHOST_E_VERIFY on a mismatch, or the failing backend status. [instance] */
static bhost_status BHOST_ABI dcopy_verify(void *inst)
{
    struct dcopy *d = inst;
    bhost_status st;

    if (d->a == NULL || d->b == NULL)
        return bh_plugin_fail(d->h, BHOST_E_VERIFY,
                              "device_copy: verify before setup");
    memset(d->back, 0, (size_t)d->bytes);
    st = d->be->device_sync(d->dev);
    if (st == BHOST_OK)
        st = d->be->copy_d2h(d->dev, NULL, d->back, d->b, 0, d->bytes);
    if (st == BHOST_OK)
        st = d->be->stream_sync(d->dev, NULL);
    if (st != BHOST_OK)
        return st;
    if (memcmp(d->back, d->pattern, (size_t)d->bytes) != 0) {
        uint64_t i = 0;

        while (d->back[i] == d->pattern[i])
            i++;
        return bh_plugin_fail(d->h, BHOST_E_VERIFY,
                              "device_copy: readback differs at byte %" PRIu64
                              " of %" PRIu64,
                              i, d->bytes);
    }
    return BHOST_OK;
}

/* Frees the device buffers, the host staging and the instance; safe after
 * a failed or missing setup(). [instance] */
static void BHOST_ABI dcopy_destroy(void *inst)
{
    struct dcopy *d = inst;

    if (d->a != NULL)
        d->be->free(d->dev, d->a);
    if (d->b != NULL)
        d->be->free(d->dev, d->b);
    bh_selftest_api->free(d->h, d->pattern);
    bh_selftest_api->free(d->h, d->back);
    bh_selftest_api->free(d->h, d);
}

/* Read plus write traffic: 2 * bytes. [instance] */
static double BHOST_ABI dcopy_bytes(void *inst)
{
    return 2.0 * (double)((const struct dcopy *)inst)->bytes;
}

/* A read-write stream over both device buffers; the backend's threads.
 * [instance] */
static bhost_status BHOST_ABI dcopy_profile(void *inst, bhost_work_profile *out)
{
    return bh_plugin_profile(out, BHOST_ACCESS_READ_WRITE, BHOST_COMPUTE_NONE, 0,
                             dcopy_bytes(inst));
}

const bhost_bench_desc bh_selftest_device_copy = {
    .struct_size = sizeof(bhost_bench_desc),
    /* a ceiling too: the device's copy bandwidth timed by its own events
     * (accel's copy.d2d is the other, timed around enqueue and sync) */
    .flags = BHOST_BENCH_NEEDS_DEVICE | BHOST_BENCH_CEILING,
    .id = "device_copy",
    .summary = "Device-to-device copy on the backend stream",
    .params = dcopy_params,
    .param_count = 1,
    .required_caps = 0,
    .create = dcopy_create,
    .setup = dcopy_setup,
    .run = dcopy_run,
    .verify = dcopy_verify,
    .destroy = dcopy_destroy,
    .bytes_per_iter = dcopy_bytes,
    .work_profile = dcopy_profile,
};
