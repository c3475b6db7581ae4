// SPDX-License-Identifier: MIT
/*
 * op_check.c -- verify() of the optimizer cases: the last timed step
 * checked on a sampled subset against the double reference.
 *
 * How: at setup, BLOCKS blocks of up to LEN consecutive elements are drawn
 * from the run's seed (each inside one tensor). Every run() call records
 * those elements (master, gradient as the step reads it, state) just
 * before its last step, with the step number, lr and gradient factor.
 * verify() then
 *  1. recomputes the global gradient norm over every element in double and
 *     holds the step's reported norm (relative 1e-6) and clip coefficient
 *     (1e-9) to it, when the step ran a norm pass;
 *  2. applies opt_ref_step (double) to each snapshot block and compares
 *     the new master and state: |x - ref| <= RTOL (|before| + |ref change|
 *     [+ |g| + wd |p| for state]) + ATOL, RTOL 4e-6 (about 32 f32 ulps of
 *     the magnitudes involved); in mixed precision the bf16/f16 parameter
 *     copy must equal the rounded master exactly. Lion elements whose
 *     interpolated momentum is within 1e-6 relative of 0 (sign ambiguous
 *     in f32) skip the master check;
 *  3. LAMB: the blocks use the trust ratio the step reported for their
 *     tensor; then one more, untimed step runs, and each sampled tensor's
 *     trust ratio is held (relative 1e-5) to ||p|| / ||u|| computed in
 *     double over the whole tensor, and its blocks are checked as in 2.
 *
 * Contracts of the exported functions: op.h.
 */
#include "op.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define BLOCKS 16
#define LEN 128
#define RTOL 4e-6
#define ATOL 1e-30

/* Largest k with offset[k] <= i. */
static size_t find_tensor(const opt_group *g, uint64_t i)
{
    size_t lo = 0, hi = g->count;

    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;

        if (g->offset[mid] <= i)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

/* Elements in block b (it lies inside one tensor). */
static size_t block_len(const bh_optim_check *c, const opt_group *g, size_t b)
{
    size_t n = g->offset[c->tensor[b] + 1] - g->offset[c->tensor[b]];

    return n < c->len ? n : c->len;
}

bhost_status bh_optim_check_init(bh_optim_check *c, const bh_optim_set *s,
                                 uint64_t seed)
{
    const opt_group *g = s->g;
    size_t n = BLOCKS * LEN;

    memset(c, 0, sizeof(*c));
    c->blocks = BLOCKS;
    c->len = LEN;
    c->tensor = calloc(BLOCKS, sizeof(size_t));
    c->offset = calloc(BLOCKS, sizeof(size_t));
    c->p = calloc(n, sizeof(double));
    c->g = calloc(n, sizeof(double));
    for (int q = 0; q < 3; q++)
        c->s[q] = calloc(n, sizeof(double));
    if (c->tensor == NULL || c->offset == NULL || c->p == NULL || c->g == NULL ||
        c->s[0] == NULL || c->s[1] == NULL || c->s[2] == NULL) {
        bh_optim_check_fini(c, s->h);
        return bh_optim_fail(s->h, BHOST_E_NOMEM, "out of memory (check)");
    }
    for (size_t b = 0; b < BLOCKS; b++) {
        uint64_t i = (uint64_t)bh_optim_uniform(seed, 7, b, 0, (double)g->total);
        size_t k = find_tensor(g, i < g->total ? i : g->total - 1);
        size_t size = g->offset[k + 1] - g->offset[k];
        size_t len = size < LEN ? size : LEN;
        size_t off = (size_t)(i - g->offset[k]);

        c->tensor[b] = k;
        c->offset[b] = off + len > size ? size - len : off;
    }
    return BHOST_OK;
}

void bh_optim_check_fini(bh_optim_check *c, bhost_host *h)
{
    (void)h;
    free(c->tensor);
    free(c->offset);
    free(c->p);
    free(c->g);
    for (int q = 0; q < 3; q++)
        free(c->s[q]);
    memset(c, 0, sizeof(*c));
}

void bh_optim_check_snap(bh_optim_check *c, const bh_optim_set *s, uint64_t t,
                         double lr, double gscale)
{
    const opt_group *g = s->g;

    for (size_t b = 0; b < c->blocks; b++) {
        size_t k = c->tensor[b], o = c->offset[b], n = block_len(c, g, b);
        double *p = c->p + b * c->len, *gr = c->g + b * c->len;

        for (size_t i = 0; i < n; i++) {
            p[i] = g->master[k][o + i];
            gr[i] = opt_load(g->grad[k], g->grad_dtype, o + i);
            for (int q = 0; q < 3; q++)
                c->s[q][b * c->len + i] = s->used[q] ? g->state[q][k][o + i] : 0;
        }
    }
    c->t = t;
    c->lr = lr;
    c->gscale = gscale;
    c->valid = 0;
}

/* Global gradient norm of s in double over every element. */
static double full_norm(const bh_optim_set *s)
{
    const opt_group *g = s->g;
    double ss = 0;

    for (size_t k = 0; k < g->count; k++)
        for (size_t i = 0; i < g->offset[k + 1] - g->offset[k]; i++) {
            double x = opt_load(g->grad[k], g->grad_dtype, i);

            ss += x * x;
        }
    return sqrt(ss);
}

/* The trust ratio the last step used for tensor k (as opt_step). */
static double kernel_ratio(const opt_group *g, size_t k)
{
    double pn = sqrt(g->lamb_norm[2 * k]), un = sqrt(g->lamb_norm[2 * k + 1]);

    return pn > 0 && un > 0 && isfinite(pn / un) ? pn / un : 1.0;
}

/* Step 1: the norm pass. Sets *scale to the reference gradient factor. */
static bhost_status check_norm(const bh_optim_check *c, const bh_optim_set *s,
                               double *scale)
{
    const opt_hparams *hp = &s->cfg->hp;
    double norm, coef = 1;

    *scale = c->gscale;
    if (!(hp->max_grad_norm > 0) && !hp->skip_nonfinite)
        return BHOST_OK;
    norm = full_norm(s) * fabs(c->gscale);
    if (!(fabs(c->info.grad_norm - norm) <= 1e-6 * norm + 1e-300))
        return bh_optim_fail(s->h, BHOST_E_VERIFY,
                             "gradient norm %.9g, reference %.9g",
                             c->info.grad_norm, norm);
    if (hp->max_grad_norm > 0)
        coef = opt_ref_clip_coef(hp->max_grad_norm, norm);
    if (!(fabs(c->info.clip_coef - coef) <= 1e-9 * coef))
        return bh_optim_fail(s->h, BHOST_E_VERIFY,
                             "clip coefficient %.12g, reference %.12g",
                             c->info.clip_coef, coef);
    *scale = c->gscale * coef;
    return BHOST_OK;
}

/* Lion: is the sign of b1 m + (1 - b1) g ambiguous in f32? */
static int lion_ambiguous(const opt_hparams *hp, double m, double g)
{
    double a = hp->beta1 * m, b = (1 - hp->beta1) * g;

    return hp->kind == OPT_LION && fabs(a + b) <= 1e-6 * (fabs(a) + fabs(b));
}

/* Step 2 on block b: reference from the snapshot vs the current state. */
static bhost_status check_block(const bh_optim_check *c, const bh_optim_set *s,
                                size_t b, double scale, double ratio)
{
    const opt_group *g = s->g;
    const opt_hparams *hp = &s->cfg->hp;
    size_t k = c->tensor[b], o = c->offset[b], n = block_len(c, g, b);
    size_t base = b * c->len;
    double p[LEN] = {0}, gr[LEN] = {0}, st[3][LEN] = {{0}};

    for (size_t i = 0; i < n; i++) {
        p[i] = c->p[base + i];
        gr[i] = c->g[base + i] * scale;
        for (int q = 0; q < 3; q++)
            st[q][i] = c->s[q][base + i];
    }
    opt_ref_step(hp, c->t, c->lr, n, p, gr, st[0], st[1], st[2], ratio);
    for (size_t i = 0; i < n; i++) {
        double before = c->p[base + i], x = g->master[k][o + i];
        double term = fabs(gr[i]) + fabs(hp->weight_decay * before);

        if (!lion_ambiguous(hp, c->s[0][base + i], gr[i]) &&
            !(fabs(x - p[i]) <= RTOL * (fabs(before) + fabs(p[i] - before)) + ATOL))
            return bh_optim_fail(s->h, BHOST_E_VERIFY,
                                 "step %llu tensor %zu element %zu: p %.9g, "
                                 "reference %.9g (from %.9g)",
                                 (unsigned long long)c->t, k, o + i, x, p[i],
                                 before);
        for (int q = 0; q < 3; q++) {
            double y, was = c->s[q][base + i];

            if (!s->used[q])
                continue;
            y = g->state[q][k][o + i];
            if (!(fabs(y - st[q][i]) <=
                  RTOL * (fabs(st[q][i]) + fabs(st[q][i] - was) + term) + ATOL))
                return bh_optim_fail(s->h, BHOST_E_VERIFY,
                                     "step %llu tensor %zu element %zu: state %d "
                                     "%.9g, reference %.9g",
                                     (unsigned long long)c->t, k, o + i, q, y,
                                     st[q][i]);
        }
        if (g->param_dtype != OPT_F32) {
            uint16_t want = g->param_dtype == OPT_BF16 ? opt_f32_to_bf16((float)x)
                                                       : opt_f32_to_f16((float)x);

            if (((const uint16_t *)g->param[k])[o + i] != want)
                return bh_optim_fail(s->h, BHOST_E_VERIFY,
                                     "tensor %zu element %zu: parameter copy "
                                     "0x%04x is not the rounded master 0x%04x",
                                     k, o + i,
                                     ((const uint16_t *)g->param[k])[o + i], want);
        }
    }
    return BHOST_OK;
}

/* All blocks of the last step. */
static bhost_status check_blocks(const bh_optim_check *c, const bh_optim_set *s)
{
    double scale;
    bhost_status st = check_norm(c, s, &scale);

    for (size_t b = 0; st == BHOST_OK && b < c->blocks; b++)
        st = check_block(c, s, b, scale,
                         s->cfg->hp.kind == OPT_LAMB ? kernel_ratio(s->g, c->tensor[b])
                                                     : -1);
    return st;
}

/* The LAMB trust ratio step t of tensor k would take, in double over the
 * whole tensor, by chunks through opt_ref_step (u = change / lr at ratio
 * 1). */
static double ref_ratio(const bh_optim_set *s, size_t k, uint64_t t, double lr,
                        double scale)
{
    enum { CH = 1024 };
    const opt_group *g = s->g;
    size_t n = g->offset[k + 1] - g->offset[k];
    double p[CH], gr[CH], m[CH], v[CH], pp = 0, uu = 0;

    for (size_t o = 0; o < n; o += CH) {
        size_t len = n - o < CH ? n - o : CH;

        for (size_t i = 0; i < len; i++) {
            p[i] = g->master[k][o + i];
            gr[i] = opt_load(g->grad[k], g->grad_dtype, o + i) * scale;
            m[i] = g->state[0][k][o + i];
            v[i] = g->state[1][k][o + i];
            pp += p[i] * p[i];
        }
        opt_ref_step(&s->cfg->hp, t, lr, len, p, gr, m, v, NULL, 1.0);
        for (size_t i = 0; i < len; i++) {
            double u = ((double)g->master[k][o + i] - p[i]) / lr;

            uu += u * u;
        }
    }
    return pp > 0 && uu > 0 ? sqrt(pp) / sqrt(uu) : 1.0;
}

/* Step 3: one more LAMB step, its trust ratios against whole-tensor double
 * norms. */
static bhost_status check_lamb_extra(bh_optim_check *c, bh_optim_set *s,
                                     opt_sched *sched)
{
    double want[BLOCKS], scale;
    bhost_status st;

    /* the gradients are unchanged, so the norm pass of the extra step
     * gives the clip factor check_norm derives from them */
    st = check_norm(c, s, &scale);
    for (size_t b = 0; st == BHOST_OK && b < c->blocks; b++) {
        size_t same = 0;

        while (same < b && c->tensor[same] != c->tensor[b])
            same++;
        want[b] = same < b ? want[same]
                           : ref_ratio(s, c->tensor[b], s->g->step + 1,
                                       sched->lr, scale);
    }
    if (st == BHOST_OK)
        st = bh_optim_set_iterate(s, sched, c);
    for (size_t b = 0; st == BHOST_OK && b < c->blocks; b++) {
        double got = kernel_ratio(s->g, c->tensor[b]);

        if (!(fabs(got - want[b]) <= 1e-5 * want[b]))
            return bh_optim_fail(s->h, BHOST_E_VERIFY,
                                 "LAMB tensor %zu: trust ratio %.9g, reference %.9g",
                                 c->tensor[b], got, want[b]);
    }
    return st == BHOST_OK ? check_blocks(c, s) : st;
}

bhost_status bh_optim_check_verify(bh_optim_check *c, bh_optim_set *s,
                                   opt_sched *sched)
{
    bhost_status st;

    if (!c->valid)
        return bh_optim_fail(s->h, BHOST_E_VERIFY, "verify before any step");
    if (c->skipped)
        return bh_optim_fail(s->h, BHOST_E_VERIFY,
                             "the last step was skipped (non-finite gradients)");
    st = check_blocks(c, s);
    if (st == BHOST_OK && s->cfg->hp.kind == OPT_LAMB)
        st = check_lamb_extra(c, s, sched);
    return st;
}
