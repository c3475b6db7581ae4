// SPDX-License-Identifier: MIT
/* The "memory" section: total installed memory and its split over NUMA
 * nodes, from the hwloc topology. */
#define _GNU_SOURCE
#include "sysinfo_internal.h"

#include <unistd.h>

/* Total memory from sysconf, for when hwloc is unavailable; 0 if unknown. */
static double sysconf_total(void)
{
    long pages = sysconf(_SC_PHYS_PAGES);
    long page = sysconf(_SC_PAGESIZE);

    return pages > 0 && page > 0 ? (double)pages * (double)page : 0.0;
}

/* Adds "numa": [{node, bytes}] for every NUMA node, by OS index order as
 * hwloc lists them; empty when topo is NULL. */
static void add_numa(cJSON *mem, hwloc_topology_t topo)
{
    cJSON *arr = cJSON_AddArrayToObject(mem, "numa");
    hwloc_obj_t node = NULL;

    if (!arr || !topo)
        return;
    while ((node = hwloc_get_next_obj_by_type(topo, HWLOC_OBJ_NUMANODE, node))) {
        cJSON *o = cJSON_CreateObject();

        if (!o)
            return;
        cJSON_AddNumberToObject(o, "node", node->os_index);
        cJSON_AddNumberToObject(o, "bytes", (double)node->attr->numanode.local_memory);
        cJSON_AddItemToArray(arr, o);
    }
}

/* Adds the "memory" object to root: total_bytes (sysconf, else hwloc's
 * root total, else null) and numa. topo may be NULL. Never fails. */
void bh_sysinfo_add_memory(cJSON *root, hwloc_topology_t topo)
{
    cJSON *mem = cJSON_AddObjectToObject(root, "memory");
    double total = 0.0;

    if (!mem)
        return;
    /* The kernel's MemTotal: hwloc's NUMA figures can miss hot-plugged
     * memory in VMs (seen: 4.4 GB of 24 GB). */
    total = sysconf_total();
    if (total <= 0.0 && topo)
        total = (double)hwloc_get_root_obj(topo)->total_memory;
    bh_sysinfo_add_num_if(mem, "total_bytes", total > 0.0, total);
    add_numa(mem, topo);
}
