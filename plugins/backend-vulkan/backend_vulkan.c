// SPDX-License-Identifier: MIT
/*
 * backend_vulkan.c -- the bhost.backend/1 table of the Vulkan backend:
 * entry, VkResult names, device queries, get_kernel. Messages and handle
 * checks are the shared ones (bhost/backend_helper.h).
 */
#include "vk_internal.h"

bh_be bh_vk_be = {
    .name = "backend-vulkan",
    .dev_magic = BH_VK_DEV_MAGIC,
    .buf_magic = BH_VK_BUF_MAGIC,
    .stream_magic = BH_VK_STREAM_MAGIC,
    .event_magic = BH_VK_EVENT_MAGIC,
    .load = bh_vk_load,
    .load_error = bh_vk_load_error,
    .count = bh_vk_count,
    .describe = bh_vk_describe,
    .kernel = bh_vk_kernel,
};

BH_BE_CHECK_LAYOUT();

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

/* Loads the Vulkan loader and counts devices with a compute queue. No
 * loader, no driver or no device: 0 and the reason. [main] */
static bhost_status BHOST_ABI vk_device_count(uint32_t *count)
{
    return bh_be_device_count(&bh_vk_be, count);
}

/* Writes the fields of device index's description that fit in
 * out->struct_size. [main] */
static bhost_status BHOST_ABI vk_device_info(uint32_t index,
                                             bhost_device_info *out)
{
    return bh_be_device_info(&bh_vk_be, index, out);
}

/* Kernel and extension tables; NULL for unknown ids. [instance] */
static const void *BHOST_ABI vk_get_kernel(bhost_dev *dev, const char *id)
{
    return bh_be_get_kernel(&bh_vk_be, dev, id);
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
    return bh_be_init(&bh_vk_be, api);
}

/* Destroys the instance; libvulkan stays loaded. [main] */
static void BHOST_ABI vk_deinit(void)
{
    bh_vk_unload();
    bh_vk_be.api = NULL;
}

/* The backend table for BHOST_IFACE_BACKEND, else NULL. [any-thread] */
static const void *BHOST_ABI vk_get_interface(const char *id)
{
    return bh_be_interface(id, &backend);
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
