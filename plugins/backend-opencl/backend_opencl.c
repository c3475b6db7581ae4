/*
 * backend_opencl.c -- the bhost.backend/1 table of the OpenCL backend:
 * entry, errors, handle checks, device queries, get_kernel.
 */
#include "cl_internal.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

const bhost_host_api *bh_cl_api;

bhost_status bh_cl_fail(bhost_host *h, bhost_status st, const char *fmt, ...)
{
    char msg[512];
    int len;
    va_list ap;

    len = snprintf(msg, sizeof(msg), "backend-opencl: ");
    va_start(ap, fmt);
    vsnprintf(msg + len, sizeof(msg) - (size_t)len, fmt, ap);
    va_end(ap);
    if (bh_cl_api != NULL)
        bh_cl_api->set_error(h, msg);
    return st;
}

void bh_cl_log(bhost_host *h, bhost_log_level level, const char *fmt, ...)
{
    char msg[512];
    int len;
    va_list ap;

    len = snprintf(msg, sizeof(msg), "backend-opencl: ");
    va_start(ap, fmt);
    vsnprintf(msg + len, sizeof(msg) - (size_t)len, fmt, ap);
    va_end(ap);
    if (bh_cl_api != NULL)
        bh_cl_api->log(h, level, msg);
}

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

bhost_status bh_cl_check_dev(const bhost_dev *dev, const char *op)
{
    if (dev == NULL || dev->magic != BH_CL_DEV_MAGIC)
        return bh_cl_fail(NULL, BHOST_E_INVALID, "%s: %s device handle", op,
                          dev == NULL ? "NULL" : "invalid");
    return BHOST_OK;
}

bhost_stream *bh_cl_stream_of(bhost_dev *dev, bhost_stream *s, const char *op)
{
    if (s == NULL)
        return dev->def;
    if (s->magic != BH_CL_STREAM_MAGIC || s->dev != dev) {
        bh_cl_fail(dev->h, BHOST_E_INVALID,
                   "%s: stream is not a stream of this device", op);
        return NULL;
    }
    return s;
}

bhost_status bh_cl_check_range(const bhost_dev *dev, const bhost_buf *buf,
                               uint64_t off, uint64_t n, const char *op,
                               const char *what)
{
    if (buf == NULL || buf->magic != BH_CL_BUF_MAGIC || buf->dev != dev)
        return bh_cl_fail(dev->h, BHOST_E_INVALID,
                          "%s: %s is not a live buffer of this device", op,
                          what);
    if (off > buf->size || n > buf->size - off)
        return bh_cl_fail(dev->h, BHOST_E_INVALID,
                          "%s: %s range [%" PRIu64 ", +%" PRIu64
                          ") exceeds buffer size %" PRIu64,
                          op, what, off, n, buf->size);
    return BHOST_OK;
}

/* Loads the ICD loader and counts the devices of every platform. No
 * loader, no ICD or no device: 0 and the reason. [main] */
static bhost_status BHOST_ABI ocl_device_count(uint32_t *count)
{
    if (count == NULL)
        return bh_cl_fail(NULL, BHOST_E_INVALID, "device_count: NULL count");
    *count = 0;
    if (bh_cl_load() != BHOST_OK) {
        bh_cl_fail(NULL, BHOST_E_UNSUPPORTED, "%s", bh_cl_load_error());
        return BHOST_OK;
    }
    *count = bh_cl_count();
    return BHOST_OK;
}

/* Writes the fields of device index's description that fit in
 * out->struct_size. [main] */
static bhost_status BHOST_ABI ocl_device_info(uint32_t index,
                                             bhost_device_info *out)
{
    bhost_device_info info;
    size_t n;

    if (out == NULL || out->struct_size < sizeof(out->struct_size))
        return bh_cl_fail(NULL, BHOST_E_INVALID, "device_info: bad out");
    if (bh_cl_load() != BHOST_OK || index >= bh_cl_count())
        return bh_cl_fail(NULL, BHOST_E_INVALID,
                          "device_info: no device %" PRIu32, index);
    bh_cl_describe(index, &info);
    n = out->struct_size < sizeof(info) ? out->struct_size : sizeof(info);
    memcpy((char *)out + sizeof(out->struct_size),
           (const char *)&info + sizeof(info.struct_size),
           n - sizeof(out->struct_size));
    return BHOST_OK;
}

/* Kernel and extension tables; NULL for unknown ids. [instance] */
static const void *BHOST_ABI ocl_get_kernel(bhost_dev *dev, const char *id)
{
    if (bh_cl_check_dev(dev, "get_kernel") != BHOST_OK || id == NULL)
        return NULL;
    return bh_cl_kernel(dev, id);
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
    if (api == NULL || !BHOST_HAS(bhost_host_api, api, set_error))
        return BHOST_E_VERSION;
    if (!BHOST_HAS(bhost_host_api, api, get_extension)) {
        api->set_error(NULL, "backend-opencl: host API table older than 1.0");
        return BHOST_E_VERSION;
    }
    bh_cl_api = api;
    return BHOST_OK;
}

/* Forgets the host API; the ICD loader stays loaded. [main] */
static void BHOST_ABI ocl_deinit(void)
{
    bh_cl_api = NULL;
}

/* The backend table for BHOST_IFACE_BACKEND, else NULL. [any-thread] */
static const void *BHOST_ABI ocl_get_interface(const char *id)
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
    "org.bhost.backend-opencl",
    "backend-opencl",
    BH_PLUGIN_VERSION,
    "OpenCL backend: ICD loader loaded lazily, profiled-marker events, "
    "kernels built at run time with a program-binary cache (runs on PoCL)",
    ocl_init,
    ocl_deinit,
    ocl_get_interface,
};
