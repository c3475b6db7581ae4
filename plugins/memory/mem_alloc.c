// SPDX-License-Identifier: MIT
/*
 * mem_alloc.c -- the per-thread pools and arenas of an allocator handle
 * (mem_alloc.h).
 */
#include "mem_alloc.h"

#include <stdlib.h>
#include <string.h>

int mem_alloc_init(mem_alloc *a, const mem_lib *lib, unsigned threads, size_t pool_size)
{
    memset(a, 0, sizeof(*a));
    a->lib = *lib;
    a->threads = threads;
    a->pool_size = pool_size;
    if (threads < 1 || threads > MEM_MAX_THREADS)
        return -1;
    if (lib->kind == MEM_LIB_POOL) {
        a->pools = calloc(threads, sizeof(*a->pools));
        if (a->pools == NULL)
            return -1;
        for (unsigned t = 0; t < threads; t++)
            if (mem_pool_init(&a->pools[t], pool_size, 0) != 0)
                return -1;
    } else if (lib->kind == MEM_LIB_ARENA) {
        a->arenas = calloc(threads, sizeof(*a->arenas));
        if (a->arenas == NULL)
            return -1;
        for (unsigned t = 0; t < threads; t++)
            mem_arena_init(&a->arenas[t]);
    }
    return 0;
}

void mem_alloc_fini(mem_alloc *a)
{
    for (unsigned t = 0; a->pools != NULL && t < a->threads; t++)
        mem_pool_fini(&a->pools[t]);
    for (unsigned t = 0; a->arenas != NULL && t < a->threads; t++)
        mem_arena_fini(&a->arenas[t]);
    free(a->pools);
    free(a->arenas);
    a->pools = NULL;
    a->arenas = NULL;
}
