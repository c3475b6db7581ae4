// SPDX-License-Identifier: MIT
/*
 * opt_pool.c -- the optimizer's thread pool: the plugins' shared bh_pool
 * (plugins/common) with one share per thread, and the size below which a
 * run stays on the caller. Contracts of the exported functions: opt.h.
 */
#include "opt.h"

/* The task behind one pool run. */
typedef struct opt_call {
    opt_task_fn fn;
    void *arg;
} opt_call;

/* bh_pool task: share `task` of `tasks`. */
static void call_share(void *arg, uint32_t task, uint32_t tasks, uint32_t thread)
{
    const opt_call *c = arg;

    (void)thread;
    c->fn(c->arg, task, tasks);
}

opt_pool *opt_pool_create(unsigned nthreads)
{
    if (nthreads < 1 || nthreads > 256)
        return NULL;
    return bh_pool_create(nthreads, 0);
}

void opt_pool_destroy(opt_pool *p)
{
    bh_pool_destroy(p);
}

unsigned opt_pool_threads(const opt_pool *p)
{
    return bh_pool_threads(p);
}

void opt_pool_run(opt_pool *p, size_t elems, opt_task_fn fn, void *arg)
{
    unsigned n = bh_pool_threads(p);
    opt_call c = {fn, arg};

    if (n == 1 || elems < OPT_POOL_MIN_ELEMS * n) {
        fn(arg, 0, 1);
        return;
    }
    bh_pool_run(p, n, call_share, &c);
}
