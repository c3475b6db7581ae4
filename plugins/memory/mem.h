// SPDX-License-Identifier: MIT
/*
 * mem.h -- internal interface of the memory plugin (memory.so).
 *
 * Benchmarks:
 *   alloc.latency     malloc + free of one size, back to back, per thread
 *                     (bench_alloc.c)
 *   alloc.throughput  a batch of blocks allocated, then freed in a seeded
 *                     order, per thread (bench_alloc.c)
 *   frag.replay       a tensor-allocation trace replayed: peak RSS over
 *                     peak live bytes, and time per replay (bench_frag.c)
 *   touch.first       first touch of fresh anonymous memory, 4 KiB pages
 *                     or transparent huge pages (bench_touch.c)
 * Allocators (mem_lib.h): glibc, jemalloc, mimalloc, tcmalloc, and the
 * plugin's own pool (mem_pool.h) and arena (mem_arena.h). Device and
 * pinned host allocation are accel's alloc.latency on each backend
 * (configs/memory.yaml), not repeated here.
 */
#ifndef BH_MEM_H
#define BH_MEM_H

#include <bhost/plugin.h>

#include "bh_plugin.h"
#include "mem_alloc.h"

extern const bhost_host_api *bh_mem_api;

#define MEM_PREFIX "memory: "

/* The parameters every allocator benchmark has. */
#define MEM_PARAM_ALLOCATOR                                                                        \
    BH_PARAM_STR("allocator", "glibc, jemalloc, mimalloc, tcmalloc, pool or arena", "glibc",       \
                 mem_lib_names)
#define MEM_PARAM_LIBRARY                                                                          \
    BH_PARAM_STR("library", "File to load instead of the allocator's Debian soname", "", NULL)

/* Formats MEM_PREFIX + message, set_error(h) and returns st. */
bhost_status mem_fail(bhost_host *h, bhost_status st, const char *fmt, ...) BH_PRINTF(3, 4);

/* Accounted host memory (64-byte aligned, zeroed), NULL after set_error. */
void *mem_zalloc(bhost_host *h, uint64_t bytes);
void mem_free(bhost_host *h, void *p);

/* Reads allocator and library, opens the allocator into a for threads
 * threads (pool_size: the pool's one block size) and logs which library
 * and version it is. BHOST_E_SKIP naming the Debian package when the
 * library is not installed, BHOST_E_UNSUPPORTED when it cannot be loaded
 * here, BHOST_E_INVALID when it lacks its entry points. [instance] */
bhost_status mem_open(bhost_host *h, mem_alloc *a, unsigned threads, size_t pool_size);

/* Reports allocator.version (informational: major * 10000 + minor * 100
 * + patch; 0 for the plugin's own). [instance] */
bhost_status mem_report_allocator(bhost_host *h, const mem_alloc *a);

/* The work profile of a benchmark with no memory stream (allocation is
 * not traffic) on `threads` threads. */
bhost_status mem_profile_none(bhost_work_profile *out, unsigned threads);

extern const bhost_bench_desc bh_mem_alloc_latency;
extern const bhost_bench_desc bh_mem_alloc_throughput;
extern const bhost_bench_desc bh_mem_frag;
extern const bhost_bench_desc bh_mem_touch;

#endif /* BH_MEM_H */
