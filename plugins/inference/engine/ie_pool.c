// SPDX-License-Identifier: MIT
/*
 * ie_pool.c -- the engine's fork-join pool: the plugins' shared bh_pool
 * (plugins/common), whose caller runs the tasks of a worker that has not
 * started yet, so a decode step's many small jobs never wait for a worker
 * to wake up. Contracts: ie_internal.h.
 */
#include "ie_internal.h"

#include "bh_pool.h"

#include <stdint.h>

/* Pause instructions a worker spins for the next job: a decode step's jobs
 * come back to back, but with matvec=backend the BLAS library's own
 * threads need the CPUs between them. */
#define IE_POOL_SPIN 4000u

/* The engine task behind one pool call. */
typedef struct ie_call {
    ie_task_fn fn;
    void *arg;
} ie_call;

/* bh_pool task: the engine's (task, thread) signature. */
static void call_task(void *arg, uint32_t task, uint32_t tasks, uint32_t thread)
{
    const ie_call *c = arg;

    (void)tasks;
    c->fn(c->arg, (int)task, (int)thread);
}

ie_pool *ie_pool_create(int threads)
{
    if (threads < 2 || threads > 1024)
        return NULL;
    return bh_pool_create((uint32_t)threads, IE_POOL_SPIN);
}

void ie_pool_destroy(ie_pool *p)
{
    bh_pool_destroy(p);
}

int ie_pool_threads(const ie_pool *p)
{
    return (int)bh_pool_threads(p);
}

void ie_pool_run(ie_pool *p, int tasks, ie_task_fn fn, void *arg)
{
    ie_call c = {fn, arg};

    if (tasks <= 0)
        return;
    bh_pool_run(p, (uint32_t)tasks, call_task, &c);
}
