// SPDX-License-Identifier: MIT
/* Operating-system parts of the fingerprint: host name, uname, the kernel
 * settings that disturb measurements, and the load average. */
#define _GNU_SOURCE
#include "sysinfo_internal.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <sys/utsname.h>
#include <unistd.h>

/* Adds "hostname" and "os" {sysname, release, version, machine} to root;
 * null values when gethostname or uname fail. Never fails. */
void bh_sysinfo_add_os(cJSON *root)
{
    char host[HOST_NAME_MAX + 1];
    struct utsname u;
    cJSON *os;
    bool have_uname = uname(&u) == 0;

    if (gethostname(host, sizeof(host)) == 0) {
        host[sizeof(host) - 1] = '\0';
        cJSON_AddStringToObject(root, "hostname", host);
    } else {
        cJSON_AddNullToObject(root, "hostname");
    }
    os = cJSON_AddObjectToObject(root, "os");
    if (!os)
        return;
    bh_sysinfo_add_str(os, "sysname", have_uname ? u.sysname : NULL);
    bh_sysinfo_add_str(os, "release", have_uname ? u.release : NULL);
    bh_sysinfo_add_str(os, "version", have_uname ? u.version : NULL);
    bh_sysinfo_add_str(os, "machine", have_uname ? u.machine : NULL);
}

/* Adds "kernel" {aslr, isolated_cpus, nohz_full, perf_event_paranoid} to
 * root: numbers or null, the CPU lists as the kernel writes them ("" when
 * none) or null when the file is absent. Never fails. */
void bh_sysinfo_add_kernel(cJSON *root)
{
    cJSON *k = cJSON_AddObjectToObject(root, "kernel");
    long v = 0;
    bool ok;

    if (!k)
        return;
    ok = bh_sysinfo_read_long("/proc/sys/kernel/randomize_va_space", &v) == 0;
    bh_sysinfo_add_num_if(k, "aslr", ok, (double)v);
    /* "" when readable but no CPU is isolated; null when the file is absent */
    bh_sysinfo_add_str_owned(k, "isolated_cpus",
                             bh_sysinfo_read_line("/sys/devices/system/cpu/isolated"));
    bh_sysinfo_add_str_owned(k, "nohz_full",
                             bh_sysinfo_read_line("/sys/devices/system/cpu/nohz_full"));
    ok = bh_sysinfo_read_long("/proc/sys/kernel/perf_event_paranoid", &v) == 0;
    bh_sysinfo_add_num_if(k, "perf_event_paranoid", ok, (double)v);
}

/* Adds "load_average" [1, 5, 15 minutes] to root, null when getloadavg
 * fails. Never fails. */
void bh_sysinfo_add_load(cJSON *root)
{
    double la[3];
    cJSON *arr;

    if (getloadavg(la, 3) != 3) {
        cJSON_AddNullToObject(root, "load_average");
        return;
    }
    arr = cJSON_AddArrayToObject(root, "load_average");
    if (!arr)
        return;
    /* /proc/loadavg precision; the kernel's fixed point has more digits */
    for (int i = 0; i < 3; i++)
        cJSON_AddItemToArray(arr, cJSON_CreateNumber(round(la[i] * 100.0) / 100.0));
}
