// SPDX-License-Identifier: MIT
/* The machine's state around a run (sysinfo_env.h). */
#define _GNU_SOURCE
#include "sysinfo_env.h"

#include "sysinfo_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Most CPUs looked at for governors and throttle counters. */
#define MAX_CPUS 4096

int bh_sysinfo_boost(void)
{
    long v = 0;

    if (bh_sysinfo_read_long("/sys/devices/system/cpu/cpufreq/boost", &v) == 0)
        return v != 0;
    if (bh_sysinfo_read_long("/sys/devices/system/cpu/intel_pstate/no_turbo", &v) == 0)
        return v == 0;
    return -1;
}

/* Folds CPU i's governor into out ("" none yet, "mixed" when two differ);
 * returns 0 when CPU i has no cpufreq. */
static int fold_governor(int i, char *out, size_t cap)
{
    char path[96];
    char *g;

    snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/cpufreq/scaling_governor", i);
    g = bh_sysinfo_read_line(path);
    if (!g || !*g) {
        free(g);
        return 0;
    }
    if (!*out)
        snprintf(out, cap, "%s", g);
    else if (strcmp(out, g) != 0)
        snprintf(out, cap, "mixed");
    free(g);
    return 1;
}

/* Adds CPU i's thermal throttle counters to *sum (left alone when it has
 * none; -1 means none so far). */
static void add_throttle(int i, long long *sum)
{
    static const char *const names[] = {"core_throttle_count", "package_throttle_count"};

    for (size_t k = 0; k < sizeof(names) / sizeof(names[0]); k++) {
        char path[112];
        long v = 0;

        snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/thermal_throttle/%s", i,
                 names[k]);
        if (bh_sysinfo_read_long(path, &v) == 0 && v >= 0)
            *sum = (*sum < 0 ? 0 : *sum) + v;
    }
}

void bh_sysinfo_env_read(bh_sysinfo_env *out)
{
    double la[3];
    long n = sysconf(_SC_NPROCESSORS_ONLN);

    memset(out, 0, sizeof(*out));
    out->ncpu = n > 0 ? (int)n : 1;
    out->load1 = getloadavg(la, 1) == 1 ? la[0] : NAN;
    out->boost = bh_sysinfo_boost();
    out->throttle = -1;
    for (int i = 0; i < out->ncpu && i < MAX_CPUS; i++) {
        fold_governor(i, out->governor, sizeof(out->governor));
        add_throttle(i, &out->throttle);
    }
}
