// SPDX-License-Identifier: MIT
/*
 * cv_im2col.c -- convolution as im2col + gemm, per image and group:
 *   NCHW: col is (C/g R S) x (P Q), out_g (K/g x P Q) = W_g (K/g x C/g R S) col;
 *   NHWC: col is (P Q) x (R S C/g), out_g (P Q x K/g, row stride K) =
 *         col W_g^T, W_g being K/g rows of R S C/g (ohwi).
 * Padding becomes zeros in col. cv_sgemm_naive is a plain row-major gemm
 * for tests and builds without a BLAS.
 */
#include "cv_layer.h"

#include <string.h>

void cv_sgemm_naive(int tb, int m, int n, int k, const float *a, int lda, const float *b, int ldb,
                    float *c, int ldc)
{
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++) {
            float acc = 0.0f;

            for (int t = 0; t < k; t++)
                acc += a[(size_t)i * (size_t)lda + (size_t)t] *
                       (tb ? b[(size_t)j * (size_t)ldb + (size_t)t]
                           : b[(size_t)t * (size_t)ldb + (size_t)j]);
            c[(size_t)i * (size_t)ldc + (size_t)j] = acc;
        }
}

size_t cv_col_elems(const cv_shape *sh)
{
    return (size_t)(sh->c / sh->groups) * (size_t)sh->r * (size_t)sh->s * (size_t)sh->p *
           (size_t)sh->q;
}

/* The input at (n, c, y, x), zero outside the image. */
static float in_or_zero(const cv_shape *sh, cv_layout l, const float *in, int n, int c, int y,
                        int x)
{
    if (y < 0 || y >= sh->h || x < 0 || x >= sh->w)
        return 0.0f;
    return in[cv_at(l, sh->c, sh->h, sh->w, n, c, y, x)];
}

/* NCHW patches of image n, group g: row (c r s), column (p q). */
static void im2col_nchw(const cv_shape *sh, const float *in, float *col, int n, int g)
{
    int cg = sh->c / sh->groups;
    size_t pq = (size_t)sh->p * (size_t)sh->q, row = 0;

    for (int c = 0; c < cg; c++)
        for (int r = 0; r < sh->r; r++)
            for (int s = 0; s < sh->s; s++, row++) {
                float *dst = col + row * pq;

                for (int p = 0; p < sh->p; p++)
                    for (int q = 0; q < sh->q; q++)
                        *dst++ =
                            in_or_zero(sh, CV_NCHW, in, n, g * cg + c, p * sh->stride - sh->pad + r,
                                       q * sh->stride - sh->pad + s);
            }
}

/* NHWC patches of image n, group g: row (p q), column (r s c). */
static void im2col_nhwc(const cv_shape *sh, const float *in, float *col, int n, int g)
{
    int cg = sh->c / sh->groups;

    for (int p = 0; p < sh->p; p++)
        for (int q = 0; q < sh->q; q++)
            for (int r = 0; r < sh->r; r++)
                for (int s = 0; s < sh->s; s++) {
                    int y = p * sh->stride - sh->pad + r, x = q * sh->stride - sh->pad + s;

                    if (y < 0 || y >= sh->h || x < 0 || x >= sh->w)
                        memset(col, 0, (size_t)cg * sizeof(float));
                    else
                        memcpy(col, in + cv_at(CV_NHWC, sh->c, sh->h, sh->w, n, g * cg, y, x),
                               (size_t)cg * sizeof(float));
                    col += cg;
                }
}

/* Images [n0, n1). */
void cv_conv_im2col(const cv_shape *sh, cv_layout l, const float *in, const float *w, float *out,
                    float *col, cv_sgemm_fn gemm, int n0, int n1)
{
    int cg = sh->c / sh->groups, kg = sh->k / sh->groups, red = cg * sh->r * sh->s;
    int pq = sh->p * sh->q;

    for (int n = n0; n < n1; n++)
        for (int g = 0; g < sh->groups; g++) {
            const float *wg = w + cv_weight_at(sh, l, g * kg, 0, 0, 0);

            if (l == CV_NCHW) {
                im2col_nchw(sh, in, col, n, g);
                gemm(0, kg, pq, red, wg, red, col, pq,
                     out + cv_at(CV_NCHW, sh->k, sh->p, sh->q, n, g * kg, 0, 0), pq);
            } else {
                im2col_nhwc(sh, in, col, n, g);
                gemm(1, pq, kg, red, col, red, wg, red,
                     out + cv_at(CV_NHWC, sh->k, sh->p, sh->q, n, g * kg, 0, 0), sh->k);
            }
        }
}
