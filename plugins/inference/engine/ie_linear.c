/*
 * ie_linear.c -- y = x W^T for one weight matrix. f32 weights: one backend
 * gemm. bf16/int8 weights: dequantize-on-the-fly, tile by tile of output
 * rows into an f32 scratch buffer, one backend gemm per tile. For few rows
 * (decode) with ctx->matvec == IE_MATVEC_HOST: the engine's own
 * matrix-vector kernel over the stored weights, in parallel.
 */
#include "ie_internal.h"

#include <string.h>

#define MV_PAR_MIN 65536
/* Tasks per thread of one matrix-vector product: enough to balance a
 * thread that starts late, few enough that each keeps a long stream. */
#define MV_TASKS_PER_THREAD 4

typedef struct mv_job {
    const ie_weight *w;
    const float *x;
    float *y;
    int rows, chunk;
    const ie_kern *k;
} mv_job;

/* Task t: output rows [t*chunk, ...) for every input row. */
static void mv_task(void *arg, int t, int thread)
{
    mv_job *j = arg;
    const ie_weight *w = j->w;
    int o0 = t * j->chunk;
    int o1 = o0 + j->chunk < w->rows ? o0 + j->chunk : w->rows;

    (void)thread;
    if (w->type == IE_W_F32)
        j->k->mv_f32(w->d.host, w->cols, o0, o1, j->x, w->cols, j->rows, j->y,
                     w->rows);
    else if (w->type == IE_W_BF16)
        j->k->mv_bf16(w->d.host, w->cols, o0, o1, j->x, w->cols, j->rows,
                      j->y, w->rows);
    else
        j->k->mv_i8(w->d.host, w->scale, w->cols, o0, o1, j->x, w->cols,
                    j->rows, j->y, w->rows);
}

/* The host matrix-vector path (rows <= IE_MV_MAXB). */
static int host_mv(ie_state *s, const ie_weight *w, const ie_dbuf *x,
                   ie_dbuf *y, int rows)
{
    ie_ctx *ctx = s->ctx;
    int threads = ie_pool_threads(ctx->pool);
    mv_job j = {w, x->host, y->host, rows, 64, ie_kern_get()};
    int tasks;

    /* MV_TASKS_PER_THREAD tasks per thread, in multiples of 16 rows; small matrices
     * (under 256 KiB of f32 weights) stay on the calling thread */
    if ((size_t)w->rows * (size_t)w->cols < MV_PAR_MIN) {
        j.chunk = w->rows;
        mv_task(&j, 0, 0);
        return IE_OK;
    }
    j.chunk = w->rows / (MV_TASKS_PER_THREAD * threads);
    j.chunk = j.chunk < 16 ? 16 : j.chunk - j.chunk % 16;
    tasks = (w->rows + j.chunk - 1) / j.chunk;
    ie_pool_run(ctx->pool, tasks, mv_task, &j);
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

int ie_linear(ie_state *s, const ie_weight *w, ie_dbuf *x, ie_dbuf *y,
              int rows)
{
    ie_ctx *ctx = s->ctx;
    int rc;

    if (ctx->matvec == IE_MATVEC_HOST && rows <= ctx->matvec_max_rows &&
        rows <= IE_MV_MAXB)
        return host_mv(s, w, x, y, rows);
    rc = ie_dbuf_push(ctx, x, 0, (uint64_t)rows * w->cols * 4u);
    if (rc != IE_OK)
        return rc;
    if (w->type != IE_W_F32)
        return tiled(s, w, x, y, rows);
    rc = ie_gemm_xwt(ctx, x, &w->d, y, (uint64_t)rows, (uint64_t)w->rows,
                     (uint64_t)w->cols, 0.0);
    if (rc == IE_OK)
        rc = ie_dbuf_pull(ctx, y, 0, (uint64_t)rows * w->rows * 4u);
    return rc;
}
