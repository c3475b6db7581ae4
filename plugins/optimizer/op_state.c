// SPDX-License-Identifier: MIT
/*
 * op_state.c -- the tensors of one case: allocation in the chosen layout
 * (one buffer per stream, or one allocation per tensor and stream), a
 * seeded threaded fill, the liboptim group over them, and one iteration
 * (accumulation passes, then the scheduled step).
 *
 * Contracts of the exported functions: op.h.
 */
#include "op.h"

#include <stdlib.h>
#include <string.h>

/* Streams of a set: index into the flat layout's block[]. */
enum { S_MASTER, S_GRAD, S_PARAM, S_STATE0, S_MICRO = S_STATE0 + 3, S_COUNT };

typedef struct fill_ctx {
    bh_optim_set *s;
    size_t k;      /* tensor */
    uint64_t base; /* its first global index */
    uint64_t seed;
} fill_ctx;

/* Bytes of one element of stream st. */
static size_t elem_bytes(const bh_optim_set *s, int st)
{
    const bh_optim_cfg *c = s->cfg;

    switch (st) {
    case S_GRAD:
        return c->grad_external ? 0 : opt_dtype_size(c->grad_dtype);
    case S_PARAM:
        return c->dtype == OPT_F32 ? 0 : opt_dtype_size(c->dtype);
    case S_MICRO:
        return c->accumulation > 1 ? opt_dtype_size(c->dtype) : 0;
    case S_MASTER:
        return 4;
    default:
        return s->used[st - S_STATE0] ? 4 : 0;
    }
}

double bh_optim_set_bytes_per_param(const bh_optim_cfg *cfg)
{
    int used[3];
    double b = 4.0 + 4.0 * opt_state_slots(&cfg->hp, used);

    b += (double)opt_dtype_size(cfg->grad_dtype);
    if (cfg->dtype != OPT_F32)
        b += (double)opt_dtype_size(cfg->dtype);
    if (cfg->accumulation > 1)
        b += (double)opt_dtype_size(cfg->dtype);
    return b;
}

double bh_optim_iter_bytes(const bh_optim_cfg *cfg, uint64_t params)
{
    double p = (double)params, ds = (double)opt_dtype_size(cfg->dtype);
    double b = opt_traffic_bytes_per_param(&cfg->hp, cfg->dtype, cfg->grad_dtype) * p;

    if (cfg->accumulation > 1)
        b += p * (ds + 4 + (cfg->accumulation - 1) * (ds + 8));
    return b;
}

/* Pointer to element 0 of stream st of tensor k (NULL when unused). */
static void **slot_of(bh_optim_set *s, int st, size_t k)
{
    opt_group *g = s->g;

    switch (st) {
    case S_MASTER:
        return (void **)&g->master[k];
    case S_GRAD:
        return (void **)&g->grad[k];
    case S_PARAM:
        return &g->param[k];
    case S_MICRO:
        return (void **)&s->micro[k];
    default:
        return (void **)&g->state[st - S_STATE0][k];
    }
}

/* Thread tid's share of tensor x->k: p, grads, state, param copy. */
static void fill_task(void *arg, unsigned tid, unsigned nthreads)
{
    const fill_ctx *x = arg;
    bh_optim_set *s = x->s;
    const bh_optim_cfg *c = s->cfg;
    opt_group *g = s->g;
    size_t n = s->sizes[x->k], b, e;
    double gs = 0.01 * c->loss_scale;
    void *grad = c->accumulation > 1 ? (void *)s->micro[x->k] : (void *)g->grad[x->k];

    bh_split(n, 16, tid, nthreads, &b, &e);
    for (size_t i = b; i < e; i++) {
        uint64_t gi = x->base + i;
        float p = (float)bh_optim_uniform(x->seed, 1, gi, -1, 1);

        g->master[x->k][i] = p;
        if (c->dtype != OPT_F32)
            opt_store(g->param[x->k], c->dtype, i, p);
        if (grad != NULL)
            opt_store(grad, c->dtype, i, bh_optim_uniform(x->seed, 2, gi, -gs, gs));
        if (c->accumulation > 1)
            s->acc[x->k][i] = 0;
        for (int q = 0; q < 3; q++)
            if (s->used[q])
                g->state[q][x->k][i] = (float)opt_state_init(&c->hp, q);
    }
}

/* Allocates every stream: one block per stream (flat), or one allocation
 * per tensor and stream, stream by stream (each stream's tensors follow
 * each other in memory) or, with cfg->interleave, tensor by tensor (the
 * streams of one tensor follow each other, as when state is created
 * lazily per parameter). */
static bhost_status allocate(bh_optim_set *s)
{
    int inter = s->cfg->interleave && s->count > 1;
    size_t outer = inter ? s->count : S_COUNT, inner = inter ? S_COUNT : s->count;

    for (int st = 0; st < S_COUNT; st++) {
        size_t eb = elem_bytes(s, st);

        s->bytes += (double)s->total * (double)eb;
        if (s->count == 1 && eb != 0) {
            s->block[st] = bh_optim_alloc(s->h, s->total * eb);
            if (s->block[st] == NULL)
                return BHOST_E_NOMEM;
            *slot_of(s, st, 0) = s->block[st];
        }
    }
    for (size_t i = 0; i < outer && s->count > 1; i++) {
        for (size_t j = 0; j < inner; j++) {
            int st = (int)(inter ? j : i);
            size_t k = inter ? i : j;
            size_t eb = elem_bytes(s, st);
            void *p;

            if (eb == 0)
                continue;
            p = bh_optim_alloc(s->h, s->sizes[k] * eb);
            if (p == NULL)
                return BHOST_E_NOMEM;
            *slot_of(s, st, k) = p;
        }
    }
    if (s->cfg->accumulation > 1)
        for (size_t k = 0; k < s->count; k++)
            s->acc[k] = (float *)s->g->grad[k];
    return BHOST_OK;
}

bhost_status bh_optim_set_init(bh_optim_set *s, bhost_host *h,
                               const bh_optim_cfg *cfg, opt_pool *pool,
                               const size_t *sizes, size_t count)
{
    uint64_t base = 0, seed = bh_optim_api->seed(h);
    bhost_status st;

    memset(s, 0, sizeof(*s));
    s->h = h;
    s->cfg = cfg;
    s->pool = pool;
    opt_state_slots(&cfg->hp, s->used);
    s->sizes = malloc(count * sizeof(size_t));
    s->acc = calloc(count, sizeof(*s->acc));
    s->micro = calloc(count, sizeof(*s->micro));
    if (s->sizes == NULL || s->acc == NULL || s->micro == NULL) {
        bh_optim_set_fini(s);
        return bh_optim_fail(h, BHOST_E_NOMEM, "out of memory (tensor tables)");
    }
    memcpy(s->sizes, sizes, count * sizeof(size_t));
    s->count = count;
    for (size_t k = 0; k < count; k++)
        s->total += sizes[k];
    s->g = opt_group_create(count, sizes, cfg->dtype, cfg->grad_dtype);
    if (s->g == NULL) {
        bh_optim_set_fini(s);
        return bh_optim_fail(h, BHOST_E_NOMEM, "out of memory (group)");
    }
    st = allocate(s);
    if (st != BHOST_OK) {
        bh_optim_set_fini(s);
        return st;
    }
    for (size_t k = 0; k < count; k++) {
        fill_ctx x = {s, k, base, seed};

        opt_pool_run(pool, sizes[k], fill_task, &x);
        base += sizes[k];
    }
    return BHOST_OK;
}

void bh_optim_set_fini(bh_optim_set *s)
{
    if (s->g != NULL) {
        for (int st = 0; st < S_COUNT; st++) {
            if (s->count == 1 || s->block[st] != NULL) {
                bh_optim_free(s->h, s->block[st]);
                continue;
            }
            for (size_t k = 0; k < s->count; k++)
                bh_optim_free(s->h, *slot_of(s, st, k));
        }
        opt_group_destroy(s->g);
    }
    free(s->sizes);
    free(s->acc);
    free((void *)s->micro);
    memset(s, 0, sizeof(*s));
}

bhost_status bh_optim_set_iterate(bh_optim_set *s, opt_sched *sched,
                                  bh_optim_check *snap)
{
    const bh_optim_cfg *c = s->cfg;
    double gscale = 1.0 / ((double)c->accumulation * c->loss_scale * c->grad_div);
    double lr = sched->lr;
    opt_step_info info;
    int rc;

    for (int b = 0; b < c->accumulation && c->accumulation > 1; b++)
        opt_accumulate(s->g, s->acc, s->micro, c->dtype, b == 0, s->pool, c->path);
    if (snap != NULL)
        bh_optim_check_snap(snap, s, s->g->step + 1, lr, gscale);
    rc = opt_step(s->g, &c->hp, lr, gscale, s->pool, c->path, &info);
    if (rc < 0)
        return bh_optim_fail(s->h, BHOST_E_INTERNAL, "opt_step failed (%d)", rc);
    if (snap != NULL) {
        snap->info = info;
        snap->skipped = rc == OPT_SKIPPED;
        snap->valid = 1;
    }
    opt_sched_step(sched);
    return BHOST_OK;
}
