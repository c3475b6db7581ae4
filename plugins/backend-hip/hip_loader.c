// SPDX-License-Identifier: MIT
/*
 * hip_loader.c -- loads the HIP runtime (libamdhip64) lazily, counts and
 * describes devices. Library search: BHOST_HIP_LIBRARY when set, then
 * libamdhip64.so.6, .5, libamdhip64.so. With no GPU (or no /dev/kfd) the
 * runtime answers hipErrorNoDevice (100): 0 devices and that reason.
 */
#include "hip_internal.h"

#include <stdio.h>
#include <string.h>

bh_hiprt bh_hip;

static struct {
    int tried;
    bhost_status st;
    void *lib;
    char lib_name[64];
    int runtime, driver;
    uint32_t count;
    char error[512];
} L;

const char *bh_hip_load_error(void)
{
    return L.error;
}

uint32_t bh_hip_count(void)
{
    return L.st == BHOST_OK ? L.count : 0;
}

/* Records why loading stopped in L.error; BHOST_E_UNSUPPORTED. */
#define stop(...) bh_be_stop(L.error, sizeof(L.error), __VA_ARGS__)

/* Resolves the table; the first missing name or NULL. */
static const char *resolve(void)
{
#define REQ(field, name)                                                       \
    if (!bh_be_sym(L.lib, name, &bh_hip.field))                                \
        return name;
    REQ(GetDeviceCount, "hipGetDeviceCount")
    REQ(RuntimeGetVersion, "hipRuntimeGetVersion")
    REQ(DriverGetVersion, "hipDriverGetVersion")
    REQ(GetErrorName, "hipGetErrorName")
    REQ(GetErrorString, "hipGetErrorString")
    REQ(GetLastError, "hipGetLastError")
    REQ(SetDevice, "hipSetDevice")
    REQ(DeviceGetAttribute, "hipDeviceGetAttribute")
    REQ(DeviceGetName, "hipDeviceGetName")
    REQ(DeviceTotalMem, "hipDeviceTotalMem")
    REQ(Malloc, "hipMalloc")
    REQ(Free, "hipFree")
    REQ(HostAlloc, "hipHostMalloc")
    REQ(FreeHost, "hipHostFree")
    REQ(MemcpyAsync, "hipMemcpyAsync")
    REQ(StreamCreateWithFlags, "hipStreamCreateWithFlags")
    REQ(StreamDestroy, "hipStreamDestroy")
    REQ(StreamSynchronize, "hipStreamSynchronize")
    REQ(DeviceSynchronize, "hipDeviceSynchronize")
    REQ(EventCreate, "hipEventCreate")
    REQ(EventDestroy, "hipEventDestroy")
    REQ(EventRecord, "hipEventRecord")
    REQ(EventElapsedTime, "hipEventElapsedTime")
    REQ(ModuleLoadData, "hipModuleLoadData")
    REQ(ModuleGetFunction, "hipModuleGetFunction")
    REQ(ModuleUnload, "hipModuleUnload")
    REQ(ModuleLaunchKernel, "hipModuleLaunchKernel")
#undef REQ
    return NULL;
}

bhost_status bh_hip_load(void)
{
    static const char *const names[] = {"libamdhip64.so.6", "libamdhip64.so.5",
                                        "libamdhip64.so"};
    const char *err, *missing;
    int n = 0;
    hipError_t e;

    if (L.tried)
        return L.st;
    L.tried = 1;
    L.lib = bh_be_dlopen("BHOST_HIP_LIBRARY", names, 3, L.lib_name,
                         sizeof(L.lib_name), &err);
    if (L.lib == NULL)
        return L.st = stop("no HIP runtime: %s (apt install libamdhip64-5 or "
                           "ROCm; BHOST_HIP_LIBRARY names another)", err);
    missing = resolve();
    if (missing != NULL)
        return L.st = stop("%s lacks %s", L.lib_name, missing);
    bh_hip.RuntimeGetVersion(&L.runtime);
    if (bh_hip.DriverGetVersion(&L.driver) != hipSuccess)
        L.driver = 0;
    e = bh_hip.GetDeviceCount(&n);
    if (e != hipSuccess || n <= 0) {
        bh_hip.GetLastError();
        return L.st = stop("hipGetDeviceCount: %s (%d): %s [%s, HIP runtime "
                           "%d; no usable AMD GPU or /dev/kfd]",
                           bh_hip.GetErrorName(e), (int)e,
                           bh_hip.GetErrorString(e), L.lib_name, L.runtime);
    }
    L.count = (uint32_t)n > BH_GPU_MAX_DEVICES ? BH_GPU_MAX_DEVICES : (uint32_t)n;
    L.st = BHOST_OK;
    return BHOST_OK;
}

/* One integer attribute of device i (0 when unknown). */
static int attr(hipDeviceAttribute_t a, int i)
{
    int v = 0;

    if (bh_hip.DeviceGetAttribute(&v, a, i) != hipSuccess) {
        bh_hip.GetLastError();
        v = 0;
    }
    return v;
}

void bh_hip_describe(uint32_t index, bhost_device_info *info)
{
    int i = (int)index;
    size_t mem = 0;

    memset(info, 0, sizeof(*info));
    info->struct_size = sizeof(*info);
    if (index >= bh_hip_count())
        return;
    if (bh_hip.DeviceGetName(info->name, (int)sizeof(info->name), i) !=
        hipSuccess)
        snprintf(info->name, sizeof(info->name), "HIP device %d", i);
    info->name[sizeof(info->name) - 1] = '\0';
    if (bh_hip.DeviceTotalMem(&mem, i) != hipSuccess)
        mem = 0;
    snprintf(info->vendor, sizeof(info->vendor), "AMD");
    snprintf(info->driver_version, sizeof(info->driver_version), "%d",
             L.driver);
    snprintf(info->runtime_version, sizeof(info->runtime_version),
             "HIP %d.%d.%d", L.runtime / 10000000, L.runtime / 100000 % 100,
             L.runtime % 100000);
    info->compute_units = (uint32_t)attr(hipDeviceAttributeMultiprocessorCount, i);
    info->clock_mhz = attr(hipDeviceAttributeClockRate, i) / 1000.0;
    info->global_mem_bytes = mem;
    info->caps = BHOST_CAP_F64 | BHOST_CAP_EVENT_TIMING | BHOST_CAP_PINNED_HOST |
                 BHOST_CAP_KERNEL_GEMM | BHOST_CAP_KERNEL_AXPY |
                 BHOST_CAP_KERNEL_REDUCE;
    info->timer_resolution_ns = 1000.0; /* hipEventElapsedTime: ~1 us */
}
