// SPDX-License-Identifier: MIT
/*
 * cv_layer.h -- the convolution, pooling and normalisation layers of the
 * scientific plugin, in f32, NCHW or NHWC, without bhost: the plugin's own
 * direct and im2col + gemm convolutions, max / average / adaptive average
 * pooling, BatchNorm (inference and training forward) and GroupNorm, and
 * the double-precision references with their error bounds (cv_ref.c).
 *
 * Weights: K x C/groups x R x S (oihw) for NCHW, K x R x S x C/groups
 * (ohwi) for NHWC, so that the reduction of one output is contiguous in
 * the layout's channel order. Work is split in units (cv_*_units) that a
 * caller may hand to threads: every unit writes outputs of its own.
 */
#ifndef CV_LAYER_H
#define CV_LAYER_H

#include <stddef.h>

typedef enum { CV_NCHW, CV_NHWC } cv_layout;

/* A 2-D convolution (or a pooling window when k == c, groups == c). */
typedef struct cv_shape {
    int n, c, h, w;  /* input: batch, channels, height, width */
    int k, r, s;     /* output channels, window height and width */
    int stride, pad; /* the same in both dimensions */
    int groups;      /* c and k are multiples of it */
    int p, q;        /* output height and width (cv_shape_finish) */
} cv_shape;

/* Sets p and q; 0, or -1 when a size is out of range, groups does not
 * divide c and k, or the window does not fit the padded input. */
int cv_shape_finish(cv_shape *sh);

/* Element counts of the input, the output (n k p q) and the weights. */
size_t cv_in_elems(const cv_shape *sh);
size_t cv_out_elems(const cv_shape *sh);
size_t cv_weight_elems(const cv_shape *sh);

/* Offset of element (n, c, y, x) of an n x c x h x w tensor in layout l. */
static inline size_t cv_at(cv_layout l, int c, int h, int w, int n, int ci, int y, int x)
{
    if (l == CV_NCHW)
        return (((size_t)n * (size_t)c + (size_t)ci) * (size_t)h + (size_t)y) * (size_t)w +
               (size_t)x;
    return (((size_t)n * (size_t)h + (size_t)y) * (size_t)w + (size_t)x) * (size_t)c + (size_t)ci;
}

/* Offset of weight (k, c within its group, r, s) in layout l's order. */
size_t cv_weight_at(const cv_shape *sh, cv_layout l, int k, int cg, int r, int s);

/* ---- convolution (cv_conv.c, cv_im2col.c) ---------------------------- */

/* Units of the direct convolution: n k output planes (NCHW) or n p output
 * rows (NHWC). */
size_t cv_direct_units(const cv_shape *sh, cv_layout l);

/* Direct convolution of units [u0, u1): out = in * w, no bias. */
void cv_conv_direct(const cv_shape *sh, cv_layout l, const float *in, const float *w, float *out,
                    size_t u0, size_t u1);

/* A row-major C = A B (M x N, inner K) or A B^T when tb; lda, ldb, ldc are
 * row strides; C is overwritten. cblas_sgemm fits with a wrapper;
 * cv_sgemm_naive is the plugin's own (tests). */
typedef void (*cv_sgemm_fn)(int tb, int m, int n, int k, const float *a, int lda, const float *b,
                            int ldb, float *c, int ldc);
void cv_sgemm_naive(int tb, int m, int n, int k, const float *a, int lda, const float *b, int ldb,
                    float *c, int ldc);

/* The same by OpenBLAS, and OpenBLAS's thread count (the process's);
 * cv_blas.c, in builds with OpenBLAS only. */
void cv_sgemm_blas(int tb, int m, int n, int k, const float *a, int lda, const float *b, int ldb,
                   float *c, int ldc);
void cv_blas_set_threads(int threads);

/* Floats of the column buffer of cv_conv_im2col (one image, one group). */
size_t cv_col_elems(const cv_shape *sh);

/* im2col + gemm over images [n0, n1): per image and group, the patches
 * go to col (cv_col_elems floats) and one gemm makes the outputs. */
void cv_conv_im2col(const cv_shape *sh, cv_layout l, const float *in, const float *w, float *out,
                    float *col, cv_sgemm_fn gemm, int n0, int n1);

/* ---- pooling (cv_pool.c) ---------------------------------------------- */

typedef enum { CV_POOL_MAX, CV_POOL_AVG, CV_POOL_ADAPTIVE } cv_pool_kind;

/* The window [*lo, *hi) of output o along an axis of `in` inputs: for
 * adaptive pooling floor(o in / out) to ceil((o + 1) in / out), else
 * o stride - pad + [0, r) clipped to the input. */
void cv_pool_window(const cv_shape *sh, cv_pool_kind kind, int o, int in, int out, int r, int *lo,
                    int *hi);

/* Units of the pooling: n c planes (NCHW) or n p rows (NHWC). */
size_t cv_pool_units(const cv_shape *sh, cv_layout l);

/* Pools units [u0, u1): max over the window, or the mean of the inputs in
 * it (padding excluded). sh->k == sh->c; p and q set by the caller for
 * adaptive pooling. */
void cv_pool(const cv_shape *sh, cv_layout l, cv_pool_kind kind, const float *in, float *out,
             size_t u0, size_t u1);

/* ---- normalisation (cv_norm.c) ---------------------------------------- */

/* BatchNorm in inference: y = x scale[c] + shift[c], with scale = gamma /
 * sqrt(var + eps) and shift = beta - mean scale made by cv_bn_fold. */
void cv_bn_fold(int c, const float *gamma, const float *beta, const float *mean, const float *var,
                float eps, float *scale, float *shift);
void cv_bn_apply(const cv_shape *sh, cv_layout l, const float *in, float *out, const float *scale,
                 const float *shift);

/* Mean and biased variance of every (image, group) of channels over
 * groups (groups = 1 per image, or per channel over the batch when
 * per_channel), two passes in double; mean and var hold n groups (or c)
 * entries. */
void cv_norm_stats(const cv_shape *sh, cv_layout l, const float *in, int groups, int per_channel,
                   double *mean, double *var);

/* BatchNorm in training (the batch's statistics, per channel; channels
 * [c0, c1) only, so that threads may split the channels) or GroupNorm
 * (per image and group of channels): y = (x - mean) / sqrt(var + eps)
 * gamma[c] + beta[c]. stats: scratch of 4 c doubles (BatchNorm: mean,
 * var, then the channels' scale and shift as floats) or 2 n groups + c
 * (GroupNorm: mean and var of every image and group, then one image's
 * scale and shift). */
void cv_bn_train(const cv_shape *sh, cv_layout l, const float *in, float *out, const float *gamma,
                 const float *beta, float eps, double *stats, int c0, int c1);
void cv_group_norm(const cv_shape *sh, cv_layout l, int groups, const float *in, float *out,
                   const float *gamma, const float *beta, float eps, double *stats);

/* ---- references and bounds (cv_ref.c) ---------------------------------- */

/* Output (n, k, p, q) of the convolution in double, and in *bound the
 * error an f32 evaluation in any order of summation may have. */
double cv_ref_conv(const cv_shape *sh, cv_layout l, const float *in, const float *w, int n, int k,
                   int p, int q, double *bound);

/* Output (n, c, p, q) of the pooling in double, and its bound. */
double cv_ref_pool(const cv_shape *sh, cv_layout l, cv_pool_kind kind, const float *in, int n,
                   int c, int p, int q, double *bound);

/* Normalised output from statistics in double: (x - mean) / sqrt(var +
 * eps) gamma + beta, and the bound of an f32 evaluation whose mean and
 * variance were summed over m elements in f32. */
double cv_ref_norm(double x, double mean, double var, double gamma, double beta, double eps,
                   double m, double *bound);

/* The bounds on the mean and biased variance of m values that an f32 code
 * summed (see cv_ref.c), given their exact mean and variance. */
void cv_ref_stats_bound(double mean, double var, double m, double *dmu, double *dvar);

#endif /* CV_LAYER_H */
