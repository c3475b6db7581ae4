// SPDX-License-Identifier: MIT
/*
 * cpu_info.c -- describes a CPU backend device: the machine or one NUMA
 * node. runtime_version records the BLAS, its kernel set, the thread
 * count and how bf16/f16 gemm runs, e.g.
 * "OpenBLAS 0.3.21 Cooperlake; 2 threads; bf16/f16 via f32".
 */
#define _GNU_SOURCE
#include "backend_cpu.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#if defined(BH_HAVE_OPENBLAS_CONFIG)
#include <cblas.h>
#endif

/* Copies the value of the first "key<spaces/tabs>: value" line of
 * /proc/cpuinfo into out (cap bytes, trailing newline dropped). Returns 1
 * when found, 0 otherwise. */
static int cpuinfo_value(const char *key, char *out, size_t cap)
{
    char line[512];
    size_t klen = strlen(key);
    int found = 0;
    FILE *f = fopen("/proc/cpuinfo", "r");

    if (f == NULL)
        return 0;
    while (!found && fgets(line, sizeof(line), f) != NULL) {
        char *p = line + klen;

        if (strncmp(line, key, klen) != 0)
            continue;
        while (*p == ' ' || *p == '\t')
            p++;
        if (*p++ != ':')
            continue;
        while (*p == ' ' || *p == '\t')
            p++;
        p[strcspn(p, "\r\n")] = '\0';
        snprintf(out, cap, "%s", p);
        found = 1;
    }
    fclose(f);
    return found;
}

/* Reads one unsigned integer from a sysfs file; 0 when absent. */
static unsigned long long sysfs_ull(const char *path)
{
    unsigned long long v = 0;
    FILE *f = fopen(path, "r");

    if (f == NULL)
        return 0;
    if (fscanf(f, "%llu", &v) != 1)
        v = 0;
    fclose(f);
    return v;
}

/* Nominal clock in MHz: sysfs base_frequency, else the "@ x.yzGHz" of the
 * model name, else 0. */
static double nominal_mhz(const char *model)
{
    unsigned long long khz = sysfs_ull(
        "/sys/devices/system/cpu/cpu0/cpufreq/base_frequency");
    const char *at = strrchr(model, '@');
    double ghz = 0.0;

    if (khz != 0)
        return (double)khz / 1000.0;
    if (at != NULL && sscanf(at + 1, " %lfGHz", &ghz) == 1 && ghz > 0.0)
        return ghz * 1000.0;
    return 0.0;
}

/* A short vendor name from vendor_id (x86) or CPU implementer (Arm). */
static void vendor_name(char *out, size_t cap)
{
    char raw[64];

    if (cpuinfo_value("vendor_id", raw, sizeof(raw))) {
        if (strcmp(raw, "GenuineIntel") == 0)
            snprintf(out, cap, "Intel");
        else if (strcmp(raw, "AuthenticAMD") == 0)
            snprintf(out, cap, "AMD");
        else
            snprintf(out, cap, "%s", raw);
    } else if (cpuinfo_value("CPU implementer", raw, sizeof(raw))) {
        if (strcmp(raw, "0x41") == 0)
            snprintf(out, cap, "Arm");
        else
            snprintf(out, cap, "implementer %.32s", raw);
    } else {
        snprintf(out, cap, "unknown");
    }
}

/* The BLAS version and kernel set ("OpenBLAS 0.3.21 Cooperlake"), or
 * "CBLAS" when the library does not say. */
static void blas_name(char *out, size_t cap)
{
#if defined(BH_HAVE_OPENBLAS_CONFIG)
    char ver[32] = "";
    const char *cfg = openblas_get_config();
    const char *core = openblas_get_corename();

    if (cfg == NULL || sscanf(cfg, "OpenBLAS %31s", ver) != 1)
        snprintf(ver, sizeof(ver), "?");
    snprintf(out, cap, "OpenBLAS %s %.24s", ver, core != NULL ? core : "");
#else
    snprintf(out, cap, "CBLAS");
#endif
}

void bh_cpu_describe(uint32_t index, bhost_device_info *info)
{
    const bh_cpu_dev_desc *d = bh_cpu_topo_desc(index);
    struct utsname uts;
    struct timespec res;
    char blas[48];

    memset(info, 0, sizeof(*info));
    info->struct_size = sizeof(*info);
    if (uname(&uts) != 0)
        memset(&uts, 0, sizeof(uts));
    if (!cpuinfo_value("model name", info->name, sizeof(info->name) - 24))
        snprintf(info->name, sizeof(info->name) - 24, "%s processor",
                 uts.machine[0] != '\0' ? uts.machine : "unknown");
    if (d != NULL && d->numa_node >= 0)
        snprintf(info->name + strlen(info->name), 24, " (NUMA node %d)",
                 (int)d->numa_node);
    vendor_name(info->vendor, sizeof(info->vendor));
    snprintf(info->driver_version, sizeof(info->driver_version), "%.15s %.47s",
             uts.sysname, uts.release);
    blas_name(blas, sizeof(blas));
    snprintf(info->runtime_version, sizeof(info->runtime_version),
             "%.30s; %u threads; bf16/f16 %s", blas,
             d != NULL ? (unsigned)d->threads : 1u,
             bh_cpu_sbgemm() != NULL ? "sbgemm" : "via f32");
    info->compute_units = d != NULL ? d->cpus : 0;
    info->global_mem_bytes = d != NULL ? d->mem_bytes : 0;
    info->caps = BHOST_CAP_F64 | BHOST_CAP_F16 | BHOST_CAP_BF16 | BHOST_CAP_I8 |
                 BHOST_CAP_UNIFIED_MEM | BHOST_CAP_EVENT_TIMING |
                 BHOST_CAP_KERNEL_GEMM | BHOST_CAP_KERNEL_AXPY |
                 BHOST_CAP_KERNEL_REDUCE;
    if (clock_getres(CLOCK_MONOTONIC, &res) == 0)
        info->timer_resolution_ns =
            (double)res.tv_sec * 1e9 + (double)res.tv_nsec;
    info->clock_mhz = nominal_mhz(info->name);
}
