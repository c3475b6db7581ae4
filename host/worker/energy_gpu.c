// SPDX-License-Identifier: MIT
/* GPU energy meters: NVML and ROCm SMI, both loaded with dlopen so that
 * nothing links them (energy.h). Only the few entry points used are
 * declared here, with the signatures of nvml.h and rocm_smi.h. */
#define _GNU_SOURCE
#include "energy.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

/* nvml.h: nvmlReturn_t is an int, nvmlDevice_t an opaque pointer. */
typedef int (*nvml_init_fn)(void);
typedef int (*nvml_handle_fn)(unsigned int, void **);
typedef int (*nvml_energy_fn)(void *, unsigned long long *);
typedef int (*nvml_limit_fn)(void *, unsigned int *);
typedef const char *(*nvml_error_fn)(int);
typedef int (*nvml_shutdown_fn)(void);

/* rocm_smi.h: rsmi_status_t is an int. */
typedef int (*rsmi_init_fn)(uint64_t);
typedef int (*rsmi_energy_fn)(uint32_t, uint64_t *, float *, uint64_t *);
typedef int (*rsmi_shutdown_fn)(void);
typedef int (*rsmi_cap_fn)(uint32_t, uint32_t, uint64_t *);

static const char *const rocm_names[] = {"librocm_smi64.so", "librocm_smi64.so.7",
                                         "librocm_smi64.so.6", "librocm_smi64.so.5",
                                         "librocm_smi64.so.1"};

/* Stores lib's symbol name into the function pointer at fn (NULL when
 * absent); POSIX guarantees the object-to-function pointer conversion. */
static void sym(void *lib, const char *name, void *fn)
{
    void *p = lib ? dlsym(lib, name) : NULL;

    memcpy(fn, &p, sizeof(p));
}

/* Adds a GPU meter named gpu-N from source s, its power limit
 * limit_watts (0: unknown) and its refresh period unknown: measured when
 * needed (bh_energy_settle_period). */
static void add_gpu(bh_energy *en, bh_energy_source s, int gpu, void *handle, double limit_watts)
{
    bh_energy_domain *d;

    if (en->n == BH_ENERGY_MAX_DOMAINS)
        return;
    d = &en->dom[en->n++];
    memset(d, 0, sizeof(*d));
    d->source = s;
    d->fd = -1;
    d->gpu = (uint32_t)gpu;
    d->handle = handle;
    d->limit_watts = limit_watts;
    snprintf(d->name, sizeof(d->name), "gpu-%d", gpu);
}

/* The power limit NVML enforces on dev in watts (the enforced limit, else
 * the power management limit); 0 when neither is known. */
static double nvml_limit_watts(void *lib, void *dev)
{
    static const char *const names[] = {"nvmlDeviceGetEnforcedPowerLimit",
                                        "nvmlDeviceGetPowerManagementLimit"};

    for (int i = 0; i < 2; i++) {
        nvml_limit_fn limit;
        unsigned int mw = 0;

        sym(lib, names[i], &limit);
        if (limit && limit(dev, &mw) == 0 && mw > 0)
            return mw * 1e-3;
    }
    return 0;
}

/* The power cap of ROCm SMI's GPU gpu in watts; 0 when unknown. */
static double rocm_limit_watts(void *lib, int gpu)
{
    rsmi_cap_fn cap;
    uint64_t uw = 0;

    sym(lib, "rsmi_dev_power_cap_get", &cap);
    if (!cap || cap((uint32_t)gpu, 0, &uw) != 0)
        return 0;
    return (double)uw * 1e-6;
}

/* NVML: loads it, and adds GPU gpu when >= 0 and it reports energy. */
static size_t open_nvml(bh_energy *en, int gpu)
{
    char *why = en->reason[BH_ENERGY_NVML];
    size_t cap = sizeof(en->reason[0]);
    void *lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    nvml_init_fn init;
    nvml_handle_fn handle_of;
    nvml_energy_fn energy;
    nvml_error_fn error_string;
    unsigned long long mj;
    void *dev = NULL;
    int rc;

    if (!lib) {
        snprintf(why, cap, "libnvidia-ml.so.1 not found");
        return 0;
    }
    en->lib[BH_ENERGY_NVML] = lib;
    sym(lib, "nvmlInit_v2", &init);
    sym(lib, "nvmlDeviceGetHandleByIndex_v2", &handle_of);
    sym(lib, "nvmlDeviceGetTotalEnergyConsumption", &energy);
    sym(lib, "nvmlErrorString", &error_string);
    if (!init || !handle_of || !energy || !error_string) {
        snprintf(why, cap, "libnvidia-ml.so.1 lacks nvmlDeviceGetTotalEnergyConsumption");
        return 0;
    }
    if (gpu < 0) { /* no nvmlInit: it costs a host case's worker its start-up */
        snprintf(why, cap, "not read: a host case (GPU energy is read for cases on a device)");
        return 0;
    }
    if ((rc = init()) != 0) {
        snprintf(why, cap, "nvmlInit: %s", error_string(rc));
        return 0;
    }
    en->gpu_init[BH_ENERGY_NVML] = 1;
    if ((rc = handle_of((unsigned)gpu, &dev)) != 0 || (rc = energy(dev, &mj)) != 0) {
        snprintf(why, cap, "GPU %d: %s", gpu, error_string(rc));
        return 0;
    }
    add_gpu(en, BH_ENERGY_NVML, gpu, dev, nvml_limit_watts(lib, dev));
    return 1;
}

/* ROCm SMI: loads it, and adds GPU gpu when >= 0 and it reports energy. */
static size_t open_rocm(bh_energy *en, int gpu)
{
    char *why = en->reason[BH_ENERGY_ROCM_SMI];
    size_t cap = sizeof(en->reason[0]);
    void *lib = NULL;
    rsmi_init_fn init;
    rsmi_energy_fn energy;
    uint64_t count, stamp;
    float res;
    int rc;

    for (size_t i = 0; !lib && i < sizeof(rocm_names) / sizeof(*rocm_names); i++)
        lib = dlopen(rocm_names[i], RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        snprintf(why, cap, "librocm_smi64.so not found");
        return 0;
    }
    en->lib[BH_ENERGY_ROCM_SMI] = lib;
    sym(lib, "rsmi_init", &init);
    sym(lib, "rsmi_dev_energy_count_get", &energy);
    if (!init || !energy) {
        snprintf(why, cap, "librocm_smi64.so lacks rsmi_dev_energy_count_get");
        return 0;
    }
    if (gpu < 0) {
        snprintf(why, cap, "not read: a host case (GPU energy is read for cases on a device)");
        return 0;
    }
    if ((rc = init(0)) != 0) {
        snprintf(why, cap, "rsmi_init: status %d", rc);
        return 0;
    }
    en->gpu_init[BH_ENERGY_ROCM_SMI] = 1;
    if ((rc = energy((uint32_t)gpu, &count, &res, &stamp)) != 0) {
        snprintf(why, cap, "GPU %d: rsmi_dev_energy_count_get: status %d", gpu, rc);
        return 0;
    }
    add_gpu(en, BH_ENERGY_ROCM_SMI, gpu, NULL, rocm_limit_watts(lib, gpu));
    return 1;
}

/* See energy.h. */
size_t bh_energy_open_gpu(bh_energy *en, int gpu)
{
    size_t n = open_nvml(en, gpu);

    if (n && gpu >= 0) {
        snprintf(en->reason[BH_ENERGY_ROCM_SMI], sizeof(en->reason[0]),
                 "not read: the GPU is read through NVML");
        return n;
    }
    return n + open_rocm(en, gpu);
}

/* See energy.h. */
int bh_energy_gpu_read_uj(const bh_energy *en, const bh_energy_domain *d, uint64_t *uj)
{
    if (d->source == BH_ENERGY_NVML) {
        nvml_energy_fn energy;
        unsigned long long mj;

        sym(en->lib[BH_ENERGY_NVML], "nvmlDeviceGetTotalEnergyConsumption", &energy);
        if (!energy || energy(d->handle, &mj) != 0)
            return -1;
        *uj = (uint64_t)mj * 1000u;
        return 0;
    }
    if (d->source == BH_ENERGY_ROCM_SMI) {
        rsmi_energy_fn energy;
        uint64_t count, stamp;
        float res;

        sym(en->lib[BH_ENERGY_ROCM_SMI], "rsmi_dev_energy_count_get", &energy);
        if (!energy || energy(d->gpu, &count, &res, &stamp) != 0)
            return -1;
        *uj = (uint64_t)((double)count * (double)res);
        return 0;
    }
    return -1;
}

/* See energy.h. */
void bh_energy_gpu_close(bh_energy *en)
{
    static const char *const shutdown[BH_ENERGY_SOURCES] = {NULL, "nvmlShutdown", "rsmi_shut_down"};

    for (int s = BH_ENERGY_NVML; s < BH_ENERGY_SOURCES; s++) {
        void *lib = en->lib[s];
        int (*fn)(void);

        sym(lib, shutdown[s], &fn);
        if (fn && en->gpu_init[s])
            (void)fn();
        en->gpu_init[s] = 0;
        if (lib)
            dlclose(lib);
        en->lib[s] = NULL;
    }
}
