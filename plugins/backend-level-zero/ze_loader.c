// SPDX-License-Identifier: MIT
/*
 * ze_loader.c -- loads the Level Zero loader lazily, initializes it and
 * lists the devices of every driver. zeInit failing (no driver, or a
 * driver that found no GPU: ZE_RESULT_ERROR_UNINITIALIZED) means 0
 * devices, and nothing else is called: a following zeDriverGet was seen
 * to segfault in that state.
 */
#include "ze_internal.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

bh_ze_fns bh_ze;

static struct {
    int tried;
    bhost_status st;
    void *lib;
    uint32_t count;
    bh_ze_phys phys[BH_ZE_MAX_DEVICES];
    char error[384];
} L;

const char *bh_ze_load_error(void)
{
    return L.error;
}

uint32_t bh_ze_count(void)
{
    return L.st == BHOST_OK ? L.count : 0;
}

const bh_ze_phys *bh_ze_phys_get(uint32_t index)
{
    return index < bh_ze_count() ? &L.phys[index] : NULL;
}

/* Records why loading stopped in L.error; BHOST_E_UNSUPPORTED. */
#define stop(...) bh_be_stop(L.error, sizeof(L.error), __VA_ARGS__)

/* dlopens the loader and resolves BH_ZE_FNS. */
static bhost_status open_library(void)
{
    static const char *const names[] = {"libze_loader.so.1"};
    const char *err;
    const char *missing = NULL;

    L.lib = bh_be_dlopen("BHOST_ZE_LIBRARY", names, 1, NULL, 0, &err);
    if (L.lib == NULL)
        return stop("no Level Zero loader: %s (apt install libze1)", err);
#define BH_ZE_LOAD(name)                                                       \
    *(void **)&bh_ze.name = dlsym(L.lib, #name);                               \
    if (bh_ze.name == NULL && missing == NULL)                                 \
        missing = #name;
    BH_ZE_FNS(BH_ZE_LOAD)
#undef BH_ZE_LOAD
    if (missing != NULL)
        return stop("the Level Zero loader lacks %s", missing);
    return BHOST_OK;
}

/* Queue group with compute, memory size and fp64 of p. */
static void describe_phys(bh_ze_phys *p)
{
    ze_command_queue_group_properties_t groups[16];
    ze_device_memory_properties_t mem[8];
    ze_device_module_properties_t mod;
    ze_driver_properties_t drv;
    ze_api_version_t api;
    uint32_t ng = 16, nm = 8;

    memset(groups, 0, sizeof(groups));
    for (uint32_t i = 0; i < 16; i++)
        groups[i].stype = ZE_STRUCTURE_TYPE_COMMAND_QUEUE_GROUP_PROPERTIES;
    if (bh_ze.zeDeviceGetCommandQueueGroupProperties(p->dev, &ng, groups) ==
        ZE_RESULT_SUCCESS)
        for (uint32_t i = ng; i-- > 0;)
            if (groups[i].flags & ZE_COMMAND_QUEUE_GROUP_PROPERTY_FLAG_COMPUTE)
                p->compute_ordinal = i;
    memset(mem, 0, sizeof(mem));
    for (uint32_t i = 0; i < 8; i++)
        mem[i].stype = ZE_STRUCTURE_TYPE_DEVICE_MEMORY_PROPERTIES;
    if (bh_ze.zeDeviceGetMemoryProperties(p->dev, &nm, mem) == ZE_RESULT_SUCCESS)
        for (uint32_t i = 0; i < nm && i < 8; i++)
            p->mem_bytes += mem[i].totalSize;
    memset(&mod, 0, sizeof(mod));
    mod.stype = ZE_STRUCTURE_TYPE_DEVICE_MODULE_PROPERTIES;
    if (bh_ze.zeDeviceGetModuleProperties(p->dev, &mod) == ZE_RESULT_SUCCESS)
        p->fp64 = (mod.flags & ZE_DEVICE_MODULE_FLAG_FP64) != 0;
    memset(&drv, 0, sizeof(drv));
    drv.stype = ZE_STRUCTURE_TYPE_DRIVER_PROPERTIES;
    if (bh_ze.zeDriverGetProperties(p->driver, &drv) == ZE_RESULT_SUCCESS)
        p->driver_version = drv.driverVersion;
    if (bh_ze.zeDriverGetApiVersion(p->driver, &api) == ZE_RESULT_SUCCESS)
        p->api_version = (uint32_t)api;
}

bhost_status bh_ze_load(void)
{
    ze_driver_handle_t drivers[8];
    uint32_t nd = 0;
    ze_result_t r;

    if (L.tried)
        return L.st;
    L.tried = 1;
    L.st = open_library();
    if (L.st != BHOST_OK)
        return L.st;
    r = bh_ze.zeInit(0);
    if (r != ZE_RESULT_SUCCESS)
        return L.st = stop("zeInit: 0x%08x%s", (unsigned)r,
                           r == ZE_RESULT_ERROR_UNINITIALIZED
                               ? " (ZE_RESULT_ERROR_UNINITIALIZED: no Level "
                                 "Zero driver, or no device for it; Debian "
                                 "ships Intel's in intel-opencl-icd)"
                               : "");
    r = bh_ze.zeDriverGet(&nd, NULL);
    if (r != ZE_RESULT_SUCCESS || nd == 0)
        return L.st = stop("zeDriverGet: 0x%08x, %u driver(s)", (unsigned)r,
                           nd);
    nd = nd > 8 ? 8 : nd;
    bh_ze.zeDriverGet(&nd, drivers);
    for (uint32_t d = 0; d < nd; d++) {
        ze_device_handle_t devs[BH_ZE_MAX_DEVICES];
        uint32_t n = BH_ZE_MAX_DEVICES;

        if (bh_ze.zeDeviceGet(drivers[d], &n, devs) != ZE_RESULT_SUCCESS)
            continue;
        for (uint32_t i = 0; i < n && L.count < BH_ZE_MAX_DEVICES; i++) {
            bh_ze_phys *p = &L.phys[L.count];

            memset(p, 0, sizeof(*p));
            p->driver = drivers[d];
            p->dev = devs[i];
            p->props.stype = ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES;
            if (bh_ze.zeDeviceGetProperties(devs[i], &p->props) !=
                ZE_RESULT_SUCCESS)
                continue;
            describe_phys(p);
            L.count++;
        }
    }
    if (L.count == 0)
        return L.st = stop("%u Level Zero driver(s) but no device", nd);
    L.st = BHOST_OK;
    return BHOST_OK;
}

void bh_ze_describe(uint32_t index, bhost_device_info *info)
{
    const bh_ze_phys *p = bh_ze_phys_get(index);

    memset(info, 0, sizeof(*info));
    info->struct_size = sizeof(*info);
    if (p == NULL)
        return;
    snprintf(info->name, sizeof(info->name), "%.255s", p->props.name);
    snprintf(info->vendor, sizeof(info->vendor), "%s (0x%04x)",
             p->props.vendorId == 0x8086 ? "Intel" : "vendor",
             p->props.vendorId);
    snprintf(info->driver_version, sizeof(info->driver_version), "%u",
             p->driver_version);
    snprintf(info->runtime_version, sizeof(info->runtime_version),
             "Level Zero API %u.%u%s", ZE_MAJOR_VERSION(p->api_version),
             ZE_MINOR_VERSION(p->api_version),
             bh_ze_have_kernels() ? "" : "; no kernels (copies/events only)");
    info->compute_units = p->props.numSlices * p->props.numSubslicesPerSlice *
                          p->props.numEUsPerSubslice;
    info->clock_mhz = p->props.coreClockRate;
    info->global_mem_bytes = p->mem_bytes;
    info->caps = BHOST_CAP_EVENT_TIMING | BHOST_CAP_PINNED_HOST;
    if (p->fp64)
        info->caps |= BHOST_CAP_F64;
    if (bh_ze_have_kernels())
        info->caps |= BHOST_CAP_KERNEL_GEMM | BHOST_CAP_KERNEL_AXPY |
                      BHOST_CAP_KERNEL_REDUCE;
    info->timer_resolution_ns = p->props.timerResolution > 0
                                    ? (double)p->props.timerResolution
                                    : 1.0;
}
