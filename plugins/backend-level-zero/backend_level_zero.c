// SPDX-License-Identifier: MIT
/*
 * backend_level_zero.c -- the bhost.backend/1 table of the Level Zero
 * backend: entry, ze_result_t names, device queries, get_kernel. Messages
 * and handle checks are the shared ones (bhost/backend_helper.h).
 */
#include "ze_internal.h"

bh_be bh_ze_be = {
    .name = "backend-level-zero",
    .dev_magic = BH_ZE_DEV_MAGIC,
    .buf_magic = BH_ZE_BUF_MAGIC,
    .stream_magic = BH_ZE_STREAM_MAGIC,
    .event_magic = BH_ZE_EVENT_MAGIC,
    .load = bh_ze_load,
    .load_error = bh_ze_load_error,
    .count = bh_ze_count,
    .describe = bh_ze_describe,
    .kernel = bh_ze_kernel,
};

BH_BE_CHECK_LAYOUT();

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

/* Loads libze_loader, zeInit, counts the devices of every driver. No
 * loader, no driver or no device: 0 and the reason. [main] */
static bhost_status BHOST_ABI ze_device_count(uint32_t *count)
{
    return bh_be_device_count(&bh_ze_be, count);
}

/* Writes the fields of device index's description that fit in
 * out->struct_size. [main] */
static bhost_status BHOST_ABI ze_device_info(uint32_t index,
                                             bhost_device_info *out)
{
    return bh_be_device_info(&bh_ze_be, index, out);
}

/* Kernel and extension tables; NULL for unknown ids. [instance] */
static const void *BHOST_ABI ze_get_kernel(bhost_dev *dev, const char *id)
{
    return bh_be_get_kernel(&bh_ze_be, dev, id);
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
    return bh_be_init(&bh_ze_be, api);
}

/* Forgets the host API; the loader stays loaded. [main] */
static void BHOST_ABI ze_deinit(void)
{
    bh_ze_be.api = NULL;
}

/* The backend table for BHOST_IFACE_BACKEND, else NULL. [any-thread] */
static const void *BHOST_ABI ze_get_interface(const char *id)
{
    return bh_be_interface(id, &backend);
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
