// SPDX-License-Identifier: MIT
/*
 * bh_gpu_entry.c -- the bhost.backend/1 table and entry of the CUDA and
 * HIP backends: runtime errors, device queries, get_kernel. Compiled into
 * each with its own names (bh_gpu_rt.h); messages and handle checks are
 * the shared ones (bhost/backend_helper.h).
 */
#include BH_GPU_INTERNAL_H

bh_be BH_GPU(be) = {
    .name = BH_GPU_NAME,
    .dev_magic = BH_GPU_DEV_MAGIC,
    .buf_magic = BH_GPU_BUF_MAGIC,
    .stream_magic = BH_GPU_STREAM_MAGIC,
    .event_magic = BH_GPU_EVENT_MAGIC,
    .load = BH_GPU(load),
    .load_error = BH_GPU(load_error),
    .count = BH_GPU(count),
    .describe = BH_GPU(describe),
    .kernel = BH_GPU(kernel),
};

BH_BE_CHECK_LAYOUT();

bhost_status BH_GPU(err)(bhost_host *h, bh_gpu_error e, const char *call)
{
    bhost_status st = e == BH_GPU_E_NOMEM ? BHOST_E_NOMEM : BHOST_E_DEVICE;

    bh_gpu_rt.GetLastError(); /* clear a sticky-less error */
    return bh_gpu_fail(h, st, "%s: %s (%d): %s", call, bh_gpu_rt.GetErrorName(e), (int)e,
                       bh_gpu_rt.GetErrorString(e));
}

bhost_status BH_GPU(use)(bhost_dev *dev)
{
    bh_gpu_error e = bh_gpu_rt.SetDevice((int)dev->index);

    return e == BH_GPU_SUCCESS ? BHOST_OK : BH_GPU(err)(dev->h, e, BH_GPU_API "SetDevice");
}

/* Loads the runtime and counts devices. No runtime, no driver or no
 * device: 0 and the reason the runtime gave. [main] */
static bhost_status BHOST_ABI device_count(uint32_t *count)
{
    return bh_be_device_count(&BH_GPU(be), count);
}

/* Writes the fields of device index's description that fit in
 * out->struct_size. [main] */
static bhost_status BHOST_ABI device_info(uint32_t index, bhost_device_info *out)
{
    return bh_be_device_info(&BH_GPU(be), index, out);
}

/* Kernel and extension tables; NULL for unknown ids. [instance] */
static const void *BHOST_ABI get_kernel(bhost_dev *dev, const char *id)
{
    return bh_be_get_kernel(&BH_GPU(be), dev, id);
}

static const bhost_backend backend = {
    .struct_size = sizeof(bhost_backend),
    .id = BH_GPU_ID,
    .device_count = device_count,
    .device_info = device_info,
    .open = BH_GPU(open),
    .close = BH_GPU(close),
    .alloc = BH_GPU(alloc),
    .free = BH_GPU(free),
    .map = BH_GPU(map),
    .copy_h2d = BH_GPU(copy_h2d),
    .copy_d2h = BH_GPU(copy_d2h),
    .copy_d2d = BH_GPU(copy_d2d),
    .stream_create = BH_GPU(stream_create),
    .stream_destroy = BH_GPU(stream_destroy),
    .stream_sync = BH_GPU(stream_sync),
    .device_sync = BH_GPU(device_sync),
    .event_create = BH_GPU(event_create),
    .event_destroy = BH_GPU(event_destroy),
    .event_record = BH_GPU(event_record),
    .event_elapsed_ns = BH_GPU(event_elapsed_ns),
    .get_kernel = get_kernel,
};

/* Keeps api; touches no runtime code (that waits for device_count).
 * [main] */
static bhost_status BHOST_ABI init(const bhost_host_api *api)
{
    return bh_be_init(&BH_GPU(be), api);
}

/* Forgets the host API; the runtime stays loaded. [main] */
static void BHOST_ABI deinit(void)
{
    BH_GPU(be).api = NULL;
}

/* The backend table for BHOST_IFACE_BACKEND, else NULL. [any-thread] */
static const void *BHOST_ABI get_interface(const char *id)
{
    return bh_be_interface(id, &backend);
}

const bhost_entry bhost_entry_v1 = {
    sizeof(bhost_entry), BHOST_ABI_MAJOR,   BHOST_ABI_MINOR, 0,    BH_GPU_PLUGIN_ID,
    BH_GPU_NAME,         BH_PLUGIN_VERSION, BH_GPU_SUMMARY,  init, deinit,
    get_interface,
};
