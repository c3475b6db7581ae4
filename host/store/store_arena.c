// SPDX-License-Identifier: MIT
/* Bump allocation for cJSON while ingesting (see store_arena.h). */
#include "store_arena.h"

#include "bh_mem.h"

#include <cjson/cJSON.h>
#include <stdint.h>
#include <stdlib.h>

#define CHUNK (1u << 20) /* bytes per chunk; larger requests get their own */

/* One chunk: its size and how much is used; the memory follows. */
typedef struct chunk {
    struct chunk *next;
    size_t size, used;
    max_align_t data[];
} chunk;

/* A thread's arena: the chunk being filled, the chunks filled before it,
 * and empty chunks kept for the next span; active between begin and
 * end. */
typedef struct arena {
    chunk *cur, *full, *spare;
    int active;
} arena;

static _Thread_local arena me;

/* Pushes c onto *list. */
static void push(chunk **list, chunk *c)
{
    c->next = *list;
    *list = c;
}

void *bh_store_arena_alloc(size_t n)
{
    size_t need = (n + 15) & ~(size_t)15;
    chunk *c = me.cur;

    if (!c || c->size - c->used < need) {
        if (c)
            push(&me.full, c);
        if (me.spare && me.spare->size >= need) {
            c = me.spare;
            me.spare = c->next;
        } else {
            size_t size = need > CHUNK ? need : CHUNK;

            c = bh_xmalloc(sizeof(chunk) + size);
            c->size = size;
        }
        c->used = 0;
        c->next = NULL;
        me.cur = c;
    }
    c->used += need;
    return (char *)c->data + c->used - need;
}

static void *arena_malloc(size_t n)
{
    return me.active ? bh_store_arena_alloc(n) : malloc(n);
}

static void arena_free(void *p)
{
    if (!me.active)
        free(p);
}

void bh_store_arena_install(void)
{
    cJSON_Hooks h = {arena_malloc, arena_free};

    cJSON_InitHooks(&h);
}

void bh_store_arena_uninstall(void)
{
    cJSON_InitHooks(NULL);
}

void bh_store_arena_begin(void)
{
    me.active = 1;
}

void bh_store_arena_end(void)
{
    me.active = 0;
    if (me.cur)
        push(&me.spare, me.cur);
    me.cur = NULL;
    while (me.full) {
        chunk *c = me.full;

        me.full = c->next;
        push(&me.spare, c);
    }
}

/* Frees the chunks of list. */
static void free_list(chunk *c)
{
    while (c) {
        chunk *next = c->next;

        free(c);
        c = next;
    }
}

void bh_store_arena_release(void)
{
    bh_store_arena_end();
    free_list(me.spare);
    me.spare = NULL;
}
