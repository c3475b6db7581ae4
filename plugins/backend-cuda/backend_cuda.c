// SPDX-License-Identifier: MIT
/*
 * backend_cuda.c -- the bhost.backend/1 table of the CUDA backend:
 * entry, runtime errors, device queries, get_kernel. Messages and handle
 * checks are the shared ones (bhost/backend_helper.h).
 */
#include "cuda_internal.h"

bh_be bh_cu_be = {
    .name = "backend-cuda",
    .dev_magic = BH_CU_DEV_MAGIC,
    .buf_magic = BH_CU_BUF_MAGIC,
    .stream_magic = BH_CU_STREAM_MAGIC,
    .event_magic = BH_CU_EVENT_MAGIC,
    .load = bh_cu_load,
    .load_error = bh_cu_load_error,
    .count = bh_cu_count,
    .describe = bh_cu_describe,
    .kernel = bh_cu_kernel,
};

BH_BE_CHECK_LAYOUT();

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

/* Loads libcudart and counts devices. No runtime, no driver or no
 * device: 0 and the reason the runtime gave. [main] */
static bhost_status BHOST_ABI cu_device_count(uint32_t *count)
{
    return bh_be_device_count(&bh_cu_be, count);
}

/* Writes the fields of device index's description that fit in
 * out->struct_size. [main] */
static bhost_status BHOST_ABI cu_device_info(uint32_t index,
                                             bhost_device_info *out)
{
    return bh_be_device_info(&bh_cu_be, index, out);
}

/* Kernel and extension tables; NULL for unknown ids. [instance] */
static const void *BHOST_ABI cu_get_kernel(bhost_dev *dev, const char *id)
{
    return bh_be_get_kernel(&bh_cu_be, dev, id);
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
    return bh_be_init(&bh_cu_be, api);
}

/* Forgets the host API; the runtime stays loaded. [main] */
static void BHOST_ABI cu_deinit(void)
{
    bh_cu_be.api = NULL;
}

/* The backend table for BHOST_IFACE_BACKEND, else NULL. [any-thread] */
static const void *BHOST_ABI cu_get_interface(const char *id)
{
    return bh_be_interface(id, &backend);
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
