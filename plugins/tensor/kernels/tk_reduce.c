// SPDX-License-Identifier: MIT
/*
 * tk_reduce.c -- tk_reduce: sum, mean, max, argmax and variance of a
 * contiguous [outer, r, inner] tensor over its middle axis. Three shapes
 * of work: one long vector (threads take chunks, partial results merged in
 * thread order, so results repeat exactly), many rows (threads take rows),
 * and a strided axis (inner > 1: rows of x are accumulated into the output
 * in column chunks that stay in L1).
 */
#include "tk_internal.h"

#include <float.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#define MAX_THREADS 256
/* Output columns accumulated together when inner > 1 (16 KiB of f32). */
#define COL_CHUNK 4096

typedef struct part {
    double sum, mean, m2; /* sum; or mean and M2 of cnt elements */
    float best;
    size_t arg, cnt;
} part;

typedef struct red_job {
    tk_red_op op;
    const float *x;
    size_t outer, r, inner;
    void *out;
    float *scratch; /* inner > 1, var/argmax: outer * inner floats */
    unsigned used;  /* threads the whole-vector call ran on */
    part parts[MAX_THREADS]; /* [0, used) written by vector_task */
    const tk_isa_ops *ops;
} red_job;

const char *tk_red_name(tk_red_op op)
{
    static const char *const names[TK_RED_COUNT] = {"sum", "mean", "max",
                                                   "argmax", "var"};

    return (unsigned)op < TK_RED_COUNT ? names[op] : NULL;
}

double tk_reduce_rel_bound(size_t r, size_t inner)
{
    double u = FLT_EPSILON / 2;

    if (inner > 1)
        return ((double)r + 2.0) * u; /* one f32 accumulator per column */
    return (64.0 + 2.0 + 8.0 + 2.0) * u; /* blocked lanes, see the body */
}

/* Partial result of op over x[0..n) into *p. */
static void reduce_part(const red_job *j, const float *x, size_t n, part *p)
{
    p->cnt = n;
    switch (j->op) {
    case TK_RED_SUM:
    case TK_RED_MEAN:
        p->sum = j->ops->sum_f32(x, n);
        break;
    case TK_RED_MAX:
        p->best = j->ops->max_f32(x, n);
        break;
    case TK_RED_ARGMAX:
        p->arg = j->ops->argmax_f32(x, n, &p->best);
        break;
    default:
        j->ops->moments_f32(x, n, &p->mean, &p->m2);
        break;
    }
}

/* Merges partial b (later elements, offset already in b->arg) into a. */
static void merge(tk_red_op op, part *a, const part *b)
{
    double tot = (double)a->cnt + (double)b->cnt;
    double delta = b->mean - a->mean;

    switch (op) {
    case TK_RED_SUM:
    case TK_RED_MEAN:
        a->sum += b->sum;
        break;
    case TK_RED_MAX:
        a->best = b->best > a->best ? b->best : a->best;
        break;
    case TK_RED_ARGMAX:
        if (b->best > a->best) {
            a->best = b->best;
            a->arg = b->arg;
        }
        break;
    default:
        a->mean += delta * (double)b->cnt / tot;
        a->m2 += b->m2 + delta * delta * (double)a->cnt * (double)b->cnt / tot;
        break;
    }
    a->cnt += b->cnt;
}

/* Writes the final value of p (over n elements) to out[k]. */
static void emit(const red_job *j, const part *p, size_t n, size_t k)
{
    float v;

    switch (j->op) {
    case TK_RED_ARGMAX:
        ((int64_t *)j->out)[k] = (int64_t)p->arg;
        return;
    case TK_RED_SUM:
        v = (float)p->sum;
        break;
    case TK_RED_MEAN:
        v = (float)(p->sum / (double)n);
        break;
    case TK_RED_MAX:
        v = p->best;
        break;
    default:
        v = (float)(p->m2 / (double)n);
        break;
    }
    ((float *)j->out)[k] = v;
}

/* Whole vector: thread tid's chunk into parts[tid]. */
static void vector_task(void *arg, unsigned tid, unsigned nthr)
{
    red_job *j = arg;
    size_t b, e;

    if (tid == 0)
        j->used = nthr;
    bh_split(j->r, 16, tid, nthr, &b, &e);
    memset(&j->parts[tid], 0, sizeof(part));
    if (e > b) {
        reduce_part(j, j->x + b, e - b, &j->parts[tid]);
        j->parts[tid].arg += b;
    }
}

/* Rows (inner == 1): thread tid's rows, one output each. */
static void rows_task(void *arg, unsigned tid, unsigned nthr)
{
    red_job *j = arg;
    size_t b, e;

    bh_split(j->outer, 1, tid, nthr, &b, &e);
    for (size_t o = b; o < e; o++) {
        part p;

        memset(&p, 0, sizeof(p));
        reduce_part(j, j->x + o * j->r, j->r, &p);
        emit(j, &p, j->r, o);
    }
}

/* Strided axis, columns [c0, c1) of slice o. */
static void columns(red_job *j, size_t o, size_t c0, size_t c1)
{
    const float *x = j->x + o * j->r * j->inner;
    size_t n = c1 - c0, base = o * j->inner + c0;
    float *acc = j->op == TK_RED_ARGMAX ? j->scratch + base
                                        : (float *)j->out + base;

    memcpy(acc, x + c0, n * sizeof(float));
    if (j->op == TK_RED_ARGMAX) {
        int64_t *idx = (int64_t *)j->out + base;

        memset(idx, 0, n * sizeof(int64_t));
        for (size_t t = 1; t < j->r; t++) {
            const float *row = x + t * j->inner + c0;

            for (size_t c = 0; c < n; c++)
                if (row[c] > acc[c]) {
                    acc[c] = row[c];
                    idx[c] = (int64_t)t;
                }
        }
        return;
    }
    for (size_t t = 1; t < j->r; t++) {
        if (j->op == TK_RED_MAX)
            j->ops->acc_max(acc, x + t * j->inner + c0, n);
        else
            j->ops->acc_add(acc, x + t * j->inner + c0, n);
    }
    if (j->op == TK_RED_SUM || j->op == TK_RED_MAX)
        return;
    for (size_t c = 0; c < n; c++)
        acc[c] /= (float)j->r;
    if (j->op == TK_RED_VAR) {
        float *mean = j->scratch + base;

        memcpy(mean, acc, n * sizeof(float));
        memset(acc, 0, n * sizeof(float));
        for (size_t t = 0; t < j->r; t++)
            j->ops->acc_sqdev(acc, x + t * j->inner + c0, mean, n);
        for (size_t c = 0; c < n; c++)
            acc[c] /= (float)j->r;
    }
}

/* Strided axis: whole slices per thread when there are enough, else
 * column ranges of every slice. */
static void strided_task(void *arg, unsigned tid, unsigned nthr)
{
    red_job *j = arg;
    size_t b, e;

    if (j->outer >= nthr) {
        bh_split(j->outer, 1, tid, nthr, &b, &e);
        for (size_t o = b; o < e; o++)
            for (size_t c = 0; c < j->inner; c += COL_CHUNK)
                columns(j, o, c, j->inner - c < COL_CHUNK ? j->inner : c + COL_CHUNK);
        return;
    }
    bh_split(j->inner, 16, tid, nthr, &b, &e);
    for (size_t o = 0; o < j->outer; o++)
        for (size_t c = b; c < e; c += COL_CHUNK)
            columns(j, o, c, e - c < COL_CHUNK ? e : c + COL_CHUNK);
}

int tk_reduce(tk_red_op op, const float *x, size_t outer, size_t r,
              size_t inner, void *out, tk_pool *pool)
{
    red_job job;
    red_job *j = &job;
    size_t total, bytes;
    unsigned nthr = tk_pool_threads(pool);

    if ((unsigned)op >= TK_RED_COUNT || x == NULL || out == NULL || r == 0 ||
        outer == 0 || inner == 0 || tk_mul_overflow(outer, r, &total) ||
        tk_mul_overflow(total, inner, &total) ||
        tk_mul_overflow(total, sizeof(float), &bytes) || nthr > MAX_THREADS)
        return TK_EINVAL;
    memset(j, 0, offsetof(red_job, parts));
    j->op = op;
    j->x = x;
    j->outer = outer;
    j->r = r;
    j->inner = inner;
    j->out = out;
    j->ops = tk_ops();
    if (inner > 1 && (op == TK_RED_VAR || op == TK_RED_ARGMAX)) {
        j->scratch = malloc(outer * inner * sizeof(float));
        if (j->scratch == NULL)
            return TK_ENOMEM;
    }
    if (inner > 1) {
        tk_pool_run(pool, bytes, strided_task, j);
    } else if (outer > 1) {
        tk_pool_run(pool, bytes, rows_task, j);
    } else {
        tk_pool_run(pool, bytes, vector_task, j);
        for (unsigned t = 1; t < j->used; t++)
            if (j->parts[t].cnt != 0)
                merge(op, &j->parts[0], &j->parts[t]);
        emit(j, &j->parts[0], r, 0);
    }
    free(j->scratch);
    return TK_OK;
}
