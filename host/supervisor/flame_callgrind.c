// SPDX-License-Identifier: MIT
/* See flame.h: the flame graph of a callgrind output file, rebuilt from
 * its caller -> callee pairs (the "calls=" lines and their inclusive
 * costs) and the functions' own costs. */
#include "flame.h"

#include "bh_mem.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DEPTH 128
#define MAX_NODES 100000
#define MIN_SHARE 1e-4

/* A call pair: this function called callee, at inclusive cost. */
typedef struct cg_edge {
    size_t callee;
    double cost;
} cg_edge;

typedef struct cg_fn {
    char *name;
    double self;
    double incl; /* self plus the calls to other functions */
    int called;  /* another function's collected call reached it */
    cg_edge *edges;
    size_t n_edges, cap_edges;
} cg_fn;

/* The parse: functions by index, compressed ids to function indexes, and
 * a name index (open addressing over name hashes). */
typedef struct cg_graph {
    const char *file;
    cg_fn *fns;
    size_t n, cap;
    size_t *ids; /* ids[id] = function index + 1; 0: not defined */
    size_t n_ids;
    size_t *slots; /* function index + 1, 0 empty */
    size_t n_slots;
} cg_graph;

static uint64_t hash(const char *s, size_t n)
{
    uint64_t h = UINT64_C(1469598103934665603);

    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * UINT64_C(1099511628211);
    return h;
}

/* The index of the function called name[0..n), added when new. */
static size_t fn_named(cg_graph *g, const char *name, size_t n)
{
    size_t i;

    if (2 * (g->n + 1) > g->n_slots) {
        size_t ns = g->n_slots ? 2 * g->n_slots : 1024;

        free(g->slots);
        g->slots = bh_xcalloc(ns, sizeof(size_t));
        g->n_slots = ns;
        for (size_t k = 0; k < g->n; k++) {
            size_t s = hash(g->fns[k].name, strlen(g->fns[k].name)) & (ns - 1);

            while (g->slots[s])
                s = (s + 1) & (ns - 1);
            g->slots[s] = k + 1;
        }
    }
    i = hash(name, n) & (g->n_slots - 1);
    while (g->slots[i]) {
        const char *have = g->fns[g->slots[i] - 1].name;

        if (strlen(have) == n && memcmp(have, name, n) == 0)
            return g->slots[i] - 1;
        i = (i + 1) & (g->n_slots - 1);
    }
    bh_grow((void **)&g->fns, &g->cap, g->n + 1, sizeof(*g->fns));
    memset(&g->fns[g->n], 0, sizeof(g->fns[0]));
    g->fns[g->n].name = bh_xstrndup(name, n);
    g->slots[i] = g->n + 1;
    return g->n++;
}

/* The function of a "fn=" or "cfn=" value: "(id) name" defines id,
 * "(id)" refers to it, a bare name is itself. -1 with e on a reference
 * to an id never defined or a malformed id. */
static int fn_ref(cg_graph *g, const char *v, size_t n, int ln, size_t *out, bh_error *e)
{
    size_t id = 0, k = 1;

    if (n == 0 || v[0] != '(') {
        *out = fn_named(g, v, n);
        return 0;
    }
    while (k < n && v[k] >= '0' && v[k] <= '9' && id < 100000000)
        id = id * 10 + (size_t)(v[k++] - '0');
    if (k == 1 || k >= n || v[k] != ')')
        return bh_error_set(e, "%s:%d: expected (ID) NAME or (ID) after fn=/cfn=", g->file, ln);
    k++;
    while (k < n && v[k] == ' ')
        k++;
    if (k < n) {
        if (id >= g->n_ids) {
            size_t old = g->n_ids;

            bh_grow((void **)&g->ids, &g->n_ids, id + 1, sizeof(size_t));
            memset(g->ids + old, 0, (g->n_ids - old) * sizeof(size_t));
        }
        /* one function per id: two functions of one name (two objects'
           "(below main)") stay apart */
        bh_grow((void **)&g->fns, &g->cap, g->n + 1, sizeof(*g->fns));
        memset(&g->fns[g->n], 0, sizeof(g->fns[0]));
        g->fns[g->n].name = bh_xstrndup(v + k, n - k);
        g->ids[id] = ++g->n;
    }
    if (id >= g->n_ids || !g->ids[id])
        return bh_error_set(e, "%s:%d: function id (%zu) used before it was named", g->file, ln,
                            id);
    *out = g->ids[id] - 1;
    return 0;
}

/* The cost at column col of a cost line (positions first); 0 when the
 * line has fewer columns. */
static double cost_at(const char *p, const char *end, size_t col)
{
    size_t k = 0;

    while (p < end) {
        const char *w;

        while (p < end && (*p == ' ' || *p == '\t'))
            p++;
        w = p;
        while (p < end && *p != ' ' && *p != '\t')
            p++;
        if (w == p)
            break;
        if (k++ == col) {
            double v = 0;

            for (; w < p && *w >= '0' && *w <= '9'; w++)
                v = v * 10 + (*w - '0');
            return v;
        }
    }
    return 0;
}

static void add_edge(cg_fn *f, size_t callee, double cost)
{
    for (size_t i = 0; i < f->n_edges; i++)
        if (f->edges[i].callee == callee) {
            f->edges[i].cost += cost;
            return;
        }
    BH_PUSH(f->edges, f->n_edges, f->cap_edges, ((cg_edge){callee, cost}));
}

/* The number of blank-separated words of [p, end). */
static size_t words(const char *p, const char *end)
{
    size_t n = 0;
    int in = 0;

    for (; p < end; p++) {
        int blank = *p == ' ' || *p == '\t';

        n += !blank && !in;
        in = !blank;
    }
    return n;
}

/* Reads the file into g. */
static int parse(cg_graph *g, const char *text, size_t n, bh_error *e)
{
    const char *p = text, *end = text + n;
    long ir = -1;
    size_t npos = 1;
    size_t cur = SIZE_MAX, callee = SIZE_MAX;
    int pending = 0; /* 1: the next cost line is a call's, 2: a jump's */
    int ln = 0;

    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *le = nl ? nl : end;
        size_t len = (size_t)(le - p);

        ln++;
        if (len && le[-1] == '\r')
            len--;
        if (len > 7 && strncmp(p, "events:", 7) == 0 && ir < 0) {
            const char *q = p + 7, *qe = p + len;
            long k = 0;

            while (q < qe) {
                const char *w;

                while (q < qe && *q == ' ')
                    q++;
                w = q;
                while (q < qe && *q != ' ')
                    q++;
                if (q - w == 2 && strncmp(w, "Ir", 2) == 0)
                    ir = k;
                k += q > w;
            }
        } else if (len > 10 && strncmp(p, "positions:", 10) == 0) {
            npos = words(p + 10, p + len);
        } else if (len >= 3 && strncmp(p, "fn=", 3) == 0) {
            if (fn_ref(g, p + 3, len - 3, ln, &cur, e) != 0)
                return -1;
        } else if (len >= 4 && strncmp(p, "cfn=", 4) == 0) {
            if (fn_ref(g, p + 4, len - 4, ln, &callee, e) != 0)
                return -1;
        } else if (len >= 6 && strncmp(p, "calls=", 6) == 0) {
            pending = 1;
        } else if (len >= 5 && (strncmp(p, "jump=", 5) == 0 || strncmp(p, "jcnd=", 5) == 0)) {
            pending = 2;
        } else if (len > 0 && ((*p >= '0' && *p <= '9') || *p == '+' || *p == '-' || *p == '*')) {
            double v = ir >= 0 ? cost_at(p, p + len, npos + (size_t)ir) : 0;

            if (ir < 0)
                return bh_error_set(e, "%s:%d: a cost line before an events: line with Ir", g->file,
                                    ln);
            if (cur == SIZE_MAX)
                return bh_error_set(e, "%s:%d: a cost line before any fn= line", g->file, ln);
            if (pending == 1 && callee != SIZE_MAX) {
                add_edge(&g->fns[cur], callee, v);
                if (callee != cur)
                    g->fns[callee].called = 1;
            } else if (pending == 0) {
                g->fns[cur].self += v;
            }
            pending = 0;
        }
        p = nl ? nl + 1 : end;
    }
    if (ir < 0)
        return bh_error_set(e, "%s: no events: line with Ir (not a callgrind output file?)",
                            g->file);
    if (pending == 1)
        return bh_error_set(e, "%s:%d: calls= without its cost line", g->file, ln);
    return 0;
}

/* Adds the callees of function fn, drawn as node with cost w, under it;
 * stack[0..depth) holds the functions above. */
static void expand(const cg_graph *g, bh_flame *f, size_t node, size_t fn, double w, size_t *stack,
                   size_t depth, double least)
{
    const cg_fn *c = &g->fns[fn];
    double scale = c->incl > 0 ? w / c->incl : 0;

    stack[depth] = fn;
    if (depth + 1 >= MAX_DEPTH)
        return;
    for (size_t i = 0; i < c->n_edges; i++) {
        const cg_edge *ed = &c->edges[i];
        double cw = ed->cost * scale;
        size_t k, child;
        int on_stack = 0;

        for (k = 0; k <= depth; k++)
            on_stack |= stack[k] == ed->callee;
        if (on_stack || !(cw >= least) || f->n >= MAX_NODES)
            continue;
        child = bh_flame_child(f, node, g->fns[ed->callee].name);
        f->nodes[child].value += cw;
        expand(g, f, child, ed->callee, cw, stack, depth + 1, least);
    }
}

int bh_flame_from_callgrind(const char *text, size_t n, const char *file, bh_flame *f, bh_error *e)
{
    cg_graph g;
    size_t stack[MAX_DEPTH];
    double total = 0;
    int rc = -1;

    memset(&g, 0, sizeof(g));
    g.file = file ? file : "callgrind output";
    if (parse(&g, text ? text : "", text ? n : 0, e) != 0)
        goto out;
    for (size_t i = 0; i < g.n; i++) {
        cg_fn *c = &g.fns[i];

        c->incl = c->self;
        for (size_t k = 0; k < c->n_edges; k++)
            if (c->edges[k].callee != i)
                c->incl += c->edges[k].cost;
    }
    for (size_t i = 0; i < g.n; i++)
        if (!g.fns[i].called)
            total += g.fns[i].incl;
    for (size_t i = 0; i < g.n; i++) {
        size_t node;

        if (g.fns[i].called || !(g.fns[i].incl > 0))
            continue;
        node = bh_flame_child(f, 0, g.fns[i].name);
        f->nodes[node].value += g.fns[i].incl;
        f->nodes[0].value += g.fns[i].incl;
        expand(&g, f, node, i, g.fns[i].incl, stack, 0, total * MIN_SHARE);
    }
    rc = 0;
out:
    for (size_t i = 0; i < g.n; i++) {
        free(g.fns[i].name);
        free(g.fns[i].edges);
    }
    free(g.fns);
    free(g.ids);
    free(g.slots);
    return rc;
}
