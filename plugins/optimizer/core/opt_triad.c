// SPDX-License-Identifier: MIT
/*
 * opt_triad.c -- the STREAM triad over the thread pool: the bandwidth roof
 * the optimizer cases are held to.
 *
 * Contracts of the exported functions: opt.h.
 */
#include "opt_internal.h"

typedef struct triad_ctx {
    double *a;
    const double *b, *c;
    double s;
    size_t n;
} triad_ctx;

/* Thread tid's contiguous share, cut at 8 doubles (one cache line). */
static void triad_task(void *arg, unsigned tid, unsigned nthreads)
{
    const triad_ctx *x = arg;
    size_t b, e;

    bh_split(x->n, 8, tid, nthreads, &b, &e);
    if (b < e)
        opt_ops()->triad(x->a + b, x->b + b, x->c + b, x->s, e - b);
}

void opt_triad(double *a, const double *b, const double *c, double s,
               size_t n, opt_pool *pool)
{
    triad_ctx x = {a, b, c, s, n};

    opt_pool_run(pool, n, triad_task, &x);
}
