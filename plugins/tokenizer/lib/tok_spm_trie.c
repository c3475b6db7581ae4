// SPDX-License-Identifier: MIT
/*
 * tok_spm_trie.c -- the piece trie of SentencePiece unigram models: a
 * pointer trie is built from the sorted pieces (children contiguous and
 * sorted by byte), then laid out as a double array (base/check, first-fit),
 * so that the Viterbi walk costs one load and one compare per byte.
 */
#include "tok_internal.h"

#include <stdlib.h>
#include <string.h>


typedef struct ent {
    const uint8_t *s;
    uint32_t n;
    int32_t id;
} ent;

/* qsort order of pieces: bytewise, shorter first. */
static int cmp_ent(const void *a, const void *b)
{
    const ent *x = a, *y = b;
    uint32_t n = x->n < y->n ? x->n : y->n;
    int c = memcmp(x->s, y->s, n);
    if (c != 0)
        return c;
    return (x->n > y->n) - (x->n < y->n);
}

typedef struct tree {
    uint32_t *first, *count; /* per node: its edges */
    int32_t *id;             /* per node: piece id ending here, or -1 */
    uint8_t *lab;            /* per edge: byte, sorted within a node */
    uint32_t *child;         /* per edge: child node */
    uint32_t *depth;         /* per node: bytes from the root */
    size_t nnodes, nedges;
} tree;

typedef struct builder {
    tree *t;
    const ent *e;
    size_t cap_nodes, cap_edges, cap_dense;
    int oom;
} builder;

/* Appends an empty trie node; sets b->oom on failure. */
static uint32_t new_node(builder *b, uint32_t depth)
{
    tree *t = b->t;
    size_t c1 = b->cap_nodes, c2 = b->cap_nodes, c3 = b->cap_nodes,
           c4 = b->cap_nodes;
    if (bh_tok_grow((void **)&t->first, &c1, t->nnodes + 1, sizeof(uint32_t)) ||
        bh_tok_grow((void **)&t->count, &c2, t->nnodes + 1, sizeof(uint32_t)) ||
        bh_tok_grow((void **)&t->id, &c3, t->nnodes + 1, sizeof(int32_t)) ||
        bh_tok_grow((void **)&t->depth, &c4, t->nnodes + 1, sizeof(uint32_t))) {
        b->oom = 1;
        return 0;
    }
    b->cap_nodes = c1;
    t->first[t->nnodes] = 0;
    t->count[t->nnodes] = 0;
    t->id[t->nnodes] = -1;
    t->depth[t->nnodes] = depth;
    return (uint32_t)t->nnodes++;
}

/* Builds the node for entries [lo, hi) sharing their first depth bytes. */
static uint32_t build(builder *b, size_t lo, size_t hi, uint32_t depth)
{
    tree *t = b->t;
    uint32_t node = new_node(b, depth);
    if (b->oom)
        return 0;
    if (lo < hi && b->e[lo].n == depth) {
        t->id[node] = b->e[lo].id;
        lo++;
    }
    /* count the children, reserve their edge slots, then recurse */
    uint32_t nch = 0;
    for (size_t i = lo; i < hi;) {
        uint8_t c = b->e[i].s[depth];
        while (i < hi && b->e[i].s[depth] == c)
            i++;
        nch++;
    }
    size_t c1 = b->cap_edges, c2 = b->cap_edges;
    if (bh_tok_grow((void **)&t->lab, &c1, t->nedges + nch, 1) ||
        bh_tok_grow((void **)&t->child, &c2, t->nedges + nch, sizeof(uint32_t))) {
        b->oom = 1;
        return 0;
    }
    b->cap_edges = c1;
    uint32_t first = (uint32_t)t->nedges;
    t->nedges += nch;
    t->first[node] = first;
    t->count[node] = nch;
    uint32_t k = 0;
    for (size_t i = lo; i < hi;) {
        uint8_t c = b->e[i].s[depth];
        size_t j = i;
        while (j < hi && b->e[j].s[depth] == c)
            j++;
        uint32_t ch = build(b, i, j, depth + 1);
        if (b->oom)
            return 0;
        t->lab[first + k] = c;
        t->child[first + k] = ch;
        k++;
        i = j;
    }
    return node;
}

/* Builds m->trie from m->pieces; 0 or -1 (out of memory). */
/* Free-slot finder of the layout: nf[i] == i for a free slot, else a
 * pointer further right (union-find with path compression). */
typedef struct freelist {
    uint32_t *nf;
    size_t cap;
} freelist;

/* Smallest free slot >= x (x < capacity). */
static size_t find_free(freelist *fl, size_t x)
{
    size_t r = x;
    while (r < fl->cap && fl->nf[r] != r)
        r = fl->nf[r];
    while (x < fl->cap && fl->nf[x] != x && fl->nf[x] != r) {
        size_t nx = fl->nf[x];
        fl->nf[x] = (uint32_t)r;
        x = nx;
    }
    return r;
}

/* Grows the double array to hold slot i; new slots are free. 0 or -1. */
static int da_reserve(bh_spm_trie *d, freelist *fl, size_t i)
{
    if (i < d->cap)
        return 0;
    size_t c = d->cap, c1 = c, c2 = c, c3 = c, c4 = c, c5 = fl->cap;
    if (bh_tok_grow((void **)&fl->nf, &c5, i + 1, sizeof(uint32_t)) ||
        bh_tok_grow((void **)&d->base, &c1, i + 1, sizeof(int32_t)) ||
        bh_tok_grow((void **)&d->check, &c2, i + 1, sizeof(int32_t)) ||
        bh_tok_grow((void **)&d->id, &c3, i + 1, sizeof(int32_t)) ||
        bh_tok_grow((void **)&d->score, &c4, i + 1, sizeof(double)))
        return -1;
    for (size_t k = fl->cap; k < c5; k++)
        fl->nf[k] = (uint32_t)k;
    fl->cap = c5 < c1 ? c5 : c1;
    for (size_t k = c; k < c1; k++) {
        d->base[k] = 0;
        d->check[k] = -1;
        d->id[k] = -1;
        d->score[k] = 0;
    }
    d->cap = c1;
    return 0;
}

/* Lays tree t out as the double array m->trie (first-fit bases, breadth
 * first). Piece scores are precomputed as SentencePiece adds them: the
 * float score, or (float)length * max_score - 0.1 in double for
 * user-defined pieces; UNUSED pieces are not matchable. 0 or -1. */
static int layout(bh_spm *m, const tree *t)
{
    bh_spm_trie *d = &m->trie;
    uint32_t *queue = malloc((t->nnodes ? t->nnodes : 1) * 2 * sizeof(uint32_t));
    size_t qh = 0, qt = 0, free_from = 1, multi_from = 1;
    freelist fl = {NULL, 0};
    int rc = -1;
    if (queue == NULL || da_reserve(d, &fl, 1024) != 0)
        goto out;
    d->check[0] = 0; /* the root occupies slot 0 */
    fl.nf[0] = 1;
    d->size = 1;
    queue[qt++] = 0; /* tree node */
    queue[qt++] = 0; /* slot */
    while (qh < qt) {
        uint32_t node = queue[qh++], slot = queue[qh++];
        uint32_t n = t->count[node], f = t->first[node];
        if (n == 0)
            continue;
        free_from = find_free(&fl, free_from);
        /* nodes with several children start past the crowded region, so
         * the first-fit scans stay short */
        size_t pos = n > 1 && multi_from > free_from ? multi_from : free_from, b;
        size_t tries = 0;
        for (;;) {
            b = pos > t->lab[f] ? pos - t->lab[f] : 1;
            if (da_reserve(d, &fl, b + 256) != 0)
                goto out;
            uint32_t k = 0;
            while (k < n && d->check[b + t->lab[f + k]] == -1)
                k++;
            if (k == n)
                break;
            tries++;
            pos = find_free(&fl, pos + 1);
        }
        if (n > 1 && tries > 16)
            multi_from = pos;
        d->base[slot] = (int32_t)b;
        for (uint32_t k = 0; k < n; k++) {
            size_t cs = b + t->lab[f + k];
            uint32_t ch = t->child[f + k];
            int32_t id = t->id[ch];
            d->check[cs] = (int32_t)slot;
            fl.nf[cs] = (uint32_t)(cs + 1);
            if (cs + 1 > d->size)
                d->size = cs + 1;
            if (id >= 0 && m->type[id] != SPM_UNUSED) {
                d->id[cs] = id;
                d->score[cs] = m->type[id] == SPM_USER
                                   ? (double)((float)t->depth[ch] * m->max_score) - 0.1
                                   : (double)m->score[id];
            }
            queue[qt++] = ch;
            queue[qt++] = (uint32_t)cs;
        }
    }
    rc = 0;
out:
    free(fl.nf);
    free(queue);
    return rc;
}

int bh_spm_trie_build(bh_spm *m)
{
    ent *e = malloc((m->pieces.n ? m->pieces.n : 1) * sizeof(ent));
    if (e == NULL)
        return -1;
    for (size_t i = 0; i < m->pieces.n; i++) {
        size_t n;
        e[i].s = (const uint8_t *)bh_strmap_key(&m->pieces, i, &n);
        e[i].n = (uint32_t)n;
        e[i].id = m->pieces.val[i];
    }
    qsort(e, m->pieces.n, sizeof(ent), cmp_ent);
    tree tr;
    memset(&tr, 0, sizeof(tr));
    builder b = {&tr, e, 0, 0, 0, 0};
    build(&b, 0, m->pieces.n, 0);
    free(e);
    int rc = b.oom ? -1 : layout(m, &tr);
    free(tr.first);
    free(tr.count);
    free(tr.id);
    free(tr.lab);
    free(tr.child);
    free(tr.depth);
    return rc;
}

/* Frees the trie and zeroes it. */
void bh_spm_trie_free(bh_spm_trie *t)
{
    free(t->base);
    free(t->check);
    free(t->id);
    free(t->score);
    memset(t, 0, sizeof(*t));
}
