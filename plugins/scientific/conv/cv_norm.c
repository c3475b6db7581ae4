// SPDX-License-Identifier: MIT
/*
 * cv_norm.c -- BatchNorm (inference: a folded per-channel scale and
 * shift; training forward: the batch's per-channel mean and biased
 * variance) and GroupNorm (per image and group of C/G channels), in NCHW
 * and NHWC. Statistics take two passes in double (mean, then the mean
 * square deviation), so the f32 output carries only its own rounding.
 */
#include "cv_layer.h"

#include <math.h>
#include <string.h>

void cv_bn_fold(int c, const float *gamma, const float *beta, const float *mean, const float *var,
                float eps, float *scale, float *shift)
{
    for (int i = 0; i < c; i++) {
        scale[i] = gamma[i] / sqrtf(var[i] + eps);
        shift[i] = beta[i] - mean[i] * scale[i];
    }
}

void cv_bn_apply(const cv_shape *sh, cv_layout l, const float *in, float *out, const float *scale,
                 const float *shift)
{
    size_t hw = (size_t)sh->h * (size_t)sh->w;

    for (int n = 0; n < sh->n; n++)
        for (size_t i = 0; i < hw; i++)
            for (int c = 0; c < sh->c; c++) {
                size_t at = l == CV_NCHW ? ((size_t)n * (size_t)sh->c + (size_t)c) * hw + i
                                         : ((size_t)n * hw + i) * (size_t)sh->c + (size_t)c;

                out[at] = in[at] * scale[c] + shift[c];
            }
}

/* The statistics bucket of (n, c). */
static size_t bucket(const cv_shape *sh, int groups, int per_channel, int n, int c)
{
    if (per_channel)
        return (size_t)c;
    return (size_t)n * (size_t)groups + (size_t)(c / (sh->c / groups));
}

/* Offset of element i of the h w plane of (n, c). */
static size_t elem_at(const cv_shape *sh, cv_layout l, int n, int c, size_t i)
{
    size_t hw = (size_t)sh->h * (size_t)sh->w;

    return l == CV_NCHW ? ((size_t)n * (size_t)sh->c + (size_t)c) * hw + i
                        : ((size_t)n * hw + i) * (size_t)sh->c + (size_t)c;
}

/* sum[b] += (x - center[b])^pow for pow 1 or 2 over the elements of
 * channels [c0, c1). */
static void accumulate(const cv_shape *sh, cv_layout l, const float *in, int groups,
                       int per_channel, const double *center, int pow, double *sum, int c0, int c1)
{
    size_t hw = (size_t)sh->h * (size_t)sh->w;

    for (int n = 0; n < sh->n; n++)
        for (int c = c0; c < c1; c++) {
            size_t b = bucket(sh, groups, per_channel, n, c);
            double acc = 0.0, m = center ? center[b] : 0.0;

            for (size_t i = 0; i < hw; i++) {
                double d = (double)in[elem_at(sh, l, n, c, i)] - m;

                acc += pow == 2 ? d * d : d;
            }
            sum[b] += acc;
        }
}

/* The statistics of the buckets of channels [c0, c1) (whole groups). */
static void stats_range(const cv_shape *sh, cv_layout l, const float *in, int groups,
                        int per_channel, double *mean, double *var, int c0, int c1)
{
    double m =
        per_channel ? (double)sh->n * sh->h * sh->w : (double)(sh->c / groups) * sh->h * sh->w;
    size_t b0 = per_channel ? (size_t)c0 : 0;
    size_t b1 = per_channel ? (size_t)c1 : (size_t)sh->n * (size_t)groups;

    for (size_t b = b0; b < b1; b++)
        mean[b] = var[b] = 0.0;
    accumulate(sh, l, in, groups, per_channel, NULL, 1, mean, c0, c1);
    for (size_t b = b0; b < b1; b++)
        mean[b] /= m;
    accumulate(sh, l, in, groups, per_channel, mean, 2, var, c0, c1);
    for (size_t b = b0; b < b1; b++)
        var[b] /= m;
}

void cv_norm_stats(const cv_shape *sh, cv_layout l, const float *in, int groups, int per_channel,
                   double *mean, double *var)
{
    stats_range(sh, l, in, groups, per_channel, mean, var, 0, sh->c);
}

/* y = (x - mean[b]) / sqrt(var[b] + eps) gamma[c] + beta[c] over the
 * channels [c0, c1). */
static void normalise(const cv_shape *sh, cv_layout l, int groups, int per_channel, const float *in,
                      float *out, const float *gamma, const float *beta, float eps,
                      const double *mean, const double *var, int c0, int c1)
{
    size_t hw = (size_t)sh->h * (size_t)sh->w;

    for (int n = 0; n < sh->n; n++)
        for (int c = c0; c < c1; c++) {
            size_t b = bucket(sh, groups, per_channel, n, c);
            float sc = (float)((double)gamma[c] / sqrt(var[b] + (double)eps));
            float sf = (float)((double)beta[c] - mean[b] * (double)sc);

            for (size_t i = 0; i < hw; i++) {
                size_t at = elem_at(sh, l, n, c, i);

                out[at] = in[at] * sc + sf;
            }
        }
}

void cv_bn_train(const cv_shape *sh, cv_layout l, const float *in, float *out, const float *gamma,
                 const float *beta, float eps, double *stats, int c0, int c1)
{
    stats_range(sh, l, in, 1, 1, stats, stats + sh->c, c0, c1);
    normalise(sh, l, 1, 1, in, out, gamma, beta, eps, stats, stats + sh->c, c0, c1);
}

void cv_group_norm(const cv_shape *sh, cv_layout l, int groups, const float *in, float *out,
                   const float *gamma, const float *beta, float eps, double *stats)
{
    size_t nb = (size_t)sh->n * (size_t)groups;

    cv_norm_stats(sh, l, in, groups, 0, stats, stats + nb);
    normalise(sh, l, groups, 0, in, out, gamma, beta, eps, stats, stats + nb, 0, sh->c);
}
