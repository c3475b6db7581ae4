// SPDX-License-Identifier: MIT
/*
 * tk_quant.c -- symmetric int8 and int4 quantization and dequantization,
 * per tensor or per channel (row). Both quantize through the vector
 * kernels of tk_body_misc.h; int4 values are then packed two per byte in
 * plain C (chunks of a row at a time). Per-tensor scales need a first pass
 * (max |x|, threaded, merged in thread order).
 */
#include "tk_internal.h"

#include <math.h>
#include <string.h>

#define MAX_THREADS 256

typedef struct quant_job {
    int kind; /* 0 q8, 1 dq8, 2 q4, 3 dq4, 4 absmax */
    const void *x;
    void *y;
    float *scales;        /* written by quantize (NULL for dequantize) */
    const float *rscales; /* read: the same array, or dequantize's input */
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

/* int4 values handled per step: a stack buffer of int8 values. */
#define I4_CHUNK 1024

/* Packs one row of int4 values: the vector kernel quantizes a chunk to
 * int8 values in [-7, 7], then pairs become bytes (low nibble first). */
static void q4_row(const tk_isa_ops *ops, const float *x, uint8_t *q,
                   size_t cols, float scale)
{
    int8_t v[I4_CHUNK];

    for (size_t c0 = 0; c0 < cols; c0 += I4_CHUNK) {
        size_t n = cols - c0 < I4_CHUNK ? cols - c0 : I4_CHUNK;

        ops->quant_i8(x + c0, v, n, scale, 7.0f);
        if (n & 1)
            v[n] = 0; /* the pad nibble of an odd row */
        for (size_t i = 0; i < n; i += 2)
            q[(c0 + i) / 2] = (uint8_t)(((unsigned)v[i] & 0xFu) |
                                        (((unsigned)v[i + 1] & 0xFu) << 4));
    }
}

/* Unpacks one row of int4 values (sign-extended nibbles) times scale:
 * nibbles to an int8 chunk, then the vector dequantization. */
static void dq4_row(const tk_isa_ops *ops, const uint8_t *q, float *y,
                    size_t cols, float scale)
{
    int8_t v[I4_CHUNK];

    for (size_t c0 = 0; c0 < cols; c0 += I4_CHUNK) {
        size_t n = cols - c0 < I4_CHUNK ? cols - c0 : I4_CHUNK;

        for (size_t i = 0; i < n; i++) {
            unsigned nib = (q[(c0 + i) / 2] >> (4 * (i & 1))) & 0xFu;

            v[i] = (int8_t)((int)nib - (nib & 8u ? 16 : 0));
        }
        ops->dequant_i8(v, y + c0, n, scale);
    }
}

/* Thread tid's rows (or, for int8 per tensor and absmax, its flat share). */
static void quant_task(void *arg, unsigned tid, unsigned nthr)
{
    quant_job *j = arg;
    size_t b, e;
    int flat = j->kind == 4 || ((j->kind == 0 || j->kind == 1) && !j->per_channel);

    if (flat) {
        bh_split(j->rows * j->cols, 64, tid, nthr, &b, &e);
        if (j->kind == 4)
            j->part[tid] = e > b ? j->ops->absmax_f32((const float *)j->x + b, e - b)
                                 : 0.0f;
        else if (e > b && j->kind == 0)
            j->ops->quant_i8((const float *)j->x + b, (int8_t *)j->y + b, e - b,
                             j->rscales[0], 127.0f);
        else if (e > b)
            j->ops->dequant_i8((const int8_t *)j->x + b, (float *)j->y + b,
                               e - b, j->rscales[0]);
        return;
    }
    bh_split(j->rows, 1, tid, nthr, &b, &e);
    for (size_t r = b; r < e; r++) {
        const float *xr = (const float *)j->x + r * j->cols;
        float s;

        switch (j->kind) {
        case 0:
            s = scale_of(j->ops->absmax_f32(xr, j->cols), 127.0f);
            j->scales[r] = s;
            j->ops->quant_i8(xr, (int8_t *)j->y + r * j->cols, j->cols, s, 127.0f);
            break;
        case 1:
            j->ops->dequant_i8((const int8_t *)j->x + r * j->cols,
                               (float *)j->y + r * j->cols, j->cols,
                               j->rscales[r]);
            break;
        case 2:
            s = j->per_channel ? scale_of(j->ops->absmax_f32(xr, j->cols), 7.0f)
                               : j->rscales[0];
            if (j->per_channel)
                j->scales[r] = s;
            q4_row(j->ops, xr, (uint8_t *)j->y + r * i4_row(j->cols), j->cols, s);
            break;
        default:
            dq4_row(j->ops, (const uint8_t *)j->x + r * i4_row(j->cols),
                    (float *)j->y + r * j->cols, j->cols,
                    j->rscales[j->per_channel ? r : 0]);
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

    if (j->x == NULL || j->y == NULL || j->rscales == NULL ||
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
    quant_job j = {0, x, q, scales, scales, rows, cols, per_channel, {0}, NULL};

    return run_quant(&j, 127.0f, pool);
}

int tk_dequantize_i8(const int8_t *q, const float *scales, float *y,
                     size_t rows, size_t cols, int per_channel, tk_pool *pool)
{
    quant_job j = {1, q, y, NULL, scales, rows, cols, per_channel, {0}, NULL};

    return run_quant(&j, 127.0f, pool);
}

int tk_quantize_i4(const float *x, uint8_t *q, float *scales, size_t rows,
                   size_t cols, int per_channel, tk_pool *pool)
{
    quant_job j = {2, x, q, scales, scales, rows, cols, per_channel, {0}, NULL};

    return run_quant(&j, 7.0f, pool);
}

int tk_dequantize_i4(const uint8_t *q, const float *scales, float *y,
                     size_t rows, size_t cols, int per_channel, tk_pool *pool)
{
    quant_job j = {3, q, y, NULL, scales, rows, cols, per_channel, {0}, NULL};

    return run_quant(&j, 7.0f, pool);
}
