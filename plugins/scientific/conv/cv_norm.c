// SPDX-License-Identifier: MIT
/*
 * cv_norm.c -- BatchNorm (inference: a folded per-channel scale and
 * shift; training forward: the batch's per-channel mean and biased
 * variance) and GroupNorm (per image and group of C/G channels), in NCHW
 * and NHWC, each walked in memory order (planes for NCHW, pixels of
 * contiguous channels for NHWC). Statistics take two passes in double
 * (mean, then the mean square deviation), so the f32 output carries only
 * the rounding of its scale, shift and x scale + shift.
 */
#include "cv_layer.h"

#include <math.h>

void cv_bn_fold(int c, const float *gamma, const float *beta, const float *mean, const float *var,
                float eps, float *scale, float *shift)
{
    for (int i = 0; i < c; i++) {
        scale[i] = gamma[i] / sqrtf(var[i] + eps);
        shift[i] = beta[i] - mean[i] * scale[i];
    }
}

/* out = in scale[c] + shift[c] over image n, channels [c0, c1). */
static void affine(const cv_shape *sh, cv_layout l, int n, const float *in, float *out,
                   const float *scale, const float *shift, int c0, int c1)
{
    size_t hw = (size_t)sh->h * (size_t)sh->w, img = (size_t)n * (size_t)sh->c * hw;

    if (l == CV_NCHW) {
        for (int c = c0; c < c1; c++) {
            size_t at = img + (size_t)c * hw;

            for (size_t i = 0; i < hw; i++)
                out[at + i] = in[at + i] * scale[c] + shift[c];
        }
        return;
    }
    for (size_t i = 0; i < hw; i++) {
        size_t at = img + i * (size_t)sh->c;

        for (int c = c0; c < c1; c++)
            out[at + (size_t)c] = in[at + (size_t)c] * scale[c] + shift[c];
    }
}

void cv_bn_apply(const cv_shape *sh, cv_layout l, const float *in, float *out, const float *scale,
                 const float *shift)
{
    for (int n = 0; n < sh->n; n++)
        affine(sh, l, n, in, out, scale, shift, 0, sh->c);
}

/* The statistics bucket of (n, c). */
static size_t bucket(const cv_shape *sh, int groups, int per_channel, int n, int c)
{
    if (per_channel)
        return (size_t)c;
    return (size_t)n * (size_t)groups + (size_t)(c / (sh->c / groups));
}

/* The sum of (x[k] - m)^pow, pow 1 or 2, over len values. */
static double sum_pow(const float *x, size_t len, double m, int pow)
{
    double acc = 0.0;

    for (size_t k = 0; k < len; k++) {
        double d = (double)x[k] - m;

        acc += pow == 2 ? d * d : d;
    }
    return acc;
}

/* sum[b] += (x - center[b])^pow over the elements of channels [c0, c1),
 * in memory order: plane by plane (NCHW) or pixel by pixel (NHWC). */
static void accumulate(const cv_shape *sh, cv_layout l, const float *in, int groups,
                       int per_channel, const double *center, int pow, double *sum, int c0, int c1)
{
    size_t hw = (size_t)sh->h * (size_t)sh->w;

    for (int n = 0; n < sh->n; n++) {
        const float *img = in + (size_t)n * (size_t)sh->c * hw;

        for (size_t i = 0; i < (l == CV_NCHW ? 1 : hw); i++)
            for (int c = c0; c < c1; c++) {
                size_t b = bucket(sh, groups, per_channel, n, c);
                double m = center ? center[b] : 0.0;

                if (l == CV_NCHW)
                    sum[b] += sum_pow(img + (size_t)c * hw, hw, m, pow);
                else
                    sum[b] += sum_pow(img + i * (size_t)sh->c + (size_t)c, 1, m, pow);
            }
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

/* scale[c] = gamma[c] / sqrt(var[b] + eps), shift[c] = beta[c] - mean[b]
 * scale[c] for the channels [c0, c1) of image n. */
static void fold_stats(const cv_shape *sh, int groups, int per_channel, int n, const float *gamma,
                       const float *beta, float eps, const double *mean, const double *var,
                       float *scale, float *shift, int c0, int c1)
{
    for (int c = c0; c < c1; c++) {
        size_t b = bucket(sh, groups, per_channel, n, c);

        scale[c] = (float)((double)gamma[c] / sqrt(var[b] + (double)eps));
        shift[c] = (float)((double)beta[c] - mean[b] * (double)scale[c]);
    }
}

void cv_bn_train(const cv_shape *sh, cv_layout l, const float *in, float *out, const float *gamma,
                 const float *beta, float eps, double *stats, int c0, int c1)
{
    double *mean = stats, *var = stats + sh->c;
    float *scale = (float *)(stats + 2 * sh->c), *shift = scale + sh->c;

    stats_range(sh, l, in, 1, 1, mean, var, c0, c1);
    fold_stats(sh, 1, 1, 0, gamma, beta, eps, mean, var, scale, shift, c0, c1);
    for (int n = 0; n < sh->n; n++)
        affine(sh, l, n, in, out, scale, shift, c0, c1);
}

void cv_group_norm(const cv_shape *sh, cv_layout l, int groups, const float *in, float *out,
                   const float *gamma, const float *beta, float eps, double *stats)
{
    size_t nb = (size_t)sh->n * (size_t)groups;
    double *mean = stats, *var = stats + nb;
    float *scale = (float *)(stats + 2 * nb), *shift = scale + sh->c;

    cv_norm_stats(sh, l, in, groups, 0, mean, var);
    for (int n = 0; n < sh->n; n++) {
        fold_stats(sh, groups, 0, n, gamma, beta, eps, mean, var, scale, shift, 0, sh->c);
        affine(sh, l, n, in, out, scale, shift, 0, sh->c);
    }
}
