/*
 * backend_vulkan.c -- the bhost.backend/1 table of the Vulkan backend:
 * entry, errors, handle checks, device queries, get_kernel.
 */
#include "vk_internal.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

const bhost_host_api *bh_vk_api;

bhost_status bh_vk_fail(bhost_host *h, bhost_status st, const char *fmt, ...)
{
    char msg[512];
    int len;
    va_list ap;

    len = snprintf(msg, sizeof(msg), "backend-vulkan: ");
    va_start(ap, fmt);
    vsnprintf(msg + len, sizeof(msg) - (size_t)len, fmt, ap);
    va_end(ap);
    if (bh_vk_api != NULL)
        bh_vk_api->set_error(h, msg);
    return st;
}

void bh_vk_log(bhost_host *h, bhost_log_level level, const char *fmt, ...)
{
    char msg[512];
    int len;
    va_list ap;

    len = snprintf(msg, sizeof(msg), "backend-vulkan: ");
    va_start(ap, fmt);
    vsnprintf(msg + len, sizeof(msg) - (size_t)len, fmt, ap);
    va_end(ap);
    if (bh_vk_api != NULL)
        bh_vk_api->log(h, level, msg);
}

const char *bh_vk_result_name(VkResult r)
{
    switch (r) {
    case VK_SUCCESS: return "VK_SUCCESS";
    case VK_NOT_READY: return "VK_NOT_READY";
    case VK_TIMEOUT: return "VK_TIMEOUT";
    case VK_INCOMPLETE: return "VK_INCOMPLETE";
    case VK_ERROR_OUT_OF_HOST_MEMORY: return "VK_ERROR_OUT_OF_HOST_MEMORY";
    case VK_ERROR_OUT_OF_DEVICE_MEMORY: return "VK_ERROR_OUT_OF_DEVICE_MEMORY";
    case VK_ERROR_INITIALIZATION_FAILED: return "VK_ERROR_INITIALIZATION_FAILED";
    case VK_ERROR_DEVICE_LOST: return "VK_ERROR_DEVICE_LOST";
    case VK_ERROR_MEMORY_MAP_FAILED: return "VK_ERROR_MEMORY_MAP_FAILED";
    case VK_ERROR_LAYER_NOT_PRESENT: return "VK_ERROR_LAYER_NOT_PRESENT";
    case VK_ERROR_EXTENSION_NOT_PRESENT: return "VK_ERROR_EXTENSION_NOT_PRESENT";
    case VK_ERROR_FEATURE_NOT_PRESENT: return "VK_ERROR_FEATURE_NOT_PRESENT";
    case VK_ERROR_INCOMPATIBLE_DRIVER: return "VK_ERROR_INCOMPATIBLE_DRIVER";
    case VK_ERROR_TOO_MANY_OBJECTS: return "VK_ERROR_TOO_MANY_OBJECTS";
    case VK_ERROR_FORMAT_NOT_SUPPORTED: return "VK_ERROR_FORMAT_NOT_SUPPORTED";
    case VK_ERROR_OUT_OF_POOL_MEMORY: return "VK_ERROR_OUT_OF_POOL_MEMORY";
    default: return "VkResult error";
    }
}

bhost_status bh_vk_status(VkResult r)
{
    return r == VK_ERROR_OUT_OF_HOST_MEMORY ||
                   r == VK_ERROR_OUT_OF_DEVICE_MEMORY ||
                   r == VK_ERROR_OUT_OF_POOL_MEMORY
               ? BHOST_E_NOMEM
               : BHOST_E_DEVICE;
}

bhost_status bh_vk_check_dev(const bhost_dev *dev, const char *op)
{
    if (dev == NULL || dev->magic != BH_VK_DEV_MAGIC)
        return bh_vk_fail(NULL, BHOST_E_INVALID, "%s: %s device handle", op,
                          dev == NULL ? "NULL" : "invalid");
    return BHOST_OK;
}

bhost_stream *bh_vk_stream_of(bhost_dev *dev, bhost_stream *s, const char *op)
{
    if (s == NULL)
        return dev->def;
    if (s->magic != BH_VK_STREAM_MAGIC || s->dev != dev) {
        bh_vk_fail(dev->h, BHOST_E_INVALID,
                   "%s: stream is not a stream of this device", op);
        return NULL;
    }
    return s;
}

bhost_status bh_vk_check_range(const bhost_dev *dev, const bhost_buf *buf,
                               uint64_t off, uint64_t n, const char *op,
                               const char *what)
{
    if (buf == NULL || buf->magic != BH_VK_BUF_MAGIC || buf->dev != dev)
        return bh_vk_fail(dev->h, BHOST_E_INVALID,
                          "%s: %s is not a live buffer of this device", op,
                          what);
    if (off > buf->size || n > buf->size - off)
        return bh_vk_fail(dev->h, BHOST_E_INVALID,
                          "%s: %s range [%" PRIu64 ", +%" PRIu64
                          ") exceeds buffer size %" PRIu64,
                          op, what, off, n, buf->size);
    return BHOST_OK;
}

/* Loads the Vulkan loader and counts devices with a compute queue. No
 * loader, no driver or no device: 0 and the reason. [main] */
static bhost_status BHOST_ABI vk_device_count(uint32_t *count)
{
    if (count == NULL)
        return bh_vk_fail(NULL, BHOST_E_INVALID, "device_count: NULL count");
    *count = 0;
    if (bh_vk_load() != BHOST_OK) {
        bh_vk_fail(NULL, BHOST_E_UNSUPPORTED, "%s", bh_vk_load_error());
        return BHOST_OK;
    }
    *count = bh_vk_count();
    return BHOST_OK;
}

/* Writes the fields of device index's description that fit in
 * out->struct_size. [main] */
static bhost_status BHOST_ABI vk_device_info(uint32_t index,
                                             bhost_device_info *out)
{
    bhost_device_info info;
    size_t n;

    if (out == NULL || out->struct_size < sizeof(out->struct_size))
        return bh_vk_fail(NULL, BHOST_E_INVALID, "device_info: bad out");
    if (bh_vk_load() != BHOST_OK || index >= bh_vk_count())
        return bh_vk_fail(NULL, BHOST_E_INVALID,
                          "device_info: no device %" PRIu32, index);
    bh_vk_describe(index, &info);
    n = out->struct_size < sizeof(info) ? out->struct_size : sizeof(info);
    memcpy((char *)out + sizeof(out->struct_size),
           (const char *)&info + sizeof(info.struct_size),
           n - sizeof(out->struct_size));
    return BHOST_OK;
}

/* Kernel and extension tables; NULL for unknown ids. [instance] */
static const void *BHOST_ABI vk_get_kernel(bhost_dev *dev, const char *id)
{
    if (bh_vk_check_dev(dev, "get_kernel") != BHOST_OK || id == NULL)
        return NULL;
    return bh_vk_kernel(dev, id);
}

static const bhost_backend backend = {
    .struct_size = sizeof(bhost_backend),
    .id = "vulkan",
    .device_count = vk_device_count,
    .device_info = vk_device_info,
    .open = bh_vk_open,
    .close = bh_vk_close,
    .alloc = bh_vk_alloc,
    .free = bh_vk_free,
    .map = bh_vk_map,
    .copy_h2d = bh_vk_copy_h2d,
    .copy_d2h = bh_vk_copy_d2h,
    .copy_d2d = bh_vk_copy_d2d,
    .stream_create = bh_vk_stream_create,
    .stream_destroy = bh_vk_stream_destroy,
    .stream_sync = bh_vk_stream_sync,
    .device_sync = bh_vk_device_sync,
    .event_create = bh_vk_event_create,
    .event_destroy = bh_vk_event_destroy,
    .event_record = bh_vk_event_record,
    .event_elapsed_ns = bh_vk_event_elapsed_ns,
    .get_kernel = vk_get_kernel,
};

/* Keeps api; touches no Vulkan code (that waits for device_count).
 * [main] */
static bhost_status BHOST_ABI vk_init(const bhost_host_api *api)
{
    if (api == NULL || !BHOST_HAS(bhost_host_api, api, set_error))
        return BHOST_E_VERSION;
    if (!BHOST_HAS(bhost_host_api, api, get_extension)) {
        api->set_error(NULL, "backend-vulkan: host API table older than 1.0");
        return BHOST_E_VERSION;
    }
    bh_vk_api = api;
    return BHOST_OK;
}

/* Destroys the instance; libvulkan stays loaded. [main] */
static void BHOST_ABI vk_deinit(void)
{
    bh_vk_unload();
    bh_vk_api = NULL;
}

/* The backend table for BHOST_IFACE_BACKEND, else NULL. [any-thread] */
static const void *BHOST_ABI vk_get_interface(const char *id)
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
    "org.bhost.backend-vulkan",
    "backend-vulkan",
    BH_PLUGIN_VERSION,
    "Vulkan compute backend: libvulkan loaded lazily, timestamp-query "
    "events, glslc-built SPIR-V gemm/axpy/reduce (runs on lavapipe)",
    vk_init,
    vk_deinit,
    vk_get_interface,
};
