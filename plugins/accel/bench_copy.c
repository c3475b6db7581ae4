// SPDX-License-Identifier: MIT
/*
 * bench_copy.c -- copy.h2d, copy.d2h, copy.d2d: transfer bandwidth.
 *
 * memory: pageable (host memory from the host allocator) or pinned (a
 * BHOST_MEM_HOST_PINNED buffer of the backend, through map(); unsupported
 * where the backend has none). Timing is wall time from the first enqueue
 * to stream_sync (manual timing): what a program waiting for its data
 * sees, including staging the backend does on the host. Counting: h2d and
 * d2h move bytes per iteration; d2d reads and writes them (2 x bytes, as
 * CUDA's bandwidthTest counts). Work profile: read-write, no compute
 * class, working set both sides (2 x bytes). copy.d2d is a ceiling
 * (BHOST_BENCH_CEILING): the device's copy bandwidth, which the device's
 * other cases are held against. verify() compares the destination with
 * the seeded source pattern byte for byte.
 */
#include "accel.h"

#include <inttypes.h>
#include <string.h>

enum { H2D = 0, D2H = 1, D2D = 2 };

typedef struct copy_inst {
    bh_accel_base base;
    int kind;
    int pinned;
    uint64_t bytes;
    bhost_buf *dbuf;     /* device side (d2d: the source) */
    bhost_buf *dbuf2;    /* d2d destination */
    bhost_buf *pin;      /* pinned host buffer, when memory = pinned */
    unsigned char *host; /* host side: pageable memory or pin's mapping */
    unsigned char *pattern; /* what must arrive */
    unsigned char *check;   /* readback for verify */
} copy_inst;

static const char *const memories[] = {"pageable", "pinned", NULL};

static const bhost_param_desc host_params[] = {
    BH_PARAM_I64("bytes", "Bytes per copy", "1048576", 1,
                 BH_PLUGIN_I64_MAX),
    BH_PARAM_STR("memory", "Host memory: pageable or pinned (the "
                           "backend's page-locked memory)",
                 "pageable", memories),
};
static const bhost_param_desc d2d_params[] = {
    BH_PARAM_I64("bytes", "Bytes per copy", "1048576", 1,
                 BH_PLUGIN_I64_MAX),
};

static void BHOST_ABI copy_destroy(void *inst);

/* Reads the parameters; the kind comes from the descriptor. */
static bhost_status copy_create(bhost_host *h, const bhost_backend *be,
                                bhost_dev *dev, void **out, int kind)
{
    static const char *const names[] = {"copy.h2d", "copy.d2h", "copy.d2d"};
    copy_inst *c = bh_accel_alloc(h, sizeof(*c));
    int64_t bytes = 0;
    char mem[16] = "pageable";
    bhost_status st;

    if (c == NULL)
        return BHOST_E_NOMEM;
    memset(c, 0, sizeof(*c));
    st = bh_accel_base_init(&c->base, h, be, dev, names[kind]);
    if (st == BHOST_OK)
        st = bh_plugin_i64(h, ACCEL_PREFIX, "bytes", 1, INT64_MAX, &bytes);
    if (st == BHOST_OK && kind != D2D)
        st = bh_plugin_str(h, ACCEL_PREFIX, "memory", mem, sizeof(mem));
    if (st != BHOST_OK) {
        bh_accel_free(h, c);
        return st;
    }
    c->kind = kind;
    c->pinned = strcmp(mem, "pinned") == 0;
    c->bytes = (uint64_t)bytes;
    c->base.bytes = (kind == D2D ? 2.0 : 1.0) * (double)bytes;
    c->base.items = 1;
    c->base.ws = 2.0 * (double)bytes;
    c->base.access = BHOST_ACCESS_READ_WRITE;
    *out = c;
    return BHOST_OK;
}

static bhost_status BHOST_ABI h2d_create(bhost_host *h, const bhost_backend *be,
                                         bhost_dev *dev, void **out)
{
    return copy_create(h, be, dev, out, H2D);
}

static bhost_status BHOST_ABI d2h_create(bhost_host *h, const bhost_backend *be,
                                         bhost_dev *dev, void **out)
{
    return copy_create(h, be, dev, out, D2H);
}

static bhost_status BHOST_ABI d2d_create(bhost_host *h, const bhost_backend *be,
                                         bhost_dev *dev, void **out)
{
    return copy_create(h, be, dev, out, D2D);
}

/* The host side: pageable memory, or a pinned buffer's mapping. */
static bhost_status host_side(copy_inst *c)
{
    const bhost_backend *be = c->base.be;
    bhost_status st;

    if (!c->pinned) {
        c->host = bh_accel_alloc(c->base.h, c->bytes);
        return c->host == NULL ? BHOST_E_NOMEM : BHOST_OK;
    }
    st = be->alloc(c->base.dev, c->bytes, BHOST_MEM_HOST_PINNED, &c->pin);
    if (st != BHOST_OK)
        return st == BHOST_E_UNSUPPORTED
                   ? bh_accel_fail(c->base.h, st,
                                   "backend '%s' has no pinned host memory",
                                   be->id)
                   : st;
    c->host = be->map(c->base.dev, c->pin);
    if (c->host == NULL)
        return bh_accel_fail(c->base.h, BHOST_E_UNSUPPORTED,
                             "backend '%s' cannot map its pinned memory",
                             be->id);
    return BHOST_OK;
}

/* Allocates both sides, fills the seeded pattern where the data starts
 * and waits for the uploads. [instance] */
static bhost_status BHOST_ABI copy_setup(void *inst, bhost_stream *s)
{
    copy_inst *c = inst;
    const bhost_backend *be = c->base.be;
    bhost_dev *dev = c->base.dev;
    bhost_status st = BHOST_OK;

    if (c->pattern == NULL) {
        c->pattern = bh_accel_alloc(c->base.h, c->bytes);
        c->check = bh_accel_alloc(c->base.h, c->bytes);
        if (c->pattern == NULL || c->check == NULL)
            return BHOST_E_NOMEM;
        st = be->alloc(dev, c->bytes, BHOST_MEM_DEVICE, &c->dbuf);
        if (st == BHOST_OK && c->kind == D2D)
            st = be->alloc(dev, c->bytes, BHOST_MEM_DEVICE, &c->dbuf2);
        if (st == BHOST_OK && c->kind != D2D)
            st = host_side(c);
        if (st != BHOST_OK)
            return st;
    }
    bh_accel_random(c->base.h, c->pattern, BHOST_DTYPE_F32, c->bytes / 4, 0,
                    1, 11);
    for (uint64_t i = c->bytes & ~UINT64_C(3); i < c->bytes; i++)
        c->pattern[i] = (unsigned char)(i * 37u + 11u);
    if (c->kind == H2D) {
        memcpy(c->host, c->pattern, (size_t)c->bytes);
    } else {
        st = be->copy_h2d(dev, s, c->dbuf, 0, c->pattern, c->bytes);
        if (c->kind == D2H)
            memset(c->host, 0, (size_t)c->bytes);
    }
    if (st == BHOST_OK)
        st = be->stream_sync(dev, s);
    return st;
}

/* iterations copies, then stream_sync; wall time. [instance] */
static bhost_status BHOST_ABI copy_run(void *inst, bhost_stream *s,
                                       uint64_t iterations)
{
    copy_inst *c = inst;
    const bhost_backend *be = c->base.be;
    bhost_dev *dev = c->base.dev;
    uint64_t t0 = bh_accel_api->now_ns(c->base.h);
    bhost_status st = BHOST_OK;

    for (uint64_t i = 0; i < iterations && st == BHOST_OK; i++) {
        if (c->kind == H2D)
            st = be->copy_h2d(dev, s, c->dbuf, 0, c->host, c->bytes);
        else if (c->kind == D2H)
            st = be->copy_d2h(dev, s, c->host, c->dbuf, 0, c->bytes);
        else
            st = be->copy_d2d(dev, s, c->dbuf2, 0, c->dbuf, 0, c->bytes);
    }
    if (st == BHOST_OK)
        st = be->stream_sync(dev, s);
    if (st == BHOST_OK)
        st = bh_accel_manual(c->base.h, t0);
    return st;
}

/* Compares the destination of the last copy with the pattern. */
static bhost_status BHOST_ABI copy_verify(void *inst)
{
    copy_inst *c = inst;
    const bhost_backend *be = c->base.be;
    const unsigned char *got = c->check;
    bhost_status st = be->device_sync(c->base.dev);

    if (st == BHOST_OK && c->kind == D2H)
        got = c->host;
    else if (st == BHOST_OK)
        st = be->copy_d2h(c->base.dev, NULL, c->check,
                          c->kind == D2D ? c->dbuf2 : c->dbuf, 0, c->bytes);
    if (st == BHOST_OK)
        st = be->stream_sync(c->base.dev, NULL);
    if (st != BHOST_OK)
        return st;
    if (memcmp(got, c->pattern, (size_t)c->bytes) != 0) {
        uint64_t i = 0;

        while (got[i] == c->pattern[i])
            i++;
        return bh_accel_fail(c->base.h, BHOST_E_VERIFY,
                             "copy: destination differs at byte %" PRIu64
                             " of %" PRIu64, i, c->bytes);
    }
    return BHOST_OK;
}

static void BHOST_ABI copy_destroy(void *inst)
{
    copy_inst *c = inst;
    const bhost_backend *be = c->base.be;

    if (c->dbuf != NULL)
        be->free(c->base.dev, c->dbuf);
    if (c->dbuf2 != NULL)
        be->free(c->base.dev, c->dbuf2);
    if (c->pin != NULL)
        be->free(c->base.dev, c->pin);
    else
        bh_accel_free(c->base.h, c->host);
    bh_accel_free(c->base.h, c->pattern);
    bh_accel_free(c->base.h, c->check);
    bh_accel_free(c->base.h, c);
}

#define COPY_DESC(var, name, sum, create_fn, params_arr, extra_flags)          \
    static const bhost_bench_desc var = {                                      \
        .struct_size = sizeof(bhost_bench_desc),                               \
        .flags = BHOST_BENCH_NEEDS_DEVICE | BHOST_BENCH_MANUAL_TIMING |        \
                 (extra_flags),                                                \
        .id = name,                                                            \
        .summary = sum,                                                        \
        .params = params_arr,                                                  \
        .param_count = sizeof(params_arr) / sizeof(params_arr[0]),             \
        .create = create_fn,                                                   \
        .setup = copy_setup,                                                   \
        .run = copy_run,                                                       \
        .verify = copy_verify,                                                 \
        .destroy = copy_destroy,                                               \
        .bytes_per_iter = bh_accel_bytes,                                      \
        .items_per_iter = bh_accel_items,                                      \
        .work_profile = bh_accel_profile,                                      \
    }

COPY_DESC(h2d_desc, "copy.h2d",
          "Host-to-device copy bandwidth (pageable or pinned host memory)",
          h2d_create, host_params, 0u);
COPY_DESC(d2h_desc, "copy.d2h",
          "Device-to-host copy bandwidth (pageable or pinned host memory)",
          d2h_create, host_params, 0u);
COPY_DESC(d2d_desc, "copy.d2d",
          "Device-to-device copy bandwidth (read + write bytes)", d2d_create,
          d2d_params, BHOST_BENCH_CEILING);

const bhost_bench_desc *const bh_accel_copy_benches[] = {&h2d_desc, &d2h_desc,
                                                         &d2d_desc};
