// SPDX-License-Identifier: MIT
/*
 * backend_cpu.c -- the bhost.backend/1 table of the CPU backend: entry,
 * device, memory, copies, streams and events.
 */
#include "backend_cpu.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

bh_be bh_cpu_be = {
    .name = "backend-cpu",
    .dev_magic = BH_CPU_DEV_MAGIC,
    .buf_magic = BH_CPU_BUF_MAGIC,
    .stream_magic = BH_CPU_STREAM_MAGIC,
    .event_magic = BH_CPU_EVENT_MAGIC,
    .kernel = bh_cpu_kernel, /* devices come from cpu_topo.c, not a loader */
};

BH_BE_CHECK_LAYOUT();

bhost_status bh_cpu_check_range(const bhost_dev *dev, const bhost_buf *buf,
                                uint64_t off, uint64_t n, const char *op,
                                const char *what)
{
    if (buf == NULL)
        return bh_cpu_fail(dev->h, BHOST_E_INVALID, "%s: %s buffer is NULL",
                           op, what);
    return bh_be_check_range(&bh_cpu_be, dev, buf, off, n, op, what);
}

/* ---- Devices -------------------------------------------------------------- */

/* The number of devices (bh_cpu_topo_load): 1, or one per NUMA node with
 * BHOST_CPU_DEVICES=numa. A malformed BHOST_CPU_DEVICES or
 * BHOST_CPU_THREADS gives 0 devices and the reason. [main] */
static bhost_status BHOST_ABI cpu_device_count(uint32_t *count)
{
    if (count == NULL)
        return bh_cpu_fail(NULL, BHOST_E_INVALID, "device_count: NULL count");
    *count = 0;
    if (bh_cpu_topo_load() != BHOST_OK) {
        bh_cpu_fail(NULL, BHOST_E_INVALID, "%s", bh_cpu_topo_error());
        return BHOST_OK;
    }
    *count = bh_cpu_topo_count();
    return BHOST_OK;
}

/* BHOST_OK when index names a device, else BHOST_E_INVALID after
 * set_error(h). [main] */
static bhost_status check_index(bhost_host *h, uint32_t index, const char *op)
{
    if (bh_cpu_topo_load() != BHOST_OK)
        return bh_cpu_fail(h, BHOST_E_INVALID, "%s: %s", op, bh_cpu_topo_error());
    if (index >= bh_cpu_topo_count())
        return bh_cpu_fail(h, BHOST_E_INVALID,
                           "%s: no device %" PRIu32 " (there are %" PRIu32 ")",
                           op, index, bh_cpu_topo_count());
    return BHOST_OK;
}

/* Writes the fields of device index's description that fit in
 * out->struct_size, leaving struct_size itself alone. [main] */
static bhost_status BHOST_ABI cpu_device_info(uint32_t index,
                                              bhost_device_info *out)
{
    bhost_device_info info;
    bhost_status st;

    if (out == NULL)
        return bh_cpu_fail(NULL, BHOST_E_INVALID, "device_info: NULL out");
    st = check_index(NULL, index, "device_info");
    if (st != BHOST_OK)
        return st;
    if (out->struct_size < sizeof(out->struct_size))
        return bh_cpu_fail(NULL, BHOST_E_INVALID,
                           "device_info: struct_size %" PRIu32 " too small",
                           out->struct_size);
    bh_cpu_describe(index, &info);
    bh_be_copy_sized(out, &info, sizeof(info));
    return BHOST_OK;
}

/* Opens device index for case h: binds the process to a NUMA device's
 * CPUs, sets the BLAS thread count, logs both. *out is freed by close().
 * [main] */
static bhost_status BHOST_ABI cpu_open(uint32_t index, bhost_host *h,
                                       bhost_dev **out)
{
    const bh_cpu_dev_desc *d;
    bhost_dev *dev;
    bhost_status st;

    if (out == NULL)
        return bh_cpu_fail(h, BHOST_E_INVALID, "open: NULL out");
    st = check_index(h, index, "open");
    if (st != BHOST_OK)
        return st;
    d = bh_cpu_topo_desc(index);
    dev = malloc(sizeof(*dev));
    if (dev == NULL)
        return bh_cpu_fail(h, BHOST_E_NOMEM, "open: out of memory");
    memset(dev, 0, sizeof(*dev));
    dev->magic = BH_CPU_DEV_MAGIC;
    dev->index = index;
    dev->h = h;
    if (bh_cpu_topo_bind(index) != 0)
        bh_cpu_log(h, BHOST_LOG_WARN,
                   "cannot bind to NUMA node %" PRId32
                   "; threads may run anywhere", d->numa_node);
    bh_cpu_blas_threads(d->threads);
    bh_cpu_log(h, BHOST_LOG_INFO,
               "device %" PRIu32 " (%s%" PRId32 "): %" PRIu32
               " BLAS threads%s; bf16/f16 gemm %s",
               index, d->numa_node < 0 ? "machine" : "NUMA node ",
               d->numa_node < 0 ? 0 : d->numa_node, d->threads,
               getenv("BHOST_CPU_THREADS") ? " (BHOST_CPU_THREADS)" : "",
               bh_cpu_sbgemm() ? "via cblas_sbgemm"
                               : "converts inputs to f32 and calls sgemm");
    *out = dev;
    return BHOST_OK;
}

/* Frees dev; logs a warning when buffers were not freed. NULL and foreign
 * handles are ignored. [main] */
static void BHOST_ABI cpu_close(bhost_dev *dev)
{
    if (dev == NULL || dev->magic != BH_CPU_DEV_MAGIC)
        return;
    if (dev->live_bufs != 0)
        bh_cpu_log(dev->h, BHOST_LOG_WARN,
                   "close: %" PRIu64 " buffer(s) never freed", dev->live_bufs);
    dev->magic = 0;
    free(dev->scratch);
    free(dev);
}

/* ---- Memory --------------------------------------------------------------- */

/* Allocates bytes (> 0) of BH_CPU_ALIGN-aligned host memory, bound to
 * the device's NUMA node when it is one (cpu_topo.c). Every flag
 * combination is host memory here. [instance] */
static bhost_status BHOST_ABI cpu_alloc(bhost_dev *dev, uint64_t bytes,
                                        uint32_t flags, bhost_buf **out)
{
    const uint32_t known = BHOST_MEM_HOST_PINNED | BHOST_MEM_HOST_VISIBLE;
    bhost_buf *buf;
    int bound = 0;
    bhost_status st = bh_cpu_check_dev(dev, "alloc");

    if (st != BHOST_OK)
        return st;
    if (out == NULL)
        return bh_cpu_fail(dev->h, BHOST_E_INVALID, "alloc: NULL out");
    if (bytes == 0 || bytes > SIZE_MAX - BH_CPU_ALIGN)
        return bh_cpu_fail(dev->h, BHOST_E_INVALID,
                           "alloc: invalid size %" PRIu64, bytes);
    if ((flags & ~known) != 0)
        return bh_cpu_fail(dev->h, BHOST_E_INVALID,
                           "alloc: unknown flags 0x%" PRIx32, flags);
    buf = malloc(sizeof(*buf));
    if (buf == NULL)
        return bh_cpu_fail(dev->h, BHOST_E_NOMEM, "alloc: out of memory");
    buf->ptr = bh_cpu_topo_alloc(dev->index, (size_t)bytes, &bound);
    if (buf->ptr == NULL) {
        free(buf);
        return bh_cpu_fail(dev->h, BHOST_E_NOMEM,
                           "alloc: cannot allocate %" PRIu64 " bytes", bytes);
    }
    buf->magic = BH_CPU_BUF_MAGIC;
    buf->flags = flags;
    buf->dev = dev;
    buf->size = bytes;
    buf->bound = (uint32_t)bound;
    buf->reserved = 0;
    dev->live_bufs++;
    *out = buf;
    return BHOST_OK;
}

/* Frees buf; NULL and foreign handles are ignored. [instance] */
static void BHOST_ABI cpu_free(bhost_dev *dev, bhost_buf *buf)
{
    if (dev == NULL || dev->magic != BH_CPU_DEV_MAGIC || buf == NULL ||
        buf->magic != BH_CPU_BUF_MAGIC || buf->dev != dev)
        return;
    buf->magic = 0;
    bh_cpu_topo_free(buf->ptr, (size_t)buf->size, (int)buf->bound);
    free(buf);
    dev->live_bufs--;
}

/* Every buffer is host memory: its pointer, or NULL for a bad handle.
 * [instance] */
static void *BHOST_ABI cpu_map(bhost_dev *dev, bhost_buf *buf)
{
    if (bh_cpu_check_dev(dev, "map") != BHOST_OK ||
        bh_cpu_check_range(dev, buf, 0, 0, "map", "mapped") != BHOST_OK)
        return NULL;
    return buf->ptr;
}

/* ---- Copies: synchronous memcpy ------------------------------------------ */

/* Copies n bytes from host src into dst at dst_off. [instance] */
static bhost_status BHOST_ABI cpu_copy_h2d(bhost_dev *dev, bhost_stream *s,
                                           bhost_buf *dst, uint64_t dst_off,
                                           const void *src, uint64_t n)
{
    bhost_status st = bh_cpu_check_dev(dev, "copy_h2d");

    if (st == BHOST_OK)
        st = bh_cpu_check_stream(dev, s, "copy_h2d");
    if (st == BHOST_OK)
        st = bh_cpu_check_range(dev, dst, dst_off, n, "copy_h2d", "dst");
    if (st == BHOST_OK && src == NULL && n != 0)
        st = bh_cpu_fail(dev->h, BHOST_E_INVALID, "copy_h2d: NULL src");
    if (st == BHOST_OK && n != 0)
        memcpy((char *)dst->ptr + dst_off, src, (size_t)n);
    return st;
}

/* Copies n bytes from src at src_off into host dst. [instance] */
static bhost_status BHOST_ABI cpu_copy_d2h(bhost_dev *dev, bhost_stream *s,
                                           void *dst, const bhost_buf *src,
                                           uint64_t src_off, uint64_t n)
{
    bhost_status st = bh_cpu_check_dev(dev, "copy_d2h");

    if (st == BHOST_OK)
        st = bh_cpu_check_stream(dev, s, "copy_d2h");
    if (st == BHOST_OK)
        st = bh_cpu_check_range(dev, src, src_off, n, "copy_d2h", "src");
    if (st == BHOST_OK && dst == NULL && n != 0)
        st = bh_cpu_fail(dev->h, BHOST_E_INVALID, "copy_d2h: NULL dst");
    if (st == BHOST_OK && n != 0)
        memcpy(dst, (const char *)src->ptr + src_off, (size_t)n);
    return st;
}

/* Copies n bytes between buffers; overlapping ranges of one buffer behave
 * as memmove. [instance] */
static bhost_status BHOST_ABI cpu_copy_d2d(bhost_dev *dev, bhost_stream *s,
                                           bhost_buf *dst, uint64_t dst_off,
                                           const bhost_buf *src,
                                           uint64_t src_off, uint64_t n)
{
    bhost_status st = bh_cpu_check_dev(dev, "copy_d2d");

    if (st == BHOST_OK)
        st = bh_cpu_check_stream(dev, s, "copy_d2d");
    if (st == BHOST_OK)
        st = bh_cpu_check_range(dev, dst, dst_off, n, "copy_d2d", "dst");
    if (st == BHOST_OK)
        st = bh_cpu_check_range(dev, src, src_off, n, "copy_d2d", "src");
    if (st != BHOST_OK || n == 0)
        return st;
    if (dst == src)
        memmove((char *)dst->ptr + dst_off, (const char *)src->ptr + src_off,
                (size_t)n);
    else
        memcpy((char *)dst->ptr + dst_off, (const char *)src->ptr + src_off,
               (size_t)n);
    return BHOST_OK;
}

/* ---- Streams: work runs at submission, so sync has nothing to wait for -- */

/* Creates a stream of dev; freed by stream_destroy(). [instance] */
static bhost_status BHOST_ABI cpu_stream_create(bhost_dev *dev,
                                                bhost_stream **out)
{
    bhost_stream *s;
    bhost_status st = bh_cpu_check_dev(dev, "stream_create");

    if (st != BHOST_OK)
        return st;
    if (out == NULL)
        return bh_cpu_fail(dev->h, BHOST_E_INVALID, "stream_create: NULL out");
    s = malloc(sizeof(*s));
    if (s == NULL)
        return bh_cpu_fail(dev->h, BHOST_E_NOMEM,
                           "stream_create: out of memory");
    s->magic = BH_CPU_STREAM_MAGIC;
    s->reserved = 0;
    s->dev = dev;
    *out = s;
    return BHOST_OK;
}

/* Frees s; NULL and foreign handles are ignored. [instance] */
static void BHOST_ABI cpu_stream_destroy(bhost_dev *dev, bhost_stream *s)
{
    if (s == NULL || s->magic != BH_CPU_STREAM_MAGIC || s->dev != dev)
        return;
    s->magic = 0;
    free(s);
}

/* Validates its arguments; there is never pending work. [instance] */
static bhost_status BHOST_ABI cpu_stream_sync(bhost_dev *dev, bhost_stream *s)
{
    bhost_status st = bh_cpu_check_dev(dev, "stream_sync");

    return st == BHOST_OK ? bh_cpu_check_stream(dev, s, "stream_sync") : st;
}

/* Validates dev; there is never pending work. [instance] */
static bhost_status BHOST_ABI cpu_device_sync(bhost_dev *dev)
{
    return bh_cpu_check_dev(dev, "device_sync");
}

/* ---- Events: CLOCK_MONOTONIC stamps --------------------------------------- */

/* Creates an unrecorded event of dev; freed by event_destroy(). [instance] */
static bhost_status BHOST_ABI cpu_event_create(bhost_dev *dev,
                                               bhost_event **out)
{
    bhost_event *e;
    bhost_status st = bh_cpu_check_dev(dev, "event_create");

    if (st != BHOST_OK)
        return st;
    if (out == NULL)
        return bh_cpu_fail(dev->h, BHOST_E_INVALID, "event_create: NULL out");
    e = malloc(sizeof(*e));
    if (e == NULL)
        return bh_cpu_fail(dev->h, BHOST_E_NOMEM, "event_create: out of memory");
    e->magic = BH_CPU_EVENT_MAGIC;
    e->recorded = 0;
    e->dev = dev;
    e->ns = 0;
    *out = e;
    return BHOST_OK;
}

/* Frees e; NULL and foreign handles are ignored. [instance] */
static void BHOST_ABI cpu_event_destroy(bhost_dev *dev, bhost_event *e)
{
    if (e == NULL || e->magic != BH_CPU_EVENT_MAGIC || e->dev != dev)
        return;
    e->magic = 0;
    free(e);
}

/* Stamps e with the current time: all earlier work on s is complete.
 * [instance] */
static bhost_status BHOST_ABI cpu_event_record(bhost_dev *dev, bhost_stream *s,
                                               bhost_event *e)
{
    bhost_status st = bh_cpu_check_dev(dev, "event_record");

    if (st == BHOST_OK)
        st = bh_cpu_check_stream(dev, s, "event_record");
    if (st == BHOST_OK)
        st = bh_cpu_check_event(dev, e, "event_record", "event");
    if (st == BHOST_OK) {
        e->ns = bh_be_now_ns();
        e->recorded = 1;
    }
    return st;
}

/* *ns = end - start. BHOST_E_INVALID unless both are recorded and end is
 * not earlier than start. [instance] */
static bhost_status BHOST_ABI cpu_event_elapsed_ns(bhost_dev *dev,
                                                   const bhost_event *start,
                                                   const bhost_event *end,
                                                   uint64_t *ns)
{
    bhost_status st = bh_cpu_check_dev(dev, "event_elapsed_ns");

    if (st == BHOST_OK)
        st = bh_cpu_check_event(dev, start, "event_elapsed_ns", "start");
    if (st == BHOST_OK)
        st = bh_cpu_check_event(dev, end, "event_elapsed_ns", "end");
    if (st != BHOST_OK)
        return st;
    if (ns == NULL)
        return bh_cpu_fail(dev->h, BHOST_E_INVALID, "event_elapsed_ns: NULL ns");
    if (!start->recorded || !end->recorded)
        return bh_cpu_fail(dev->h, BHOST_E_INVALID,
                           "event_elapsed_ns: event never recorded");
    if (end->ns < start->ns)
        return bh_cpu_fail(dev->h, BHOST_E_INVALID,
                           "event_elapsed_ns: end recorded before start");
    *ns = end->ns - start->ns;
    return BHOST_OK;
}

/* The kernel table for id, or NULL for an unknown id or a bad device.
 * [instance] */
static const void *BHOST_ABI cpu_get_kernel(bhost_dev *dev, const char *id)
{
    return bh_be_get_kernel(&bh_cpu_be, dev, id);
}

static const bhost_backend backend = {
    .struct_size = sizeof(bhost_backend),
    .id = "cpu",
    .device_count = cpu_device_count,
    .device_info = cpu_device_info,
    .open = cpu_open,
    .close = cpu_close,
    .alloc = cpu_alloc,
    .free = cpu_free,
    .map = cpu_map,
    .copy_h2d = cpu_copy_h2d,
    .copy_d2h = cpu_copy_d2h,
    .copy_d2d = cpu_copy_d2d,
    .stream_create = cpu_stream_create,
    .stream_destroy = cpu_stream_destroy,
    .stream_sync = cpu_stream_sync,
    .device_sync = cpu_device_sync,
    .event_create = cpu_event_create,
    .event_destroy = cpu_event_destroy,
    .event_record = cpu_event_record,
    .event_elapsed_ns = cpu_event_elapsed_ns,
    .get_kernel = cpu_get_kernel,
};

/* ---- Entry ---------------------------------------------------------------- */

/* Keeps api. BHOST_E_VERSION when the host's table is older than 1.0.
 * [main] */
static bhost_status BHOST_ABI cpu_init(const bhost_host_api *api)
{
    return bh_be_init(&bh_cpu_be, api);
}

/* Releases the topology and forgets the host API. OpenBLAS keeps its own
 * thread pool. [main] */
static void BHOST_ABI cpu_deinit(void)
{
    bh_cpu_topo_unload();
    bh_cpu_be.api = NULL;
}

/* The backend table for BHOST_IFACE_BACKEND, else NULL. [any-thread] */
static const void *BHOST_ABI cpu_get_interface(const char *id)
{
    return bh_be_interface(id, &backend);
}

const bhost_entry bhost_entry_v1 = {
    sizeof(bhost_entry),
    BHOST_ABI_MAJOR,
    BHOST_ABI_MINOR,
    0,
    "org.bhost.backend-cpu",
    "backend-cpu",
    BH_PLUGIN_VERSION,
    "CPU backend: the machine or its NUMA nodes (hwloc), bound host memory, "
    "CLOCK_MONOTONIC events, OpenBLAS kernels",
    cpu_init,
    cpu_deinit,
    cpu_get_interface,
};
