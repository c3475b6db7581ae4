// SPDX-License-Identifier: MIT
/*
 * opt_scalar.c -- the element kernels in plain C: the portable table
 * (any CPU) and the tails the vector kernels leave (n % width elements).
 * The formulas are the ones opt_body.h vectorizes, in the same order.
 *
 * Contracts of the exported functions: opt_internal.h.
 */
#include "opt_internal.h"

#include <math.h>

void opt_scalar_sgd(float *p, const float *g, float *buf, size_t n,
                    const opt_coef *c)
{
    for (size_t i = 0; i < n; i++) {
        float gi = c->gscale * g[i] + c->l2 * p[i];
        float d = gi;

        if (c->momentum) {
            float b = c->first ? gi : c->b1 * buf[i] + c->omb1 * gi;

            buf[i] = b;
            d = c->nesterov ? gi + c->b1 * b : b;
        }
        p[i] = p[i] - c->lr * d;
    }
}

void opt_scalar_adam(float *p, const float *g, float *m, float *v, size_t n,
                     const opt_coef *c)
{
    for (size_t i = 0; i < n; i++) {
        float gi = c->gscale * g[i] + c->l2 * p[i];
        float mi = c->b1 * m[i] + c->omb1 * gi;
        float vi = c->b2 * v[i] + c->omb2 * gi * gi;
        float den = sqrtf(vi) * c->rsqrt_bc2 + c->eps;

        m[i] = mi;
        v[i] = vi;
        p[i] = c->decay * p[i] - c->step_size * mi / den;
    }
}

void opt_scalar_adagrad(float *p, const float *g, float *s, size_t n,
                        const opt_coef *c)
{
    for (size_t i = 0; i < n; i++) {
        float gi = c->gscale * g[i] + c->l2 * p[i];
        float si = s[i] + gi * gi;

        s[i] = si;
        p[i] = p[i] - c->step_size * gi / (sqrtf(si) + c->eps);
    }
}

void opt_scalar_rmsprop(float *p, const float *g, float *sq, float *buf,
                        float *gavg, size_t n, const opt_coef *c)
{
    for (size_t i = 0; i < n; i++) {
        float gi = c->gscale * g[i] + c->l2 * p[i];
        float s = c->b2 * sq[i] + c->omb2 * gi * gi;
        float avg;

        sq[i] = s;
        if (c->centered) {
            float a = c->b2 * gavg[i] + c->omb2 * gi;

            gavg[i] = a;
            avg = sqrtf(s - a * a) + c->eps;
        } else {
            avg = sqrtf(s) + c->eps;
        }
        if (c->momentum) {
            float b = c->b1 * buf[i] + gi / avg;

            buf[i] = b;
            p[i] = p[i] - c->lr * b;
        } else {
            p[i] = p[i] - c->lr * gi / avg;
        }
    }
}

void opt_scalar_lamb1(const float *p, const float *g, float *m, float *v,
                      size_t n, const opt_coef *c, double *nrm)
{
    double pp = 0, uu = 0;

    for (size_t i = 0; i < n; i++) {
        float gi = c->gscale * g[i];
        float mi = c->b1 * m[i] + c->omb1 * gi;
        float vi = c->b2 * v[i] + c->omb2 * gi * gi;
        float u = mi * c->inv_bc1 / (sqrtf(vi) * c->rsqrt_bc2 + c->eps) +
                  c->wd * p[i];

        m[i] = mi;
        v[i] = vi;
        pp += (double)p[i] * p[i];
        uu += (double)u * u;
    }
    nrm[0] += pp;
    nrm[1] += uu;
}

void opt_scalar_lamb2(float *p, const float *m, const float *v, size_t n,
                      const opt_coef *c)
{
    for (size_t i = 0; i < n; i++) {
        float u = m[i] * c->inv_bc1 / (sqrtf(v[i]) * c->rsqrt_bc2 + c->eps) +
                  c->wd * p[i];

        p[i] = p[i] - c->ratio * u;
    }
}

void opt_scalar_lion(float *p, const float *g, float *m, size_t n,
                     const opt_coef *c)
{
    for (size_t i = 0; i < n; i++) {
        float gi = c->gscale * g[i];
        float cc = c->b1 * m[i] + c->omb1 * gi;
        float s = cc > 0 ? 1.0f : cc < 0 ? -1.0f : 0.0f;

        p[i] = c->decay * p[i] - c->lr * s;
        m[i] = c->b2 * m[i] + c->omb2 * gi;
    }
}

double opt_scalar_sumsq(const float *x, size_t n)
{
    double s = 0;

    for (size_t i = 0; i < n; i++)
        s += (double)x[i] * x[i];
    return s;
}

void opt_scalar_accum(float *acc, const float *g, size_t n, int first)
{
    if (first) {
        for (size_t i = 0; i < n; i++)
            acc[i] = g[i];
    } else {
        for (size_t i = 0; i < n; i++)
            acc[i] += g[i];
    }
}

void opt_scalar_from_bf16(float *d, const uint16_t *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        d[i] = opt_bf16_to_f32(s[i]);
}

void opt_scalar_from_f16(float *d, const uint16_t *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        d[i] = opt_f16_to_f32(s[i]);
}

void opt_scalar_to_bf16(uint16_t *d, const float *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        d[i] = opt_f32_to_bf16(s[i]);
}

void opt_scalar_to_f16(uint16_t *d, const float *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        d[i] = opt_f32_to_f16(s[i]);
}

void opt_scalar_triad(double *a, const double *b, const double *c, double s,
                      size_t n)
{
    for (size_t i = 0; i < n; i++)
        a[i] = b[i] + s * c[i];
}

const opt_isa_ops opt_ops_portable = {
    opt_scalar_sgd,       opt_scalar_adam,      opt_scalar_adagrad,
    opt_scalar_rmsprop,   opt_scalar_lamb1,     opt_scalar_lamb2,
    opt_scalar_lion,      opt_scalar_sumsq,     opt_scalar_accum,
    opt_scalar_from_bf16, opt_scalar_from_f16,  opt_scalar_to_bf16,
    opt_scalar_to_f16,    opt_scalar_triad,
};
