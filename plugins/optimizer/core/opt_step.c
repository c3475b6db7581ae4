// SPDX-License-Identifier: MIT
/*
 * opt_step.c -- the fused step over a group of tensors: one parallel pass
 * per kernel pass, split by element count across all tensors (the
 * multi-tensor path) or one pass per tensor (the loop path); the norm pass
 * of gradient clipping, LAMB's two passes with per-tensor trust ratios,
 * the mixed-precision blocks, and gradient accumulation.
 *
 * Contracts of the exported functions: opt.h.
 */
#include "opt_internal.h"

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAX_THREADS 256
/* Thread ranges are cut at multiples of 16 elements (64 B of f32). */
#define SPLIT_ALIGN 16

enum { PASS_SUMSQ, PASS_UPDATE, PASS_LAMB1, PASS_LAMB2, PASS_ACCUM };

/* LAMB norms of the (at most two) tensors a thread covers only in part. */
typedef struct lamb_slot {
    unsigned count;
    unsigned reserved;
    size_t k[2];
    double nrm[2][2];
} lamb_slot;

typedef struct pass_ctx {
    const opt_group *g;
    const opt_isa_ops *ops;
    const opt_hparams *hp;
    opt_coef c;
    int pass;
    int first;               /* PASS_ACCUM */
    opt_dtype micro_dtype;   /* PASS_ACCUM */
    float *const *acc;       /* PASS_ACCUM */
    const void *const *micro;
    size_t lo, hi;           /* global element range of this dispatch */
    unsigned used;           /* threads the last dispatch ran on */
    double part[MAX_THREADS];
    lamb_slot slot[MAX_THREADS];
} pass_ctx;

/* Largest k with offset[k] <= i, for i < total. */
static size_t find_tensor(const opt_group *g, size_t i)
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

/* Gradient elements [off, off + n) of tensor k as f32: the array itself
 * when it is f32, else converted into tmp (n <= OPT_BLOCK). */
static const float *grad_f32(const pass_ctx *x, const void *grad,
                             opt_dtype t, size_t off, size_t n, float *tmp)
{
    if (t == OPT_F32)
        return (const float *)grad + off;
    if (t == OPT_BF16)
        x->ops->from_bf16(tmp, (const uint16_t *)grad + off, n);
    else
        x->ops->from_f16(tmp, (const uint16_t *)grad + off, n);
    return tmp;
}

/* Writes the param_dtype copy of master elements [off, off + n). */
static void store_param(const pass_ctx *x, size_t k, size_t off, size_t n)
{
    const opt_group *g = x->g;

    if (g->param_dtype == OPT_BF16)
        x->ops->to_bf16((uint16_t *)g->param[k] + off, g->master[k] + off, n);
    else if (g->param_dtype == OPT_F16)
        x->ops->to_f16((uint16_t *)g->param[k] + off, g->master[k] + off, n);
}

/* State slot s of tensor k at off, or NULL when the slot is unused. */
static float *slot_at(const opt_group *g, int s, size_t k, size_t off)
{
    return g->state[s] == NULL || g->state[s][k] == NULL ? NULL
                                                         : g->state[s][k] + off;
}

/* The update kernel of the optimizer on n elements at off of tensor k. */
static void update(const pass_ctx *x, const opt_coef *c, size_t k, size_t off,
                   const float *gr, size_t n, double *nrm)
{
    const opt_group *g = x->g;
    float *p = g->master[k] + off;
    float *s0 = slot_at(g, 0, k, off), *s1 = slot_at(g, 1, k, off);
    float *s2 = slot_at(g, 2, k, off);

    switch (x->hp->kind) {
    case OPT_SGD:
        x->ops->sgd(p, gr, s0, n, c);
        break;
    case OPT_ADAM:
    case OPT_ADAMW:
        x->ops->adam(p, gr, s0, s1, n, c);
        break;
    case OPT_ADAGRAD:
        x->ops->adagrad(p, gr, s0, n, c);
        break;
    case OPT_RMSPROP:
        x->ops->rmsprop(p, gr, s0, s1, s2, n, c);
        break;
    case OPT_LAMB:
        if (x->pass == PASS_LAMB1)
            x->ops->lamb1(p, gr, s0, s1, n, c, nrm);
        else
            x->ops->lamb2(p, s0, s1, n, c);
        break;
    case OPT_LION:
        x->ops->lion(p, gr, s0, n, c);
        break;
    default:
        break;
    }
}

/* LAMB trust ratio of tensor k from its norms (1 when either is 0). */
static double trust(const opt_group *g, size_t k)
{
    double pn = sqrt(g->lamb_norm[2 * k]), un = sqrt(g->lamb_norm[2 * k + 1]);

    return pn > 0 && un > 0 && isfinite(pn / un) ? pn / un : 1.0;
}

/* One segment: elements [off, off + len) of tensor k, by thread tid. */
static void segment(pass_ctx *x, unsigned tid, size_t k, size_t off,
                    size_t len)
{
    _Alignas(64) float tmp[OPT_BLOCK];
    const opt_group *g = x->g;
    int convert = x->pass == PASS_ACCUM ? x->micro_dtype != OPT_F32
                                        : g->grad_dtype != OPT_F32;
    size_t blk = convert || g->param_dtype != OPT_F32 ? OPT_BLOCK : len;
    double nrm[2] = {0, 0};
    opt_coef c = x->c;

    if (x->pass == PASS_LAMB2)
        c.ratio = (float)(x->c.ratio * trust(g, k));
    for (size_t o = off; o < off + len; o += blk) {
        size_t n = off + len - o < blk ? off + len - o : blk;
        const float *gr;

        switch (x->pass) {
        case PASS_SUMSQ:
            gr = grad_f32(x, g->grad[k], g->grad_dtype, o, n, tmp);
            x->part[tid] += x->ops->sumsq(gr, n);
            break;
        case PASS_ACCUM:
            gr = grad_f32(x, x->micro[k], x->micro_dtype, o, n, tmp);
            x->ops->accum(x->acc[k] + o, gr, n, x->first);
            break;
        case PASS_LAMB2:
            update(x, &c, k, o, NULL, n, NULL);
            store_param(x, k, o, n);
            break;
        default:
            gr = grad_f32(x, g->grad[k], g->grad_dtype, o, n, tmp);
            update(x, &c, k, o, gr, n, nrm);
            if (x->pass == PASS_UPDATE)
                store_param(x, k, o, n);
            break;
        }
    }
    if (x->pass == PASS_LAMB1) {
        if (off == 0 && len == g->offset[k + 1] - g->offset[k]) {
            g->lamb_norm[2 * k] = nrm[0];
            g->lamb_norm[2 * k + 1] = nrm[1];
        } else {
            lamb_slot *s = &x->slot[tid];

            s->k[s->count] = k;
            s->nrm[s->count][0] = nrm[0];
            s->nrm[s->count][1] = nrm[1];
            s->count++;
        }
    }
}

/* Thread tid's share of [lo, hi), walked tensor by tensor. */
static void range_task(void *arg, unsigned tid, unsigned nthreads)
{
    pass_ctx *x = arg;
    const opt_group *g = x->g;
    size_t b, e, k;

    if (tid == 0)
        x->used = nthreads;
    bh_split(x->hi - x->lo, SPLIT_ALIGN, tid, nthreads, &b, &e);
    b += x->lo;
    e += x->lo;
    if (b >= e)
        return;
    k = find_tensor(g, b);
    while (b < e) {
        size_t end = g->offset[k + 1] < e ? g->offset[k + 1] : e;

        segment(x, tid, k, b - g->offset[k], end - b);
        b = end;
        k++;
    }
}

/* Runs the current pass over global elements [lo, hi) and folds the
 * threads' partial results in thread order; returns the sum of squares
 * (PASS_SUMSQ). */
static double dispatch(pass_ctx *x, opt_pool *pool, size_t lo, size_t hi)
{
    unsigned n = opt_pool_threads(pool);
    double sum = 0;

    for (unsigned t = 0; t < n; t++) {
        x->part[t] = 0;
        x->slot[t].count = 0;
    }
    x->lo = lo;
    x->hi = hi;
    x->used = 1;
    opt_pool_run(pool, hi - lo, range_task, x);
    for (unsigned t = 0; t < x->used; t++) {
        sum += x->part[t];
        for (unsigned j = 0; j < x->slot[t].count; j++) {
            size_t k = x->slot[t].k[j];

            x->g->lamb_norm[2 * k] += x->slot[t].nrm[j][0];
            x->g->lamb_norm[2 * k + 1] += x->slot[t].nrm[j][1];
        }
    }
    return sum;
}

/* The pass over the whole group, by path. */
static double run_pass(pass_ctx *x, opt_pool *pool, opt_path path)
{
    double sum = 0;

    if (path == OPT_PATH_MULTI)
        return dispatch(x, pool, 0, x->g->total);
    for (size_t k = 0; k < x->g->count; k++)
        sum += dispatch(x, pool, x->g->offset[k], x->g->offset[k + 1]);
    return sum;
}

/* The group's pass context, reset for pass (no allocation in a step). */
static pass_ctx *ctx_new(const opt_group *g, const opt_hparams *hp, int pass)
{
    pass_ctx *x = g->scratch;

    memset(x, 0, offsetof(pass_ctx, part));
    x->g = g;
    x->hp = hp;
    x->ops = opt_ops();
    x->pass = pass;
    return x;
}

/* Hyperparameters in range, and the pointers a step needs present (the
 * O(count) pointer walk only when the slot mask differs from the one last
 * checked). */
static int check(opt_group *g, const opt_hparams *hp)
{
    int used[3];
    unsigned mask;

    if (g == NULL || hp == NULL || (unsigned)hp->kind >= OPT_KIND_COUNT)
        return OPT_E_INVALID;
    if (!(hp->beta1 >= 0 && hp->beta1 < 1) || !(hp->beta2 >= 0 && hp->beta2 < 1))
        return OPT_E_INVALID;
    if (hp->kind == OPT_RMSPROP && !(hp->alpha >= 0 && hp->alpha < 1))
        return OPT_E_INVALID;
    opt_state_slots(hp, used);
    mask = 1u + (unsigned)used[0] + 2u * (unsigned)used[1] + 4u * (unsigned)used[2];
    if (g->checked == mask)
        return OPT_OK;
    for (size_t k = 0; k < g->count; k++) {
        if (g->master[k] == NULL || g->grad[k] == NULL)
            return OPT_E_INVALID;
        if (g->param_dtype != OPT_F32 && g->param[k] == NULL)
            return OPT_E_INVALID;
        for (int s = 0; s < 3; s++)
            if (used[s] && g->state[s][k] == NULL)
                return OPT_E_INVALID;
    }
    g->checked = mask;
    return OPT_OK;
}

double opt_grad_sumsq(const opt_group *g, opt_pool *pool, opt_path path)
{
    opt_hparams hp;
    pass_ctx *x;
    double s;

    opt_hparams_default(OPT_SGD, &hp);
    x = ctx_new(g, &hp, PASS_SUMSQ);
    s = run_pass(x, pool, path);
    return s;
}

int opt_step(opt_group *g, const opt_hparams *hp, double lr, double gscale,
             opt_pool *pool, opt_path path, opt_step_info *info)
{
    opt_step_info dummy;
    pass_ctx *x;
    int st = check(g, hp);

    if (info == NULL)
        info = &dummy;
    info->grad_norm = -1;
    info->clip_coef = 1;
    if (st != OPT_OK)
        return st;
    if (hp->max_grad_norm > 0 || hp->skip_nonfinite) {
        double norm = sqrt(opt_grad_sumsq(g, pool, path)) * fabs(gscale);

        info->grad_norm = norm;
        if (!isfinite(norm))
            return OPT_SKIPPED;
        if (hp->max_grad_norm > 0)
            info->clip_coef = opt_ref_clip_coef(hp->max_grad_norm, norm);
        gscale *= info->clip_coef;
    }
    info->gscale = gscale;
    x = ctx_new(g, hp, PASS_UPDATE);
    opt_coef_make(hp, g->step + 1, lr, gscale, &x->c);
    if (hp->kind == OPT_LAMB) {
        memset(g->lamb_norm, 0, 2 * g->count * sizeof(double));
        x->pass = PASS_LAMB1;
        run_pass(x, pool, path);
        x->pass = PASS_LAMB2;
    }
    run_pass(x, pool, path);
    g->step++;
    return OPT_OK;
}

void opt_accumulate(const opt_group *g, float *const *acc,
                    const void *const *micro, opt_dtype micro_dtype, int first,
                    opt_pool *pool, opt_path path)
{
    opt_hparams hp;
    pass_ctx *x;

    opt_hparams_default(OPT_SGD, &hp);
    x = ctx_new(g, &hp, PASS_ACCUM);
    x->acc = acc;
    x->micro = micro;
    x->micro_dtype = micro_dtype;
    x->first = first;
    run_pass(x, pool, path);
}

opt_group *opt_group_create(size_t count, const size_t *sizes,
                            opt_dtype param_dtype, opt_dtype grad_dtype)
{
    opt_group *g;

    if (count == 0 || sizes == NULL || opt_dtype_size(param_dtype) == 0 ||
        opt_dtype_size(grad_dtype) == 0)
        return NULL;
    g = calloc(1, sizeof(*g));
    if (g == NULL)
        return NULL;
    g->count = count;
    g->param_dtype = param_dtype;
    g->grad_dtype = grad_dtype;
    g->offset = calloc(count + 1, sizeof(*g->offset));
    g->master = calloc(count, sizeof(*g->master));
    g->param = calloc(count, sizeof(*g->param));
    g->grad = calloc(count, sizeof(*g->grad));
    g->lamb_norm = calloc(2 * count, sizeof(*g->lamb_norm));
    g->scratch = malloc(sizeof(pass_ctx));
    for (int s = 0; s < 3; s++)
        g->state[s] = calloc(count, sizeof(*g->state[s]));
    if (g->offset == NULL || g->master == NULL || g->param == NULL ||
        g->grad == NULL || g->lamb_norm == NULL || g->scratch == NULL ||
        g->state[0] == NULL || g->state[1] == NULL || g->state[2] == NULL)
        goto fail;
    for (size_t k = 0; k < count; k++) {
        if (sizes[k] == 0 || sizes[k] > SIZE_MAX / 8 - g->offset[k])
            goto fail;
        g->offset[k + 1] = g->offset[k] + sizes[k];
    }
    g->total = g->offset[count];
    return g;

fail:
    opt_group_destroy(g);
    return NULL;
}

void opt_group_destroy(opt_group *g)
{
    if (g == NULL)
        return;
    free(g->offset);
    free(g->master);
    free(g->param);
    free(g->grad);
    free(g->lamb_norm);
    free(g->scratch);
    for (int s = 0; s < 3; s++)
        free(g->state[s]);
    free(g);
}
