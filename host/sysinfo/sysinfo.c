// SPDX-License-Identifier: MIT
/* Assembles the system fingerprint from the section collectors, in the
 * order documented in sysinfo.h, and stamps it with its hash. */
#define _GNU_SOURCE
#include "sysinfo.h"

#include "sysinfo_internal.h"

#include <errno.h>

/* Loads the topology of the CPUs and memory this process may use (hwloc's
 * default: cgroup-disallowed CPUs are left out, sched affinity is not), with
 * instruction caches kept and no I/O objects. 0, or -1 with errno set and
 * *out untouched. */
int bh_sysinfo_topology_load(hwloc_topology_t *out)
{
    hwloc_topology_t t;
    int saved;

    if (hwloc_topology_init(&t) != 0)
        return -1;
    /* hwloc drops L1i/L2i objects by default; the fingerprint lists them */
    if (hwloc_topology_set_icache_types_filter(t, HWLOC_TYPE_FILTER_KEEP_ALL) != 0 ||
        hwloc_topology_load(t) != 0) {
        saved = errno;
        hwloc_topology_destroy(t);
        errno = saved;
        return -1;
    }
    *out = t;
    return 0;
}

/* Collects the fingerprint (see sysinfo.h). The topology is loaded once and
 * shared by the cpu, caches and memory sections; without it those sections
 * fall back to sysconf and /proc, or null. */
cJSON *bh_sysinfo_collect(void)
{
    hwloc_topology_t topo = NULL;
    char hex[65];
    cJSON *root = cJSON_CreateObject();

    if (!root)
        return NULL;
    if (bh_sysinfo_topology_load(&topo) != 0)
        topo = NULL;
    bh_sysinfo_add_os(root);
    bh_sysinfo_add_cpu(root, topo);
    bh_sysinfo_add_caches(root, topo);
    bh_sysinfo_add_memory(root, topo);
    bh_sysinfo_add_frequency(root);
    bh_sysinfo_add_kernel(root);
    bh_sysinfo_add_virtualization(root);
    bh_sysinfo_add_load(root);
    bh_sysinfo_add_build(root, topo);
    cJSON_AddStringToObject(root, "perf_counters",
                            bh_sysinfo_perf_counters_supported() ? "supported"
                                                                 : "unsupported");
    if (topo)
        hwloc_topology_destroy(topo);
    bh_sysinfo_hash(root, hex);
    cJSON_AddStringToObject(root, "fingerprint_hash", hex);
    return root;
}
