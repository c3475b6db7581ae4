// SPDX-License-Identifier: MIT
/*
 * ie_ops.c -- row-wise host operations of the forward pass (norms, bias,
 * residual adds, GELU, SwiGLU) over the kernel table, split into row
 * ranges on the thread pool when there is enough work to pay for it.
 */
#include "ie_internal.h"

#include <stddef.h>

/* Elements below which an op runs on the calling thread alone. */
#define PAR_MIN 32768

enum { OP_NORM, OP_RMS, OP_BIAS, OP_RESID, OP_GELU, OP_GELU_ERF, OP_SWIGLU };

typedef struct op_job {
    int op;
    const float *x;
    float *y;
    const float *g, *b;
    int rows, n, chunk;
    float eps;
    const ie_kern *k;
} op_job;

/* Applies the op to one row. */
static void one_row(const op_job *j, int r)
{
    size_t n = (size_t)j->n, off = (size_t)r * n;

    switch (j->op) {
    case OP_NORM:
        j->k->layernorm(j->x + off, j->g, j->b, j->y + off, j->n, j->eps);
        break;
    case OP_RMS:
        j->k->rmsnorm(j->x + off, j->g, j->y + off, j->n, j->eps);
        break;
    case OP_BIAS:
        j->k->add(j->y + off, j->b, n);
        break;
    case OP_RESID:
        j->k->add(j->y + off, j->x + off, n);
        if (j->b != NULL)
            j->k->add(j->y + off, j->b, n);
        break;
    case OP_GELU:
    case OP_GELU_ERF:
        if (j->b != NULL)
            j->k->add(j->y + off, j->b, n);
        if (j->op == OP_GELU)
            j->k->gelu_tanh(j->y + off, n);
        else
            j->k->gelu_erf(j->y + off, n);
        break;
    case OP_SWIGLU:
        j->k->silu_mul(j->x + 2 * off, j->x + 2 * off + n, j->y + off, n);
        break;
    default:
        break;
    }
}

/* Task t: rows [t*chunk, ...). */
static void op_task(void *arg, int t, int thread)
{
    op_job *j = arg;
    int r1 = (t + 1) * j->chunk < j->rows ? (t + 1) * j->chunk : j->rows;

    (void)thread;
    for (int r = t * j->chunk; r < r1; r++)
        one_row(j, r);
}

/* Runs j over its rows, in parallel when large. */
static void run(ie_ctx *ctx, op_job *j)
{
    size_t work = (size_t)j->rows * (size_t)j->n;
    int threads = ie_pool_threads(ctx->pool);
    int tasks;

    j->k = ie_kern_get();
    if (work < PAR_MIN || threads < 2 || j->rows < 2) {
        j->chunk = j->rows;
        op_task(j, 0, 0);
        return;
    }
    j->chunk = (j->rows + 4 * threads - 1) / (4 * threads);
    tasks = (j->rows + j->chunk - 1) / j->chunk;
    ie_pool_run(ctx->pool, tasks, op_task, j);
}

void ie_ops_norm(ie_ctx *ctx, const float *x, float *y, const float *g,
                 const float *b, int rows, int n, float eps, int rms)
{
    op_job j = {rms ? OP_RMS : OP_NORM, x, y, g, b, rows, n, 0, eps, NULL};

    run(ctx, &j);
}

void ie_ops_bias(ie_ctx *ctx, float *x, const float *bias, int rows, int n)
{
    op_job j = {OP_BIAS, NULL, x, NULL, bias, rows, n, 0, 0.0f, NULL};

    if (bias != NULL)
        run(ctx, &j);
}

void ie_ops_residual(ie_ctx *ctx, float *y, const float *x,
                     const float *bias, int rows, int n)
{
    op_job j = {OP_RESID, x, y, NULL, bias, rows, n, 0, 0.0f, NULL};

    run(ctx, &j);
}

void ie_ops_gelu(ie_ctx *ctx, float *x, const float *bias, int rows, int n,
                 int erf)
{
    op_job j = {erf ? OP_GELU_ERF : OP_GELU, NULL, x, NULL, bias, rows, n, 0,
                0.0f, NULL};

    run(ctx, &j);
}

void ie_ops_swiglu(ie_ctx *ctx, const float *gu, float *act, int rows, int ff)
{
    op_job j = {OP_SWIGLU, gu, act, NULL, NULL, rows, ff, 0, 0.0f, NULL};

    run(ctx, &j);
}
