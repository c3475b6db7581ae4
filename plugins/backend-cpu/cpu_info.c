/*
 * cpu_info.c -- describes the machine as the CPU backend's one device.
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

/* Copies src into out (cap bytes), cutting at the last space that fits
 * rather than mid-word when src is too long. */
static void copy_words(char *out, size_t cap, const char *src)
{
    size_t len = strlen(src);

    if (len < cap) {
        memcpy(out, src, len + 1);
        return;
    }
    len = cap - 1;
    while (len > 0 && src[len] != ' ')
        len--;
    if (len == 0)
        len = cap - 1;
    memcpy(out, src, len);
    out[len] = '\0';
}

void bh_cpu_describe(bhost_device_info *info)
{
    struct utsname uts;
    struct timespec res;
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    long pages = sysconf(_SC_PHYS_PAGES);
    long page_size = sysconf(_SC_PAGESIZE);

    memset(info, 0, sizeof(*info));
    info->struct_size = sizeof(*info);
    info->compute_units = cores > 0 ? (uint32_t)cores : 0;
    if (uname(&uts) != 0)
        memset(&uts, 0, sizeof(uts));
    if (!cpuinfo_value("model name", info->name, sizeof(info->name)))
        snprintf(info->name, sizeof(info->name), "%s processor",
                 uts.machine[0] != '\0' ? uts.machine : "unknown");
    vendor_name(info->vendor, sizeof(info->vendor));
    snprintf(info->driver_version, sizeof(info->driver_version), "%.15s %.47s",
             uts.sysname, uts.release);
#if defined(BH_HAVE_OPENBLAS_CONFIG)
    copy_words(info->runtime_version, sizeof(info->runtime_version),
               openblas_get_config());
#else
    snprintf(info->runtime_version, sizeof(info->runtime_version), "CBLAS");
#endif
    if (pages > 0 && page_size > 0)
        info->global_mem_bytes = (uint64_t)pages * (uint64_t)page_size;
    info->caps = BHOST_CAP_F64 | BHOST_CAP_I8 | BHOST_CAP_UNIFIED_MEM |
                 BHOST_CAP_EVENT_TIMING | BHOST_CAP_KERNEL_GEMM |
                 BHOST_CAP_KERNEL_AXPY | BHOST_CAP_KERNEL_REDUCE;
    if (clock_getres(CLOCK_MONOTONIC, &res) == 0)
        info->timer_resolution_ns =
            (double)res.tv_sec * 1e9 + (double)res.tv_nsec;
    info->clock_mhz = nominal_mhz(info->name);
}
