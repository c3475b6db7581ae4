// SPDX-License-Identifier: MIT
/* See massif_out.h. */
#include "massif_out.h"

#include "bh_mem.h"

#include <stdlib.h>
#include <string.h>

#define MAX_LEVELS 256

/* One snapshot's figures while it is read. */
typedef struct ms_snap {
    int number;
    double time, heap, extra, stacks;
    int has_heap;
    int peak;
    const char *tree; /* its first tree line, NULL when none */
    int tree_line;
} ms_snap;

/* The value of "key=NUMBER" on line [p, p + len), into *v. */
static int field(const char *p, size_t len, const char *key, double *v)
{
    size_t k = strlen(key);
    char buf[64];
    char *end;

    if (len <= k + 1 || strncmp(p, key, k) != 0 || p[k] != '=' || len - k - 1 >= sizeof(buf))
        return 0;
    memcpy(buf, p + k + 1, len - k - 1);
    buf[len - k - 1] = '\0';
    *v = strtod(buf, &end);
    return end != buf && *end == '\0' ? 1 : -1;
}

/* The frame name of a tree line's description: "0xADDR: fn (file:line)"
 * -> "fn"; anything else as it is (new string). */
static char *frame_of(const char *d, size_t n)
{
    const char *colon = memchr(d, ':', n);

    if (n > 2 && d[0] == '0' && d[1] == 'x' && colon) {
        const char *s = colon + 1;
        const char *e = d + n;

        while (s < e && *s == ' ')
            s++;
        for (const char *q = s; q + 1 < e; q++)
            if (q[0] == ' ' && q[1] == '(') {
                e = q;
                break;
            }
        return bh_xstrndup(s, (size_t)(e - s));
    }
    if (n > 2 && d[0] == '(' && memchr(d, ')', n)) {
        const char *r = memchr(d, ')', n);

        return bh_xstrndup(d + 1, (size_t)(r - d - 1));
    }
    return bh_xstrndup(d, n);
}

/* Adds the tree that starts at p (lines " * nK: BYTES DESC", one space of
 * indent per level) to f. */
static void add_tree(const char *p, const char *end, bh_flame *f)
{
    size_t at[MAX_LEVELS + 1];

    at[0] = 0;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *le = nl ? nl : end;
        const char *q = p, *colon;
        size_t depth = 0;
        double bytes;
        char *name;
        size_t node;

        while (q < le && *q == ' ')
            q++, depth++;
        if (q >= le || *q != 'n' || depth >= MAX_LEVELS)
            break;
        colon = memchr(q, ':', (size_t)(le - q));
        if (!colon)
            break;
        q = colon + 1;
        bytes = strtod(q, (char **)&q);
        while (q < le && *q == ' ')
            q++;
        name = frame_of(q, (size_t)(le - q));
        if (depth == 0) {
            f->nodes[0].value += bytes;
            node = bh_flame_child(f, 0, name);
        } else {
            node = bh_flame_child(f, at[depth], name);
        }
        f->nodes[node].value += bytes;
        at[depth + 1] = node;
        free(name);
        p = nl ? nl + 1 : end;
    }
}

/* Keeps s as the best snapshot so far when it is the peak, or bigger. */
static void consider(const ms_snap *s, ms_snap *best, int *have)
{
    if (!s->has_heap)
        return;
    if (!*have || (s->peak && !best->peak) || (s->peak == best->peak && s->heap > best->heap)) {
        *best = *s;
        *have = 1;
    }
}

int bh_massif_parse(const char *text, size_t n, const char *file, bh_massif_peak *out, bh_flame *f,
                    bh_error *e)
{
    const char *p = text ? text : "", *end = p + (text ? n : 0);
    ms_snap cur, best;
    int in = 0, have = 0, ln = 0;
    unsigned count = 0;

    memset(out, 0, sizeof(*out));
    memset(&cur, 0, sizeof(cur));
    memset(&best, 0, sizeof(best));
    file = file ? file : "massif output";
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *le = nl ? nl : end;
        size_t len = (size_t)(le - p);
        double v;
        int r;

        ln++;
        if ((r = field(p, len, "snapshot", &v)) != 0) {
            if (in)
                consider(&cur, &best, &have);
            memset(&cur, 0, sizeof(cur));
            cur.number = (int)v;
            in = 1;
            count++;
        } else if (in && (r = field(p, len, "time", &cur.time)) != 0) {
        } else if (in && (r = field(p, len, "mem_heap_B", &cur.heap)) != 0) {
            cur.has_heap = r > 0;
        } else if (in && (r = field(p, len, "mem_heap_extra_B", &cur.extra)) != 0) {
        } else if (in && (r = field(p, len, "mem_stacks_B", &cur.stacks)) != 0) {
        } else if (in && len == 14 && strncmp(p, "heap_tree=peak", 14) == 0) {
            cur.peak = 1;
        } else if (in && len > 1 && p[0] == 'n' && !cur.tree) {
            cur.tree = p;
            cur.tree_line = ln;
        }
        if (r < 0)
            return bh_error_set(e, "%s:%d: expected a number after '='", file, ln);
        if (in && len > 10 && strncmp(p, "mem_heap_B", 10) == 0 && !cur.has_heap)
            return bh_error_set(e, "%s:%d: mem_heap_B: expected a number of bytes", file, ln);
        p = nl ? nl + 1 : end;
    }
    if (in)
        consider(&cur, &best, &have);
    if (!have)
        return bh_error_set(e, "%s: no snapshot with mem_heap_B (not a massif output file?)", file);
    out->snapshot = best.number;
    out->has_tree = best.peak && best.tree;
    out->time = best.time;
    out->heap_bytes = best.heap;
    out->extra_bytes = best.extra;
    out->stacks_bytes = best.stacks;
    out->snapshots = count;
    if (f && out->has_tree)
        add_tree(best.tree, end, f);
    return 0;
}
