// SPDX-License-Identifier: MIT
/*
 * opt_body.h -- the vector element kernels, written once against
 * opt_vec.h and included by one .c file per instruction set, which then
 * defines its opt_ops_<isa> table.
 *
 * Each optimizer is one inline "vector step" over VN elements. The kernel
 * runs it over whole vectors and runs the n % VN tail through the same
 * step on zero-padded copies, so every element sees the same arithmetic
 * wherever a thread range or a tensor boundary falls: the multi-tensor,
 * per-tensor and flat paths agree bit for bit. Zero padding is neutral
 * for every formula (it adds nothing to LAMB's norms); the padded lanes'
 * results are discarded. Loop-invariant choices (momentum, centered,
 * first step) are made outside the loops, so a kernel touches only the
 * streams it needs.
 */
#ifndef OPT_BODY_H
#define OPT_BODY_H

#include "opt_internal.h"
#include "opt_vec.h"

/* Copies r < VN floats of src (NULL: none) into a zeroed VN buffer. */
static inline OPT_T void pad_in(float *dst, const float *src, size_t r)
{
    memset(dst, 0, VN * sizeof(float));
    if (src != NULL)
        memcpy(dst, src, r * sizeof(float));
}

/* Copies the first r floats of src back to dst (NULL: none). */
static inline OPT_T void pad_out(float *dst, const float *src, size_t r)
{
    if (dst != NULL)
        memcpy(dst, src, r * sizeof(float));
}

/* ---- SGD ---------------------------------------------------------------- */

/* One SGD vector. mode 0: no momentum; 1: first step (buf = g);
 * 2: momentum. */
static inline OPT_T void OPT_FN(sgd_vec)(float *p, const float *g, float *buf,
                                         const opt_coef *c, int mode)
{
    vf pv = vld(p);
    vf gi = vset(c->gscale) * vld(g) + vset(c->l2) * pv;
    vf d = gi;

    if (mode != 0) {
        vf b = mode == 1 ? gi
                         : vset(c->b1) * vld(buf) + vset(c->omb1) * gi;

        vst(buf, b);
        d = c->nesterov ? gi + vset(c->b1) * b : b;
    }
    vst(p, pv - vset(c->lr) * d);
}

/* SGD with optional momentum, dampening, Nesterov and L2 weight decay. */
static OPT_T void OPT_FN(sgd)(float *p, const float *g, float *buf, size_t n,
                              const opt_coef *c)
{
    int mode = !c->momentum ? 0 : c->first ? 1 : 2;
    size_t i = 0, r;

    if (mode == 0)
        for (; i + VN <= n; i += VN)
            OPT_FN(sgd_vec)(p + i, g + i, NULL, c, 0);
    else if (mode == 1)
        for (; i + VN <= n; i += VN)
            OPT_FN(sgd_vec)(p + i, g + i, buf + i, c, 1);
    else
        for (; i + VN <= n; i += VN)
            OPT_FN(sgd_vec)(p + i, g + i, buf + i, c, 2);
    r = n - i;
    if (r != 0) {
        float tp[VN], tg[VN], tb[VN];

        pad_in(tp, p + i, r);
        pad_in(tg, g + i, r);
        pad_in(tb, mode == 2 ? buf + i : NULL, r);
        OPT_FN(sgd_vec)(tp, tg, tb, c, mode);
        pad_out(p + i, tp, r);
        pad_out(mode != 0 ? buf + i : NULL, tb, r);
    }
}

/* ---- Adam, AdamW ---------------------------------------------------------- */

/* One Adam/AdamW vector. */
static inline OPT_T void OPT_FN(adam_vec)(float *p, const float *g, float *m,
                                          float *v, const opt_coef *c)
{
    vf pv = vld(p);
    vf gi = vset(c->gscale) * vld(g) + vset(c->l2) * pv;
    vf mi = vset(c->b1) * vld(m) + vset(c->omb1) * gi;
    vf vv = vset(c->b2) * vld(v) + vset(c->omb2) * gi * gi;
    vf den = vsqrt(vv) * vset(c->rsqrt_bc2) + vset(c->eps);

    vst(m, mi);
    vst(v, vv);
    vst(p, vset(c->decay) * pv - vset(c->step_size) * mi / den);
}

/* Adam (L2 decay in the gradient) and AdamW (decoupled decay). */
static OPT_T void OPT_FN(adam)(float *p, const float *g, float *m, float *v,
                               size_t n, const opt_coef *c)
{
    size_t i = 0, r;

    for (; i + VN <= n; i += VN)
        OPT_FN(adam_vec)(p + i, g + i, m + i, v + i, c);
    r = n - i;
    if (r != 0) {
        float tp[VN], tg[VN], tm[VN], tv[VN];

        pad_in(tp, p + i, r);
        pad_in(tg, g + i, r);
        pad_in(tm, m + i, r);
        pad_in(tv, v + i, r);
        OPT_FN(adam_vec)(tp, tg, tm, tv, c);
        pad_out(p + i, tp, r);
        pad_out(m + i, tm, r);
        pad_out(v + i, tv, r);
    }
}

/* ---- Adagrad -------------------------------------------------------------- */

/* One Adagrad vector. */
static inline OPT_T void OPT_FN(adagrad_vec)(float *p, const float *g,
                                             float *s, const opt_coef *c)
{
    vf pv = vld(p);
    vf gi = vset(c->gscale) * vld(g) + vset(c->l2) * pv;
    vf si = vld(s) + gi * gi;

    vst(s, si);
    vst(p, pv - vset(c->step_size) * gi / (vsqrt(si) + vset(c->eps)));
}

/* Adagrad with learning-rate decay and L2 decay. */
static OPT_T void OPT_FN(adagrad)(float *p, const float *g, float *s, size_t n,
                                  const opt_coef *c)
{
    size_t i = 0, r;

    for (; i + VN <= n; i += VN)
        OPT_FN(adagrad_vec)(p + i, g + i, s + i, c);
    r = n - i;
    if (r != 0) {
        float tp[VN], tg[VN], ts[VN];

        pad_in(tp, p + i, r);
        pad_in(tg, g + i, r);
        pad_in(ts, s + i, r);
        OPT_FN(adagrad_vec)(tp, tg, ts, c);
        pad_out(p + i, tp, r);
        pad_out(s + i, ts, r);
    }
}

/* ---- RMSprop -------------------------------------------------------------- */

/* One RMSprop vector; the flags are constants at each call site, so the
 * unused streams vanish. */
static inline OPT_T void OPT_FN(rms_vec)(float *p, const float *g, float *sq,
                                         float *buf, float *gavg,
                                         const opt_coef *c, int centered,
                                         int momentum)
{
    vf pv = vld(p);
    vf gi = vset(c->gscale) * vld(g) + vset(c->l2) * pv;
    vf s = vset(c->b2) * vld(sq) + vset(c->omb2) * gi * gi;
    vf avg;

    vst(sq, s);
    if (centered) {
        vf a = vset(c->b2) * vld(gavg) + vset(c->omb2) * gi;

        vst(gavg, a);
        avg = vsqrt(s - a * a) + vset(c->eps);
    } else {
        avg = vsqrt(s) + vset(c->eps);
    }
    if (momentum) {
        vf b = vset(c->b1) * vld(buf) + gi / avg;

        vst(buf, b);
        vst(p, pv - vset(c->lr) * b);
    } else {
        vst(p, pv - vset(c->lr) * gi / avg);
    }
}

/* RMSprop, plain, centered and/or with momentum. */
static OPT_T void OPT_FN(rmsprop)(float *p, const float *g, float *sq,
                                  float *buf, float *gavg, size_t n,
                                  const opt_coef *c)
{
    int ce = c->centered, mo = c->momentum;
    size_t i = 0, r;

    if (ce && mo)
        for (; i + VN <= n; i += VN)
            OPT_FN(rms_vec)(p + i, g + i, sq + i, buf + i, gavg + i, c, 1, 1);
    else if (ce)
        for (; i + VN <= n; i += VN)
            OPT_FN(rms_vec)(p + i, g + i, sq + i, NULL, gavg + i, c, 1, 0);
    else if (mo)
        for (; i + VN <= n; i += VN)
            OPT_FN(rms_vec)(p + i, g + i, sq + i, buf + i, NULL, c, 0, 1);
    else
        for (; i + VN <= n; i += VN)
            OPT_FN(rms_vec)(p + i, g + i, sq + i, NULL, NULL, c, 0, 0);
    r = n - i;
    if (r != 0) {
        float tp[VN], tg[VN], ts[VN], tb[VN], ta[VN];

        pad_in(tp, p + i, r);
        pad_in(tg, g + i, r);
        pad_in(ts, sq + i, r);
        pad_in(tb, mo ? buf + i : NULL, r);
        pad_in(ta, ce ? gavg + i : NULL, r);
        OPT_FN(rms_vec)(tp, tg, ts, tb, ta, c, ce, mo);
        pad_out(p + i, tp, r);
        pad_out(sq + i, ts, r);
        pad_out(mo ? buf + i : NULL, tb, r);
        pad_out(ce ? gavg + i : NULL, ta, r);
    }
}

/* ---- LAMB ----------------------------------------------------------------- */

/* The LAMB direction from updated moments and p. */
static inline OPT_T vf OPT_FN(lamb_u)(vf pv, vf mi, vf vv, const opt_coef *c)
{
    return mi * vset(c->inv_bc1) / (vsqrt(vv) * vset(c->rsqrt_bc2) + vset(c->eps)) +
           vset(c->wd) * pv;
}

/* LAMB pass 1 on one vector: moments, and the squares of p and u added
 * to the double accumulators acc[0..1] (p) and acc[2..3] (u). */
static inline OPT_T void OPT_FN(lamb1_vec)(const float *p, const float *g,
                                           float *m, float *v,
                                           const opt_coef *c, vd *acc)
{
    vf pv = vld(p);
    vf gi = vset(c->gscale) * vld(g);
    vf mi = vset(c->b1) * vld(m) + vset(c->omb1) * gi;
    vf vv = vset(c->b2) * vld(v) + vset(c->omb2) * gi * gi;

    vst(m, mi);
    vst(v, vv);
    vsumsq(&acc[0], &acc[1], pv);
    vsumsq(&acc[2], &acc[3], OPT_FN(lamb_u)(pv, mi, vv, c));
}

/* LAMB pass 1: moments, and the squared norms of p and of the update. */
static OPT_T void OPT_FN(lamb1)(const float *p, const float *g, float *m,
                                float *v, size_t n, const opt_coef *c,
                                double *nrm)
{
    vd acc[4] = {{0}, {0}, {0}, {0}};
    size_t i = 0, r;

    for (; i + VN <= n; i += VN)
        OPT_FN(lamb1_vec)(p + i, g + i, m + i, v + i, c, acc);
    r = n - i;
    if (r != 0) {
        float tp[VN], tg[VN], tm[VN], tv[VN];

        pad_in(tp, p + i, r);
        pad_in(tg, g + i, r);
        pad_in(tm, m + i, r);
        pad_in(tv, v + i, r);
        OPT_FN(lamb1_vec)(tp, tg, tm, tv, c, acc);
        pad_out(m + i, tm, r);
        pad_out(v + i, tv, r);
    }
    nrm[0] += vdsum(acc[0], acc[1]);
    nrm[1] += vdsum(acc[2], acc[3]);
}

/* LAMB pass 2 on one vector: p -= ratio u. */
static inline OPT_T void OPT_FN(lamb2_vec)(float *p, const float *m,
                                           const float *v, const opt_coef *c)
{
    vf pv = vld(p);

    vst(p, pv - vset(c->ratio) * OPT_FN(lamb_u)(pv, vld(m), vld(v), c));
}

/* LAMB pass 2: p -= lr x trust ratio x u. */
static OPT_T void OPT_FN(lamb2)(float *p, const float *m, const float *v,
                                size_t n, const opt_coef *c)
{
    size_t i = 0, r;

    for (; i + VN <= n; i += VN)
        OPT_FN(lamb2_vec)(p + i, m + i, v + i, c);
    r = n - i;
    if (r != 0) {
        float tp[VN], tm[VN], tv[VN];

        pad_in(tp, p + i, r);
        pad_in(tm, m + i, r);
        pad_in(tv, v + i, r);
        OPT_FN(lamb2_vec)(tp, tm, tv, c);
        pad_out(p + i, tp, r);
    }
}

/* ---- Lion ----------------------------------------------------------------- */

/* One Lion vector. */
static inline OPT_T void OPT_FN(lion_vec)(float *p, const float *g, float *m,
                                          const opt_coef *c)
{
    vf gi = vset(c->gscale) * vld(g);
    vf mv = vld(m);
    vf s = vsign(vset(c->b1) * mv + vset(c->omb1) * gi);

    vst(p, vset(c->decay) * vld(p) - vset(c->lr) * s);
    vst(m, vset(c->b2) * mv + vset(c->omb2) * gi);
}

/* Lion: sign of the interpolated momentum, decoupled decay. */
static OPT_T void OPT_FN(lion)(float *p, const float *g, float *m, size_t n,
                               const opt_coef *c)
{
    size_t i = 0, r;

    for (; i + VN <= n; i += VN)
        OPT_FN(lion_vec)(p + i, g + i, m + i, c);
    r = n - i;
    if (r != 0) {
        float tp[VN], tg[VN], tm[VN];

        pad_in(tp, p + i, r);
        pad_in(tg, g + i, r);
        pad_in(tm, m + i, r);
        OPT_FN(lion_vec)(tp, tg, tm, c);
        pad_out(p + i, tp, r);
        pad_out(m + i, tm, r);
    }
}

/* ---- Reductions, accumulation, conversions, triad ------------------------ */

/* Sum of squares in double. */
static OPT_T double OPT_FN(sumsq)(const float *x, size_t n)
{
    vd a0 = {0}, a1 = {0}, a2 = {0}, a3 = {0};
    size_t i = 0;

    for (; i + 2 * VN <= n; i += 2 * VN) {
        vsumsq(&a0, &a1, vld(x + i));
        vsumsq(&a2, &a3, vld(x + i + VN));
    }
    return vdsum(a0 + a2, a1 + a3) + opt_scalar_sumsq(x + i, n - i);
}

/* acc = g or acc += g (exact per element: any split gives the same). */
static OPT_T void OPT_FN(accum)(float *acc, const float *g, size_t n,
                                int first)
{
    size_t i = 0;

    if (first) {
        for (; i + VN <= n; i += VN)
            vst(acc + i, vld(g + i));
    } else {
        for (; i + VN <= n; i += VN)
            vst(acc + i, vld(acc + i) + vld(g + i));
    }
    opt_scalar_accum(acc + i, g + i, n - i, first);
}

/* bf16 -> f32. */
static OPT_T void OPT_FN(from_bf16)(float *d, const uint16_t *s, size_t n)
{
    size_t i = 0;

    for (; i + VN <= n; i += VN)
        vst(d + i, vld_bf16(s + i));
    opt_scalar_from_bf16(d + i, s + i, n - i);
}

/* f16 -> f32. */
static OPT_T void OPT_FN(from_f16)(float *d, const uint16_t *s, size_t n)
{
    size_t i = 0;

    for (; i + VN <= n; i += VN)
        vst(d + i, vld_f16(s + i));
    opt_scalar_from_f16(d + i, s + i, n - i);
}

/* f32 -> bf16, nearest even. */
static OPT_T void OPT_FN(to_bf16)(uint16_t *d, const float *s, size_t n)
{
    size_t i = 0;

    for (; i + VN <= n; i += VN)
        vst_bf16(d + i, vld(s + i));
    opt_scalar_to_bf16(d + i, s + i, n - i);
}

/* f32 -> f16, nearest even. */
static OPT_T void OPT_FN(to_f16)(uint16_t *d, const float *s, size_t n)
{
    size_t i = 0;

    for (; i + VN <= n; i += VN)
        vst_f16(d + i, vld(s + i));
    opt_scalar_to_f16(d + i, s + i, n - i);
}

/* STREAM triad a = b + s c in double, with regular (cached) stores as the
 * STREAM reference code compiles to. */
static OPT_T void OPT_FN(triad)(double *a, const double *b, const double *c,
                                double s, size_t n)
{
    vd sv = {0};
    size_t i = 0;

    sv += s;
    for (; i + VN / 2 <= n; i += VN / 2) {
        vd bv, cv, av;

        memcpy(&bv, b + i, sizeof(bv));
        memcpy(&cv, c + i, sizeof(cv));
        av = bv + sv * cv;
        memcpy(a + i, &av, sizeof(av));
    }
    opt_scalar_triad(a + i, b + i, c + i, s, n - i);
}

#endif /* OPT_BODY_H */
