/*
 * backend_level_zero.c -- the bhost.backend/1 table of the Level Zero
 * backend:
 * entry, errors, handle checks, device queries, get_kernel.
 */
#include "ze_internal.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

const bhost_host_api *bh_ze_api;

bhost_status bh_ze_fail(bhost_host *h, bhost_status st, const char *fmt, ...)
{
    char msg[512];
    int len;
    va_list ap;

    len = snprintf(msg, sizeof(msg), "backend-level-zero: ");
    va_start(ap, fmt);
    vsnprintf(msg + len, sizeof(msg) - (size_t)len, fmt, ap);
    va_end(ap);
    if (bh_ze_api != NULL)
        bh_ze_api->set_error(h, msg);
    return st;
}

void bh_ze_log(bhost_host *h, bhost_log_level level, const char *fmt, ...)
{
    char msg[512];
    int len;
    va_list ap;

    len = snprintf(msg, sizeof(msg), "backend-level-zero: ");
    va_start(ap, fmt);
    vsnprintf(msg + len, sizeof(msg) - (size_t)len, fmt, ap);
    va_end(ap);
    if (bh_ze_api != NULL)
        bh_ze_api->log(h, level, msg);
}

/* A name for the common ze_result_t values. */
static const char *result_name(ze_result_t r)
{
    switch (r) {
    case ZE_RESULT_ERROR_UNINITIALIZED: return "ZE_RESULT_ERROR_UNINITIALIZED";
    case ZE_RESULT_ERROR_DEVICE_LOST: return "ZE_RESULT_ERROR_DEVICE_LOST";
    case ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY:
        return "ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY";
    case ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY:
        return "ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY";
    case ZE_RESULT_ERROR_MODULE_BUILD_FAILURE:
        return "ZE_RESULT_ERROR_MODULE_BUILD_FAILURE";
    case ZE_RESULT_ERROR_UNSUPPORTED_FEATURE:
        return "ZE_RESULT_ERROR_UNSUPPORTED_FEATURE";
    case ZE_RESULT_ERROR_INVALID_ARGUMENT:
        return "ZE_RESULT_ERROR_INVALID_ARGUMENT";
    case ZE_RESULT_ERROR_INVALID_KERNEL_NAME:
        return "ZE_RESULT_ERROR_INVALID_KERNEL_NAME";
    default: return "ze_result_t error";
    }
}

bhost_status bh_ze_err(bhost_host *h, ze_result_t r, const char *call)
{
    bhost_status st = r == ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY ||
                              r == ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY
                          ? BHOST_E_NOMEM
                          : BHOST_E_DEVICE;

    return bh_ze_fail(h, st, "%s: %s (0x%08x)", call, result_name(r),
                      (unsigned)r);
}

bhost_status bh_ze_check_dev(const bhost_dev *dev, const char *op)
{
    if (dev == NULL || dev->magic != BH_ZE_DEV_MAGIC)
        return bh_ze_fail(NULL, BHOST_E_INVALID, "%s: %s device handle", op,
                          dev == NULL ? "NULL" : "invalid");
    return BHOST_OK;
}

bhost_stream *bh_ze_stream_of(bhost_dev *dev, bhost_stream *s, const char *op)
{
    if (s == NULL)
        return dev->def;
    if (s->magic != BH_ZE_STREAM_MAGIC || s->dev != dev) {
        bh_ze_fail(dev->h, BHOST_E_INVALID,
                   "%s: stream is not a stream of this device", op);
        return NULL;
    }
    return s;
}

bhost_status bh_ze_check_range(const bhost_dev *dev, const bhost_buf *buf,
                               uint64_t off, uint64_t n, const char *op,
                               const char *what)
{
    if (buf == NULL || buf->magic != BH_ZE_BUF_MAGIC || buf->dev != dev)
        return bh_ze_fail(dev->h, BHOST_E_INVALID,
                          "%s: %s is not a live buffer of this device", op,
                          what);
    if (off > buf->size || n > buf->size - off)
        return bh_ze_fail(dev->h, BHOST_E_INVALID,
                          "%s: %s range [%" PRIu64 ", +%" PRIu64
                          ") exceeds buffer size %" PRIu64,
                          op, what, off, n, buf->size);
    return BHOST_OK;
}

/* Loads libze_loader, zeInit, counts the devices of every driver. No
 * loader, no driver or no device: 0 and the reason. [main] */
static bhost_status BHOST_ABI ze_device_count(uint32_t *count)
{
    if (count == NULL)
        return bh_ze_fail(NULL, BHOST_E_INVALID, "device_count: NULL count");
    *count = 0;
    if (bh_ze_load() != BHOST_OK) {
        bh_ze_fail(NULL, BHOST_E_UNSUPPORTED, "%s", bh_ze_load_error());
        return BHOST_OK;
    }
    *count = bh_ze_count();
    return BHOST_OK;
}

/* Writes the fields of device index's description that fit in
 * out->struct_size. [main] */
static bhost_status BHOST_ABI ze_device_info(uint32_t index,
                                             bhost_device_info *out)
{
    bhost_device_info info;
    size_t n;

    if (out == NULL || out->struct_size < sizeof(out->struct_size))
        return bh_ze_fail(NULL, BHOST_E_INVALID, "device_info: bad out");
    if (bh_ze_load() != BHOST_OK || index >= bh_ze_count())
        return bh_ze_fail(NULL, BHOST_E_INVALID,
                          "device_info: no device %" PRIu32, index);
    bh_ze_describe(index, &info);
    n = out->struct_size < sizeof(info) ? out->struct_size : sizeof(info);
    memcpy((char *)out + sizeof(out->struct_size),
           (const char *)&info + sizeof(info.struct_size),
           n - sizeof(out->struct_size));
    return BHOST_OK;
}

/* Kernel and extension tables; NULL for unknown ids. [instance] */
static const void *BHOST_ABI ze_get_kernel(bhost_dev *dev, const char *id)
{
    if (bh_ze_check_dev(dev, "get_kernel") != BHOST_OK || id == NULL)
        return NULL;
    return bh_ze_kernel(dev, id);
}

static const bhost_backend backend = {
    .struct_size = sizeof(bhost_backend),
    .id = "level-zero",
    .device_count = ze_device_count,
    .device_info = ze_device_info,
    .open = bh_ze_open,
    .close = bh_ze_close,
    .alloc = bh_ze_alloc,
    .free = bh_ze_free,
    .map = bh_ze_map,
    .copy_h2d = bh_ze_copy_h2d,
    .copy_d2h = bh_ze_copy_d2h,
    .copy_d2d = bh_ze_copy_d2d,
    .stream_create = bh_ze_stream_create,
    .stream_destroy = bh_ze_stream_destroy,
    .stream_sync = bh_ze_stream_sync,
    .device_sync = bh_ze_device_sync,
    .event_create = bh_ze_event_create,
    .event_destroy = bh_ze_event_destroy,
    .event_record = bh_ze_event_record,
    .event_elapsed_ns = bh_ze_event_elapsed_ns,
    .get_kernel = ze_get_kernel,
};

/* Keeps api; touches no Level Zero code (that waits for device_count).
 * [main] */
static bhost_status BHOST_ABI ze_init(const bhost_host_api *api)
{
    if (api == NULL || !BHOST_HAS(bhost_host_api, api, set_error))
        return BHOST_E_VERSION;
    if (!BHOST_HAS(bhost_host_api, api, get_extension)) {
        api->set_error(NULL, "backend-level-zero: host API table older than 1.0");
        return BHOST_E_VERSION;
    }
    bh_ze_api = api;
    return BHOST_OK;
}

/* Forgets the host API; the loader stays loaded. [main] */
static void BHOST_ABI ze_deinit(void)
{
    bh_ze_api = NULL;
}

/* The backend table for BHOST_IFACE_BACKEND, else NULL. [any-thread] */
static const void *BHOST_ABI ze_get_interface(const char *id)
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
    "org.bhost.backend-level-zero",
    "backend-level-zero",
    BH_PLUGIN_VERSION,
    "oneAPI Level Zero backend: loader loaded lazily, kernel-timestamp "
    "events, USM memory, SPIR-V kernels built by clang-14/llvm-spirv-14",
    ze_init,
    ze_deinit,
    ze_get_interface,
};
