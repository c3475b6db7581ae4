// SPDX-License-Identifier: MIT
/*
 * mem_replay.c -- trace replay with written and checked blocks, and the
 * resident-set reader (mem_replay.h).
 */
#include "mem_replay.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int mem_replay_init(mem_replay *r, const mem_trace *t)
{
    size_t n = t->slots ? t->slots : 1;

    memset(r, 0, sizeof(*r));
    r->trace = t;
    r->block = calloc(n, sizeof(*r->block));
    r->val = calloc(n, 1);
    return r->block != NULL && r->val != NULL ? 0 : -1;
}

void mem_replay_fini(mem_replay *r)
{
    free(r->block);
    free(r->val);
    r->block = NULL;
    r->val = NULL;
}

uint64_t mem_rss_bytes(void)
{
    char buf[128];
    unsigned long long size = 0, resident = 0;
    int fd = open("/proc/self/statm", O_RDONLY | O_CLOEXEC);
    ssize_t n;

    if (fd < 0)
        return 0;
    n = read(fd, buf, sizeof(buf) - 1);
    close(fd);
    if (n <= 0)
        return 0;
    buf[n] = '\0';
    if (sscanf(buf, "%llu %llu", &size, &resident) != 2)
        return 0;
    return (uint64_t)resident * (uint64_t)sysconf(_SC_PAGESIZE);
}

/* 1 when all n bytes of p are v. */
static int holds(const unsigned char *p, uint64_t n, unsigned char v)
{
    uint64_t word = 0x0101010101010101ull * v, w;
    uint64_t i = 0;

    for (; i + 8 <= n; i += 8) {
        memcpy(&w, p + i, 8);
        if (w != word)
            return 0;
    }
    for (; i < n; i++)
        if (p[i] != v)
            return 0;
    return 1;
}

/* 1 when block p of n bytes still holds v (whole when checked or
 * measured, else the first, middle and last byte). */
static int intact(mem_replay *r, const unsigned char *p, uint64_t n, unsigned char v, int mode)
{
    if (mode != MEM_REPLAY_TIMED) {
        r->bytes_checked += n;
        return holds(p, n, v);
    }
    return p[0] == v && p[n / 2] == v && p[n - 1] == v;
}

/* Frees every block still live after a replay stopped early. */
static void drop_live(mem_replay *r, mem_alloc *a)
{
    const mem_trace *t = r->trace;
    uint64_t *size = calloc(t->slots ? t->slots : 1, sizeof(*size));

    for (size_t i = 0; size != NULL && i < t->count; i++)
        if (t->ev[i].op == MEM_EV_ALLOC)
            size[t->ev[i].slot] = t->ev[i].bytes;
    for (uint32_t s = 0; s < t->slots; s++)
        if (r->block[s] != NULL) {
            mem_alloc_put(a, 0, r->block[s], size != NULL ? size[s] : 0);
            r->block[s] = NULL;
        }
    free(size);
}

int mem_replay_run(mem_replay *r, mem_alloc *a, int mode, uint64_t seed)
{
    const mem_trace *t = r->trace;

    if (mode == MEM_REPLAY_MEASURED)
        r->rss_start = r->rss_peak = mem_rss_bytes();
    for (size_t i = 0; i < t->count; i++) {
        const mem_event *e = &t->ev[i];
        unsigned char *p;

        if (e->op == MEM_EV_ALLOC) {
            p = mem_alloc_get(a, 0, (size_t)e->bytes);
            if (p == NULL) {
                r->bad_event = i;
                drop_live(r, a);
                return -1;
            }
            r->val[e->slot] = (unsigned char)((seed + i) * 0x9Du | 1u);
            memset(p, r->val[e->slot], (size_t)e->bytes);
            r->block[e->slot] = p;
            if (mode == MEM_REPLAY_MEASURED) {
                uint64_t rss = mem_rss_bytes();
                r->rss_peak = rss > r->rss_peak ? rss : r->rss_peak;
            }
            continue;
        }
        p = r->block[e->slot];
        if (!intact(r, p, e->bytes, r->val[e->slot], mode)) {
            r->bad_event = i;
            drop_live(r, a);
            return -2;
        }
        mem_alloc_put(a, 0, p, (size_t)e->bytes);
        r->block[e->slot] = NULL;
    }
    return 0;
}
