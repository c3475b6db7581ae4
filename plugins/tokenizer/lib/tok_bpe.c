// SPDX-License-Identifier: MIT
/*
 * tok_bpe.c -- byte-level BPE over one pre-token. Two rank sources:
 * tiktoken rank files (the adjacent pair whose concatenated bytes have the
 * lowest rank merges first) and merge lists (the (left, right) pair with the
 * lowest merge rank). Ties go to the leftmost pair. Short pieces use a
 * quadratic scan over a small array; long ones a binary heap over a linked
 * list, so a 1 MB pre-token stays O(n log n).
 */
#include "tok_internal.h"

#include <stdlib.h>
#include <string.h>

#define NO_RANK UINT32_MAX
#define SMALL_PIECE 48

/* Rank and merged id of the pair of parts [a, m) and [m, e) with ids la,
 * ra. NO_RANK when they do not merge. */
static inline uint32_t pair_rank(const bh_bpe *b, const uint8_t *s, size_t a,
                                 size_t e, int32_t la, int32_t ra,
                                 int32_t *mid)
{
    if (b->mode == BPE_RANKS) {
        int32_t r = bh_strmap_get(&b->tokens, s + a, e - a);
        if (r < 0)
            return NO_RANK;
        *mid = r;
        return (uint32_t)r;
    }
    uint64_t v;
    if (!bh_u64map_get(&b->pairs, ((uint64_t)(uint32_t)la << 32) | (uint32_t)ra,
                       &v))
        return NO_RANK;
    *mid = (int32_t)(uint32_t)v;
    return (uint32_t)(v >> 32);
}

/* Grows the workspace part arrays to n + 1 entries; 0 or -1. */
static int reserve(bh_tok_ws *ws, size_t n)
{
    if (n + 1 <= ws->p_cap)
        return 0;
    size_t cap = ws->p_cap, c;
    c = cap;
    if (bh_tok_grow((void **)&ws->p_pos, &c, n + 1, sizeof(uint32_t)) != 0)
        return -1;
    c = cap;
    if (bh_tok_grow((void **)&ws->p_id, &c, n + 1, sizeof(int32_t)) != 0)
        return -1;
    c = cap;
    if (bh_tok_grow((void **)&ws->p_rank, &c, n + 1, sizeof(uint32_t)) != 0)
        return -1;
    c = cap;
    if (bh_tok_grow((void **)&ws->p_mid, &c, n + 1, sizeof(uint32_t)) != 0)
        return -1;
    c = cap;
    if (bh_tok_grow((void **)&ws->p_prev, &c, n + 1, sizeof(int32_t)) != 0)
        return -1;
    c = cap;
    if (bh_tok_grow((void **)&ws->p_next, &c, n + 1, sizeof(int32_t)) != 0)
        return -1;
    ws->p_cap = c;
    return 0;
}

/* Quadratic merge over m <= SMALL_PIECE parts (the common case). */
static int small_merge(const bh_bpe *b, bh_tok_ws *ws, const uint8_t *s,
                       size_t n, bh_tok_ids *out)
{
    uint32_t *pos = ws->p_pos, *rank = ws->p_rank, *mid = ws->p_mid;
    int32_t *id = ws->p_id;
    size_t m = n;
    int32_t t = -1;

    for (size_t k = 0; k < n; k++) {
        pos[k] = (uint32_t)k;
        id[k] = b->byte_id[s[k]];
    }
    pos[n] = (uint32_t)n;
    for (size_t k = 0; k + 1 < m; k++) {
        rank[k] = pair_rank(b, s, pos[k], pos[k + 2], id[k], id[k + 1], &t);
        mid[k] = (uint32_t)t;
    }
    while (m > 1) {
        uint32_t best = NO_RANK;
        size_t k = 0;
        for (size_t q = 0; q + 1 < m; q++)
            if (rank[q] < best) {
                best = rank[q];
                k = q;
            }
        if (best == NO_RANK)
            break;
        id[k] = (int32_t)mid[k];
        size_t tail = m - (k + 2);
        memmove(&pos[k + 1], &pos[k + 2], (tail + 1) * sizeof(*pos));
        memmove(&id[k + 1], &id[k + 2], tail * sizeof(*id));
        memmove(&rank[k + 1], &rank[k + 2], tail * sizeof(*rank));
        memmove(&mid[k + 1], &mid[k + 2], tail * sizeof(*mid));
        m--;
        if (k + 1 < m) {
            rank[k] = pair_rank(b, s, pos[k], pos[k + 2], id[k], id[k + 1], &t);
            mid[k] = (uint32_t)t;
        } else {
            rank[k] = NO_RANK;
        }
        if (k > 0) {
            rank[k - 1] = pair_rank(b, s, pos[k - 1], pos[k + 1], id[k - 1],
                                    id[k], &t);
            mid[k - 1] = (uint32_t)t;
        }
    }
    for (size_t k = 0; k < m; k++)
        if (bh_tok_ids_push(out, id[k]) != 0)
            return -1;
    return 0;
}

/* The long-piece queue: a 4-ary min-heap of (rank << 32 | left offset)
 * keys, so ties go to the leftmost pair. */
static int heap_push(bh_tok_ws *ws, size_t *hn, uint64_t key)
{
    if (*hn + 1 > ws->heap_cap &&
        bh_tok_grow((void **)&ws->heap, &ws->heap_cap, *hn + 1, sizeof(uint64_t)) != 0)
        return -1;
    uint64_t *h = ws->heap;
    size_t i = (*hn)++;
    while (i > 0) {
        size_t p = (i - 1) / 4;
        if (h[p] <= key)
            break;
        h[i] = h[p];
        i = p;
    }
    h[i] = key;
    return 0;
}

/* Restores the 4-ary heap order below slot i of h[0..n). */
static void sift_down(uint64_t *h, size_t n, size_t i)
{
    uint64_t v = h[i];
    for (;;) {
        size_t c = 4 * i + 1;
        if (c >= n)
            break;
        size_t m = c;
        size_t end = c + 4 < n ? c + 4 : n;
        for (size_t k = c + 1; k < end; k++)
            if (h[k] < h[m])
                m = k;
        if (h[m] >= v)
            break;
        h[i] = h[m];
        i = m;
    }
    h[i] = v;
}

/* Removes and returns the smallest key; the heap must be non-empty. */
static uint64_t heap_pop(bh_tok_ws *ws, size_t *hn)
{
    uint64_t *h = ws->heap;
    uint64_t top = h[0];
    size_t n = --(*hn);
    if (n > 0) {
        h[0] = h[n];
        sift_down(h, n, 0);
    }
    return top;
}

/* One part of a long piece, indexed by its start offset; kept together so
 * that a heap pop touches one cache line. */
typedef struct tok_part {
    int32_t id, prev, next; /* id -2: absorbed into its left neighbour */
    uint32_t rank, mid;     /* the pair starting here: rank and merged id */
} tok_part;

/* Computes the pair starting at part l into its rank/mid (NO_RANK when it
 * does not merge) and queues it: pushed, or only appended when
 * append_only (the caller heapifies). 0 or -1 (out of memory). */
static int push_pair(const bh_bpe *b, bh_tok_ws *ws, const uint8_t *s,
                     size_t n, int32_t l, size_t *hn, bool append_only)
{
    tok_part *pt = ws->parts;
    int32_t r, t = -1;
    if (l < 0)
        return 0;
    pt[l].rank = NO_RANK;
    if ((r = pt[l].next) < 0)
        return 0;
    size_t e = pt[r].next < 0 ? n : (size_t)pt[r].next;
    uint32_t rk = pair_rank(b, s, (size_t)l, e, pt[l].id, pt[r].id, &t);
    if (rk == NO_RANK)
        return 0;
    pt[l].rank = rk;
    pt[l].mid = (uint32_t)t;
    uint64_t key = ((uint64_t)rk << 32) | (uint32_t)l;
    if (!append_only)
        return heap_push(ws, hn, key);
    if (bh_tok_grow((void **)&ws->heap, &ws->heap_cap, *hn + 1, sizeof(uint64_t)))
        return -1;
    ws->heap[(*hn)++] = key;
    return 0;
}

/* Heap-driven merge for long pieces; parts are indexed by start offset.
 * An entry is current when its rank is still the rank of its left part. */
static int heap_merge(const bh_bpe *b, bh_tok_ws *ws, const uint8_t *s,
                      size_t n, bh_tok_ids *out)
{
    size_t hn = 0;

    if (bh_tok_grow((void **)&ws->parts, &ws->parts_cap, n, sizeof(tok_part)) ||
        bh_tok_grow((void **)&ws->heap, &ws->heap_cap, n, sizeof(uint64_t)))
        return -1;
    tok_part *pt = ws->parts;
    for (size_t k = 0; k < n; k++) {
        pt[k].id = b->byte_id[s[k]];
        pt[k].prev = (int32_t)k - 1;
        pt[k].next = k + 1 < n ? (int32_t)k + 1 : -1;
    }
    for (size_t k = 0; k < n; k++)
        if (push_pair(b, ws, s, n, (int32_t)k, &hn, true) != 0)
            return -1;
    for (size_t i = hn / 4 + 1; i-- > 0;)
        if (i < hn)
            sift_down(ws->heap, hn, i);
    while (hn > 0) {
        uint64_t top = heap_pop(ws, &hn);
        int32_t l = (int32_t)(uint32_t)top, r;
        tok_part *pl = &pt[l];
        if (pl->id == -2 || pl->rank != (uint32_t)(top >> 32) || (r = pl->next) < 0)
            continue; /* stale entry */
        pl->id = (int32_t)pl->mid;
        pt[r].id = -2;
        pl->next = pt[r].next;
        if (pl->next >= 0)
            pt[pl->next].prev = l;
        if (pl->prev >= 0 && push_pair(b, ws, s, n, pl->prev, &hn, false) != 0)
            return -1;
        if (push_pair(b, ws, s, n, l, &hn, false) != 0)
            return -1;
    }
    for (int32_t k = 0; k >= 0; k = pt[k].next)
        if (bh_tok_ids_push(out, pt[k].id) != 0)
            return -1;
    return 0;
}

int bh_bpe_piece(const bh_bpe *b, bh_tok_ws *ws, const uint8_t *s, size_t n,
                 bh_tok_ids *out)
{
    if (n == 0)
        return 0;
    if (n == 1)
        return bh_tok_ids_push(out, b->byte_id[s[0]]);
    if (b->whole_fast || b->whole_ok != NULL) {
        int32_t id = bh_strmap_get(&b->tokens, s, n);
        if (id >= 0 && (b->whole_fast ||
                        ((size_t)id < b->nwhole && b->whole_ok[id])))
            return bh_tok_ids_push(out, id);
    }
    if (n > INT32_MAX - 1 || reserve(ws, n) != 0)
        return -1;
    if (n > TOK_CACHE_KEY)
        return n <= SMALL_PIECE ? small_merge(b, ws, s, n, out)
                                : heap_merge(b, ws, s, n, out);
    if (ws->cache == NULL &&
        (ws->cache = calloc(TOK_CACHE_SLOTS, sizeof(tok_cache_ent))) == NULL)
        return -1;
    uint64_t h = bh_tok_hash(s, n);
    tok_cache_ent *e = &ws->cache[h & (TOK_CACHE_SLOTS - 1)];
    if (e->hash == h && e->len == n && memcmp(e->key, s, n) == 0) {
        for (size_t k = 0; k < e->nids; k++)
            if (bh_tok_ids_push(out, e->ids[k]) != 0)
                return -1;
        return 0;
    }
    size_t mark = out->n;
    if (small_merge(b, ws, s, n, out) != 0)
        return -1;
    if (out->n - mark <= TOK_CACHE_IDS) {
        e->hash = h;
        e->len = (uint8_t)n;
        e->nids = (uint8_t)(out->n - mark);
        memcpy(e->key, s, n);
        memcpy(e->ids, out->v + mark, e->nids * sizeof(int32_t));
    }
    return 0;
}

int bh_bpe_encode(const bh_tok *t, bh_tok_ws *ws, const uint8_t *s, size_t n,
                  bh_tok_ids *out)
{
    const bh_bpe *b = &t->bpe;
    size_t i = 0;

    if (b->pretok == PRETOK_NONE)
        return bh_bpe_piece(b, ws, s, n, out);
    while (i < n) {
        size_t e = bh_pretok_next(b->pretok, s, n, i);
        if (bh_bpe_piece(b, ws, s + i, e - i, out) != 0)
            return -1;
        i = e;
    }
    return 0;
}

/* See tok_internal.h. Builds b->whole_ok; 0 or -1 (out of memory). */
int bh_bpe_mark_whole(bh_tok *t)
{
    bh_bpe *b = &t->bpe;
    bh_tok_ws *ws = bh_tok_ws_new(t);
    bh_tok_ids ids = {0};
    int rc = -1;
    b->whole_ok = calloc(t->nids ? t->nids : 1, 1);
    if (ws == NULL || b->whole_ok == NULL)
        goto out;
    b->nwhole = t->nids;
    for (size_t i = 0; i < b->tokens.n; i++) {
        size_t n;
        const uint8_t *k = (const uint8_t *)bh_strmap_key(&b->tokens, i, &n);
        int32_t id = b->tokens.val[i];
        if (n > SMALL_PIECE || (size_t)id >= t->nids)
            continue;
        ids.n = 0;
        if (n == 1 ? bh_tok_ids_push(&ids, b->byte_id[k[0]])
                   : (reserve(ws, n) || small_merge(b, ws, k, n, &ids)))
            goto out;
        b->whole_ok[id] = ids.n == 1 && ids.v[0] == id;
    }
    rc = 0;
out:
    bh_tok_ids_free(&ids);
    bh_tok_ws_free(ws);
    return rc;
}

/* Frees a BPE model's tables; the struct may be reused zeroed. */
void bh_bpe_free(bh_bpe *b)
{
    free(b->whole_ok);
    b->whole_ok = NULL;
    bh_strmap_free(&b->tokens);
    bh_u64map_free(&b->pairs);
}
