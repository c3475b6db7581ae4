// SPDX-License-Identifier: MIT
/*
 * tok_map.c -- the two hash maps of libbhtok: byte strings -> int32 (vocab
 * lookups on the encode hot path) and uint64 -> uint64 (merge pairs, trie
 * edges). Open addressing, linear probing, power-of-two tables.
 */
#include "tok_internal.h"

#include <stdlib.h>
#include <string.h>

__extension__ typedef unsigned __int128 u128;

/* Folds a 64x64->128-bit product into 64 bits. */
static uint64_t mix(uint64_t a, uint64_t b)
{
    u128 r = (u128)a * b;
    return (uint64_t)r ^ (uint64_t)(r >> 64);
}

/* Unaligned little-endian 64-bit load. */
static uint64_t load64(const uint8_t *p)
{
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
}

/* A fast non-cryptographic hash of p[0..n) (wyhash-style folding). */
uint64_t bh_tok_hash(const void *p, size_t n)
{
    const uint8_t *s = p;
    uint64_t h = UINT64_C(0x243F6A8885A308D3) ^ (n * UINT64_C(0x9E3779B97F4A7C15));
    size_t i = 0;

    for (; i + 16 <= n; i += 16)
        h = mix(load64(s + i) ^ UINT64_C(0xA0761D6478BD642F) ^ h,
                load64(s + i + 8) ^ UINT64_C(0xE7037ED1A0B428DB));
    uint64_t a = 0, b = 0;
    size_t r = n - i;
    if (r >= 8) {
        a = load64(s + i);
        b = load64(s + n - 8);
    } else if (r >= 4) {
        uint32_t x, y;
        memcpy(&x, s + i, 4);
        memcpy(&y, s + n - 4, 4);
        a = x;
        b = y;
    } else if (r > 0) {
        a = ((uint64_t)s[i] << 16) | ((uint64_t)s[i + r / 2] << 8) | s[n - 1];
    }
    return mix(a ^ UINT64_C(0xA0761D6478BD642F) ^ h,
               b ^ UINT64_C(0xE7037ED1A0B428DB));
}

/* Rebuilds the slot table with nslots slots; 0 or -1. */
static int strmap_rehash(bh_strmap *m, size_t nslots)
{
    uint64_t *slots = calloc(nslots, sizeof(*slots));
    if (slots == NULL)
        return -1;
    for (size_t i = 0; i < m->n; i++) {
        uint64_t h = bh_tok_hash(m->blob + m->off[i], m->len[i]);
        size_t j = (size_t)h & (nslots - 1);
        while (slots[j] != 0)
            j = (j + 1) & (nslots - 1);
        slots[j] = ((h >> 32) << 32) | (uint64_t)(i + 1);
    }
    free(m->slots);
    m->slots = slots;
    m->mask = nslots - 1;
    return 0;
}

/* See tok_internal.h. Read-only, safe from many threads. */
int32_t bh_strmap_get(const bh_strmap *m, const void *key, size_t n)
{
    if (m->slots == NULL)
        return -1;
    uint64_t h = bh_tok_hash(key, n);
    uint64_t tag = (h >> 32) << 32;
    size_t j = (size_t)h & m->mask;
    for (;;) {
        uint64_t s = m->slots[j];
        if (s == 0)
            return -1;
        if ((s & UINT64_C(0xFFFFFFFF00000000)) == tag) {
            size_t e = (size_t)(uint32_t)s - 1;
            if (m->len[e] == n && memcmp(m->blob + m->off[e], key, n) == 0)
                return m->val[e];
        }
        j = (j + 1) & m->mask;
    }
}

int bh_strmap_put(bh_strmap *m, const void *key, size_t n, int32_t val,
                  int32_t *old)
{
    if (m->slots == NULL && strmap_rehash(m, 64) != 0)
        return -1;
    uint64_t h = bh_tok_hash(key, n);
    uint64_t tag = (h >> 32) << 32;
    size_t j = (size_t)h & m->mask;
    for (;;) {
        uint64_t s = m->slots[j];
        if (s == 0)
            break;
        if ((s & UINT64_C(0xFFFFFFFF00000000)) == tag) {
            size_t e = (size_t)(uint32_t)s - 1;
            if (m->len[e] == n && memcmp(m->blob + m->off[e], key, n) == 0) {
                if (old != NULL)
                    *old = m->val[e];
                return 1;
            }
        }
        j = (j + 1) & m->mask;
    }
    if (m->n >= UINT32_MAX - 1 || n > UINT32_MAX ||
        m->blob_n + n > UINT32_MAX)
        return -1;
    if (m->n + 1 > m->cap) {
        size_t cap = m->cap;
        size_t c2 = cap;
        if (bh_tok_grow((void **)&m->off, &c2, m->n + 1, sizeof(*m->off)) != 0)
            return -1;
        c2 = cap;
        if (bh_tok_grow((void **)&m->len, &c2, m->n + 1, sizeof(*m->len)) != 0)
            return -1;
        c2 = cap;
        if (bh_tok_grow((void **)&m->val, &c2, m->n + 1, sizeof(*m->val)) != 0)
            return -1;
        m->cap = c2;
    }
    if (bh_tok_grow((void **)&m->blob, &m->blob_cap, m->blob_n + n + 1, 1) != 0)
        return -1;
    memcpy(m->blob + m->blob_n, key, n);
    m->off[m->n] = (uint32_t)m->blob_n;
    m->len[m->n] = (uint32_t)n;
    m->val[m->n] = val;
    m->blob_n += n;
    m->slots[j] = tag | (uint64_t)(m->n + 1);
    m->n++;
    if (m->n * 2 > m->mask + 1 && strmap_rehash(m, (m->mask + 1) * 2) != 0)
        return -1;
    return 0;
}

/* See tok_internal.h: insert or overwrite. */
int bh_strmap_set(bh_strmap *m, const void *key, size_t n, int32_t val)
{
    int r = bh_strmap_put(m, key, n, val, NULL);
    if (r <= 0)
        return r;
    uint64_t h = bh_tok_hash(key, n);
    uint64_t tag = (h >> 32) << 32;
    for (size_t j = (size_t)h & m->mask;; j = (j + 1) & m->mask) {
        uint64_t s = m->slots[j];
        size_t e = (size_t)(uint32_t)s - 1;
        if ((s & UINT64_C(0xFFFFFFFF00000000)) == tag && m->len[e] == n &&
            memcmp(m->blob + m->off[e], key, n) == 0) {
            m->val[e] = val;
            return 0;
        }
    }
}

/* Bytes of entry i (insertion order); *n gets the length. */
const char *bh_strmap_key(const bh_strmap *m, size_t i, size_t *n)
{
    *n = m->len[i];
    return m->blob + m->off[i];
}

/* Frees the map and zeroes it. */
void bh_strmap_free(bh_strmap *m)
{
    free(m->slots);
    free(m->off);
    free(m->len);
    free(m->val);
    free(m->blob);
    memset(m, 0, sizeof(*m));
}

/* Home slot of key in a table of mask + 1 slots. */
static size_t u64_slot(uint64_t key, size_t mask)
{
    return (size_t)(mix(key, UINT64_C(0x9E3779B97F4A7C15)) & mask);
}

/* Rebuilds the table with nslots slots; 0 or -1. */
static int u64_rehash(bh_u64map *m, size_t nslots)
{
    uint64_t *keys = malloc(nslots * sizeof(*keys));
    uint64_t *vals = malloc(nslots * sizeof(*vals));
    if (keys == NULL || vals == NULL) {
        free(keys);
        free(vals);
        return -1;
    }
    memset(keys, 0xFF, nslots * sizeof(*keys));
    if (m->keys != NULL) {
        for (size_t i = 0; i <= m->mask; i++) {
            if (m->keys[i] == UINT64_MAX)
                continue;
            size_t j = u64_slot(m->keys[i], nslots - 1);
            while (keys[j] != UINT64_MAX)
                j = (j + 1) & (nslots - 1);
            keys[j] = m->keys[i];
            vals[j] = m->vals[i];
        }
    }
    free(m->keys);
    free(m->vals);
    m->keys = keys;
    m->vals = vals;
    m->mask = nslots - 1;
    return 0;
}

/* Inserts or overwrites key -> val; 0 or -1 (reserved key, OOM). */
int bh_u64map_put(bh_u64map *m, uint64_t key, uint64_t val)
{
    if (key == UINT64_MAX)
        return -1;
    if (m->keys == NULL && u64_rehash(m, 64) != 0)
        return -1;
    size_t j = u64_slot(key, m->mask);
    while (m->keys[j] != UINT64_MAX && m->keys[j] != key)
        j = (j + 1) & m->mask;
    if (m->keys[j] == UINT64_MAX) {
        m->keys[j] = key;
        m->n++;
    }
    m->vals[j] = val;
    if (m->n * 2 > m->mask + 1)
        return u64_rehash(m, (m->mask + 1) * 2);
    return 0;
}

/* Looks key up; read-only, safe from many threads. */
bool bh_u64map_get(const bh_u64map *m, uint64_t key, uint64_t *val)
{
    if (m->keys == NULL)
        return false;
    size_t j = u64_slot(key, m->mask);
    for (;;) {
        uint64_t k = m->keys[j];
        if (k == key) {
            *val = m->vals[j];
            return true;
        }
        if (k == UINT64_MAX)
            return false;
        j = (j + 1) & m->mask;
    }
}

/* Frees the map and zeroes it. */
void bh_u64map_free(bh_u64map *m)
{
    free(m->keys);
    free(m->vals);
    memset(m, 0, sizeof(*m));
}
