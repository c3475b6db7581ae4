// SPDX-License-Identifier: MIT
/*
 * mem_trace.c -- the trace builder (slots recycled LIFO, live and peak
 * bytes) and the check (mem_trace.h). The generators are in
 * mem_trace_gen.c.
 */
#include "mem_trace_build.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Appends one event; marks t failed when it cannot grow. */
static void push(mem_trace *t, uint32_t op, uint32_t slot, uint64_t bytes)
{
    if (t->count == t->cap) {
        size_t cap = t->cap ? 2 * t->cap : 1024;
        mem_event *ev = realloc(t->ev, cap * sizeof(*ev));

        if (ev == NULL) {
            t->failed = 1;
            return;
        }
        t->ev = ev;
        t->cap = cap;
    }
    t->ev[t->count++] = (mem_event){op, slot, bytes};
}

/* Makes room for one more slot; -1 when memory runs out. */
static int grow_slots(mem_trace *t)
{
    uint32_t cap = t->slot_cap ? 2 * t->slot_cap : 256;
    uint64_t *size_of = realloc(t->size_of, cap * sizeof(*size_of));
    uint32_t *free_slots;

    if (size_of == NULL)
        return -1;
    t->size_of = size_of;
    free_slots = realloc(t->free_slots, cap * sizeof(*free_slots));
    if (free_slots == NULL)
        return -1;
    t->free_slots = free_slots;
    t->slot_cap = cap;
    return 0;
}

uint32_t mem_tb_alloc(mem_trace *t, uint64_t bytes)
{
    uint32_t slot;

    if (bytes == 0)
        bytes = 1;
    if (t->nfree > 0) {
        slot = t->free_slots[--t->nfree];
    } else {
        if (t->slots == t->slot_cap && grow_slots(t) != 0) {
            t->failed = 1;
            return 0;
        }
        slot = t->slots++;
    }
    t->size_of[slot] = bytes;
    t->live += bytes;
    if (t->live > t->peak_live)
        t->peak_live = t->live;
    if (bytes > t->max_block)
        t->max_block = bytes;
    t->allocs++;
    push(t, MEM_EV_ALLOC, slot, bytes);
    return slot;
}

void mem_tb_free(mem_trace *t, uint32_t slot)
{
    if (t->failed || slot >= t->slots || t->size_of[slot] == 0)
        return;
    push(t, MEM_EV_FREE, slot, t->size_of[slot]);
    t->live -= t->size_of[slot];
    t->size_of[slot] = 0;
    t->free_slots[t->nfree++] = slot;
}

int mem_tb_done(mem_trace *t, char *err, size_t cap)
{
    if (!t->failed)
        return mem_trace_check(t, err, cap);
    snprintf(err, cap, "out of memory generating the trace");
    return -1;
}

/* Frees the generator's tables, keeping the events. */
static void drop_builder(mem_trace *t)
{
    free(t->size_of);
    free(t->free_slots);
    t->size_of = NULL;
    t->free_slots = NULL;
    t->nfree = t->slot_cap = 0;
}

int mem_trace_check(mem_trace *t, char *err, size_t cap)
{
    uint64_t *size = calloc(t->slots ? t->slots : 1, sizeof(*size));
    uint64_t live = 0;
    int rc = 0;

    if (size == NULL) {
        snprintf(err, cap, "out of memory checking the trace");
        return -1;
    }
    t->allocs = t->peak_live = t->max_block = 0;
    for (size_t i = 0; i < t->count && rc == 0; i++) {
        const mem_event *e = &t->ev[i];
        int bad = e->slot >= t->slots || e->bytes == 0 ||
                  (e->op == MEM_EV_ALLOC ? size[e->slot] != 0
                                         : e->op != MEM_EV_FREE || size[e->slot] != e->bytes);

        if (bad) {
            snprintf(err, cap, "event %zu (op %u, slot %u, %llu bytes) does not fit the slot", i,
                     e->op, e->slot, (unsigned long long)e->bytes);
            rc = -1;
        } else if (e->op == MEM_EV_ALLOC) {
            size[e->slot] = e->bytes;
            live += e->bytes;
            t->allocs++;
            t->peak_live = live > t->peak_live ? live : t->peak_live;
            t->max_block = e->bytes > t->max_block ? e->bytes : t->max_block;
        } else {
            size[e->slot] = 0;
            live -= e->bytes;
        }
    }
    if (rc == 0 && live != 0) {
        snprintf(err, cap, "%llu bytes still live at the end of the trace",
                 (unsigned long long)live);
        rc = -1;
    }
    free(size);
    drop_builder(t);
    return rc;
}

void mem_trace_free(mem_trace *t)
{
    drop_builder(t);
    free(t->ev);
    memset(t, 0, sizeof(*t));
}
