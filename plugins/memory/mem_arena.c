// SPDX-License-Identifier: MIT
/*
 * mem_arena.c -- the size-class arena (mem_arena.h): class arithmetic,
 * per-class pools created on first use, huge blocks mapped whole.
 */
#include "mem_arena.h"

#include <string.h>
#include <sys/mman.h>

#define SMALL_MAX     128u /* classes are multiples of 16 up to here */
#define SMALL_CLASSES 8u   /* 16, 32, ..., 128 */
#define HUGE_MAX      ((size_t)1 << 40)

/* floor(log2(x)) for x >= 1. */
static unsigned log2_floor(size_t x)
{
    return (unsigned)(sizeof(unsigned long long) * 8 - 1) - (unsigned)__builtin_clzll(x);
}

int mem_arena_class(size_t n, size_t *size)
{
    unsigned k;
    size_t step, j;

    if (n == 0 || n > MEM_ARENA_MAX_CLASS)
        return -1;
    if (n <= SMALL_MAX) {
        if (size != NULL)
            *size = (n + 15) & ~(size_t)15;
        return (int)((n + 15) / 16 - 1);
    }
    k = log2_floor(n - 1); /* 2^k < n <= 2^(k+1), k >= 7 */
    step = (size_t)1 << (k - 2);
    j = (n - ((size_t)1 << k) + step - 1) / step; /* 1..4 */
    if (size != NULL)
        *size = ((size_t)1 << k) + j * step;
    return (int)(SMALL_CLASSES + (k - 7) * 4 + (j - 1));
}

void mem_arena_init(mem_arena *a)
{
    memset(a, 0, sizeof(*a));
}

/* A page-rounded mapping of n bytes, or NULL. */
static void *map_huge(mem_arena *a, size_t n)
{
    void *m = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

    if (m == MAP_FAILED)
        return NULL;
    a->huge_mapped += n;
    return m;
}

void *mem_arena_alloc(mem_arena *a, size_t n)
{
    size_t size;
    int c = mem_arena_class(n, &size);
    mem_pool *p;

    if (c < 0)
        return n > MEM_ARENA_MAX_CLASS && n <= HUGE_MAX ? map_huge(a, n) : NULL;
    p = &a->pool[c];
    if (p->block == 0 && mem_pool_init(p, size, 0) != 0)
        return NULL;
    return mem_pool_alloc(p);
}

void mem_arena_free(mem_arena *a, void *p, size_t n)
{
    int c;

    if (p == NULL)
        return;
    c = mem_arena_class(n, NULL);
    if (c < 0) {
        munmap(p, n);
        a->huge_mapped -= n;
        return;
    }
    mem_pool_free(&a->pool[c], p);
}

size_t mem_arena_mapped(const mem_arena *a)
{
    size_t total = a->huge_mapped;

    for (unsigned c = 0; c < MEM_ARENA_CLASSES; c++)
        total += a->pool[c].mapped;
    return total;
}

void mem_arena_fini(mem_arena *a)
{
    for (unsigned c = 0; c < MEM_ARENA_CLASSES; c++)
        if (a->pool[c].block != 0)
            mem_pool_fini(&a->pool[c]);
    memset(a, 0, sizeof(*a));
}
