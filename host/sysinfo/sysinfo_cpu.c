// SPDX-License-Identifier: MIT
/* The "cpu" section: identity from hwloc's package info (falling back to
 * /proc/cpuinfo), counts from the hwloc topology, and the vector/matrix
 * instruction flags that decide which kernels a benchmark can run. */
#define _GNU_SOURCE
#include "sysinfo_internal.h"

#include "bh_mem.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Returns hwloc info `name` of the first package (or of the root object
 * when there is no package), or NULL. The string belongs to topo. */
static const char *package_info(hwloc_topology_t topo, const char *name)
{
    hwloc_obj_t pkg;
    const char *v;

    if (!topo)
        return NULL;
    pkg = hwloc_get_obj_by_type(topo, HWLOC_OBJ_PACKAGE, 0);
    if (pkg && (v = hwloc_obj_get_info_by_name(pkg, name)) != NULL && *v)
        return v;
    v = hwloc_obj_get_info_by_name(hwloc_get_root_obj(topo), name);
    return v && *v ? v : NULL;
}

/* Adds key = the identity string from hwloc info `info`, else from the
 * /proc/cpuinfo line `cpuinfo_key`, else null. */
static void add_identity(cJSON *cpu, const char *key, hwloc_topology_t topo,
                         const char *info, const char *cpuinfo_key)
{
    const char *v = package_info(topo, info);

    if (v)
        cJSON_AddStringToObject(cpu, key, v);
    else
        bh_sysinfo_add_str_owned(cpu, key, bh_sysinfo_cpuinfo_value(cpuinfo_key));
}

/* Adds key = the decimal number from hwloc info `info`, else from the
 * /proc/cpuinfo line `cpuinfo_key`, else null. */
static void add_identity_num(cJSON *cpu, const char *key, hwloc_topology_t topo,
                             const char *info, const char *cpuinfo_key)
{
    const char *v = package_info(topo, info);
    char *owned = NULL;
    char *end = NULL;
    long n = 0;
    bool ok = false;

    if (!v)
        v = owned = bh_sysinfo_cpuinfo_value(cpuinfo_key);
    if (v && *v) {
        n = strtol(v, &end, 0);
        ok = end != v && *end == '\0' && n >= 0;
    }
    bh_sysinfo_add_num_if(cpu, key, ok, (double)n);
    free(owned);
}

/* Number of objects of type in topo, or -1 when unknown (no topology, or a
 * type hwloc spreads over several depths). */
static int count_of(hwloc_topology_t topo, hwloc_obj_type_t type)
{
    return topo ? hwloc_get_nbobjs_by_type(topo, type) : -1;
}

/* True when some core holds more than one PU. */
static bool topology_has_smt(hwloc_topology_t topo)
{
    int cores = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_CORE);

    for (int i = 0; i < cores; i++) {
        hwloc_obj_t c = hwloc_get_obj_by_type(topo, HWLOC_OBJ_CORE, (unsigned)i);

        if (c && c->cpuset && hwloc_bitmap_weight(c->cpuset) > 1)
            return true;
    }
    return false;
}

/* Adds the counts: logical_cores, physical_cores, sockets, numa_nodes, smt. */
static void add_counts(cJSON *cpu, hwloc_topology_t topo)
{
    int pus = count_of(topo, HWLOC_OBJ_PU);
    int cores = count_of(topo, HWLOC_OBJ_CORE);
    int pkgs = count_of(topo, HWLOC_OBJ_PACKAGE);
    int numa = count_of(topo, HWLOC_OBJ_NUMANODE);

    if (pus <= 0) {
        long n = sysconf(_SC_NPROCESSORS_ONLN);

        pus = n > 0 ? (int)n : -1;
    }
    bh_sysinfo_add_num_if(cpu, "logical_cores", pus > 0, pus);
    bh_sysinfo_add_num_if(cpu, "physical_cores", cores > 0, cores);
    bh_sysinfo_add_num_if(cpu, "sockets", pkgs > 0, pkgs);
    bh_sysinfo_add_num_if(cpu, "numa_nodes", numa > 0, numa);
    if (topo && cores > 0)
        cJSON_AddBoolToObject(cpu, "smt", topology_has_smt(topo));
    else
        cJSON_AddNullToObject(cpu, "smt");
}

/* True when the space-separated word list has word. */
static bool has_word(const char *list, const char *word)
{
    size_t n = strlen(word);

    for (const char *p = list; (p = strstr(p, word)) != NULL; p += n) {
        bool starts = p == list || p[-1] == ' ' || p[-1] == '\t';
        bool ends = p[n] == '\0' || p[n] == ' ' || p[n] == '\t';

        if (starts && ends)
            return true;
    }
    return false;
}

/* Adds "flags" {avx2, avx512f, avx512_bf16, avx512_vnni, amx}: booleans
 * from the x86 "flags" line of /proc/cpuinfo (hwloc does not report ISA
 * extensions); all null when there is no such line (other architectures). */
static void add_flags(cJSON *cpu)
{
    static const char *const plain[] = {"avx2", "avx512f", "avx512_bf16",
                                        "avx512_vnni"};
    char *line = bh_sysinfo_cpuinfo_value("flags");
    cJSON *flags = cJSON_AddObjectToObject(cpu, "flags");

    if (flags) {
        for (size_t i = 0; i < sizeof(plain) / sizeof(plain[0]); i++) {
            if (line)
                cJSON_AddBoolToObject(flags, plain[i], has_word(line, plain[i]));
            else
                cJSON_AddNullToObject(flags, plain[i]);
        }
        if (line)
            cJSON_AddBoolToObject(flags, "amx",
                                  has_word(line, "amx_tile") ||
                                      has_word(line, "amx_bf16") ||
                                      has_word(line, "amx_int8"));
        else
            cJSON_AddNullToObject(flags, "amx");
    }
    free(line);
}

/* Adds the "cpu" object to root. topo may be NULL. Never fails; fields that
 * cannot be found are null. */
void bh_sysinfo_add_cpu(cJSON *root, hwloc_topology_t topo)
{
    cJSON *cpu = cJSON_AddObjectToObject(root, "cpu");

    if (!cpu)
        return;
    add_identity(cpu, "model", topo, "CPUModel", "model name");
    add_identity(cpu, "vendor", topo, "CPUVendor", "vendor_id");
    add_identity_num(cpu, "family", topo, "CPUFamilyNumber", "cpu family");
    add_identity_num(cpu, "model_number", topo, "CPUModelNumber", "model");
    add_identity_num(cpu, "stepping", topo, "CPUStepping", "stepping");
    add_counts(cpu, topo);
    add_flags(cpu);
}
