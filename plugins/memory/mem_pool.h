// SPDX-License-Identifier: MIT
/*
 * mem_pool.h -- the memory plugin's fixed-size pool: blocks of one size
 * carved from page-aligned slabs (mmap), recycled through an intrusive
 * free list (last freed, first reused). No locking: one pool per thread.
 * No bhost dependency, so tests/ unit-test it alone.
 */
#ifndef MEM_POOL_H
#define MEM_POOL_H

#include <stddef.h>
#include <stdint.h>

/* Blocks are aligned to this (and to their own size up to a page when the
 * size is a power of two of at least MEM_POOL_ALIGN). */
#define MEM_POOL_ALIGN 16u

typedef struct mem_pool_slab mem_pool_slab;

typedef struct mem_pool {
    size_t block;         /* bytes per block: the size asked, rounded up */
    size_t slab_bytes;    /* bytes of each slab */
    void *free_list;      /* freed blocks, linked through their first word */
    char *bump, *end;     /* the uncarved rest of the newest slab */
    mem_pool_slab *slabs; /* every slab, newest first */
    size_t live;          /* blocks handed out and not freed */
    size_t mapped;        /* bytes of all slabs */
} mem_pool;

/* Sets up p for blocks of `size` bytes (1 .. 2^40): slabs of at least
 * min_slab bytes (0: 256 KiB), one block at least. -1 for a size out of
 * range, else 0. Nothing is mapped yet. */
int mem_pool_init(mem_pool *p, size_t size, size_t min_slab);

/* A block of p->block bytes, or NULL when no slab could be mapped. */
void *mem_pool_alloc(mem_pool *p);

/* Returns block b (from mem_pool_alloc of p; NULL is ignored). */
void mem_pool_free(mem_pool *p, void *b);

/* Unmaps every slab; p may be initialised again. Blocks still live become
 * invalid. */
void mem_pool_fini(mem_pool *p);

#endif /* MEM_POOL_H */
