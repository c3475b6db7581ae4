// SPDX-License-Identifier: MIT
/* See roof_caches.h. */
#include "roof_caches.h"

#include <hwloc.h>

#include <stdio.h>
#include <string.h>

/* Counts obj into out under its level (depth). */
static void add_cache(roof_caches *out, hwloc_obj_t obj)
{
    unsigned level = obj->attr->cache.depth;
    uint64_t size = (uint64_t)obj->attr->cache.size;
    unsigned i;

    if (obj->attr->cache.type == HWLOC_OBJ_CACHE_INSTRUCTION || size == 0)
        return;
    for (i = 0; i < out->n && out->c[i].level != level; i++)
        ;
    if (i == out->n) {
        if (out->n == ROOF_MAX_LEVELS)
            return;
        out->c[out->n++] = (roof_cache){level, size, 0};
    }
    out->c[i].count++;
    if (size < out->c[i].size_bytes)
        out->c[i].size_bytes = size;
}

/* Sorts out ascending by level (a handful of entries: insertion sort). */
static void sort_levels(roof_caches *out)
{
    for (unsigned i = 1; i < out->n; i++) {
        roof_cache c = out->c[i];
        unsigned j = i;

        for (; j > 0 && out->c[j - 1].level > c.level; j--)
            out->c[j] = out->c[j - 1];
        out->c[j] = c;
    }
}

int roof_caches_read(roof_caches *out, char *why, size_t cap)
{
    hwloc_topology_t topo;

    memset(out, 0, sizeof(*out));
    if (hwloc_topology_init(&topo) != 0) {
        snprintf(why, cap, "hwloc_topology_init failed");
        return -1;
    }
    if (hwloc_topology_load(topo) != 0) {
        hwloc_topology_destroy(topo);
        snprintf(why, cap, "hwloc_topology_load failed");
        return -1;
    }
    for (int t = HWLOC_OBJ_TYPE_MIN; t < HWLOC_OBJ_TYPE_MAX; t++) {
        hwloc_obj_t obj = NULL;

        if (!hwloc_obj_type_is_dcache((hwloc_obj_type_t)t))
            continue;
        while ((obj = hwloc_get_next_obj_by_type(topo, (hwloc_obj_type_t)t, obj)) != NULL)
            add_cache(out, obj);
    }
    hwloc_topology_destroy(topo);
    sort_levels(out);
    return 0;
}
