/*
 * tk_spm_trie.c -- the piece trie of SentencePiece unigram models: built
 * once from the sorted pieces, each node's children stored contiguously and
 * sorted by byte; nodes with many children (the root, "▁") also get a
 * 256-entry direct table. Lookups are a table read or a short scan.
 */
#include "tk_internal.h"

#include <stdlib.h>
#include <string.h>

#define DENSE_MIN 24

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

typedef struct builder {
    bh_spm_trie *t;
    const ent *e;
    size_t cap_nodes, cap_edges, cap_dense;
    int oom;
} builder;

/* Appends an empty trie node; sets b->oom on failure. */
static uint32_t new_node(builder *b)
{
    bh_spm_trie *t = b->t;
    size_t c1 = b->cap_nodes, c2 = b->cap_nodes, c3 = b->cap_nodes,
           c4 = b->cap_nodes;
    if (bh_tk_grow((void **)&t->first, &c1, t->nnodes + 1, sizeof(uint32_t)) ||
        bh_tk_grow((void **)&t->count, &c2, t->nnodes + 1, sizeof(uint32_t)) ||
        bh_tk_grow((void **)&t->id, &c3, t->nnodes + 1, sizeof(int32_t)) ||
        bh_tk_grow((void **)&t->dense_at, &c4, t->nnodes + 1, sizeof(int32_t))) {
        b->oom = 1;
        return 0;
    }
    b->cap_nodes = c1;
    t->first[t->nnodes] = 0;
    t->count[t->nnodes] = 0;
    t->id[t->nnodes] = -1;
    t->dense_at[t->nnodes] = -1;
    return (uint32_t)t->nnodes++;
}

/* Builds the node for entries [lo, hi) sharing their first depth bytes. */
static uint32_t build(builder *b, size_t lo, size_t hi, uint32_t depth)
{
    bh_spm_trie *t = b->t;
    uint32_t node = new_node(b);
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
    if (bh_tk_grow((void **)&t->lab, &c1, t->nedges + nch, 1) ||
        bh_tk_grow((void **)&t->child, &c2, t->nedges + nch, sizeof(uint32_t))) {
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
    if (nch >= DENSE_MIN) {
        size_t c3 = b->cap_dense;
        if (bh_tk_grow((void **)&t->dense, &c3, t->ndense + 256, sizeof(uint32_t))) {
            b->oom = 1;
            return 0;
        }
        b->cap_dense = c3;
        uint32_t *d = t->dense + t->ndense;
        memset(d, 0, 256 * sizeof(uint32_t));
        for (uint32_t q = 0; q < nch; q++)
            d[t->lab[first + q]] = t->child[first + q] + 1;
        t->dense_at[node] = (int32_t)t->ndense;
        t->ndense += 256;
    }
    return node;
}

/* Builds m->trie from m->pieces; 0 or -1 (out of memory). */
int bh_spm_trie_build(bh_spm *m)
{
    bh_spm_trie *t = &m->trie;
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
    builder b = {t, e, 0, 0, 0, 0};
    build(&b, 0, m->pieces.n, 0);
    free(e);
    return b.oom ? -1 : 0;
}

/* Frees the trie and zeroes it. */
void bh_spm_trie_free(bh_spm_trie *t)
{
    free(t->first);
    free(t->count);
    free(t->id);
    free(t->dense_at);
    free(t->lab);
    free(t->child);
    free(t->dense);
    memset(t, 0, sizeof(*t));
}
