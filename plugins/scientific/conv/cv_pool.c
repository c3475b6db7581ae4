// SPDX-License-Identifier: MIT
/*
 * cv_pool.c -- max, average and adaptive average pooling in NCHW and
 * NHWC. Padded positions are never read: max ignores them, the average
 * divides by the inputs inside the window (padding excluded, oneDNN's
 * pooling_avg_exclude_padding). Adaptive pooling divides the input into
 * p x q windows floor(o H / P) .. ceil((o + 1) H / P), as PyTorch does.
 */
#include "cv_layer.h"

#include <float.h>

void cv_pool_window(const cv_shape *sh, cv_pool_kind kind, int o, int in, int out, int r, int *lo,
                    int *hi)
{
    if (kind == CV_POOL_ADAPTIVE) {
        *lo = (int)((long)o * in / out);
        *hi = (int)(((long)(o + 1) * in + out - 1) / out);
        return;
    }
    *lo = o * sh->stride - sh->pad;
    *hi = *lo + r;
    if (*lo < 0)
        *lo = 0;
    if (*hi > in)
        *hi = in;
}

size_t cv_pool_units(const cv_shape *sh, cv_layout l)
{
    return (size_t)sh->n * (size_t)(l == CV_NCHW ? sh->c : sh->p);
}

/* One output of plane `base` (NCHW: the plane's first input; NHWC: the
 * image's first input at channel c), strides of a row and a column. */
static float pool_one(const float *base, size_t row, size_t colstride, cv_pool_kind kind, int y0,
                      int y1, int x0, int x1)
{
    float acc = kind == CV_POOL_MAX ? -FLT_MAX : 0.0f;

    for (int y = y0; y < y1; y++)
        for (int x = x0; x < x1; x++) {
            float v = base[(size_t)y * row + (size_t)x * colstride];

            if (kind == CV_POOL_MAX)
                acc = v > acc ? v : acc;
            else
                acc += v;
        }
    if (kind != CV_POOL_MAX)
        acc /= (float)((y1 - y0) * (x1 - x0));
    return acc;
}

/* Output plane (n, c) in NCHW. */
static void pool_plane(const cv_shape *sh, cv_pool_kind kind, const float *in, float *out, int n,
                       int c)
{
    const float *base = in + cv_at(CV_NCHW, sh->c, sh->h, sh->w, n, c, 0, 0);
    float *o = out + cv_at(CV_NCHW, sh->c, sh->p, sh->q, n, c, 0, 0);

    for (int p = 0; p < sh->p; p++) {
        int y0, y1;

        cv_pool_window(sh, kind, p, sh->h, sh->p, sh->r, &y0, &y1);
        for (int q = 0; q < sh->q; q++) {
            int x0, x1;

            cv_pool_window(sh, kind, q, sh->w, sh->q, sh->s, &x0, &x1);
            *o++ = pool_one(base, (size_t)sh->w, 1, kind, y0, y1, x0, x1);
        }
    }
}

/* Output row (n, p) in NHWC, channels innermost. */
static void pool_row(const cv_shape *sh, cv_pool_kind kind, const float *in, float *out, int n,
                     int p)
{
    size_t row = (size_t)sh->w * (size_t)sh->c;
    int y0, y1;

    cv_pool_window(sh, kind, p, sh->h, sh->p, sh->r, &y0, &y1);
    for (int q = 0; q < sh->q; q++) {
        int x0, x1;
        float *o = out + cv_at(CV_NHWC, sh->c, sh->p, sh->q, n, 0, p, q);

        cv_pool_window(sh, kind, q, sh->w, sh->q, sh->s, &x0, &x1);
        for (int c = 0; c < sh->c; c++)
            o[c] = pool_one(in + cv_at(CV_NHWC, sh->c, sh->h, sh->w, n, c, 0, 0), row,
                            (size_t)sh->c, kind, y0, y1, x0, x1);
    }
}

void cv_pool(const cv_shape *sh, cv_layout l, cv_pool_kind kind, const float *in, float *out,
             size_t u0, size_t u1)
{
    for (size_t u = u0; u < u1; u++) {
        if (l == CV_NCHW)
            pool_plane(sh, kind, in, out, (int)(u / (size_t)sh->c), (int)(u % (size_t)sh->c));
        else
            pool_row(sh, kind, in, out, (int)(u / (size_t)sh->p), (int)(u % (size_t)sh->p));
    }
}
