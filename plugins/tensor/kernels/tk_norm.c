// SPDX-License-Identifier: MIT
/*
 * tk_norm.c -- softmax, log-softmax, layernorm and rmsnorm over the rows
 * of a matrix: argument checks and the split of rows over threads. The
 * row kernels are in tk_body_norm.h.
 */
#include "tk_internal.h"

#include <stdlib.h>

/* Softmax rows up to this long keep their exponentials in a per-thread
 * scratch row (128 KiB): one exp per element instead of two. */
#define SCRATCH_MAX 32768

typedef struct norm_job {
    int kind; /* 0 softmax, 1 log-softmax, 2 layernorm, 3 rmsnorm */
    const float *x;
    float *y;
    const float *g, *b;
    size_t rows, cols, ldx, ldy;
    float eps;
    int nt;
    float *scratch; /* softmax: cols floats per thread, or NULL */
    const tk_isa_ops *ops;
} norm_job;

/* Thread tid's rows. */
static void norm_task(void *arg, unsigned tid, unsigned nthr)
{
    const norm_job *j = arg;
    size_t b, e;

    float *scratch = j->scratch != NULL ? j->scratch + (size_t)tid * j->cols : NULL;

    bh_split(j->rows, 1, tid, nthr, &b, &e);
    for (size_t r = b; r < e; r++) {
        const float *x = j->x + r * j->ldx;
        const float *pf = r + 1 < e ? x + j->ldx : NULL;
        float *y = j->y + r * j->ldy;

        switch (j->kind) {
        case 0:
        case 1:
            j->ops->softmax_row(x, y, j->cols, j->kind, j->nt, pf, scratch);
            break;
        case 2:
            j->ops->layernorm_row(x, y, j->g, j->b, j->cols, j->eps, j->nt, pf);
            break;
        default:
            j->ops->rmsnorm_row(x, y, j->g, j->cols, j->eps, j->nt, pf);
            break;
        }
    }
    if (j->nt)
        tk_sfence();
}

/* Checks the shared arguments and runs j over the pool. */
static int run_norm(norm_job *j, tk_pool *pool)
{
    size_t span, bytes;

    if (j->x == NULL || j->y == NULL || j->cols == 0 ||
        (j->rows > 1 && (j->ldx < j->cols || j->ldy < j->cols)) ||
        !(j->eps >= 0.0f))
        return TK_EINVAL;
    if (j->rows == 0)
        return TK_OK;
    if (tk_mul_overflow(j->rows - 1, j->ldx > j->ldy ? j->ldx : j->ldy,
                        &span) ||
        __builtin_add_overflow(span, j->cols, &span) ||
        tk_mul_overflow(span, 2 * sizeof(float), &bytes))
        return TK_EINVAL;
    j->ops = tk_ops();
    j->nt = tk_want_nt(bytes);
    if (j->kind == 0 && j->cols <= SCRATCH_MAX) /* NULL: recompute instead */
        j->scratch = malloc((size_t)tk_pool_threads(pool) * j->cols * sizeof(float));
    tk_pool_run(pool, bytes, norm_task, j);
    free(j->scratch);
    return TK_OK;
}

int tk_softmax(const float *x, float *y, size_t rows, size_t cols,
               size_t ldx, size_t ldy, int log, tk_pool *pool)
{
    norm_job j = {log ? 1 : 0, x, y, NULL, NULL, rows, cols, ldx, ldy,
                  0.0f, 0, NULL, NULL};

    return run_norm(&j, pool);
}

int tk_layernorm(const float *x, float *y, const float *gamma,
                 const float *beta, size_t rows, size_t cols, size_t ldx,
                 size_t ldy, float eps, tk_pool *pool)
{
    norm_job j = {2, x, y, gamma, beta, rows, cols, ldx, ldy, eps, 0, NULL, NULL};

    return run_norm(&j, pool);
}

int tk_rmsnorm(const float *x, float *y, const float *gamma, size_t rows,
               size_t cols, size_t ldx, size_t ldy, float eps, tk_pool *pool)
{
    norm_job j = {3, x, y, gamma, NULL, rows, cols, ldx, ldy, eps, 0, NULL, NULL};

    return run_norm(&j, pool);
}
