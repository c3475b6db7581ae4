/*
 * tk_quant.c -- symmetric int8 and int4 quantization and dequantization,
 * per tensor or per channel (row). int8 runs through the vector kernels of
 * tk_body_misc.h; int4 packing is plain C. Per-tensor scales need a first
 * pass (max |x|, threaded, merged in thread order).
 */
#include "tk_internal.h"

#include <math.h>
#include <string.h>

#define MAX_THREADS 256

typedef struct quant_job {
    int kind; /* 0 q8, 1 dq8, 2 q4, 3 dq4, 4 absmax */
    const void *x;
    void *y;
    float *scales;
    size_t rows, cols;
    int per_channel;
    float part[MAX_THREADS];
    const tk_isa_ops *ops;
} quant_job;

/* Bytes of one packed int4 row. */
static size_t i4_row(size_t cols)
{
    return (cols + 1) / 2;
}

/* Scale of a group whose largest magnitude is amax. */
static float scale_of(float amax, float qmax)
{
    return amax > 0.0f ? amax / qmax : 1.0f;
}

/* Packs one row of int4 values. */
static void q4_row(const float *x, uint8_t *q, size_t cols, float scale)
{
    for (size_t c = 0; c < cols; c += 2) {
        float v0 = nearbyintf(x[c] / scale);
        float v1 = c + 1 < cols ? nearbyintf(x[c + 1] / scale) : 0.0f;
        int a = (int)(v0 < -7.0f ? -7.0f : v0 > 7.0f ? 7.0f : v0);
        int b = (int)(v1 < -7.0f ? -7.0f : v1 > 7.0f ? 7.0f : v1);

        q[c / 2] = (uint8_t)((unsigned)(a & 0xF) | ((unsigned)(b & 0xF) << 4));
    }
}

/* Unpacks one row of int4 values (sign-extended nibbles) times scale. */
static void dq4_row(const uint8_t *q, float *y, size_t cols, float scale)
{
    for (size_t c = 0; c < cols; c++) {
        unsigned nib = (q[c / 2] >> (4 * (c & 1))) & 0xFu;
        int v = (int)nib - (nib & 8u ? 16 : 0);

        y[c] = (float)v * scale;
    }
}

/* Thread tid's rows (or, for int8 per tensor and absmax, its flat share). */
static void quant_task(void *arg, unsigned tid, unsigned nthr)
{
    quant_job *j = arg;
    size_t b, e;
    int flat = j->kind == 4 || ((j->kind == 0 || j->kind == 1) && !j->per_channel);

    if (flat) {
        tk_split(j->rows * j->cols, 64, tid, nthr, &b, &e);
        if (j->kind == 4)
            j->part[tid] = e > b ? j->ops->absmax_f32((const float *)j->x + b, e - b)
                                 : 0.0f;
        else if (e > b && j->kind == 0)
            j->ops->quant_i8((const float *)j->x + b, (int8_t *)j->y + b, e - b,
                             j->scales[0]);
        else if (e > b)
            j->ops->dequant_i8((const int8_t *)j->x + b, (float *)j->y + b,
                               e - b, j->scales[0]);
        return;
    }
    tk_split(j->rows, 1, tid, nthr, &b, &e);
    for (size_t r = b; r < e; r++) {
        const float *xr = (const float *)j->x + r * j->cols;
        float s;

        switch (j->kind) {
        case 0:
            s = scale_of(j->ops->absmax_f32(xr, j->cols), 127.0f);
            j->scales[r] = s;
            j->ops->quant_i8(xr, (int8_t *)j->y + r * j->cols, j->cols, s);
            break;
        case 1:
            j->ops->dequant_i8((const int8_t *)j->x + r * j->cols,
                               (float *)j->y + r * j->cols, j->cols,
                               j->scales[r]);
            break;
        case 2:
            s = j->per_channel ? scale_of(j->ops->absmax_f32(xr, j->cols), 7.0f)
                               : j->scales[0];
            if (j->per_channel)
                j->scales[r] = s;
            q4_row(xr, (uint8_t *)j->y + r * i4_row(j->cols), j->cols, s);
            break;
        default:
            dq4_row((const uint8_t *)j->x + r * i4_row(j->cols),
                    (float *)j->y + r * j->cols, j->cols,
                    j->scales[j->per_channel ? r : 0]);
            break;
        }
    }
}

/* Checks, computes the per-tensor scale when quantizing per tensor, then
 * runs the job. qmax 127 or 7. */
static int run_quant(quant_job *j, float qmax, tk_pool *pool)
{
    size_t total, bytes;
    unsigned nthr = tk_pool_threads(pool);

    if (j->x == NULL || j->y == NULL || j->scales == NULL ||
        tk_mul_overflow(j->rows, j->cols, &total) ||
        tk_mul_overflow(total, 8, &bytes) || nthr > MAX_THREADS)
        return TK_EINVAL;
    if (total == 0)
        return TK_OK;
    j->ops = tk_ops();
    if ((j->kind == 0 || j->kind == 2) && !j->per_channel) {
        int kind = j->kind;
        float amax = 0.0f;

        memset(j->part, 0, sizeof(j->part));
        j->kind = 4;
        tk_pool_run(pool, total * 4, quant_task, j);
        for (unsigned t = 0; t < nthr; t++)
            amax = j->part[t] > amax ? j->part[t] : amax;
        j->scales[0] = scale_of(amax, qmax);
        j->kind = kind;
    }
    tk_pool_run(pool, bytes, quant_task, j);
    return TK_OK;
}

int tk_quantize_i8(const float *x, int8_t *q, float *scales, size_t rows,
                   size_t cols, int per_channel, tk_pool *pool)
{
    quant_job j = {0, x, q, scales, rows, cols, per_channel, {0}, NULL};

    return run_quant(&j, 127.0f, pool);
}

int tk_dequantize_i8(const int8_t *q, const float *scales, float *y,
                     size_t rows, size_t cols, int per_channel, tk_pool *pool)
{
    quant_job j = {1, q, y, (float *)(uintptr_t)scales, rows, cols,
                   per_channel, {0}, NULL};

    return run_quant(&j, 127.0f, pool);
}

int tk_quantize_i4(const float *x, uint8_t *q, float *scales, size_t rows,
                   size_t cols, int per_channel, tk_pool *pool)
{
    quant_job j = {2, x, q, scales, rows, cols, per_channel, {0}, NULL};

    return run_quant(&j, 7.0f, pool);
}

int tk_dequantize_i4(const uint8_t *q, const float *scales, float *y,
                     size_t rows, size_t cols, int per_channel, tk_pool *pool)
{
    quant_job j = {3, q, y, (float *)(uintptr_t)scales, rows, cols,
                   per_channel, {0}, NULL};

    return run_quant(&j, 7.0f, pool);
}
