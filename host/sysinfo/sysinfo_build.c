// SPDX-License-Identifier: MIT
/* Build and runtime library identity of the host: the compiler it was built
 * with, the C library and the hwloc library it runs against. */
#define _GNU_SOURCE
#include "sysinfo_internal.h"

#include <stdio.h>

#if defined(__GLIBC__)
#include <gnu/libc-version.h>
#endif

#if defined(__clang__)
#define COMPILER_STRING "clang " __clang_version__
#elif defined(__GNUC__)
#define COMPILER_STRING "gcc " __VERSION__
#elif defined(__VERSION__)
#define COMPILER_STRING __VERSION__
#else
#define COMPILER_STRING "unknown"
#endif

/* Adds "compiler", "libc", "hwloc_version" and "hwloc_api_version" to root.
 * hwloc_get_api_version() is the API level (2.9.x reports 2.8.0), so the
 * release comes from the "hwlocVersion" info hwloc puts on the topology
 * root; null without a topology. Never fails. */
void bh_sysinfo_add_build(cJSON *root, hwloc_topology_t topo)
{
    char buf[64];
    unsigned v = hwloc_get_api_version();
    const char *release = NULL;

    cJSON_AddStringToObject(root, "compiler", COMPILER_STRING);
#if defined(__GLIBC__)
    snprintf(buf, sizeof(buf), "glibc %s", gnu_get_libc_version());
    cJSON_AddStringToObject(root, "libc", buf);
#else
    cJSON_AddStringToObject(root, "libc", "unknown");
#endif
    if (topo)
        release = hwloc_obj_get_info_by_name(hwloc_get_root_obj(topo), "hwlocVersion");
    bh_sysinfo_add_str(root, "hwloc_version", release);
    snprintf(buf, sizeof(buf), "%u.%u.%u", (v >> 16) & 0xffu, (v >> 8) & 0xffu,
             v & 0xffu);
    cJSON_AddStringToObject(root, "hwloc_api_version", buf);
}
