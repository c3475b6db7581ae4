// SPDX-License-Identifier: MIT
/*
 * tok_spm_bpe.c -- SentencePiece BPE (bpe_model.cc of 0.1.97): split the
 * normalized text into characters (user-defined symbols whole and frozen),
 * then repeatedly merge the adjacent pair whose concatenation is a piece of
 * highest score (ties: smaller left index) using a max-heap with lazy
 * invalidation, then split UNUSED pieces back into the halves that formed
 * them and emit with byte fallback / unknown merging.
 */
#include "tok_internal.h"

#include <stdlib.h>
#include <string.h>

typedef struct sym {
    uint32_t off, len;
    int32_t prev, next;
    bool freeze;
} sym;

typedef struct pair_ent {
    float score;
    int32_t left, right;
    uint32_t size;
} pair_ent;

typedef struct bpe_ctx {
    bh_tok_ids *packed; /* when set: (len << 23 | id) per piece, no emit */
    const bh_spm *m;
    const uint8_t *s;
    sym *sy;
    pair_ent *heap;
    size_t hn, hcap;
    bh_strmap rev; /* unused piece -> length of its left half */
} bpe_ctx;

/* Heap order: higher score first, then the smaller left index. */
static bool before(const pair_ent *a, const pair_ent *b)
{
    return a->score > b->score || (a->score == b->score && a->left < b->left);
}

/* Pushes e on the max-heap; 0 or -1 (out of memory). */
static int hpush(bpe_ctx *c, pair_ent e)
{
    if (bh_tok_grow((void **)&c->heap, &c->hcap, c->hn + 1, sizeof(pair_ent)))
        return -1;
    size_t i = c->hn++;
    while (i > 0) {
        size_t p = (i - 1) / 2;
        if (!before(&e, &c->heap[p]))
            break;
        c->heap[i] = c->heap[p];
        i = p;
    }
    c->heap[i] = e;
    return 0;
}

/* Removes and returns the best pair; the heap must be non-empty. */
static pair_ent hpop(bpe_ctx *c)
{
    pair_ent top = c->heap[0], last = c->heap[--c->hn];
    size_t i = 0, n = c->hn;
    for (;;) {
        size_t k = 2 * i + 1;
        if (k >= n)
            break;
        if (k + 1 < n && before(&c->heap[k + 1], &c->heap[k]))
            k++;
        if (!before(&c->heap[k], &last))
            break;
        c->heap[i] = c->heap[k];
        i = k;
    }
    if (n > 0)
        c->heap[i] = last;
    return top;
}

/* Queues the pair (l, r) when its concatenation is a piece. */
static int maybe_add(bpe_ctx *c, int32_t l, int32_t r)
{
    if (l < 0 || r < 0 || c->sy[l].freeze || c->sy[r].freeze)
        return 0;
    const uint8_t *p = c->s + c->sy[l].off;
    size_t n = (size_t)c->sy[l].len + c->sy[r].len;
    int32_t id = bh_strmap_get(&c->m->pieces, p, n);
    if (id < 0)
        return 0;
    pair_ent e = {c->m->score[id], l, r, (uint32_t)n};
    if (hpush(c, e) != 0)
        return -1;
    if (c->m->type[id] == SPM_UNUSED &&
        bh_strmap_set(&c->rev, p, n, (int32_t)c->sy[l].len) != 0)
        return -1;
    return 0;
}

/* Emits p[0..n), splitting UNUSED pieces recursively. */
static int resegment(bpe_ctx *c, const uint8_t *p, size_t n, bool *prev_unk,
                     bh_tok_ids *out, int depth)
{
    int32_t id = bh_strmap_get(&c->m->reserved, p, n);
    if (id < 0)
        id = bh_strmap_get(&c->m->pieces, p, n);
    if (id >= 0 && c->m->type[id] == SPM_UNUSED && depth < 64) {
        int32_t left = bh_strmap_get(&c->rev, p, n);
        if (left > 0 && (size_t)left < n)
            return resegment(c, p, (size_t)left, prev_unk, out, depth + 1) ||
                   resegment(c, p + left, n - (size_t)left, prev_unk, out,
                             depth + 1);
    }
    if (c->packed != NULL) {
        int32_t pid = bh_strmap_get(&c->m->reserved, p, n);
        if (pid < 0)
            pid = bh_strmap_get(&c->m->pieces, p, n);
        if (pid < 0)
            pid = c->m->unk_id;
        return bh_tok_ids_push(c->packed, (int32_t)(((uint32_t)n << 23) | (uint32_t)pid));
    }
    return bh_spm_emit_piece(c->m, p, n, prev_unk, out);
}

/* Longest user-defined symbol at s[0..n) (0 if none). */
static size_t user_at(const bh_spm *m, const uint8_t *s, size_t n)
{
    size_t lim = n < m->max_user_len ? n : m->max_user_len;
    if (!(m->user_first[s[0] >> 3] & (1u << (s[0] & 7))))
        return 0;
    for (size_t k = lim; k > 0; k--)
        if (bh_strmap_get(&m->user, s, k) >= 0)
            return k;
    return 0;
}

/* BPE of s[0..n): emits to out (prev_unk carried), or appends packed
 * pieces to packed when packed != NULL. */
static int segment(const bh_spm *m, const uint8_t *s, size_t n,
                   bool *prev_unk, bh_tok_ids *out, bh_tok_ids *packed)
{
    static const uint8_t cl[16] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 3, 4};
    bpe_ctx c = {packed, m, s, NULL, NULL, 0, 0, {0}};
    size_t ns = 0;
    int rc = -1;

    if (n > INT32_MAX)
        return -1;
    c.sy = malloc(n * sizeof(sym));
    if (c.sy == NULL)
        return -1;
    for (size_t i = 0; i < n;) {
        size_t u = m->has_user ? user_at(m, s + i, n - i) : 0;
        size_t len = u > 0 ? u : cl[s[i] >> 4];
        if (len > n - i)
            len = n - i;
        c.sy[ns].off = (uint32_t)i;
        c.sy[ns].len = (uint32_t)len;
        c.sy[ns].freeze = u > 0;
        c.sy[ns].prev = (int32_t)ns - 1;
        i += len;
        c.sy[ns].next = i < n ? (int32_t)ns + 1 : -1;
        ns++;
    }
    for (size_t i = 1; i < ns; i++)
        if (maybe_add(&c, (int32_t)i - 1, (int32_t)i) != 0)
            goto out;
    while (c.hn > 0) {
        pair_ent top = hpop(&c);
        sym *l = &c.sy[top.left], *r = &c.sy[top.right];
        if (l->len == 0 || r->len == 0 || l->len + r->len != top.size)
            continue;
        l->len += r->len;
        l->next = r->next;
        if (r->next >= 0)
            c.sy[r->next].prev = top.left;
        r->len = 0;
        if (maybe_add(&c, l->prev, top.left) != 0 ||
            maybe_add(&c, top.left, l->next) != 0)
            goto out;
    }
    for (int32_t i = 0; i >= 0 && ns > 0; i = c.sy[i].next)
        if (resegment(&c, s + c.sy[i].off, c.sy[i].len, prev_unk, out, 0) != 0)
            goto out;
    rc = 0;
out:
    free(c.sy);
    free(c.heap);
    bh_strmap_free(&c.rev);
    return rc;
}

/* Replays packed pieces of chunk s through the emitter. */
static int replay(const bh_spm *m, const uint8_t *s, const int32_t *pk,
                  size_t k, bool *prev_unk, bh_tok_ids *out)
{
    size_t off = 0;
    for (size_t i = 0; i < k; i++) {
        size_t len = (uint32_t)pk[i] >> 23;
        int32_t id = pk[i] & ((1 << 23) - 1);
        if (id == m->unk_id) {
            if (bh_spm_emit_piece(m, s + off, len, prev_unk, out) != 0)
                return -1;
        } else {
            *prev_unk = false;
            if (bh_tok_ids_push(out, id) != 0)
                return -1;
        }
        off += len;
    }
    return 0;
}

int bh_spm_bpe(const bh_spm *m, bh_tok_ws *ws, const uint8_t *s, size_t n,
               bh_tok_ids *out)
{
    static const uint8_t kSpace[3] = {0xE2, 0x96, 0x81};
    bool prev_unk = false;
    bh_tok_ids packed = {0};
    int rc = -1;

    if (!m->bpe_chunks)
        return segment(m, s, n, &prev_unk, out, NULL);
    if (ws->cache == NULL &&
        (ws->cache = calloc(TOK_CACHE_SLOTS, sizeof(tok_cache_ent))) == NULL)
        return -1;
    for (size_t a = 0; a < n;) {
        /* the chunk runs to the next U+2581 after its first byte */
        size_t e = a + 1;
        while (e < n && !(s[e] == kSpace[0] && e + 3 <= n &&
                          memcmp(s + e, kSpace, 3) == 0))
            e++;
        size_t len = e - a;
        if (len > TOK_CACHE_KEY) {
            if (segment(m, s + a, len, &prev_unk, out, NULL) != 0)
                goto out;
            a = e;
            continue;
        }
        uint64_t h = bh_tok_hash(s + a, len);
        tok_cache_ent *ce = &ws->cache[h & (TOK_CACHE_SLOTS - 1)];
        if (!(ce->hash == h && ce->len == len && memcmp(ce->key, s + a, len) == 0)) {
            packed.n = 0;
            if (segment(m, s + a, len, NULL, NULL, &packed) != 0)
                goto out;
            if (packed.n > TOK_CACHE_IDS) {
                if (replay(m, s + a, packed.v, packed.n, &prev_unk, out) != 0)
                    goto out;
                a = e;
                continue;
            }
            ce->hash = h;
            ce->len = (uint8_t)len;
            ce->nids = (uint8_t)packed.n;
            memcpy(ce->key, s + a, len);
            memcpy(ce->ids, packed.v, packed.n * sizeof(int32_t));
        }
        if (replay(m, s + a, ce->ids, ce->nids, &prev_unk, out) != 0)
            goto out;
        a = e;
    }
    rc = 0;
out:
    bh_tok_ids_free(&packed);
    return rc;
}
