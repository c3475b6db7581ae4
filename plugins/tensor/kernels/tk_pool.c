// SPDX-License-Identifier: MIT
/*
 * tk_pool.c -- the kernels' thread pool: the plugins' shared bh_pool
 * (plugins/common) with one share per thread, and the size below which a
 * call stays on the caller. A worker that is not running when a call
 * starts delays nothing: the caller runs the shares it would have taken.
 */
#include "tk_internal.h"

#include "bh_pool.h"

/* Work below this many bytes per thread runs on the caller alone. */
#define MIN_BYTES_PER_THREAD ((size_t)128 << 10)

/* The kernel behind one pool call. */
typedef struct tk_call {
    tk_task_fn fn;
    void *arg;
} tk_call;

/* bh_pool task: share `task` of `tasks`. */
static void call_share(void *arg, uint32_t task, uint32_t tasks, uint32_t thread)
{
    const tk_call *c = arg;

    (void)thread;
    c->fn(c->arg, task, tasks);
}

tk_pool *tk_pool_create(unsigned nthreads)
{
    if (nthreads < 1 || nthreads > 256)
        return NULL;
    return bh_pool_create(nthreads, 0);
}

void tk_pool_destroy(tk_pool *p)
{
    bh_pool_destroy(p);
}

unsigned tk_pool_threads(const tk_pool *p)
{
    return bh_pool_threads(p);
}

void tk_pool_run(tk_pool *p, size_t work_bytes, tk_task_fn fn, void *arg)
{
    unsigned n = bh_pool_threads(p);
    tk_call c = {fn, arg};

    if (n == 1 || work_bytes < MIN_BYTES_PER_THREAD * n) {
        fn(arg, 0, 1);
        return;
    }
    bh_pool_run(p, n, call_share, &c);
}
