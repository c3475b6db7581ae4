// SPDX-License-Identifier: MIT
/*
 * ie_linear.c -- y = x W^T for one weight matrix. f32 weights: one backend
 * gemm. bf16/int8 weights: dequantize-on-the-fly, tile by tile of output
 * rows into an f32 scratch buffer, one backend gemm per tile. For few rows
 * (decode) with ctx->matvec == IE_MATVEC_HOST: the engine's own
 * matrix-vector kernel over the stored weights, in parallel.
 */
#include "ie_internal.h"

#include "bh_pool.h"

#include <stdbool.h>
#include <string.h>

#define MV_PAR_MIN 65536
/* Output rows per unit of a thread's share and per claim (multiples of 16
 * keep the output ranges of different claims on separate cache lines). */
#define MV_ROW_ALIGN 16
#define MV_CLAIM 32

typedef struct mv_job {
    const ie_weight *w;
    const float *x;
    float *y;
    int rows, tasks;
    const ie_kern *k;
    ie_mv_span *spans; /* [tasks] */
    const float *bias; /* epilogue, see ie_linear_ep */
    int act;
} mv_job;

/* The epilogue on outputs [o0, o1) of every input row. */
static void mv_epilogue(const mv_job *j, int o0, int o1)
{
    size_t n = (size_t)(o1 - o0);

    for (int r = 0; r < j->rows; r++) {
        float *y = j->y + (size_t)r * (size_t)j->w->rows + (size_t)o0;

        if (j->bias != NULL)
            j->k->add(y, j->bias + o0, n);
        if (j->act == IE_ACT_GELU_TANH)
            j->k->gelu_tanh(y, n);
        else if (j->act == IE_ACT_GELU_ERF)
            j->k->gelu_erf(y, n);
    }
}

/* Output rows [o0, o1) for every input row, then their epilogue. */
static void mv_rows(const mv_job *j, int o0, int o1)
{
    const ie_weight *w = j->w;

    if (w->type == IE_W_F32)
        j->k->mv_f32(w->d.host, w->cols, o0, o1, j->x, w->cols, j->rows, j->y,
                     w->rows);
    else if (w->type == IE_W_BF16)
        j->k->mv_bf16(w->d.host, w->cols, o0, o1, j->x, w->cols, j->rows,
                      j->y, w->rows);
    else
        j->k->mv_i8(w->d.host, w->scale, w->cols, o0, o1, j->x, w->cols,
                    j->rows, j->y, w->rows);
    if (j->bias != NULL || j->act != IE_ACT_NONE)
        mv_epilogue(j, o0, o1);
}

/* Claims up to MV_CLAIM unclaimed rows of sp into [*o0, *o1): from the
 * front (the share's owner, streaming forward) or from the back (a thread
 * done with its own share); false when none is left. */
static bool claim(ie_mv_span *sp, bool back, int *o0, int *o1)
{
    uint64_t v = atomic_load_explicit(&sp->rows, memory_order_relaxed);

    for (;;) {
        uint32_t f = (uint32_t)(v >> 32), e = (uint32_t)v, n;
        uint64_t nv;

        if (f >= e)
            return false;
        n = e - f < MV_CLAIM ? e - f : MV_CLAIM;
        nv = back ? (uint64_t)f << 32 | (e - n) : (uint64_t)(f + n) << 32 | e;
        if (atomic_compare_exchange_weak_explicit(&sp->rows, &v, nv,
                                                  memory_order_relaxed,
                                                  memory_order_relaxed)) {
            *o0 = (int)(back ? e - n : f);
            *o1 = (int)(back ? e : f + n);
            return true;
        }
    }
}

/* Task t: share t from its front, then the rows left of the other shares
 * from their backs. */
static void mv_task(void *arg, int t, int thread)
{
    mv_job *j = arg;
    int o0, o1;

    (void)thread;
    while (claim(&j->spans[t], false, &o0, &o1))
        mv_rows(j, o0, o1);
    for (int k = 1; k < j->tasks; k++)
        while (claim(&j->spans[(t + k) % j->tasks], true, &o0, &o1))
            mv_rows(j, o0, o1);
}

/* The host matrix-vector path (rows <= IE_MV_MAXB) with its epilogue. */
static int host_mv(ie_state *s, const ie_weight *w, const float *bias,
                   int act, const ie_dbuf *x, ie_dbuf *y, int rows)
{
    ie_ctx *ctx = s->ctx;
    mv_job j = {w, x->host, y->host, rows, 1, ie_kern_get(), s->mv_spans,
                bias, act};

    /* One contiguous share per thread, one long weight stream each; a
     * thread done early takes blocks from the back of the others' shares,
     * and a worker that starts late delays nothing. Small matrices (under
     * 256 KiB of f32 weights) stay on the calling thread. */
    if ((size_t)w->rows * (size_t)w->cols < MV_PAR_MIN) {
        mv_rows(&j, 0, w->rows);
        return IE_OK;
    }
    j.tasks = ie_pool_threads(ctx->pool);
    for (int t = 0; t < j.tasks; t++) {
        size_t b, e;

        bh_split((size_t)w->rows, MV_ROW_ALIGN, (unsigned)t,
                 (unsigned)j.tasks, &b, &e);
        atomic_store_explicit(&s->mv_spans[t].rows, (uint64_t)b << 32 | e,
                              memory_order_relaxed);
    }
    ie_pool_run(ctx->pool, j.tasks, mv_task, &j);
    return IE_OK;
}

typedef struct deq_job {
    const ie_weight *w;
    float *dst;
    int r0;
    const ie_kern *k;
} deq_job;

/* Task t: dequantizes tile row t into the scratch. */
static void deq_task(void *arg, int t, int thread)
{
    deq_job *j = arg;
    const ie_weight *w = j->w;
    size_t cols = (size_t)w->cols, row = (size_t)(j->r0 + t);
    float *dst = j->dst + (size_t)t * cols;

    (void)thread;
    if (w->type == IE_W_BF16)
        j->k->deq_bf16((const uint16_t *)w->d.host + row * cols, dst, cols);
    else
        j->k->deq_i8((const int8_t *)w->d.host + row * cols, w->scale[row],
                     dst, cols);
}

/* bf16 / int8 weights through the backend gemm, one tile at a time. */
static int tiled(ie_state *s, const ie_weight *w, ie_dbuf *x, ie_dbuf *y,
                 int rows)
{
    ie_ctx *ctx = s->ctx;
    deq_job j = {w, s->wt.host, 0, ie_kern_get()};
    int rc = IE_OK;

    for (int r0 = 0; rc == IE_OK && r0 < w->rows; r0 += s->tile_rows) {
        int n = w->rows - r0 < s->tile_rows ? w->rows - r0 : s->tile_rows;
        const float *yt = s->yt.host;
        float *yo = y->host;

        j.r0 = r0;
        ie_pool_run(ctx->pool, n, deq_task, &j);
        rc = ie_dbuf_push(ctx, &s->wt, 0, (uint64_t)n * w->cols * 4u);
        if (rc == IE_OK)
            rc = ie_gemm_xwt(ctx, x, &s->wt, &s->yt, (uint64_t)rows,
                             (uint64_t)n, (uint64_t)w->cols, 0.0);
        if (rc == IE_OK)
            rc = ie_dbuf_pull(ctx, &s->yt, 0, (uint64_t)rows * n * 4u);
        for (int r = 0; rc == IE_OK && r < rows; r++)
            memcpy(yo + (size_t)r * w->rows + r0, yt + (size_t)r * n,
                   (size_t)n * sizeof(float));
    }
    return rc;
}

int ie_linear_ep(ie_state *s, const ie_weight *w, const float *bias,
                 int act, ie_dbuf *x, ie_dbuf *y, int rows)
{
    ie_ctx *ctx = s->ctx;
    int rc;

    if (ctx->matvec == IE_MATVEC_HOST && rows <= ctx->matvec_max_rows &&
        rows <= IE_MV_MAXB)
        return host_mv(s, w, bias, act, x, y, rows);
    rc = ie_dbuf_push(ctx, x, 0, (uint64_t)rows * w->cols * 4u);
    if (rc != IE_OK)
        return rc;
    if (w->type != IE_W_F32) {
        rc = tiled(s, w, x, y, rows);
    } else {
        rc = ie_gemm_xwt(ctx, x, &w->d, y, (uint64_t)rows, (uint64_t)w->rows,
                         (uint64_t)w->cols, 0.0);
        if (rc == IE_OK)
            rc = ie_dbuf_pull(ctx, y, 0, (uint64_t)rows * w->rows * 4u);
    }
    if (rc == IE_OK && act != IE_ACT_NONE)
        ie_ops_gelu(ctx, y->host, bias, rows, w->rows, act == IE_ACT_GELU_ERF);
    else if (rc == IE_OK && bias != NULL)
        ie_ops_bias(ctx, y->host, bias, rows, w->rows);
    return rc;
}

int ie_linear(ie_state *s, const ie_weight *w, ie_dbuf *x, ie_dbuf *y,
              int rows)
{
    return ie_linear_ep(s, w, NULL, IE_ACT_NONE, x, y, rows);
}
