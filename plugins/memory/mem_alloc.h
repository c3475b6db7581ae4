// SPDX-License-Identifier: MIT
/*
 * mem_alloc.h -- one allocator as the benchmarks call it: a loaded library
 * (mem_lib.h) or the plugin's own pool or arena, one of those per thread.
 * mem_alloc_get/mem_alloc_put are the calls inside the timed loops (a
 * switch on the kind, then the allocator's own call). No bhost dependency.
 */
#ifndef MEM_ALLOC_H
#define MEM_ALLOC_H

#include "mem_arena.h"
#include "mem_lib.h"
#include "mem_pool.h"

#define MEM_MAX_THREADS 64

typedef struct mem_alloc {
    mem_lib lib;
    unsigned threads;
    unsigned reserved;
    size_t pool_size;  /* block size of the pools (MEM_LIB_POOL) */
    mem_pool *pools;   /* [threads] for MEM_LIB_POOL */
    mem_arena *arenas; /* [threads] for MEM_LIB_ARENA */
} mem_alloc;

/* Sets a up over an opened library for `threads` (1..MEM_MAX_THREADS)
 * threads; pool_size is the one size a pool serves (0 when the kind is
 * not MEM_LIB_POOL). -1 when memory runs out or pool_size is 0 for a
 * pool. */
int mem_alloc_init(mem_alloc *a, const mem_lib *lib, unsigned threads, size_t pool_size);

/* Releases the pools and arenas (their blocks become invalid). */
void mem_alloc_fini(mem_alloc *a);

/* A block of n bytes for thread t, or NULL. A pool serves only its size:
 * another n gives NULL. */
static inline void *mem_alloc_get(mem_alloc *a, unsigned t, size_t n)
{
    switch (a->lib.kind) {
    case MEM_LIB_POOL:
        return n <= a->pool_size ? mem_pool_alloc(&a->pools[t]) : (void *)0;
    case MEM_LIB_ARENA:
        return mem_arena_alloc(&a->arenas[t], n);
    default:
        return a->lib.malloc_fn(n);
    }
}

/* Frees block p of n bytes that thread t got from mem_alloc_get. */
static inline void mem_alloc_put(mem_alloc *a, unsigned t, void *p, size_t n)
{
    switch (a->lib.kind) {
    case MEM_LIB_POOL:
        mem_pool_free(&a->pools[t], p);
        break;
    case MEM_LIB_ARENA:
        mem_arena_free(&a->arenas[t], p, n);
        break;
    default:
        a->lib.free_fn(p);
    }
}

#endif /* MEM_ALLOC_H */
