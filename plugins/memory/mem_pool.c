// SPDX-License-Identifier: MIT
/*
 * mem_pool.c -- the fixed-size pool (mem_pool.h): slabs from mmap, a bump
 * pointer through the newest slab, an intrusive LIFO free list.
 */
#include "mem_pool.h"

#include <sys/mman.h>
#include <unistd.h>

/* The header at the start of each slab. */
struct mem_pool_slab {
    mem_pool_slab *next;
    size_t bytes;
};

#define MEM_POOL_MAX_BLOCK    ((size_t)1 << 40)
#define MEM_POOL_DEFAULT_SLAB ((size_t)256 << 10)

/* x rounded up to a multiple of the power of two a. */
static size_t round_up(size_t x, size_t a)
{
    return (x + a - 1) & ~(a - 1);
}

/* The alignment of blocks of `block` bytes: their largest power-of-two
 * divisor, between MEM_POOL_ALIGN and the page size. */
static size_t block_align(size_t block)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    size_t a = block & (~block + 1);

    if (a < MEM_POOL_ALIGN)
        a = MEM_POOL_ALIGN;
    return a > page ? page : a;
}

int mem_pool_init(mem_pool *p, size_t size, size_t min_slab)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    size_t head;

    if (size == 0 || size > MEM_POOL_MAX_BLOCK)
        return -1;
    p->block = round_up(size, MEM_POOL_ALIGN);
    head = round_up(sizeof(mem_pool_slab), block_align(p->block));
    if (min_slab == 0)
        min_slab = MEM_POOL_DEFAULT_SLAB;
    p->slab_bytes = round_up(head + (p->block > min_slab ? p->block : min_slab), page);
    p->free_list = NULL;
    p->bump = p->end = NULL;
    p->slabs = NULL;
    p->live = 0;
    p->mapped = 0;
    return 0;
}

/* Maps a new slab and points the bump range at its blocks; -1 when mmap
 * fails. */
static int add_slab(mem_pool *p)
{
    void *m = mmap(NULL, p->slab_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    mem_pool_slab *s = m;
    size_t head = round_up(sizeof(mem_pool_slab), block_align(p->block));

    if (m == MAP_FAILED)
        return -1;
    s->next = p->slabs;
    s->bytes = p->slab_bytes;
    p->slabs = s;
    p->mapped += p->slab_bytes;
    p->bump = (char *)m + head;
    p->end = (char *)m + p->slab_bytes;
    return 0;
}

void *mem_pool_alloc(mem_pool *p)
{
    void *b = p->free_list;

    if (b != NULL) {
        p->free_list = *(void **)b;
    } else {
        if ((size_t)(p->end - p->bump) < p->block && add_slab(p) != 0)
            return NULL;
        b = p->bump;
        p->bump += p->block;
    }
    p->live++;
    return b;
}

void mem_pool_free(mem_pool *p, void *b)
{
    if (b == NULL)
        return;
    *(void **)b = p->free_list;
    p->free_list = b;
    p->live--;
}

void mem_pool_fini(mem_pool *p)
{
    mem_pool_slab *s = p->slabs;

    while (s != NULL) {
        mem_pool_slab *next = s->next;

        munmap(s, s->bytes);
        s = next;
    }
    p->slabs = NULL;
    p->free_list = NULL;
    p->bump = p->end = NULL;
    p->live = 0;
    p->mapped = 0;
}
