// SPDX-License-Identifier: MIT
/* See roof_levels.h. */
#include "roof_levels.h"

#include <stdio.h>

/* The table entry of level, or NULL. */
static const roof_cache *find_level(const roof_caches *t, unsigned level)
{
    for (unsigned i = 0; i < t->n; i++)
        if (t->c[i].level == level)
            return &t->c[i];
    return NULL;
}

uint64_t roof_level_capacity(const roof_caches *t, unsigned level, unsigned threads)
{
    const roof_cache *c = find_level(t, level);
    unsigned users = threads > 1 ? threads : 1;

    if (c == NULL)
        return 0;
    return c->size_bytes * (users < c->count ? users : c->count);
}

unsigned roof_level_of(const roof_caches *t, uint64_t ws, unsigned threads)
{
    unsigned best = ROOF_DRAM;

    /* The smallest level, not the first entry: the table is ascending, but
     * the rule does not depend on that. */
    for (unsigned i = 0; i < t->n; i++)
        if (ws <= roof_level_capacity(t, t->c[i].level, threads) &&
            (best == ROOF_DRAM || t->c[i].level < best))
            best = t->c[i].level;
    return best;
}

/* The largest capacity among levels below `level` (0 when none). */
static uint64_t capacity_below(const roof_caches *t, unsigned level, unsigned threads)
{
    uint64_t most = 0;

    for (unsigned i = 0; i < t->n; i++) {
        uint64_t c = roof_level_capacity(t, t->c[i].level, threads);

        if (t->c[i].level < level && c > most)
            most = c;
    }
    return most;
}

int roof_level_working_set(const roof_caches *t, unsigned level, unsigned threads, uint64_t *out,
                           char *why, size_t cap)
{
    uint64_t full;
    uint64_t below;

    if (level == ROOF_DRAM) {
        uint64_t last = 0;

        for (unsigned i = 0; i < t->n; i++)
            if (t->c[i].size_bytes * t->c[i].count > last)
                last = t->c[i].size_bytes * t->c[i].count;
        *out = ROOF_DRAM_FACTOR * last;
        if (*out < ROOF_DRAM_MIN_BYTES)
            *out = ROOF_DRAM_MIN_BYTES;
        return 0;
    }
    full = roof_level_capacity(t, level, threads);
    if (full == 0) {
        snprintf(why, cap, "the machine reports no L%u data cache", level);
        return -1;
    }
    below = capacity_below(t, level, threads);
    if (full <= below) {
        snprintf(why, cap,
                 "L%u holds %llu bytes for %u threads, no more than the level below it "
                 "(%llu): no working set lands on L%u",
                 level, (unsigned long long)full, threads, (unsigned long long)below, level);
        return -1;
    }
    /* A level's ceiling is the best bandwidth a working set on it can
     * get, which is at the level's low end: a quarter above the level
     * below's capacity (the few hits left in the level below can only
     * raise the ceiling, never understate it). Half the capacity is the
     * most it takes (room for the stack and the page tables); when half
     * would still fit the level below, the middle of the gap keeps the set
     * off both neighbours. */
    if (full / 2 <= below)
        *out = below + (full - below) / 2;
    else if (below > 0 && below + below / 4 < full / 2)
        *out = below + below / 4;
    else
        *out = full / 2;
    return 0;
}

uint64_t roof_round_working_set(uint64_t ws, unsigned arrays, unsigned threads, size_t *elements)
{
    /* One slice per thread of whole 64-byte lines: 8 doubles. */
    uint64_t grain = 8u * (threads > 0 ? threads : 1);
    uint64_t n = ws / (8u * (arrays > 0 ? arrays : 1));

    n -= n % grain;
    *elements = (size_t)n;
    return n * 8u * arrays;
}
