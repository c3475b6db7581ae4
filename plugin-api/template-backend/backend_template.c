// SPDX-License-Identifier: MIT
/*
 * backend_template.c -- a complete, small bhost backend plugin to start
 * from: backend-template.so, backend id "template".
 *
 * One device, "template host memory": buffers are malloc'd host memory,
 * streams run work at submission (sync has nothing to wait for), events
 * read CLOCK_MONOTONIC, and one kernel is served, bhost.kernel.axpy/1 for
 * f32 and f64, plus the device_index extension of <bhost/accel.h>. The
 * bhost.backend/1 table is the ABI (<bhost/plugin.h>); the argument and
 * handle checks, the "backend-template: " messages and the entry glue come
 * from the SDK's static helper <bhost/backend_helper.h> (pkg-config
 * bhost-backend-helper), as in bhost's own backends.
 *
 * To make it yours: rename the file (the .so must stay backend-<id>.so),
 * change BACKEND_ID, PLUGIN_ID (reverse DNS of a domain you own) and the
 * magics, load your runtime in tpl_load() (bh_be_dlopen() and bh_be_sym()
 * help), and replace the memcpy()s and the loop in axpy_run() with device
 * work. The specification is installed as
 * <prefix>/share/doc/bhost/plugin-api.md (pkg-config --variable=specfile
 * bhost-plugin), sections 7 and 13 for backends.
 *
 * Build: with the Makefile next to this file (pkg-config only), or with its
 * meson.build. Check: bhost check-plugin ./backend-template.so
 */
#include <bhost/accel.h>
#include <bhost/backend_helper.h>
#include <bhost/plugin.h>

#include <stdlib.h>
#include <string.h>

#define BACKEND_ID "template"
#define PLUGIN_NAME "backend-" BACKEND_ID
#define PLUGIN_ID "org.example.backend-template"
#define PLUGIN_VERSION "0.1.0"

/* Handle tags: catch a handle of the wrong kind or one already freed. */
#define TPL_DEV_MAGIC 0x54504c44u    /* "TPLD" */
#define TPL_BUF_MAGIC 0x54504c42u    /* "TPLB" */
#define TPL_STREAM_MAGIC 0x54504c53u /* "TPLS" */
#define TPL_EVENT_MAGIC 0x54504c45u  /* "TPLE" */

/* Each handle starts with the helper's head (BH_BE_CHECK_LAYOUT below). */
struct bhost_dev {
    uint32_t magic;
    uint32_t index;
    bhost_host *h;
};

struct bhost_buf {
    uint32_t magic;
    uint32_t flags;
    bhost_dev *dev;
    uint64_t size;
    void *ptr;
};

struct bhost_stream {
    uint32_t magic;
    uint32_t reserved;
    bhost_dev *dev;
};

struct bhost_event {
    uint32_t magic;
    uint32_t recorded;
    bhost_dev *dev;
    uint64_t ns;
};

static bhost_status tpl_load(void);
static const char *tpl_load_error(void);
static uint32_t tpl_count(void);
static void tpl_describe(uint32_t index, bhost_device_info *info);
static const void *tpl_kernel(bhost_dev *dev, const char *id);

/* This backend for the helper: message prefix, magics, device loader. */
static bh_be be = {
    .name = PLUGIN_NAME,
    .dev_magic = TPL_DEV_MAGIC,
    .buf_magic = TPL_BUF_MAGIC,
    .stream_magic = TPL_STREAM_MAGIC,
    .event_magic = TPL_EVENT_MAGIC,
    .load = tpl_load,
    .load_error = tpl_load_error,
    .count = tpl_count,
    .describe = tpl_describe,
    .kernel = tpl_kernel,
};

BH_BE_CHECK_LAYOUT();

/* ---- Devices: the helper's loader hooks ---------------------------------- */

/* Loads the vendor runtime (here: nothing to load). Idempotent. [main] */
static bhost_status tpl_load(void)
{
    return BHOST_OK;
}

/* Why tpl_load() failed. [main] */
static const char *tpl_load_error(void)
{
    return "no runtime";
}

/* The number of devices once loaded. [main] */
static uint32_t tpl_count(void)
{
    return 1;
}

/* Fills every field of *info for device index. [main] */
static void tpl_describe(uint32_t index, bhost_device_info *info)
{
    (void)index;
    memset(info, 0, sizeof(*info));
    info->struct_size = sizeof(*info);
    info->compute_units = 1;
    strcpy(info->name, "template host memory");
    strcpy(info->vendor, "example");
    strcpy(info->driver_version, PLUGIN_VERSION);
    strcpy(info->runtime_version, "none");
    info->caps = BHOST_CAP_KERNEL_AXPY;
    info->timer_resolution_ns = 1.0;
}

static bhost_status BHOST_ABI tpl_device_count(uint32_t *count)
{
    return bh_be_device_count(&be, count);
}

static bhost_status BHOST_ABI tpl_device_info(uint32_t index,
                                              bhost_device_info *out)
{
    return bh_be_device_info(&be, index, out);
}

/* Opens device index for case h; *out is freed by close(). [main] */
static bhost_status BHOST_ABI tpl_open(uint32_t index, bhost_host *h,
                                       bhost_dev **out)
{
    bhost_dev *dev;

    if (out == NULL || index >= tpl_count())
        return bh_be_fail(&be, h, BHOST_E_INVALID, "open: no device %u",
                          (unsigned)index);
    dev = malloc(sizeof(*dev));
    if (dev == NULL)
        return bh_be_fail(&be, h, BHOST_E_NOMEM, "open: out of memory");
    dev->magic = TPL_DEV_MAGIC;
    dev->index = index;
    dev->h = h;
    *out = dev;
    return BHOST_OK;
}

/* Frees dev; NULL and foreign handles are ignored. [main] */
static void BHOST_ABI tpl_close(bhost_dev *dev)
{
    if (bh_be_check_dev(&be, dev, "close") != BHOST_OK)
        return;
    dev->magic = 0;
    free(dev);
}

/* ---- Memory and copies ---------------------------------------------------- */

/* Allocates bytes (> 0) of host memory; every flag is host memory here.
 * [instance] */
static bhost_status BHOST_ABI tpl_alloc(bhost_dev *dev, uint64_t bytes,
                                        uint32_t flags, bhost_buf **out)
{
    bhost_buf *buf;
    bhost_status st = bh_be_check_dev(&be, dev, "alloc");

    if (st != BHOST_OK)
        return st;
    if (out == NULL || bytes == 0 || bytes > SIZE_MAX / 2)
        return bh_be_fail(&be, dev->h, BHOST_E_INVALID, "alloc: bad arguments");
    buf = malloc(sizeof(*buf));
    if (buf != NULL)
        buf->ptr = malloc((size_t)bytes);
    if (buf == NULL || buf->ptr == NULL) {
        free(buf);
        return bh_be_fail(&be, dev->h, BHOST_E_NOMEM, "alloc: out of memory");
    }
    buf->magic = TPL_BUF_MAGIC;
    buf->flags = flags;
    buf->dev = dev;
    buf->size = bytes;
    *out = buf;
    return BHOST_OK;
}

/* Frees buf; NULL and foreign handles are ignored. [instance] */
static void BHOST_ABI tpl_free(bhost_dev *dev, bhost_buf *buf)
{
    if (bh_be_check_dev(&be, dev, "free") != BHOST_OK ||
        bh_be_check_range(&be, dev, buf, 0, 0, "free", "buf") != BHOST_OK)
        return;
    buf->magic = 0;
    free(buf->ptr);
    free(buf);
}

/* Every buffer is host memory: its pointer, or NULL for a bad handle.
 * [instance] */
static void *BHOST_ABI tpl_map(bhost_dev *dev, bhost_buf *buf)
{
    if (bh_be_check_dev(&be, dev, "map") != BHOST_OK ||
        bh_be_check_range(&be, dev, buf, 0, 0, "map", "buf") != BHOST_OK)
        return NULL;
    return buf->ptr;
}

/* The checks every copy starts with: dev, the stream, one buffer range
 * and a host pointer (host may be NULL only when n is 0). [instance] */
static bhost_status copy_check(bhost_dev *dev, bhost_stream *s,
                               const bhost_buf *buf, uint64_t off, uint64_t n,
                               const void *host, const char *op)
{
    bhost_status st = bh_be_check_dev(&be, dev, op);

    if (st == BHOST_OK)
        st = bh_be_check_stream(&be, dev, s, op);
    if (st == BHOST_OK)
        st = bh_be_check_range(&be, dev, buf, off, n, op, "buffer");
    if (st == BHOST_OK && host == NULL && n != 0)
        st = bh_be_fail(&be, dev->h, BHOST_E_INVALID, "%s: NULL host pointer",
                        op);
    return st;
}

static bhost_status BHOST_ABI tpl_copy_h2d(bhost_dev *dev, bhost_stream *s,
                                           bhost_buf *dst, uint64_t dst_off,
                                           const void *src, uint64_t n)
{
    bhost_status st = copy_check(dev, s, dst, dst_off, n, src, "copy_h2d");

    if (st == BHOST_OK && n != 0)
        memcpy((char *)dst->ptr + dst_off, src, (size_t)n);
    return st;
}

static bhost_status BHOST_ABI tpl_copy_d2h(bhost_dev *dev, bhost_stream *s,
                                           void *dst, const bhost_buf *src,
                                           uint64_t src_off, uint64_t n)
{
    bhost_status st = copy_check(dev, s, src, src_off, n, dst, "copy_d2h");

    if (st == BHOST_OK && n != 0)
        memcpy(dst, (const char *)src->ptr + src_off, (size_t)n);
    return st;
}

/* Overlapping ranges of one buffer behave as memmove. [instance] */
static bhost_status BHOST_ABI tpl_copy_d2d(bhost_dev *dev, bhost_stream *s,
                                           bhost_buf *dst, uint64_t dst_off,
                                           const bhost_buf *src,
                                           uint64_t src_off, uint64_t n)
{
    bhost_status st = copy_check(dev, s, dst, dst_off, n, "", "copy_d2d");

    if (st == BHOST_OK)
        st = bh_be_check_range(&be, dev, src, src_off, n, "copy_d2d", "src");
    if (st == BHOST_OK && n != 0)
        memmove((char *)dst->ptr + dst_off, (const char *)src->ptr + src_off,
                (size_t)n);
    return st;
}

/* ---- Streams: work runs at submission ------------------------------------ */

static bhost_status BHOST_ABI tpl_stream_create(bhost_dev *dev,
                                                bhost_stream **out)
{
    bhost_stream *s;
    bhost_status st = bh_be_check_dev(&be, dev, "stream_create");

    if (st != BHOST_OK)
        return st;
    if (out == NULL || (s = malloc(sizeof(*s))) == NULL)
        return bh_be_fail(&be, dev->h, BHOST_E_NOMEM, "stream_create failed");
    s->magic = TPL_STREAM_MAGIC;
    s->reserved = 0;
    s->dev = dev;
    *out = s;
    return BHOST_OK;
}

/* Frees s; NULL (the default stream) and foreign handles are ignored. */
static void BHOST_ABI tpl_stream_destroy(bhost_dev *dev, bhost_stream *s)
{
    if (s == NULL || bh_be_check_stream(&be, dev, s, "stream_destroy") != BHOST_OK)
        return;
    s->magic = 0;
    free(s);
}

/* Validates its arguments; there is never pending work. [instance] */
static bhost_status BHOST_ABI tpl_stream_sync(bhost_dev *dev, bhost_stream *s)
{
    bhost_status st = bh_be_check_dev(&be, dev, "stream_sync");

    return st == BHOST_OK ? bh_be_check_stream(&be, dev, s, "stream_sync") : st;
}

static bhost_status BHOST_ABI tpl_device_sync(bhost_dev *dev)
{
    return bh_be_check_dev(&be, dev, "device_sync");
}

/* ---- Events: CLOCK_MONOTONIC stamps --------------------------------------- */

static bhost_status BHOST_ABI tpl_event_create(bhost_dev *dev,
                                               bhost_event **out)
{
    bhost_event *e;
    bhost_status st = bh_be_check_dev(&be, dev, "event_create");

    if (st != BHOST_OK)
        return st;
    if (out == NULL || (e = calloc(1, sizeof(*e))) == NULL)
        return bh_be_fail(&be, dev->h, BHOST_E_NOMEM, "event_create failed");
    e->magic = TPL_EVENT_MAGIC;
    e->dev = dev;
    *out = e;
    return BHOST_OK;
}

static void BHOST_ABI tpl_event_destroy(bhost_dev *dev, bhost_event *e)
{
    if (bh_be_check_event(&be, dev, e, "event_destroy", "event") != BHOST_OK)
        return;
    e->magic = 0;
    free(e);
}

/* Stamps e: all earlier work on s is complete. [instance] */
static bhost_status BHOST_ABI tpl_event_record(bhost_dev *dev, bhost_stream *s,
                                               bhost_event *e)
{
    bhost_status st = bh_be_check_dev(&be, dev, "event_record");

    if (st == BHOST_OK)
        st = bh_be_check_stream(&be, dev, s, "event_record");
    if (st == BHOST_OK)
        st = bh_be_check_event(&be, dev, e, "event_record", "event");
    if (st == BHOST_OK) {
        e->ns = bh_be_now_ns();
        e->recorded = 1;
    }
    return st;
}

/* *ns = end - start, both recorded, end not earlier. [instance] */
static bhost_status BHOST_ABI tpl_event_elapsed_ns(bhost_dev *dev,
                                                   const bhost_event *start,
                                                   const bhost_event *end,
                                                   uint64_t *ns)
{
    const char *op = "event_elapsed_ns";
    bhost_status st = bh_be_check_dev(&be, dev, op);

    if (st == BHOST_OK)
        st = bh_be_check_event(&be, dev, start, op, "start");
    if (st == BHOST_OK)
        st = bh_be_check_event(&be, dev, end, op, "end");
    if (st != BHOST_OK)
        return st;
    if (ns == NULL || !start->recorded || !end->recorded || end->ns < start->ns)
        return bh_be_fail(&be, dev->h, BHOST_E_INVALID,
                          "%s: NULL ns or events not recorded in order", op);
    *ns = end->ns - start->ns;
    return BHOST_OK;
}

/* ---- Kernels and extensions ---------------------------------------------- */

/* y = alpha * x + y for f32 and f64, at submission. [instance] */
static bhost_status BHOST_ABI axpy_run(bhost_dev *dev, bhost_stream *s,
                                       const bhost_axpy_args *a)
{
    uint64_t es;
    bhost_status st = bh_be_check_dev(&be, dev, "axpy");

    if (st == BHOST_OK)
        st = bh_be_check_stream(&be, dev, s, "axpy");
    if (st == BHOST_OK && a == NULL)
        st = bh_be_fail(&be, dev->h, BHOST_E_INVALID, "axpy: NULL args");
    if (st != BHOST_OK)
        return st;
    es = a->type == BHOST_DTYPE_F32 ? 4 : a->type == BHOST_DTYPE_F64 ? 8 : 0;
    st = bh_be_check_axpy(&be, dev, a, es, " (F32, F64)");
    for (uint64_t i = 0; st == BHOST_OK && i < a->n; i++) {
        if (es == 4)
            ((float *)a->y->ptr)[i] +=
                (float)a->alpha * ((const float *)a->x->ptr)[i];
        else
            ((double *)a->y->ptr)[i] += a->alpha * ((const double *)a->x->ptr)[i];
    }
    return st;
}

/* device_index of <bhost/accel.h>: the index dev was opened with. */
static uint32_t BHOST_ABI index_of(bhost_dev *dev)
{
    return bh_be_check_dev(&be, dev, "device_index") == BHOST_OK ? dev->index : 0;
}

static const bhost_kernel_axpy axpy_table = {sizeof(bhost_kernel_axpy), 0,
                                             axpy_run};
static const bhost_ext_device_index index_table = {
    sizeof(bhost_ext_device_index), 0, index_of};
static const bh_be_tables tables = {NULL, &axpy_table, NULL, NULL,
                                    &index_table};

/* The table for id, or NULL; dev is checked by the helper. [instance] */
static const void *tpl_kernel(bhost_dev *dev, const char *id)
{
    int kernel;

    (void)dev;
    return bh_be_find_table(&tables, id, &kernel);
}

static const void *BHOST_ABI tpl_get_kernel(bhost_dev *dev, const char *id)
{
    return bh_be_get_kernel(&be, dev, id);
}

static const bhost_backend backend = {
    .struct_size = sizeof(bhost_backend),
    .id = BACKEND_ID,
    .device_count = tpl_device_count,
    .device_info = tpl_device_info,
    .open = tpl_open,
    .close = tpl_close,
    .alloc = tpl_alloc,
    .free = tpl_free,
    .map = tpl_map,
    .copy_h2d = tpl_copy_h2d,
    .copy_d2h = tpl_copy_d2h,
    .copy_d2d = tpl_copy_d2d,
    .stream_create = tpl_stream_create,
    .stream_destroy = tpl_stream_destroy,
    .stream_sync = tpl_stream_sync,
    .device_sync = tpl_device_sync,
    .event_create = tpl_event_create,
    .event_destroy = tpl_event_destroy,
    .event_record = tpl_event_record,
    .event_elapsed_ns = tpl_event_elapsed_ns,
    .get_kernel = tpl_get_kernel,
};

/* ---- Entry ---------------------------------------------------------------- */

/* Keeps api. BHOST_E_VERSION when the host's table is older than 1.0. */
static bhost_status BHOST_ABI tpl_init(const bhost_host_api *api)
{
    return bh_be_init(&be, api);
}

static void BHOST_ABI tpl_deinit(void)
{
    be.api = NULL;
}

/* The backend table for BHOST_IFACE_BACKEND, else NULL. [any-thread] */
static const void *BHOST_ABI tpl_get_interface(const char *id)
{
    return bh_be_interface(id, &backend);
}

const bhost_entry bhost_entry_v1 = {
    sizeof(bhost_entry),
    BHOST_ABI_MAJOR,
    BHOST_ABI_MINOR,
    0,
    PLUGIN_ID,
    PLUGIN_NAME,
    PLUGIN_VERSION,
    "Template backend: one host-memory device, f32/f64 axpy",
    tpl_init,
    tpl_deinit,
    tpl_get_interface,
};
