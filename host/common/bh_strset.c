// SPDX-License-Identifier: MIT
#include "bh_strset.h"

#include "bh_mem.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* FNV-1a of the string. */
static uint64_t hash_str(const char *s)
{
    uint64_t h = 1469598103934665603ull;

    for (; *s; s++) {
        h ^= (unsigned char)*s;
        h *= 1099511628211ull;
    }
    return h;
}

/* The slot of key in s: the one holding an equal key, or the free slot
 * where it goes (linear probing; the table is never full). */
static size_t slot_of(const bh_strset *s, const char *key)
{
    size_t mask = s->cap - 1;
    size_t i = (size_t)hash_str(key) & mask;

    while (s->keys[i] && strcmp(s->keys[i], key) != 0)
        i = (i + 1) & mask;
    return i;
}

/* Doubles the table (16 slots at first), placing every key again. */
static void grow(bh_strset *s)
{
    bh_strset big = {NULL, NULL, s->cap ? 2 * s->cap : 16, s->n};

    big.keys = bh_xcalloc(big.cap, sizeof(*big.keys));
    big.vals = bh_xcalloc(big.cap, sizeof(*big.vals));
    for (size_t i = 0; i < s->cap; i++) {
        if (s->keys[i]) {
            size_t at = slot_of(&big, s->keys[i]);

            big.keys[at] = s->keys[i];
            big.vals[at] = s->vals[i];
        }
    }
    free(s->keys);
    free(s->vals);
    *s = big;
}

int bh_strset_add(bh_strset *s, const char *key, size_t val, size_t *old)
{
    size_t at;

    /* at most half full, so probes stay short */
    if (2 * (s->n + 1) > s->cap)
        grow(s);
    at = slot_of(s, key);
    if (s->keys[at]) {
        if (old)
            *old = s->vals[at];
        return 0;
    }
    s->keys[at] = key;
    s->vals[at] = val;
    s->n++;
    return 1;
}

int bh_strset_get(const bh_strset *s, const char *key, size_t *val)
{
    size_t at;

    if (s->cap == 0)
        return 0;
    at = slot_of(s, key);
    if (!s->keys[at])
        return 0;
    if (val)
        *val = s->vals[at];
    return 1;
}

void bh_strset_free(bh_strset *s)
{
    free(s->keys);
    free(s->vals);
    memset(s, 0, sizeof(*s));
}
