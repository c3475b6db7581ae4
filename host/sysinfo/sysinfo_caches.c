// SPDX-License-Identifier: MIT
/* The "caches" section: every CPU cache object of the hwloc topology,
 * grouped by level, type, size and line size, with how many there are. */
#define _GNU_SOURCE
#include "sysinfo_internal.h"

#include "bh_mem.h"

#include <stdlib.h>

typedef struct cache_group {
    unsigned level;
    int type_rank; /* 0 data, 1 instruction, 2 unified: the output order */
    unsigned long long size;
    unsigned line;
    unsigned count;
} cache_group;

static const char *const type_names[] = {"data", "instruction", "unified"};

/* Maps an hwloc cache type to its output rank. */
static int type_rank(hwloc_obj_cache_type_t t)
{
    switch (t) {
    case HWLOC_OBJ_CACHE_DATA:
        return 0;
    case HWLOC_OBJ_CACHE_INSTRUCTION:
        return 1;
    default:
        return 2;
    }
}

/* qsort order: level, then type, then size, then line size. */
static int group_cmp(const void *pa, const void *pb)
{
    const cache_group *a = pa;
    const cache_group *b = pb;

    if (a->level != b->level)
        return a->level < b->level ? -1 : 1;
    if (a->type_rank != b->type_rank)
        return a->type_rank < b->type_rank ? -1 : 1;
    if (a->size != b->size)
        return a->size < b->size ? -1 : 1;
    if (a->line != b->line)
        return a->line < b->line ? -1 : 1;
    return 0;
}

/* Counts obj into groups (*n used, *cap allocated), adding a group when no
 * existing one has the same level, type, size and line size. */
static void count_cache(cache_group **groups, size_t *n, size_t *cap,
                        hwloc_obj_t obj)
{
    cache_group g = {
        .level = obj->attr->cache.depth,
        .type_rank = type_rank(obj->attr->cache.type),
        .size = (unsigned long long)obj->attr->cache.size,
        .line = obj->attr->cache.linesize,
        .count = 1,
    };

    for (size_t i = 0; i < *n; i++) {
        if (group_cmp(&(*groups)[i], &g) == 0) {
            (*groups)[i].count++;
            return;
        }
    }
    BH_PUSH(*groups, *n, *cap, g);
}

/* Adds "caches" to root: an array of {level, type, size_bytes, line_bytes,
 * count} sorted by level and type; empty when topo is NULL or hwloc found
 * no caches. Never fails. */
void bh_sysinfo_add_caches(cJSON *root, hwloc_topology_t topo)
{
    cJSON *arr = cJSON_AddArrayToObject(root, "caches");
    cache_group *groups = NULL;
    size_t n = 0;
    size_t cap = 0;

    if (!arr || !topo)
        return;
    for (int t = HWLOC_OBJ_TYPE_MIN; t < HWLOC_OBJ_TYPE_MAX; t++) {
        hwloc_obj_t obj = NULL;

        if (!hwloc_obj_type_is_cache((hwloc_obj_type_t)t))
            continue;
        while ((obj = hwloc_get_next_obj_by_type(topo, (hwloc_obj_type_t)t, obj)))
            count_cache(&groups, &n, &cap, obj);
    }
    if (n > 1)
        qsort(groups, n, sizeof(*groups), group_cmp);
    for (size_t i = 0; i < n; i++) {
        cJSON *c = cJSON_CreateObject();

        if (!c)
            break;
        cJSON_AddNumberToObject(c, "level", groups[i].level);
        cJSON_AddStringToObject(c, "type", type_names[groups[i].type_rank]);
        cJSON_AddNumberToObject(c, "size_bytes", (double)groups[i].size);
        cJSON_AddNumberToObject(c, "line_bytes", groups[i].line);
        cJSON_AddNumberToObject(c, "count", groups[i].count);
        cJSON_AddItemToArray(arr, c);
    }
    free(groups);
}
