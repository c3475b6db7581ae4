// SPDX-License-Identifier: MIT
/*
 * wk_alloc.c -- a free-list malloc that lives inside the wasm linear memory
 * (see wk.h). Blocks carry an 8-byte tag {prev_size, size|flags} in front
 * of a 16-byte aligned payload; free blocks hold {next, prev} offsets in
 * their payload and sit in one of 28 power-of-two bins; free() coalesces
 * with both neighbours at once. A sentinel tag (size 0, in use) ends the
 * heap. The heap extends in 64 KiB steps (memory.grow in the wasm build),
 * merging the new space into a trailing free block.
 */
#include "wk.h"

#define INUSE 1u
#define PINUSE 2u
#define FLAGS 3u
#define TAG 8u
#define MIN_BLOCK 16u
#define NBINS 28
#define STEP 65536u
#define FIRST 8u /* offset of the first block: payload at 16 */
#define SLOTS 64

static uint8_t *hb;       /* heap start, 16-byte aligned */
static uint32_t hsize;    /* heap bytes in use by blocks + sentinel */
static uint32_t bins[NBINS];
static uint32_t stats[7];
static int ready;
static uint32_t slot_off[SLOTS], slot_size[SLOTS];
static uint32_t rng = 1;

#ifndef __wasm__
static uint32_t arena_cap;
#endif

/* 32-bit field at heap offset off. */
static uint32_t *at(uint32_t off)
{
    return (uint32_t *)(void *)(hb + off);
}

static uint32_t size_of(uint32_t b) { return *at(b + 4) & ~FLAGS; }
static uint32_t flags_of(uint32_t b) { return *at(b + 4) & FLAGS; }
static uint32_t *next_link(uint32_t b) { return at(b + TAG); }
static uint32_t *prev_link(uint32_t b) { return at(b + TAG + 4); }

/* Bin of a free block of size s (>= 16). */
static uint32_t bin_of(uint32_t s)
{
    uint32_t i = 0;

    while (s >= 32u && i < NBINS - 1) {
        s >>= 1;
        i++;
    }
    return i;
}

static void bin_insert(uint32_t b)
{
    uint32_t i = bin_of(size_of(b));

    *next_link(b) = bins[i];
    *prev_link(b) = 0;
    if (bins[i])
        *prev_link(bins[i]) = b;
    bins[i] = b;
}

static void bin_remove(uint32_t b)
{
    uint32_t n = *next_link(b), p = *prev_link(b);

    if (p)
        *next_link(p) = n;
    else
        bins[bin_of(size_of(b))] = n;
    if (n)
        *prev_link(n) = p;
}

/* Writes the tag of block b and, for a free block, the prev_size of the
 * block after it (clearing its PINUSE); for a used one, sets its PINUSE. */
static void set_block(uint32_t b, uint32_t size, uint32_t flags)
{
    uint32_t nb = b + size;

    *at(b + 4) = size | flags;
    if (flags & INUSE) {
        *at(nb + 4) |= PINUSE;
    } else {
        *at(nb) = size;
        *at(nb + 4) &= ~PINUSE;
    }
}

/* Makes room for `bytes` more heap bytes (a multiple of STEP). */
static int extend_memory(uint32_t bytes)
{
#ifdef __wasm__
    uint32_t have = (uint32_t)__builtin_wasm_memory_size(0) * STEP -
                    (uint32_t)(size_t)hb;
    uint32_t want = hsize + bytes;

    if (want < hsize)
        return -1;
    if (want > have) {
        uint32_t pages = (want - have + STEP - 1) / STEP;

        if (__builtin_wasm_memory_grow(0, pages) == (size_t)-1)
            return -1;
    }
    return 0;
#else
    return hsize + bytes < hsize || hsize + bytes > arena_cap ? -1 : 0;
#endif
}

/* Sets up an empty heap: one sentinel. */
static void init_heap(void)
{
#ifdef __wasm__
    extern unsigned char __heap_base;
    uint32_t base = (uint32_t)(size_t)&__heap_base;

    hb = (uint8_t *)(size_t)((base + STEP - 1) & ~(STEP - 1));
#endif
    for (int i = 0; i < NBINS; i++)
        bins[i] = 0;
    for (int i = 0; i < 7; i++)
        stats[i] = 0;
    for (int i = 0; i < SLOTS; i++)
        slot_off[i] = slot_size[i] = 0;
    hsize = 0;
    ready = 1;
}

/* Adds at least `need` bytes of free space at the end of the heap. */
static int extend(uint32_t need)
{
    /* room for the block, the first block's offset and the sentinel */
    uint32_t bytes = (need + FIRST + TAG + STEP - 1) / STEP * STEP;
    uint32_t b, size, pflag;

    if (bytes == 0 || extend_memory(bytes) != 0)
        return -1;
    stats[5]++;
    if (hsize == 0) {
        /* first block at FIRST, sentinel in the last 8 bytes */
        b = FIRST;
        size = bytes - FIRST - TAG;
        pflag = PINUSE;
    } else {
        b = hsize - TAG; /* the old sentinel becomes the new block */
        size = bytes;
        pflag = flags_of(b) & PINUSE;
        if (!pflag) {
            uint32_t pb = b - *at(b);

            bin_remove(pb);
            size += size_of(pb);
            b = pb;
            pflag = PINUSE;
        }
    }
    hsize += bytes;
    *at(hsize - TAG + 4) = INUSE; /* sentinel: size 0 */
    set_block(b, size, pflag);
    bin_insert(b);
    stats[1] += bytes - (hsize == bytes ? FIRST + TAG : 0);
    stats[4] = hsize;
    return 0;
}

/* First block of at least need bytes from the bins, or 0. */
static uint32_t find(uint32_t need)
{
    for (uint32_t i = bin_of(need); i < NBINS; i++)
        for (uint32_t b = bins[i]; b; b = *next_link(b))
            if (size_of(b) >= need)
                return b;
    return 0;
}

WK_EXPORT(wk_malloc)
void *wk_malloc(uint32_t size)
{
    uint32_t need, b, bs;

    if (!ready)
        init_heap();
    if (size > 0x7fff0000u) {
        stats[6]++;
        return (void *)0;
    }
    need = (size + TAG + 15u) & ~15u;
    if (need < MIN_BLOCK)
        need = MIN_BLOCK;
    b = find(need);
    if (!b) {
        if (extend(need) != 0 || (b = find(need)) == 0) {
            stats[6]++;
            return (void *)0;
        }
    }
    bin_remove(b);
    bs = size_of(b);
    if (bs - need >= MIN_BLOCK) {
        set_block(b, need, INUSE | (flags_of(b) & PINUSE));
        set_block(b + need, bs - need, PINUSE);
        bin_insert(b + need);
    } else {
        need = bs;
        set_block(b, bs, INUSE | (flags_of(b) & PINUSE));
    }
    stats[0] += need;
    stats[1] -= need;
    stats[2]++;
    return hb + b + TAG;
}

WK_EXPORT(wk_free)
void wk_free(void *p)
{
    uint32_t b, bs, nb;

    if (!p)
        return;
    b = (uint32_t)((uint8_t *)p - hb) - TAG;
    bs = size_of(b);
    stats[0] -= bs;
    stats[1] += bs;
    stats[2]--;
    nb = b + bs;
    if (!(flags_of(nb) & INUSE)) {
        bin_remove(nb);
        bs += size_of(nb);
    }
    if (!(flags_of(b) & PINUSE)) {
        uint32_t pb = b - *at(b);

        bin_remove(pb);
        bs += size_of(pb);
        b = pb;
    }
    set_block(b, bs, PINUSE);
    bin_insert(b);
}

/* Walks the blocks: returns the first failed check or 0; counts free
 * blocks and bytes. */
static uint32_t check_blocks(uint32_t *nfree, uint32_t *free_bytes)
{
    uint32_t b = FIRST, prev_used = 1, used_bytes = 0, used = 0;

    *nfree = *free_bytes = 0;
    for (;;) {
        uint32_t s = size_of(b), f = flags_of(b);

        if (((f & PINUSE) != 0) != (prev_used != 0))
            return 1;
        if (s == 0)
            break;
        if ((s & 15u) != 0 || s < MIN_BLOCK || b + s > hsize - TAG)
            return 2;
        if (f & INUSE) {
            used++;
            used_bytes += s;
        } else {
            if (!prev_used)
                return 3; /* two free neighbours: not coalesced */
            if (*at(b + s) != s)
                return 4;
            (*nfree)++;
            *free_bytes += s;
        }
        prev_used = f & INUSE;
        b += s;
    }
    if (b != hsize - TAG || !(flags_of(b) & INUSE))
        return 5;
    if (used != stats[2] || used_bytes != stats[0])
        return 6;
    return 0;
}

WK_EXPORT(wk_heap_check)
uint32_t wk_heap_check(void)
{
    uint32_t nfree, free_bytes, seen = 0, r;

    if (!ready || hsize == 0)
        return 0;
    r = check_blocks(&nfree, &free_bytes);
    if (r)
        return r;
    if (free_bytes != stats[1])
        return 7;
    for (uint32_t i = 0; i < NBINS; i++) {
        uint32_t prev = 0;

        for (uint32_t b = bins[i]; b; b = *next_link(b)) {
            if (b < FIRST || b >= hsize - TAG || (b & 15u) != FIRST)
                return 8;
            if (flags_of(b) & INUSE)
                return 9;
            if (bin_of(size_of(b)) != i)
                return 10;
            if (*prev_link(b) != prev)
                return 11;
            if (++seen > nfree)
                return 12;
            prev = b;
        }
    }
    return seen == nfree ? 0 : 12;
}

WK_EXPORT(wk_heap_stat)
uint32_t wk_heap_stat(uint32_t which)
{
    if (!ready)
        init_heap();
    if (which == 3) {
        uint32_t n = 0;

        for (uint32_t i = 0; i < NBINS; i++)
            for (uint32_t b = bins[i]; b; b = *next_link(b))
                n++;
        return n;
    }
    return which < 7 ? stats[which] : 0;
}

/* Next value of the churn stream (xorshift32). */
static uint32_t next_rand(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 17;
    rng ^= rng << 5;
    return rng;
}

WK_EXPORT(wk_churn)
uint32_t wk_churn(uint32_t ops, uint32_t max_size)
{
    uint32_t hash = 2166136261u, bad = 0;

    if (!ready)
        init_heap();
    if (max_size == 0)
        max_size = 1;
    for (uint32_t i = 0; i < ops; i++) {
        uint32_t s = next_rand() % SLOTS;

        if (slot_off[s]) {
            uint8_t *p = hb + slot_off[s];
            uint8_t tag = (uint8_t)(s * 7u + slot_size[s]);

            if (p[0] != tag || p[slot_size[s] - 1] != tag)
                bad = 1;
            wk_free(p);
            slot_off[s] = 0;
        } else {
            uint32_t size = 1 + next_rand() % max_size;
            uint8_t *p = wk_malloc(size);
            uint8_t tag = (uint8_t)(s * 7u + size);

            if (!p)
                continue;
            p[0] = tag;
            p[size - 1] = tag;
            slot_off[s] = (uint32_t)(p - hb);
            slot_size[s] = size;
            hash = (hash ^ slot_off[s]) * 16777619u;
        }
    }
    return bad ? 0xffffffffu : hash;
}

WK_EXPORT(wk_churn_reset)
void wk_churn_reset(uint32_t seed)
{
    if (!ready)
        init_heap();
    for (int i = 0; i < SLOTS; i++) {
        if (slot_off[i])
            wk_free(hb + slot_off[i]);
        slot_off[i] = slot_size[i] = 0;
    }
    rng = seed ? seed : 1;
}

#ifndef __wasm__
void wk_heap_native(void *base, uint32_t cap)
{
    hb = base;
    arena_cap = cap & ~(STEP - 1);
    init_heap();
}
#endif
