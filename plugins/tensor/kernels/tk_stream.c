// SPDX-License-Identifier: MIT
/*
 * tk_stream.c -- the four STREAM kernels (McCalpin's copy, scale, add,
 * triad) over the thread pool: each thread owns one contiguous, 64-byte
 * aligned share of every array, the split first-touch setup used too, so
 * the pages a thread streams are the ones it placed. Arrays larger than
 * half the last-level cache are written with non-temporal stores.
 */
#include "tk_internal.h"

typedef struct stream_job {
    int kind;
    double *a, *b, *c;
    size_t n;
    double s;
    int nt;
    const tk_isa_ops *ops;
} stream_job;

/* Thread tid's share of all three arrays. */
static void stream_task(void *arg, unsigned tid, unsigned nthr)
{
    const stream_job *j = arg;
    size_t b, e;

    bh_split(j->n, 8, tid, nthr, &b, &e);
    if (e <= b)
        return;
    j->ops->stream(j->kind, j->a + b, j->b + b, j->c + b, e - b, j->s, j->nt);
    if (j->nt)
        tk_sfence();
}

int tk_stream(tk_stream_kind kind, double *a, double *b, double *c, size_t n,
              double s, tk_pool *pool)
{
    stream_job j;
    size_t bytes;

    if (kind < TK_STREAM_COPY || kind > TK_STREAM_TRIAD || a == NULL ||
        b == NULL || c == NULL || tk_mul_overflow(n, 3 * sizeof(double), &bytes))
        return TK_EINVAL;
    if (n == 0)
        return TK_OK;
    j.kind = (int)kind;
    j.a = a;
    j.b = b;
    j.c = c;
    j.n = n;
    j.s = s;
    j.ops = tk_ops();
    j.nt = tk_want_nt(bytes);
    tk_pool_run(pool, bytes, stream_task, &j);
    return TK_OK;
}
