// SPDX-License-Identifier: MIT
/*
 * cpu_topo.c -- the CPU backend's devices, from hwloc: by default one
 * device for the whole machine (the CPUs this process may run on); with
 * BHOST_CPU_DEVICES=numa one device per NUMA node that has CPUs. The
 * thread count of a device is BHOST_CPU_THREADS when set, else its CPUs.
 * Memory of a NUMA-node device is bound to its node with
 * hwloc_alloc_membind; where binding is not possible (no NUMA support in
 * the kernel, small buffers) and for the whole-machine device it is
 * 64-byte aligned heap memory placed by first touch (binding one buffer
 * to every node would pile it onto the first node).
 */
#include "backend_cpu.h"

#include <errno.h>
#include <hwloc.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Buffers smaller than this come from the heap: a bound mapping costs a
 * page and a system call each. */
#define BIND_MIN_BYTES ((size_t)64 << 10)

typedef struct topo_dev {
    hwloc_bitmap_t cpuset;  /* CPUs of the device (and of this process) */
    hwloc_bitmap_t nodeset; /* its NUMA nodes */
    bh_cpu_dev_desc desc;
} topo_dev;

static struct {
    int state; /* 0 not loaded, 1 loaded */
    bhost_status status;     /* of the load: BHOST_OK or an env error */
    char error[256];
    hwloc_topology_t topo;   /* NULL when hwloc failed: heap fallback */
    uint32_t count;
    topo_dev devs[BH_CPU_MAX_DEVICES];
} g;

/* Parses BHOST_CPU_THREADS: 0 when unset or empty, -1 when invalid. */
static long env_threads(void)
{
    const char *v = getenv("BHOST_CPU_THREADS");
    char *end = NULL;
    long n;

    if (v == NULL || *v == '\0')
        return 0;
    n = strtol(v, &end, 10);
    if (end == v || *end != '\0' || n < 1 || n > 1024)
        return -1;
    return n;
}

/* CPUs this process may run on, within set (in place). */
static void restrict_to_process(hwloc_bitmap_t set)
{
    hwloc_bitmap_t mine = hwloc_bitmap_alloc();

    if (mine != NULL && hwloc_get_cpubind(g.topo, mine, HWLOC_CPUBIND_PROCESS) == 0 &&
        hwloc_bitmap_intersects(mine, set))
        hwloc_bitmap_and(set, set, mine);
    hwloc_bitmap_free(mine);
}

/* Adds device i for the CPUs and nodes given (copied), labelled node
 * (-1 = the machine). */
static void add_dev(hwloc_const_bitmap_t cpus, hwloc_const_bitmap_t nodes,
                    int node, uint64_t mem, long threads)
{
    topo_dev *d = &g.devs[g.count];
    int pus;

    d->cpuset = hwloc_bitmap_dup(cpus);
    d->nodeset = hwloc_bitmap_dup(nodes);
    if (d->cpuset == NULL || d->nodeset == NULL) {
        hwloc_bitmap_free(d->cpuset);
        hwloc_bitmap_free(d->nodeset);
        return;
    }
    restrict_to_process(d->cpuset);
    pus = hwloc_bitmap_weight(d->cpuset);
    d->desc.numa_node = node;
    d->desc.cpus = pus > 0 ? (uint32_t)pus : 1;
    d->desc.threads = threads > 0 ? (uint32_t)threads : d->desc.cpus;
    d->desc.mem_bytes = mem;
    g.count++;
}

/* One device per NUMA node with CPUs; none when the topology has none. */
static void add_numa_devs(long threads)
{
    int n = hwloc_get_nbobjs_by_type(g.topo, HWLOC_OBJ_NUMANODE);

    for (int i = 0; i < n && g.count < BH_CPU_MAX_DEVICES; i++) {
        hwloc_obj_t o = hwloc_get_obj_by_type(g.topo, HWLOC_OBJ_NUMANODE, i);

        if (o == NULL || o->cpuset == NULL || hwloc_bitmap_iszero(o->cpuset))
            continue; /* memory-only node: nothing to compute with */
        add_dev(o->cpuset, o->nodeset, (int)o->os_index, o->attr->numanode.local_memory,
                threads);
    }
}

/* The heap-only fallback device when hwloc cannot load a topology. */
static void add_fallback(long threads)
{
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    topo_dev *d = &g.devs[0];

    memset(d, 0, sizeof(*d));
    d->desc.numa_node = -1;
    d->desc.cpus = cpus > 0 ? (uint32_t)cpus : 1;
    d->desc.threads = threads > 0 ? (uint32_t)threads : d->desc.cpus;
    d->desc.mem_bytes = pages > 0 && page > 0 ? (uint64_t)pages * (uint64_t)page : 0;
    g.count = 1;
}

bhost_status bh_cpu_topo_load(void)
{
    const char *mode = getenv("BHOST_CPU_DEVICES");
    long threads = env_threads();
    int numa;

    if (g.state)
        return g.status;
    g.state = 1;
    g.status = BHOST_OK;
    if (mode != NULL && *mode != '\0' && strcmp(mode, "machine") != 0 &&
        strcmp(mode, "numa") != 0) {
        snprintf(g.error, sizeof(g.error),
                 "BHOST_CPU_DEVICES='%.64s': expected 'machine' (default) or 'numa'",
                 mode);
        g.status = BHOST_E_INVALID;
        return g.status;
    }
    if (threads < 0) {
        snprintf(g.error, sizeof(g.error),
                 "BHOST_CPU_THREADS='%.64s': expected a thread count 1..1024",
                 getenv("BHOST_CPU_THREADS"));
        g.status = BHOST_E_INVALID;
        return g.status;
    }
    numa = mode != NULL && strcmp(mode, "numa") == 0;
    if (hwloc_topology_init(&g.topo) != 0) {
        g.topo = NULL;
    } else if (hwloc_topology_load(g.topo) != 0) {
        hwloc_topology_destroy(g.topo);
        g.topo = NULL;
    }
    if (g.topo == NULL) {
        add_fallback(threads);
        return BHOST_OK;
    }
    if (numa)
        add_numa_devs(threads);
    if (g.count == 0) {
        /* The machine: the larger of hwloc's and the kernel's memory
         * figure (some VMs add memory outside the NUMA nodes). */
        uint64_t mem = hwloc_get_root_obj(g.topo)->total_memory;
        long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);

        if (pages > 0 && page > 0 && (uint64_t)pages * (uint64_t)page > mem)
            mem = (uint64_t)pages * (uint64_t)page;
        add_dev(hwloc_topology_get_allowed_cpuset(g.topo),
                hwloc_topology_get_allowed_nodeset(g.topo), -1, mem, threads);
    }
    if (g.count == 0)
        add_fallback(threads);
    return BHOST_OK;
}

const char *bh_cpu_topo_error(void)
{
    return g.error;
}

uint32_t bh_cpu_topo_count(void)
{
    return g.count;
}

const bh_cpu_dev_desc *bh_cpu_topo_desc(uint32_t index)
{
    return index < g.count ? &g.devs[index].desc : NULL;
}

int bh_cpu_topo_bind(uint32_t index)
{
    const topo_dev *d = index < g.count ? &g.devs[index] : NULL;

    if (d == NULL || d->desc.numa_node < 0 || g.topo == NULL)
        return 0;
    return hwloc_set_cpubind(g.topo, d->cpuset, HWLOC_CPUBIND_PROCESS) == 0 ? 0 : -1;
}

void *bh_cpu_topo_alloc(uint32_t index, size_t bytes, int *bound)
{
    const topo_dev *d = index < g.count ? &g.devs[index] : NULL;
    void *p = NULL;

    *bound = 0;
    if (d != NULL && g.topo != NULL && d->desc.numa_node >= 0 &&
        bytes >= BIND_MIN_BYTES) {
        p = hwloc_alloc_membind(g.topo, bytes, d->nodeset, HWLOC_MEMBIND_BIND,
                                HWLOC_MEMBIND_BYNODESET);
        if (p != NULL) {
            *bound = 1;
            return p; /* page aligned */
        }
    }
    if (posix_memalign(&p, BH_CPU_ALIGN, bytes) != 0)
        return NULL;
    return p;
}

void bh_cpu_topo_free(void *p, size_t bytes, int bound)
{
    if (p == NULL)
        return;
    if (bound && g.topo != NULL)
        hwloc_free(g.topo, p, bytes);
    else
        free(p);
}

void bh_cpu_topo_unload(void)
{
    for (uint32_t i = 0; i < g.count; i++) {
        hwloc_bitmap_free(g.devs[i].cpuset);
        hwloc_bitmap_free(g.devs[i].nodeset);
    }
    if (g.topo != NULL)
        hwloc_topology_destroy(g.topo);
    memset(&g, 0, sizeof(g));
}
