// SPDX-License-Identifier: MIT
/*
 * mob_pool.c -- the mobile benchmarks' thread pool: the plugins' shared
 * bh_pool (plugins/common) with one share per simulated core, so a layer
 * runs on as many cores as the profile allows. Contracts: mob.h.
 */
#include "mob.h"

#include "bh_pool.h"

/* The task behind one pool run. */
typedef struct mob_call {
    mob_task fn;
    void *arg;
} mob_call;

/* bh_pool task: share `task` of `tasks`. */
static void call_share(void *arg, uint32_t task, uint32_t tasks, uint32_t thread)
{
    const mob_call *c = arg;

    (void)thread;
    c->fn(c->arg, task, tasks);
}

mob_pool *mob_pool_new(unsigned threads)
{
    if (threads < 1 || threads > 1024)
        return NULL;
    return bh_pool_create(threads, 0);
}

void mob_pool_free(mob_pool *p)
{
    bh_pool_destroy(p);
}

void mob_pool_run(mob_pool *p, mob_task fn, void *arg)
{
    mob_call c = {fn, arg};

    bh_pool_run(p, bh_pool_threads(p), call_share, &c);
}

unsigned mob_pool_size(const mob_pool *p)
{
    return bh_pool_threads(p);
}
