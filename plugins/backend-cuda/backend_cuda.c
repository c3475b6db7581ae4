/*
 * backend_cuda.c -- the bhost.backend/1 table of the CUDA backend:
 * entry, errors, handle checks, device queries, get_kernel.
 */
#include "cuda_internal.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

const bhost_host_api *bh_cu_api;

bhost_status bh_cu_fail(bhost_host *h, bhost_status st, const char *fmt, ...)
{
    char msg[512];
    int len;
    va_list ap;

    len = snprintf(msg, sizeof(msg), "backend-cuda: ");
    va_start(ap, fmt);
    vsnprintf(msg + len, sizeof(msg) - (size_t)len, fmt, ap);
    va_end(ap);
    if (bh_cu_api != NULL)
        bh_cu_api->set_error(h, msg);
    return st;
}

void bh_cu_log(bhost_host *h, bhost_log_level level, const char *fmt, ...)
{
    char msg[512];
    int len;
    va_list ap;

    len = snprintf(msg, sizeof(msg), "backend-cuda: ");
    va_start(ap, fmt);
    vsnprintf(msg + len, sizeof(msg) - (size_t)len, fmt, ap);
    va_end(ap);
    if (bh_cu_api != NULL)
        bh_cu_api->log(h, level, msg);
}

bhost_status bh_cu_err(bhost_host *h, cudaError_t e, const char *call)
{
    bhost_status st = e == cudaErrorMemoryAllocation ? BHOST_E_NOMEM
                                                     : BHOST_E_DEVICE;

    bh_cu.GetLastError(); /* clear a sticky-less error */
    return bh_cu_fail(h, st, "%s: %s (%d): %s", call, bh_cu.GetErrorName(e),
                      (int)e, bh_cu.GetErrorString(e));
}

bhost_status bh_cu_use(bhost_dev *dev)
{
    cudaError_t e = bh_cu.SetDevice((int)dev->index);

    return e == cudaSuccess ? BHOST_OK : bh_cu_err(dev->h, e, "cudaSetDevice");
}

bhost_status bh_cu_check_dev(const bhost_dev *dev, const char *op)
{
    if (dev == NULL || dev->magic != BH_CU_DEV_MAGIC)
        return bh_cu_fail(NULL, BHOST_E_INVALID, "%s: %s device handle", op,
                          dev == NULL ? "NULL" : "invalid");
    return BHOST_OK;
}

bhost_stream *bh_cu_stream_of(bhost_dev *dev, bhost_stream *s, const char *op)
{
    if (s == NULL)
        return dev->def;
    if (s->magic != BH_CU_STREAM_MAGIC || s->dev != dev) {
        bh_cu_fail(dev->h, BHOST_E_INVALID,
                   "%s: stream is not a stream of this device", op);
        return NULL;
    }
    return s;
}

bhost_status bh_cu_check_range(const bhost_dev *dev, const bhost_buf *buf,
                               uint64_t off, uint64_t n, const char *op,
                               const char *what)
{
    if (buf == NULL || buf->magic != BH_CU_BUF_MAGIC || buf->dev != dev)
        return bh_cu_fail(dev->h, BHOST_E_INVALID,
                          "%s: %s is not a live buffer of this device", op,
                          what);
    if (off > buf->size || n > buf->size - off)
        return bh_cu_fail(dev->h, BHOST_E_INVALID,
                          "%s: %s range [%" PRIu64 ", +%" PRIu64
                          ") exceeds buffer size %" PRIu64,
                          op, what, off, n, buf->size);
    return BHOST_OK;
}

/* Loads libcudart and counts devices. No runtime, no driver or no
 * device: 0 and the reason the runtime gave. [main] */
static bhost_status BHOST_ABI cu_device_count(uint32_t *count)
{
    if (count == NULL)
        return bh_cu_fail(NULL, BHOST_E_INVALID, "device_count: NULL count");
    *count = 0;
    if (bh_cu_load() != BHOST_OK) {
        bh_cu_fail(NULL, BHOST_E_UNSUPPORTED, "%s", bh_cu_load_error());
        return BHOST_OK;
    }
    *count = bh_cu_count();
    return BHOST_OK;
}

/* Writes the fields of device index's description that fit in
 * out->struct_size. [main] */
static bhost_status BHOST_ABI cu_device_info(uint32_t index,
                                             bhost_device_info *out)
{
    bhost_device_info info;
    size_t n;

    if (out == NULL || out->struct_size < sizeof(out->struct_size))
        return bh_cu_fail(NULL, BHOST_E_INVALID, "device_info: bad out");
    if (bh_cu_load() != BHOST_OK || index >= bh_cu_count())
        return bh_cu_fail(NULL, BHOST_E_INVALID,
                          "device_info: no device %" PRIu32, index);
    bh_cu_describe(index, &info);
    n = out->struct_size < sizeof(info) ? out->struct_size : sizeof(info);
    memcpy((char *)out + sizeof(out->struct_size),
           (const char *)&info + sizeof(info.struct_size),
           n - sizeof(out->struct_size));
    return BHOST_OK;
}

/* Kernel and extension tables; NULL for unknown ids. [instance] */
static const void *BHOST_ABI cu_get_kernel(bhost_dev *dev, const char *id)
{
    if (bh_cu_check_dev(dev, "get_kernel") != BHOST_OK || id == NULL)
        return NULL;
    return bh_cu_kernel(dev, id);
}

static const bhost_backend backend = {
    .struct_size = sizeof(bhost_backend),
    .id = "cuda",
    .device_count = cu_device_count,
    .device_info = cu_device_info,
    .open = bh_cu_open,
    .close = bh_cu_close,
    .alloc = bh_cu_alloc,
    .free = bh_cu_free,
    .map = bh_cu_map,
    .copy_h2d = bh_cu_copy_h2d,
    .copy_d2h = bh_cu_copy_d2h,
    .copy_d2d = bh_cu_copy_d2d,
    .stream_create = bh_cu_stream_create,
    .stream_destroy = bh_cu_stream_destroy,
    .stream_sync = bh_cu_stream_sync,
    .device_sync = bh_cu_device_sync,
    .event_create = bh_cu_event_create,
    .event_destroy = bh_cu_event_destroy,
    .event_record = bh_cu_event_record,
    .event_elapsed_ns = bh_cu_event_elapsed_ns,
    .get_kernel = cu_get_kernel,
};

/* Keeps api; touches no CUDA code (that waits for device_count).
 * [main] */
static bhost_status BHOST_ABI cu_init(const bhost_host_api *api)
{
    if (api == NULL || !BHOST_HAS(bhost_host_api, api, set_error))
        return BHOST_E_VERSION;
    if (!BHOST_HAS(bhost_host_api, api, get_extension)) {
        api->set_error(NULL, "backend-cuda: host API table older than 1.0");
        return BHOST_E_VERSION;
    }
    bh_cu_api = api;
    return BHOST_OK;
}

/* Forgets the host API; the runtime stays loaded. [main] */
static void BHOST_ABI cu_deinit(void)
{
    bh_cu_api = NULL;
}

/* The backend table for BHOST_IFACE_BACKEND, else NULL. [any-thread] */
static const void *BHOST_ABI cu_get_interface(const char *id)
{
    if (id != NULL && strcmp(id, BHOST_IFACE_BACKEND) == 0)
        return &backend;
    return NULL;
}

const bhost_entry bhost_entry_v1 = {
    sizeof(bhost_entry),
    BHOST_ABI_MAJOR,
    BHOST_ABI_MINOR,
    0,
    "org.bhost.backend-cuda",
    "backend-cuda",
    BH_PLUGIN_VERSION,
    "CUDA backend: cudart and cuBLAS loaded lazily, CUDA events (optional "
    "L2 flush, throttle detection), pinned memory, nvcc-built kernels",
    cu_init,
    cu_deinit,
    cu_get_interface,
};
