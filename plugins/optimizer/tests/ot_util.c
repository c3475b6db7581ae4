// SPDX-License-Identifier: MIT
/*
 * ot_util.c -- the unit tests' fixture: data, reference mirrors, checks.
 *
 * Contracts of the exported functions: ot_util.h.
 */
#include "ot_util.h"

#include "bh_rng.h"

#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

uint64_t ot_next(uint64_t *state)
{
    return bh_rng_next(state);
}

double ot_uniform(uint64_t *state, double lo, double hi)
{
    return lo + (hi - lo) * bh_rng_unit(ot_next(state));
}

/* 64-byte aligned, zeroed; fails the test on OOM. */
static void *zalloc(size_t bytes)
{
    void *p = NULL;

    assert_int_equal(posix_memalign(&p, 64, bytes + 64), 0);
    memset(p, 0, bytes + 64);
    return p;
}

/* Tensor k and offset of flat index i. */
static size_t locate(const ot_fix *f, size_t i, size_t *off)
{
    size_t lo = 0, hi = f->count;

    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;

        if (f->g->offset[mid] <= i)
            lo = mid;
        else
            hi = mid;
    }
    *off = i - f->g->offset[lo];
    return lo;
}

ot_fix *ot_fix_new(const opt_hparams *hp, size_t count, const size_t *sizes,
                   opt_dtype param_dtype, opt_dtype grad_dtype, uint64_t seed)
{
    ot_fix *f = calloc(1, sizeof(*f));

    assert_non_null(f);
    f->hp = *hp;
    f->count = count;
    f->param_dtype = param_dtype;
    f->grad_dtype = grad_dtype;
    f->rng = seed;
    f->g = opt_group_create(count, sizes, param_dtype, grad_dtype);
    assert_non_null(f->g);
    f->total = f->g->total;
    opt_state_slots(hp, f->used);
    f->master = calloc(count, sizeof(*f->master));
    f->param = calloc(count, sizeof(*f->param));
    f->grad = calloc(count, sizeof(*f->grad));
    for (int s = 0; s < 3; s++)
        f->state[s] = calloc(count, sizeof(*f->state[s]));
    for (size_t k = 0; k < count; k++) {
        f->master[k] = zalloc(sizes[k] * 4);
        f->grad[k] = zalloc(sizes[k] * opt_dtype_size(grad_dtype));
        f->g->master[k] = f->master[k];
        f->g->grad[k] = f->grad[k];
        if (param_dtype != OPT_F32) {
            f->param[k] = zalloc(sizes[k] * 2);
            f->g->param[k] = f->param[k];
        }
        for (int s = 0; s < 3; s++) {
            if (!f->used[s])
                continue;
            f->state[s][k] = zalloc(sizes[k] * 4);
            f->g->state[s][k] = f->state[s][k];
            for (size_t i = 0; i < sizes[k]; i++)
                f->state[s][k][i] = (float)opt_state_init(hp, s);
        }
    }
    f->rp = zalloc(f->total * 8);
    f->rg = zalloc(f->total * 8);
    f->mag = zalloc(f->total * 8);
    for (int s = 0; s < 3; s++) {
        f->rs[s] = zalloc(f->total * 8);
        f->smag[s] = zalloc(f->total * 8);
    }
    for (size_t i = 0; i < f->total; i++) {
        size_t off, k = locate(f, i, &off);
        float v = (float)ot_uniform(&f->rng, -1, 1);

        f->master[k][off] = v;
        if (param_dtype != OPT_F32)
            opt_store(f->param[k], param_dtype, off, v);
        f->rp[i] = v;
        f->mag[i] = fabs(v);
        for (int s = 0; s < 3; s++) {
            f->rs[s][i] = f->used[s] ? (double)(float)opt_state_init(hp, s) : 0;
            f->smag[s][i] = fabs(f->rs[s][i]);
        }
    }
    return f;
}

void ot_fix_free(ot_fix *f)
{
    for (size_t k = 0; k < f->count; k++) {
        free(f->master[k]);
        free(f->param[k]);
        free(f->grad[k]);
        for (int s = 0; s < 3; s++)
            free(f->state[s][k]);
    }
    free(f->master);
    free(f->param);
    free(f->grad);
    for (int s = 0; s < 3; s++) {
        free(f->state[s]);
        free(f->rs[s]);
        free(f->smag[s]);
    }
    free(f->rp);
    free(f->rg);
    free(f->mag);
    opt_group_destroy(f->g);
    free(f);
}

void ot_fix_grads(ot_fix *f, double lo, double hi)
{
    for (size_t i = 0; i < f->total; i++) {
        size_t off, k = locate(f, i, &off);

        opt_store(f->grad[k], f->grad_dtype, off, ot_uniform(&f->rng, lo, hi));
        f->rg[i] = opt_load(f->grad[k], f->grad_dtype, off);
    }
}

double ot_master(const ot_fix *f, size_t i)
{
    size_t off, k = locate(f, i, &off);

    return f->master[k][off];
}

double ot_param(const ot_fix *f, size_t i)
{
    size_t off, k = locate(f, i, &off);

    return f->param_dtype == OPT_F32 ? f->master[k][off]
                                     : opt_load(f->param[k], f->param_dtype, off);
}

double ot_state(const ot_fix *f, int s, size_t i)
{
    size_t off, k = locate(f, i, &off);

    return f->state[s][k][off];
}

double ot_fix_ref_step(ot_fix *f, double lr, double gscale)
{
    double *g = malloc(f->total * sizeof(double));
    double *before = malloc(4 * f->total * sizeof(double));
    double coef = 1, ss = 0;
    uint64_t t = f->g->step; /* the kernel step already ran */

    assert_non_null(g);
    assert_non_null(before);
    for (size_t i = 0; i < f->total; i++)
        ss += f->rg[i] * f->rg[i];
    if (f->hp.max_grad_norm > 0)
        coef = opt_ref_clip_coef(f->hp.max_grad_norm, sqrt(ss) * fabs(gscale));
    for (size_t i = 0; i < f->total; i++) {
        g[i] = f->rg[i] * gscale * coef;
        before[i] = f->rp[i];
        for (int q = 0; q < 3; q++)
            before[(size_t)(q + 1) * f->total + i] = f->rs[q][i];
    }
    for (size_t k = 0; k < f->count; k++) {
        size_t o = f->g->offset[k], n = f->g->offset[k + 1] - o;

        opt_ref_step(&f->hp, t, lr, n, f->rp + o, g + o, f->rs[0] + o,
                     f->rs[1] + o, f->rs[2] + o, -1);
    }
    for (size_t i = 0; i < f->total; i++) {
        f->mag[i] += fabs(f->rp[i] - before[i]);
        /* a state's rounding also scales with the gradient term that
         * entered it (g + wd p may cancel to a small state) */
        double term = fabs(g[i]) + fabs(f->hp.weight_decay * before[i]);

        for (int q = 0; q < 3; q++)
            f->smag[q][i] +=
                fabs(f->rs[q][i] - before[(size_t)(q + 1) * f->total + i]) + term;
    }
    free(g);
    free(before);
    return coef;
}

double ot_fix_worst(const ot_fix *f, double rtol, double atol)
{
    double worst = 0;

    for (size_t i = 0; i < f->total; i++) {
        double m = ot_master(f, i);
        double r = fabs(m - f->rp[i]) / (rtol * f->mag[i] + atol);

        if (!(r <= worst))
            worst = r;
        for (int s = 0; s < 3; s++) {
            double x, ref;

            if (!f->used[s])
                continue;
            x = ot_state(f, s, i);
            ref = f->rs[s][i];
            r = fabs(x - ref) / (rtol * f->smag[s][i] + atol);
            if (!(r <= worst))
                worst = r;
        }
        if (f->param_dtype != OPT_F32) {
            double want = opt_load(&(uint16_t){f->param_dtype == OPT_BF16
                                                   ? opt_f32_to_bf16((float)m)
                                                   : opt_f32_to_f16((float)m)},
                                   f->param_dtype, 0);

            if (ot_param(f, i) != want)
                worst = INFINITY;
        }
    }
    return worst;
}
