// SPDX-License-Identifier: MIT
/*
 * backend_opencl.c -- the bhost.backend/1 table of the OpenCL backend:
 * entry, OpenCL error names, device queries, get_kernel. Messages and
 * handle checks are the shared ones (bhost/backend_helper.h).
 */
#include "cl_internal.h"

bh_be bh_cl_be = {
    .name = "backend-opencl",
    .dev_magic = BH_CL_DEV_MAGIC,
    .buf_magic = BH_CL_BUF_MAGIC,
    .stream_magic = BH_CL_STREAM_MAGIC,
    .event_magic = BH_CL_EVENT_MAGIC,
    .load = bh_cl_load,
    .load_error = bh_cl_load_error,
    .count = bh_cl_count,
    .describe = bh_cl_describe,
    .kernel = bh_cl_kernel,
};

BH_BE_CHECK_LAYOUT();

const char *bh_cl_err_name(cl_int e)
{
    switch (e) {
    case CL_SUCCESS: return "CL_SUCCESS";
    case CL_DEVICE_NOT_FOUND: return "CL_DEVICE_NOT_FOUND";
    case CL_DEVICE_NOT_AVAILABLE: return "CL_DEVICE_NOT_AVAILABLE";
    case CL_COMPILER_NOT_AVAILABLE: return "CL_COMPILER_NOT_AVAILABLE";
    case CL_MEM_OBJECT_ALLOCATION_FAILURE:
        return "CL_MEM_OBJECT_ALLOCATION_FAILURE";
    case CL_OUT_OF_RESOURCES: return "CL_OUT_OF_RESOURCES";
    case CL_OUT_OF_HOST_MEMORY: return "CL_OUT_OF_HOST_MEMORY";
    case CL_PROFILING_INFO_NOT_AVAILABLE:
        return "CL_PROFILING_INFO_NOT_AVAILABLE";
    case CL_MEM_COPY_OVERLAP: return "CL_MEM_COPY_OVERLAP";
    case CL_BUILD_PROGRAM_FAILURE: return "CL_BUILD_PROGRAM_FAILURE";
    case CL_MAP_FAILURE: return "CL_MAP_FAILURE";
    case CL_INVALID_VALUE: return "CL_INVALID_VALUE";
    case CL_INVALID_DEVICE: return "CL_INVALID_DEVICE";
    case CL_INVALID_CONTEXT: return "CL_INVALID_CONTEXT";
    case CL_INVALID_COMMAND_QUEUE: return "CL_INVALID_COMMAND_QUEUE";
    case CL_INVALID_MEM_OBJECT: return "CL_INVALID_MEM_OBJECT";
    case CL_INVALID_BINARY: return "CL_INVALID_BINARY";
    case CL_INVALID_BUILD_OPTIONS: return "CL_INVALID_BUILD_OPTIONS";
    case CL_INVALID_PROGRAM: return "CL_INVALID_PROGRAM";
    case CL_INVALID_KERNEL_NAME: return "CL_INVALID_KERNEL_NAME";
    case CL_INVALID_KERNEL_ARGS: return "CL_INVALID_KERNEL_ARGS";
    case CL_INVALID_WORK_GROUP_SIZE: return "CL_INVALID_WORK_GROUP_SIZE";
    case CL_INVALID_GLOBAL_WORK_SIZE: return "CL_INVALID_GLOBAL_WORK_SIZE";
    case CL_INVALID_EVENT: return "CL_INVALID_EVENT";
    case CL_INVALID_BUFFER_SIZE: return "CL_INVALID_BUFFER_SIZE";
    case -1001: return "CL_PLATFORM_NOT_FOUND_KHR";
    default: return "OpenCL error";
    }
}

bhost_status bh_cl_status(cl_int e)
{
    return e == CL_OUT_OF_HOST_MEMORY || e == CL_MEM_OBJECT_ALLOCATION_FAILURE ||
                   e == CL_OUT_OF_RESOURCES
               ? BHOST_E_NOMEM
               : BHOST_E_DEVICE;
}

/* Loads the ICD loader and counts the devices of every platform. No
 * loader, no ICD or no device: 0 and the reason. [main] */
static bhost_status BHOST_ABI ocl_device_count(uint32_t *count)
{
    return bh_be_device_count(&bh_cl_be, count);
}

/* Writes the fields of device index's description that fit in
 * out->struct_size. [main] */
static bhost_status BHOST_ABI ocl_device_info(uint32_t index,
                                              bhost_device_info *out)
{
    return bh_be_device_info(&bh_cl_be, index, out);
}

/* Kernel and extension tables; NULL for unknown ids. [instance] */
static const void *BHOST_ABI ocl_get_kernel(bhost_dev *dev, const char *id)
{
    return bh_be_get_kernel(&bh_cl_be, dev, id);
}

static const bhost_backend backend = {
    .struct_size = sizeof(bhost_backend),
    .id = "opencl",
    .device_count = ocl_device_count,
    .device_info = ocl_device_info,
    .open = bh_cl_open,
    .close = bh_cl_close,
    .alloc = bh_cl_alloc,
    .free = bh_cl_free,
    .map = bh_cl_map,
    .copy_h2d = bh_cl_copy_h2d,
    .copy_d2h = bh_cl_copy_d2h,
    .copy_d2d = bh_cl_copy_d2d,
    .stream_create = bh_cl_stream_create,
    .stream_destroy = bh_cl_stream_destroy,
    .stream_sync = bh_cl_stream_sync,
    .device_sync = bh_cl_device_sync,
    .event_create = bh_cl_event_create,
    .event_destroy = bh_cl_event_destroy,
    .event_record = bh_cl_event_record,
    .event_elapsed_ns = bh_cl_event_elapsed_ns,
    .get_kernel = ocl_get_kernel,
};

/* Keeps api; touches no OpenCL code (that waits for device_count).
 * [main] */
static bhost_status BHOST_ABI ocl_init(const bhost_host_api *api)
{
    return bh_be_init(&bh_cl_be, api);
}

/* Forgets the host API; the ICD loader stays loaded. [main] */
static void BHOST_ABI ocl_deinit(void)
{
    bh_cl_be.api = NULL;
}

/* The backend table for BHOST_IFACE_BACKEND, else NULL. [any-thread] */
static const void *BHOST_ABI ocl_get_interface(const char *id)
{
    return bh_be_interface(id, &backend);
}

const bhost_entry bhost_entry_v1 = {
    sizeof(bhost_entry),
    BHOST_ABI_MAJOR,
    BHOST_ABI_MINOR,
    0,
    "org.bhost.backend-opencl",
    "backend-opencl",
    BH_PLUGIN_VERSION,
    "OpenCL backend: ICD loader loaded lazily, profiled-marker events, "
    "kernels built at run time with a program-binary cache (runs on PoCL)",
    ocl_init,
    ocl_deinit,
    ocl_get_interface,
};
