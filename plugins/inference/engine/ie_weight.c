// SPDX-License-Identifier: MIT
/*
 * ie_weight.c -- weight matrices in device buffers, stored as f32, bf16 or
 * int8 with one symmetric scale per row (absmax / 127), and their
 * dequantized rows for references.
 */
#include "ie_internal.h"

#include <math.h>
#include <string.h>

/* Bytes per stored element. */
static size_t elem_bytes(int type)
{
    return type == IE_W_F32 ? 4 : type == IE_W_BF16 ? 2 : 1;
}

int ie_weight_alloc(ie_ctx *ctx, ie_weight *w, int type, int rows, int cols)
{
    uint64_t bytes = (uint64_t)rows * (uint64_t)cols * elem_bytes(type);
    int rc;

    memset(w, 0, sizeof(*w));
    if (type < IE_W_F32 || type > IE_W_I8 || rows < 1 || cols < 1)
        return ie_fail(ctx, IE_EINVAL, "weight: bad type or shape");
    rc = ie_dbuf_alloc(ctx, &w->d, bytes);
    if (rc != IE_OK)
        return rc;
    w->type = type;
    w->rows = rows;
    w->cols = cols;
    if (type == IE_W_I8) {
        w->scale = ie_alloc(ctx, (size_t)rows * sizeof(float));
        if (w->scale == NULL) {
            ie_dbuf_free(ctx, &w->d);
            return IE_ENOMEM;
        }
    }
    return IE_OK;
}

void ie_weight_free(ie_ctx *ctx, ie_weight *w)
{
    ie_dbuf_free(ctx, &w->d);
    ie_free(ctx, w->scale);
    memset(w, 0, sizeof(*w));
}

uint64_t ie_weight_bytes(const ie_weight *w)
{
    return (uint64_t)w->rows * (uint64_t)w->cols * elem_bytes(w->type) +
           (w->scale ? (uint64_t)w->rows * sizeof(float) : 0);
}

void ie_weight_set_rows(ie_weight *w, int r0, int n, const float *src)
{
    size_t cols = (size_t)w->cols;

    for (int r = 0; r < n; r++) {
        const float *s = src + (size_t)r * cols;
        size_t row = (size_t)(r0 + r);

        if (w->type == IE_W_F32) {
            memcpy((float *)w->d.host + row * cols, s, cols * sizeof(float));
        } else if (w->type == IE_W_BF16) {
            uint16_t *d = (uint16_t *)w->d.host + row * cols;

            for (size_t i = 0; i < cols; i++)
                d[i] = ie_f32_to_bf16(s[i]);
        } else {
            int8_t *d = (int8_t *)w->d.host + row * cols;
            float amax = 0.0f, inv;

            for (size_t i = 0; i < cols; i++)
                if (isfinite(s[i]))
                    amax = fmaxf(amax, fabsf(s[i]));
            w->scale[row] = amax > 0.0f ? amax / 127.0f : 1.0f;
            inv = 1.0f / w->scale[row];
            for (size_t i = 0; i < cols; i++) {
                float q = nearbyintf(s[i] * inv);

                /* NaN stores 0; +-inf saturates (callers reject both) */
                d[i] = (int8_t)(q != q ? 0 : q > 127.0f ? 127 : q < -127.0f ? -127 : q);
            }
        }
    }
}

int ie_weight_commit(ie_ctx *ctx, ie_weight *w)
{
    return ie_dbuf_push(ctx, &w->d, 0, w->d.bytes);
}

void ie_weight_row_f32(const ie_weight *w, int r, float *out)
{
    size_t cols = (size_t)w->cols, row = (size_t)r;

    if (w->type == IE_W_F32) {
        memcpy(out, (const float *)w->d.host + row * cols,
               cols * sizeof(float));
    } else if (w->type == IE_W_BF16) {
        const uint16_t *s = (const uint16_t *)w->d.host + row * cols;

        for (size_t i = 0; i < cols; i++)
            out[i] = ie_bf16_to_f32(s[i]);
    } else {
        const int8_t *s = (const int8_t *)w->d.host + row * cols;

        for (size_t i = 0; i < cols; i++)
            out[i] = (float)s[i] * w->scale[row];
    }
}

void ie_weight_row_f64(const ie_weight *w, int r, double *out)
{
    size_t cols = (size_t)w->cols, row = (size_t)r;

    if (w->type == IE_W_F32) {
        const float *s = (const float *)w->d.host + row * cols;

        for (size_t i = 0; i < cols; i++)
            out[i] = s[i];
    } else if (w->type == IE_W_BF16) {
        const uint16_t *s = (const uint16_t *)w->d.host + row * cols;

        for (size_t i = 0; i < cols; i++)
            out[i] = ie_bf16_to_f32(s[i]);
    } else {
        const int8_t *s = (const int8_t *)w->d.host + row * cols;

        for (size_t i = 0; i < cols; i++)
            out[i] = (double)((float)s[i] * w->scale[row]);
    }
}
