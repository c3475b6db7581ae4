// SPDX-License-Identifier: MIT
/*
 * mem_arena.h -- the memory plugin's size-class arena: requests up to
 * 64 MiB are rounded to a size class (multiples of 16 up to 128 B, then
 * four classes per doubling, at most 25% above the request) and served by
 * that class's fixed-size pool (mem_pool.h); larger ones are mapped and
 * unmapped whole. Frees are sized (the caller passes the size it asked
 * for, as C23's free_sized), so blocks carry no header. No locking: one
 * arena per thread. No bhost dependency.
 */
#ifndef MEM_ARENA_H
#define MEM_ARENA_H

#include "mem_pool.h"

#define MEM_ARENA_CLASSES   84
#define MEM_ARENA_MAX_CLASS ((size_t)64 << 20)

typedef struct mem_arena {
    mem_pool pool[MEM_ARENA_CLASSES]; /* block 0 = not yet initialised */
    size_t huge_mapped;               /* bytes of live blocks above 64 MiB */
} mem_arena;

/* The size class of a request of n bytes (1 .. 64 MiB): its index in
 * [0, MEM_ARENA_CLASSES) and, in *size when not NULL, its block size; -1
 * for 0 or a larger n. */
int mem_arena_class(size_t n, size_t *size);

/* An empty arena. */
void mem_arena_init(mem_arena *a);

/* A block of at least n bytes (1 .. 2^40), 16-byte aligned (page-aligned
 * above 64 MiB); NULL for n out of range or when memory could not be
 * mapped. */
void *mem_arena_alloc(mem_arena *a, size_t n);

/* Returns block p, allocated from a with the same n; NULL is ignored. */
void mem_arena_free(mem_arena *a, void *p, size_t n);

/* Bytes the arena holds mapped (every pool's slabs and the huge blocks). */
size_t mem_arena_mapped(const mem_arena *a);

/* Unmaps everything; a may be initialised again. */
void mem_arena_fini(mem_arena *a);

#endif /* MEM_ARENA_H */
