// SPDX-License-Identifier: MIT
/*
 * backend_hip.c -- the bhost.backend/1 table of the HIP backend:
 * entry, runtime errors, device queries, get_kernel. Messages and handle
 * checks are the shared ones (bhost/backend_helper.h).
 */
#include "hip_internal.h"

bh_be bh_hip_be = {
    .name = "backend-hip",
    .dev_magic = BH_HIP_DEV_MAGIC,
    .buf_magic = BH_HIP_BUF_MAGIC,
    .stream_magic = BH_HIP_STREAM_MAGIC,
    .event_magic = BH_HIP_EVENT_MAGIC,
    .load = bh_hip_load,
    .load_error = bh_hip_load_error,
    .count = bh_hip_count,
    .describe = bh_hip_describe,
    .kernel = bh_hip_kernel,
};

BH_BE_CHECK_LAYOUT();

bhost_status bh_hip_err(bhost_host *h, hipError_t e, const char *call)
{
    bhost_status st = e == hipErrorOutOfMemory ? BHOST_E_NOMEM
                                               : BHOST_E_DEVICE;

    bh_hip.GetLastError(); /* clear a sticky-less error */
    return bh_hip_fail(h, st, "%s: %s (%d): %s", call, bh_hip.GetErrorName(e),
                      (int)e, bh_hip.GetErrorString(e));
}

bhost_status bh_hip_use(bhost_dev *dev)
{
    hipError_t e = bh_hip.SetDevice((int)dev->index);

    return e == hipSuccess ? BHOST_OK : bh_hip_err(dev->h, e, "hipSetDevice");
}

/* Loads libamdhip64 and counts devices. No runtime, no driver or no
 * device: 0 and the reason the runtime gave. [main] */
static bhost_status BHOST_ABI hip_device_count(uint32_t *count)
{
    return bh_be_device_count(&bh_hip_be, count);
}

/* Writes the fields of device index's description that fit in
 * out->struct_size. [main] */
static bhost_status BHOST_ABI hip_device_info(uint32_t index,
                                              bhost_device_info *out)
{
    return bh_be_device_info(&bh_hip_be, index, out);
}

/* Kernel and extension tables; NULL for unknown ids. [instance] */
static const void *BHOST_ABI hip_get_kernel(bhost_dev *dev, const char *id)
{
    return bh_be_get_kernel(&bh_hip_be, dev, id);
}

static const bhost_backend backend = {
    .struct_size = sizeof(bhost_backend),
    .id = "hip",
    .device_count = hip_device_count,
    .device_info = hip_device_info,
    .open = bh_hip_open,
    .close = bh_hip_close,
    .alloc = bh_hip_alloc,
    .free = bh_hip_free,
    .map = bh_hip_map,
    .copy_h2d = bh_hip_copy_h2d,
    .copy_d2h = bh_hip_copy_d2h,
    .copy_d2d = bh_hip_copy_d2d,
    .stream_create = bh_hip_stream_create,
    .stream_destroy = bh_hip_stream_destroy,
    .stream_sync = bh_hip_stream_sync,
    .device_sync = bh_hip_device_sync,
    .event_create = bh_hip_event_create,
    .event_destroy = bh_hip_event_destroy,
    .event_record = bh_hip_event_record,
    .event_elapsed_ns = bh_hip_event_elapsed_ns,
    .get_kernel = hip_get_kernel,
};

/* Keeps api; touches no HIP code (that waits for device_count).
 * [main] */
static bhost_status BHOST_ABI hip_init(const bhost_host_api *api)
{
    return bh_be_init(&bh_hip_be, api);
}

/* Forgets the host API; the runtime stays loaded. [main] */
static void BHOST_ABI hip_deinit(void)
{
    bh_hip_be.api = NULL;
}

/* The backend table for BHOST_IFACE_BACKEND, else NULL. [any-thread] */
static const void *BHOST_ABI hip_get_interface(const char *id)
{
    return bh_be_interface(id, &backend);
}

const bhost_entry bhost_entry_v1 = {
    sizeof(bhost_entry),
    BHOST_ABI_MAJOR,
    BHOST_ABI_MINOR,
    0,
    "org.bhost.backend-hip",
    "backend-hip",
    BH_PLUGIN_VERSION,
    "HIP (ROCm) backend: libamdhip64 loaded lazily, HIP events, pinned "
    "memory, hipcc-built axpy/reduce/tiled-gemm kernels",
    hip_init,
    hip_deinit,
    hip_get_interface,
};
