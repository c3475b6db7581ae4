// SPDX-License-Identifier: MIT
/*
 * cl_loader.c -- loads the OpenCL ICD loader lazily and lists the devices
 * of every platform (GPUs, CPUs such as PoCL, accelerators).
 */
#include "cl_internal.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

bh_cl_fns bh_cl;

static struct {
    int tried;
    bhost_status st;
    void *lib;
    uint32_t count;
    bh_cl_phys phys[BH_CL_MAX_DEVICES];
    char error[384];
} L;

const char *bh_cl_load_error(void)
{
    return L.error;
}

uint32_t bh_cl_count(void)
{
    return L.st == BHOST_OK ? L.count : 0;
}

const bh_cl_phys *bh_cl_phys_get(uint32_t index)
{
    return index < bh_cl_count() ? &L.phys[index] : NULL;
}

/* Records why loading stopped in L.error; BHOST_E_UNSUPPORTED. */
#define stop(...) bh_be_stop(L.error, sizeof(L.error), __VA_ARGS__)

/* dlopens the ICD loader and resolves every function of BH_CL_FNS. */
static bhost_status open_library(void)
{
    static const char *const names[] = {"libOpenCL.so.1", "libOpenCL.so"};
    const char *err;
    const char *missing = NULL;

    L.lib = bh_be_dlopen("BHOST_OPENCL_LIBRARY", names, 2, NULL, 0, &err);
    if (L.lib == NULL)
        return stop("no OpenCL ICD loader: %s (apt install ocl-icd-libopencl1)",
                    err);
#define BH_CL_LOAD(name)                                                       \
    *(void **)&bh_cl.name = dlsym(L.lib, #name);                               \
    if (bh_cl.name == NULL && missing == NULL)                                 \
        missing = #name;
    BH_CL_FNS(BH_CL_LOAD)
#undef BH_CL_LOAD
    if (missing != NULL)
        return stop("the OpenCL loader lacks %s (OpenCL 1.2 needed)", missing);
    return BHOST_OK;
}

/* A string property of a device into out (cap bytes). */
static void dev_str(cl_device_id d, cl_device_info what, char *out, size_t cap)
{
    out[0] = '\0';
    if (bh_cl.clGetDeviceInfo(d, what, cap, out, NULL) != CL_SUCCESS)
        snprintf(out, cap, "unknown");
    out[cap - 1] = '\0';
}

/* Fills p from the device's properties. */
static void describe_phys(bh_cl_phys *p)
{
    cl_device_fp_config fp = 0;

    bh_cl.clGetDeviceInfo(p->id, CL_DEVICE_TYPE, sizeof(p->type), &p->type,
                          NULL);
    bh_cl.clGetDeviceInfo(p->id, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof(p->units),
                          &p->units, NULL);
    bh_cl.clGetDeviceInfo(p->id, CL_DEVICE_MAX_CLOCK_FREQUENCY, sizeof(p->mhz),
                          &p->mhz, NULL);
    bh_cl.clGetDeviceInfo(p->id, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof(p->mem),
                          &p->mem, NULL);
    bh_cl.clGetDeviceInfo(p->id, CL_DEVICE_MAX_WORK_GROUP_SIZE,
                          sizeof(p->max_wg), &p->max_wg, NULL);
    bh_cl.clGetDeviceInfo(p->id, CL_DEVICE_PROFILING_TIMER_RESOLUTION,
                          sizeof(p->timer_res), &p->timer_res, NULL);
    if (bh_cl.clGetDeviceInfo(p->id, CL_DEVICE_DOUBLE_FP_CONFIG, sizeof(fp),
                              &fp, NULL) == CL_SUCCESS)
        p->fp64 = fp != 0;
    dev_str(p->id, CL_DEVICE_NAME, p->name, sizeof(p->name));
    dev_str(p->id, CL_DEVICE_VENDOR, p->vendor, sizeof(p->vendor));
    dev_str(p->id, CL_DEVICE_VERSION, p->version, sizeof(p->version));
    dev_str(p->id, CL_DRIVER_VERSION, p->driver, sizeof(p->driver));
    if (bh_cl.clGetPlatformInfo(p->platform, CL_PLATFORM_NAME,
                                sizeof(p->platform_name), p->platform_name,
                                NULL) != CL_SUCCESS)
        snprintf(p->platform_name, sizeof(p->platform_name), "unknown");
    p->platform_name[sizeof(p->platform_name) - 1] = '\0';
}

bhost_status bh_cl_load(void)
{
    cl_platform_id plats[16];
    cl_uint np = 0;
    cl_int e;

    if (L.tried)
        return L.st;
    L.tried = 1;
    L.st = open_library();
    if (L.st != BHOST_OK)
        return L.st;
    e = bh_cl.clGetPlatformIDs(16, plats, &np);
    if (e != CL_SUCCESS || np == 0) {
        L.st = stop("no OpenCL platform (%s): no ICD is installed "
                    "(pocl-opencl-icd, or a vendor driver)",
                    e == CL_SUCCESS ? "0 platforms" : bh_cl_err_name(e));
        return L.st;
    }
    for (cl_uint p = 0; p < np && p < 16; p++) {
        cl_device_id ids[BH_CL_MAX_DEVICES];
        cl_uint nd = 0;

        if (bh_cl.clGetDeviceIDs(plats[p], CL_DEVICE_TYPE_ALL,
                                 BH_CL_MAX_DEVICES, ids, &nd) != CL_SUCCESS)
            continue;
        for (cl_uint d = 0; d < nd && d < BH_CL_MAX_DEVICES &&
                            L.count < BH_CL_MAX_DEVICES;
             d++) {
            bh_cl_phys *ph = &L.phys[L.count++];

            memset(ph, 0, sizeof(*ph));
            ph->platform = plats[p];
            ph->id = ids[d];
            describe_phys(ph);
        }
    }
    if (L.count == 0)
        stop("%u OpenCL platform(s) but no device", (unsigned)np);
    return L.st;
}

void bh_cl_describe(uint32_t index, bhost_device_info *info)
{
    const bh_cl_phys *p = bh_cl_phys_get(index);

    memset(info, 0, sizeof(*info));
    info->struct_size = sizeof(*info);
    if (p == NULL)
        return;
    snprintf(info->name, sizeof(info->name), "%s", p->name);
    snprintf(info->vendor, sizeof(info->vendor), "%s", p->vendor);
    snprintf(info->driver_version, sizeof(info->driver_version), "%s",
             p->driver);
    snprintf(info->runtime_version, sizeof(info->runtime_version), "%s; %s",
             p->version, p->platform_name);
    info->compute_units = p->units;
    info->global_mem_bytes = p->mem;
    info->caps = BHOST_CAP_EVENT_TIMING | BHOST_CAP_PINNED_HOST;
    if (p->max_wg >= 256)
        info->caps |= BHOST_CAP_KERNEL_GEMM | BHOST_CAP_KERNEL_AXPY |
                      BHOST_CAP_KERNEL_REDUCE;
    if (p->fp64)
        info->caps |= BHOST_CAP_F64;
    info->timer_resolution_ns = p->timer_res > 0 ? (double)p->timer_res : 1.0;
    info->clock_mhz = (double)p->mhz;
}
