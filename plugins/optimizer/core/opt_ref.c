// SPDX-License-Identifier: MIT
/*
 * opt_ref.c -- the double-precision reference step: the optimizers'
 * published update rules written plainly (bias-corrected moments m_hat and
 * v_hat, decoupled decay as a separate multiply, ...), independent of the
 * precomputed coefficients the kernels use.
 *
 * Contracts of the exported functions: opt.h.
 */
#include "opt.h"

#include <math.h>

double opt_ref_clip_coef(double max_norm, double norm)
{
    double c = max_norm / (norm + 1e-6);

    return c < 1.0 ? c : 1.0;
}

/* torch.sign in double. */
static double sgn(double x)
{
    return x > 0 ? 1.0 : x < 0 ? -1.0 : 0.0;
}

/* SGD: L2 decay, momentum buffer (= g on step 1), dampening, Nesterov. */
static void ref_sgd(const opt_hparams *hp, uint64_t t, double lr, size_t n,
                    double *p, const double *g, double *buf)
{
    for (size_t i = 0; i < n; i++) {
        double gi = g[i] + hp->weight_decay * p[i];
        double d = gi;

        if (hp->momentum != 0) {
            double b = t == 1 ? gi
                              : hp->momentum * buf[i] + (1 - hp->dampening) * gi;

            buf[i] = b;
            d = hp->nesterov ? gi + hp->momentum * b : b;
        }
        p[i] -= lr * d;
    }
}

/* Adam (L2 in the gradient) and AdamW (p *= 1 - lr wd first). */
static void ref_adam(const opt_hparams *hp, uint64_t t, double lr, size_t n,
                     double *p, const double *g, double *m, double *v)
{
    double bc1 = 1 - pow(hp->beta1, (double)t);
    double bc2 = 1 - pow(hp->beta2, (double)t);
    int adamw = hp->kind == OPT_ADAMW;

    for (size_t i = 0; i < n; i++) {
        double gi = g[i] + (adamw ? 0 : hp->weight_decay * p[i]);
        double mhat, vhat;

        if (adamw)
            p[i] -= lr * hp->weight_decay * p[i];
        m[i] = hp->beta1 * m[i] + (1 - hp->beta1) * gi;
        v[i] = hp->beta2 * v[i] + (1 - hp->beta2) * gi * gi;
        mhat = m[i] / bc1;
        vhat = v[i] / bc2;
        p[i] -= lr * mhat / (sqrt(vhat) + hp->eps);
    }
}

/* Adagrad with lr decay: clr = lr / (1 + (t - 1) lr_decay). */
static void ref_adagrad(const opt_hparams *hp, uint64_t t, double lr, size_t n,
                        double *p, const double *g, double *sum)
{
    double clr = lr / (1 + (double)(t - 1) * hp->lr_decay);

    for (size_t i = 0; i < n; i++) {
        double gi = g[i] + hp->weight_decay * p[i];

        sum[i] += gi * gi;
        p[i] -= clr * gi / (sqrt(sum[i]) + hp->eps);
    }
}

/* RMSprop: square average, optional centering and momentum. */
static void ref_rmsprop(const opt_hparams *hp, double lr, size_t n, double *p,
                        const double *g, double *sq, double *buf, double *ga)
{
    double a = hp->alpha;

    for (size_t i = 0; i < n; i++) {
        double gi = g[i] + hp->weight_decay * p[i];
        double avg;

        sq[i] = a * sq[i] + (1 - a) * gi * gi;
        if (hp->centered) {
            ga[i] = a * ga[i] + (1 - a) * gi;
            avg = sqrt(sq[i] - ga[i] * ga[i]) + hp->eps;
        } else {
            avg = sqrt(sq[i]) + hp->eps;
        }
        if (hp->momentum > 0) {
            buf[i] = hp->momentum * buf[i] + gi / avg;
            p[i] -= lr * buf[i];
        } else {
            p[i] -= lr * gi / avg;
        }
    }
}

/* LAMB update direction of element i after its moments were updated. */
static double lamb_u(const opt_hparams *hp, double bc1, double bc2, double p,
                     double m, double v)
{
    return (m / bc1) / (sqrt(v / bc2) + hp->eps) + hp->weight_decay * p;
}

/* LAMB: Adam direction plus decay, scaled by the layer's trust ratio. */
static double ref_lamb(const opt_hparams *hp, uint64_t t, double lr, size_t n,
                       double *p, const double *g, double *m, double *v,
                       double ratio)
{
    double bc1 = 1 - pow(hp->beta1, (double)t);
    double bc2 = 1 - pow(hp->beta2, (double)t);
    double pp = 0, uu = 0;

    for (size_t i = 0; i < n; i++) {
        double u;

        m[i] = hp->beta1 * m[i] + (1 - hp->beta1) * g[i];
        v[i] = hp->beta2 * v[i] + (1 - hp->beta2) * g[i] * g[i];
        u = lamb_u(hp, bc1, bc2, p[i], m[i], v[i]);
        pp += p[i] * p[i];
        uu += u * u;
    }
    if (ratio < 0)
        ratio = pp > 0 && uu > 0 ? sqrt(pp) / sqrt(uu) : 1.0;
    for (size_t i = 0; i < n; i++)
        p[i] -= lr * ratio * lamb_u(hp, bc1, bc2, p[i], m[i], v[i]);
    return ratio;
}

/* Lion: sign(beta1 m + (1 - beta1) g), decoupled decay, then m. */
static void ref_lion(const opt_hparams *hp, double lr, size_t n, double *p,
                     const double *g, double *m)
{
    for (size_t i = 0; i < n; i++) {
        double c = hp->beta1 * m[i] + (1 - hp->beta1) * g[i];

        p[i] = p[i] * (1 - lr * hp->weight_decay) - lr * sgn(c);
        m[i] = hp->beta2 * m[i] + (1 - hp->beta2) * g[i];
    }
}

double opt_ref_step(const opt_hparams *hp, uint64_t t, double lr, size_t n,
                    double *p, const double *g, double *s0, double *s1,
                    double *s2, double lamb_ratio)
{
    switch (hp->kind) {
    case OPT_SGD:
        ref_sgd(hp, t, lr, n, p, g, s0);
        break;
    case OPT_ADAM:
    case OPT_ADAMW:
        ref_adam(hp, t, lr, n, p, g, s0, s1);
        break;
    case OPT_ADAGRAD:
        ref_adagrad(hp, t, lr, n, p, g, s0);
        break;
    case OPT_RMSPROP:
        ref_rmsprop(hp, lr, n, p, g, s0, s1, s2);
        break;
    case OPT_LAMB:
        return ref_lamb(hp, t, lr, n, p, g, s0, s1, lamb_ratio);
    case OPT_LION:
        ref_lion(hp, lr, n, p, g, s0);
        break;
    default:
        break;
    }
    return 1.0;
}
