// SPDX-License-Identifier: MIT
/*
 * cv_conv.c -- convolution shapes and the plugin's direct convolution:
 * plain loops over the output, NCHW (one output plane at a time, the
 * input plane walked row by row for each weight) and NHWC (one output
 * pixel at a time, each output channel a dot product over the window's
 * contiguous channels).
 */
#include "cv_layer.h"

#include <string.h>

#define CV_MAX_DIM 65536

/* Sets p and q. */
int cv_shape_finish(cv_shape *sh)
{
    const int sizes[] = {sh->n, sh->c, sh->h, sh->w, sh->k, sh->r, sh->s, sh->stride, sh->groups};

    for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
        if (sizes[i] < 1 || sizes[i] > CV_MAX_DIM)
            return -1;
    if (sh->pad < 0 || sh->pad >= sh->r || sh->pad >= sh->s || sh->c % sh->groups ||
        sh->k % sh->groups || sh->h + 2 * sh->pad < sh->r || sh->w + 2 * sh->pad < sh->s)
        return -1;
    sh->p = (sh->h + 2 * sh->pad - sh->r) / sh->stride + 1;
    sh->q = (sh->w + 2 * sh->pad - sh->s) / sh->stride + 1;
    return 0;
}

size_t cv_in_elems(const cv_shape *sh)
{
    return (size_t)sh->n * (size_t)sh->c * (size_t)sh->h * (size_t)sh->w;
}

size_t cv_out_elems(const cv_shape *sh)
{
    return (size_t)sh->n * (size_t)sh->k * (size_t)sh->p * (size_t)sh->q;
}

size_t cv_weight_elems(const cv_shape *sh)
{
    return (size_t)sh->k * (size_t)(sh->c / sh->groups) * (size_t)sh->r * (size_t)sh->s;
}

/* oihw for NCHW, ohwi for NHWC. */
size_t cv_weight_at(const cv_shape *sh, cv_layout l, int k, int cg, int r, int s)
{
    size_t ncg = (size_t)(sh->c / sh->groups);

    if (l == CV_NCHW)
        return (((size_t)k * ncg + (size_t)cg) * (size_t)sh->r + (size_t)r) * (size_t)sh->s +
               (size_t)s;
    return (((size_t)k * (size_t)sh->r + (size_t)r) * (size_t)sh->s + (size_t)s) * ncg + (size_t)cg;
}

size_t cv_direct_units(const cv_shape *sh, cv_layout l)
{
    return (size_t)sh->n * (size_t)(l == CV_NCHW ? sh->k : sh->p);
}

/* The outputs x in [*lo, *hi) whose input x stride - pad + s is inside
 * [0, w). */
static void valid_range(int q, int stride, int pad, int s, int w, int *lo, int *hi)
{
    int off = s - pad;

    *lo = off >= 0 ? 0 : (-off + stride - 1) / stride;
    *hi = w - 1 - off < 0 ? 0 : (w - 1 - off) / stride + 1;
    if (*hi > q)
        *hi = q;
    if (*lo > *hi)
        *lo = *hi;
}

/* Output plane (n, k) of an NCHW convolution. */
static void direct_plane(const cv_shape *sh, const float *in, const float *w, float *out, int n,
                         int k)
{
    int cg = sh->c / sh->groups, c0 = k / (sh->k / sh->groups) * cg;
    float *o = out + cv_at(CV_NCHW, sh->k, sh->p, sh->q, n, k, 0, 0);

    memset(o, 0, (size_t)sh->p * (size_t)sh->q * sizeof(float));
    for (int c = 0; c < cg; c++)
        for (int r = 0; r < sh->r; r++)
            for (int s = 0; s < sh->s; s++) {
                float wv = w[cv_weight_at(sh, CV_NCHW, k, c, r, s)];
                int lo, hi;

                valid_range(sh->q, sh->stride, sh->pad, s, sh->w, &lo, &hi);
                for (int p = 0; p < sh->p; p++) {
                    int y = p * sh->stride - sh->pad + r;
                    const float *row;

                    if (y < 0 || y >= sh->h)
                        continue;
                    row = in + cv_at(CV_NCHW, sh->c, sh->h, sh->w, n, c0 + c, y, 0) - sh->pad + s;
                    for (int q = lo; q < hi; q++)
                        o[(size_t)p * (size_t)sh->q + (size_t)q] += wv * row[q * sh->stride];
                }
            }
}

/* Output row (n, p) of an NHWC convolution. */
static void direct_row(const cv_shape *sh, const float *in, const float *w, float *out, int n,
                       int p)
{
    int cg = sh->c / sh->groups, kg = sh->k / sh->groups;

    for (int q = 0; q < sh->q; q++) {
        float *o = out + cv_at(CV_NHWC, sh->k, sh->p, sh->q, n, 0, p, q);

        for (int k = 0; k < sh->k; k++) {
            int c0 = k / kg * cg;
            float acc = 0.0f;

            for (int r = 0; r < sh->r; r++) {
                int y = p * sh->stride - sh->pad + r;

                for (int s = 0; s < sh->s && y >= 0 && y < sh->h; s++) {
                    int x = q * sh->stride - sh->pad + s;
                    const float *iv = in + cv_at(CV_NHWC, sh->c, sh->h, sh->w, n, c0, y, x);
                    const float *wv = w + cv_weight_at(sh, CV_NHWC, k, 0, r, s);

                    for (int c = 0; c < cg && x >= 0 && x < sh->w; c++)
                        acc += iv[c] * wv[c];
                }
            }
            o[k] = acc;
        }
    }
}

/* Units [u0, u1) of the direct convolution. */
void cv_conv_direct(const cv_shape *sh, cv_layout l, const float *in, const float *w, float *out,
                    size_t u0, size_t u1)
{
    for (size_t u = u0; u < u1; u++) {
        if (l == CV_NCHW)
            direct_plane(sh, in, w, out, (int)(u / (size_t)sh->k), (int)(u % (size_t)sh->k));
        else
            direct_row(sh, in, w, out, (int)(u / (size_t)sh->p), (int)(u % (size_t)sh->p));
    }
}
