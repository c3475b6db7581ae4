// SPDX-License-Identifier: MIT
/*
 * cv_ref.c -- the double-precision references of single outputs and the
 * error bounds that an f32 evaluation must meet (u = 2^-24, the unit
 * roundoff of f32; gamma_n = n u / (1 - n u) <= 2 n u for n u <= 1/2):
 *
 * - convolution: an output is a sum of L = C/g R S products of f32 values.
 *   Each product rounds once and a recursive sum in any order (blocked,
 *   gemm, vectorised) adds gamma_{L-1}, so |y - y*| <= gamma_{L+1} sum
 *   |x w| <= 2 (L + 1) u sum |x w| (Higham, Accuracy and Stability, 3.1).
 * - average pooling: a sum of L inputs and one division: 2 (L + 1) u
 *   sum |x| / L. Max pooling is exact; its bound is u |y| (a floor).
 * - normalisation: see cv_ref_norm.
 * Every bound has a floor of FLT_MIN so that an exact zero passes.
 */
#include "cv_layer.h"

#include <float.h>
#include <math.h>

#define U_F32 (FLT_EPSILON / 2.0)

double cv_ref_conv(const cv_shape *sh, cv_layout l, const float *in, const float *w, int n, int k,
                   int p, int q, double *bound)
{
    int cg = sh->c / sh->groups, c0 = k / (sh->k / sh->groups) * cg;
    double acc = 0.0, mag = 0.0;

    for (int c = 0; c < cg; c++)
        for (int r = 0; r < sh->r; r++)
            for (int s = 0; s < sh->s; s++) {
                int y = p * sh->stride - sh->pad + r, x = q * sh->stride - sh->pad + s;
                double t;

                if (y < 0 || y >= sh->h || x < 0 || x >= sh->w)
                    continue;
                t = (double)in[cv_at(l, sh->c, sh->h, sh->w, n, c0 + c, y, x)] *
                    (double)w[cv_weight_at(sh, l, k, c, r, s)];
                acc += t;
                mag += fabs(t);
            }
    *bound = fmax(2.0 * (cg * sh->r * sh->s + 1) * U_F32 * mag, FLT_MIN);
    return acc;
}

double cv_ref_pool(const cv_shape *sh, cv_layout l, cv_pool_kind kind, const float *in, int n,
                   int c, int p, int q, double *bound)
{
    int y0, y1, x0, x1;
    double acc = kind == CV_POOL_MAX ? -DBL_MAX : 0.0, mag = 0.0, cnt;

    cv_pool_window(sh, kind, p, sh->h, sh->p, sh->r, &y0, &y1);
    cv_pool_window(sh, kind, q, sh->w, sh->q, sh->s, &x0, &x1);
    cnt = (double)(y1 - y0) * (double)(x1 - x0);
    for (int y = y0; y < y1; y++)
        for (int x = x0; x < x1; x++) {
            double v = (double)in[cv_at(l, sh->c, sh->h, sh->w, n, c, y, x)];

            acc = kind == CV_POOL_MAX ? fmax(acc, v) : acc + v;
            mag += fabs(v);
        }
    if (kind == CV_POOL_MAX) {
        *bound = fmax(U_F32 * fabs(acc), FLT_MIN);
        return acc;
    }
    *bound = fmax(2.0 * (cnt + 1.0) * U_F32 * mag / cnt, FLT_MIN);
    return acc / cnt;
}

/*
 * The bound of a normalised output y = (x - mu) / sigma gamma + beta,
 * sigma = sqrt(var + eps), whose statistics an f32 code summed over m
 * elements (m = 0: given, as in inference). With Q = var + mu^2 the mean
 * square and A = sqrt(Q) >= mean |x| (Cauchy-Schwarz):
 *   |d mu|  <= 2 m u A                       (a recursive f32 sum of m)
 *   |d var| <= 4 (m + 2) u Q + 2 A |d mu|    (two-pass, or E[x^2] - mu^2)
 *   |d y|   <= |gamma| (|d mu| / sigma + |x - mu| |d var| / (2 sigma^3))
 *              + 8 u (|gamma| (|x| + |mu|) / sigma + |beta|)
 * the last term the rounding of scale, shift and x scale + shift.
 */
void cv_ref_stats_bound(double mean, double var, double m, double *dmu, double *dvar)
{
    double q = var + mean * mean, a = sqrt(q);

    *dmu = 2.0 * m * U_F32 * a;
    *dvar = m > 0 ? 4.0 * (m + 2.0) * U_F32 * q + 2.0 * a * *dmu : 0.0;
}

double cv_ref_norm(double x, double mean, double var, double gamma, double beta, double eps,
                   double m, double *bound)
{
    double sigma = sqrt(var + eps), dmu, dvar;
    double g = fabs(gamma);

    cv_ref_stats_bound(mean, var, m, &dmu, &dvar);

    *bound = g * (dmu / sigma + fabs(x - mean) * dvar / (2.0 * sigma * sigma * sigma)) +
             8.0 * U_F32 * (g * (fabs(x) + fabs(mean)) / sigma + fabs(beta));
    *bound = fmax(*bound, FLT_MIN);
    return (x - mean) / sigma * gamma + beta;
}
