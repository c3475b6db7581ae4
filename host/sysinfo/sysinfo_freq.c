// SPDX-License-Identifier: MIT
/* The "frequency" section: cpufreq governor, driver, boost state and the
 * policy limits of CPU 0. Virtual machines usually have no cpufreq at all;
 * the governor then reads "unavailable" and the rest null. */
#define _GNU_SOURCE
#include "sysinfo_internal.h"
#include "sysinfo_env.h"

#include <stdlib.h>

#define CPUFREQ0 "/sys/devices/system/cpu/cpu0/cpufreq/"

/* Adds "boost": true/false from the generic cpufreq boost switch (AMD,
 * acpi-cpufreq) or intel_pstate's no_turbo (inverted); null when neither
 * can be read. */
static void add_boost(cJSON *f)
{
    int b = bh_sysinfo_boost();

    if (b >= 0)
        cJSON_AddBoolToObject(f, "boost", b);
    else
        cJSON_AddNullToObject(f, "boost");
}

/* Adds key = the kHz value of CPU 0's scaling_<name>, falling back to the
 * hardware cpuinfo_<name>; null when neither is readable. */
static void add_khz(cJSON *f, const char *key, const char *scaling,
                    const char *hw)
{
    long v = 0;
    bool ok = bh_sysinfo_read_long(scaling, &v) == 0 ||
              bh_sysinfo_read_long(hw, &v) == 0;

    bh_sysinfo_add_num_if(f, key, ok && v > 0, (double)v);
}

/* Adds the "frequency" object to root. Never fails. */
void bh_sysinfo_add_frequency(cJSON *root)
{
    cJSON *f = cJSON_AddObjectToObject(root, "frequency");
    char *gov;

    if (!f)
        return;
    gov = bh_sysinfo_read_line(CPUFREQ0 "scaling_governor");
    cJSON_AddStringToObject(f, "governor", gov && *gov ? gov : "unavailable");
    free(gov);
    bh_sysinfo_add_str_owned(f, "driver", bh_sysinfo_read_line(CPUFREQ0 "scaling_driver"));
    add_boost(f);
    add_khz(f, "min_khz", CPUFREQ0 "scaling_min_freq", CPUFREQ0 "cpuinfo_min_freq");
    add_khz(f, "max_khz", CPUFREQ0 "scaling_max_freq", CPUFREQ0 "cpuinfo_max_freq");
}
