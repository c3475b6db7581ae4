// SPDX-License-Identifier: MIT
/* The state of the machine that a benchmark run cares about, read cheaply
 * before and after every run (host/supervisor/env_check.h): the load
 * average, the cpufreq governor, turbo, and the thermal throttle counters.
 * Virtual machines usually have no cpufreq and no throttle counters; those
 * then read unknown. Never fails. */
#ifndef BH_SYSINFO_ENV_H
#define BH_SYSINFO_ENV_H

typedef struct bh_sysinfo_env {
    double load1;       /* 1-minute load average; NAN when unreadable */
    int ncpu;           /* online CPUs (>= 1) */
    char governor[32];  /* the governor of every CPU, "mixed" when they
                           differ, "" when no CPU has cpufreq */
    int boost;          /* turbo/boost: 1 on, 0 off, -1 unknown */
    long long throttle; /* sum of the thermal throttle counters of every
                           CPU (core and package); -1 when there are none */
} bh_sysinfo_env;

/* Reads the state above into *out. Any thread. */
void bh_sysinfo_env_read(bh_sysinfo_env *out);

/* Turbo/boost from the generic cpufreq boost switch (AMD, acpi-cpufreq)
 * or intel_pstate's no_turbo (inverted): 1 on, 0 off, -1 when neither can
 * be read. */
int bh_sysinfo_boost(void);

#endif
