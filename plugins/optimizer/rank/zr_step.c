// SPDX-License-Identifier: MIT
/*
 * zr_step.c -- the ZeRO step of zero.mpi across the ranks of one launch
 * (stage 0-3 over a flat parameter space, f32 or bf16 on the wire, f32
 * master and state), and its check against the double reference.
 *
 * Each rank holds its own full gradient (seeded per rank), the padded
 * full parameters (the all-gathers' target; f32, or the bf16 copies),
 * and the f32 master and optimizer state of its shard (stage 0: of
 * everything). Verification samples 256 elements: before the last step
 * of each zr_run their owners record p, state and the reduced gradient
 * the step reads; zr_verify sums these over the ranks (only the owner
 * contributes an element) so every rank checks every sample.
 *
 * Contracts of the exported functions: zr.h.
 */
#include "zr.h"

#include <limits.h>
#include <malloc.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bh_rng.h"

#define SAMPLES 256
#define FIELDS  8 /* p, s0, s1, g, s2 before; p, s0, s1 after */
#define RTOL    4e-6

struct zr_ctx {
    zr_cfg cfg;
    int rank, ranks;
    opt_hparams hp;
    opt_zero_plan plan;
    uint64_t b, e;   /* this rank's owned range */
    size_t padded;   /* shard x ranks */
    void *grads;     /* padded, dtype: this rank's gradient */
    void *gred;      /* reduced gradient: shard (padded at stage 0) */
    void *pfull;     /* padded parameters: f32, or bf16 copies */
    float *master;   /* bf16: f32 master of the owned range */
    float *state[3]; /* owned range */
    opt_group *g;
    zr_count count;
    zr_times times;
    uint64_t idx[SAMPLES];
    double snap[SAMPLES][5];
    int snapped;
};

/* Counter-based uniform value in [lo, hi) (the plugin's generator). */
static double uni(uint64_t seed, uint64_t stream, uint64_t i, double lo, double hi)
{
    uint64_t x = seed ^ (stream * UINT64_C(0xD1B54A32D192ED03)) ^ (i * BH_RNG_GAMMA);

    return lo + (hi - lo) * bh_rng_unit(bh_rng_finalize(x));
}

/* Rank r's gradient value at i, as stored in dtype. */
static double grad_of(const zr_ctx *z, int r, uint64_t i)
{
    uint64_t seed = z->cfg.grad_seed != 0 ? z->cfg.grad_seed : z->cfg.seed;
    double g = uni(seed, 100 + (uint64_t)r, i, -0.01, 0.01);

    return z->cfg.dtype == OPT_BF16 ? opt_bf16_to_f32(opt_f32_to_bf16((float)g)) : (double)(float)g;
}

/* Does this rank record sample i? Its owner (stage 0: rank 0). */
static int owns(const zr_ctx *z, uint64_t i)
{
    return i >= z->b && i < z->e && (z->cfg.stage > 0 || z->rank == 0);
}

/* The master of element i (owned). */
static float *master_at(const zr_ctx *z, uint64_t i)
{
    return z->g->master[0] + (i - z->b);
}

/* Allocates the buffers; -1 when memory is short. */
static int allocate(zr_ctx *z)
{
    size_t gb = opt_dtype_size(z->cfg.dtype), own = (size_t)(z->e - z->b);
    size_t red = z->cfg.stage == 0 ? z->padded : (size_t)z->plan.shard;
    int used[3];

    z->grads = calloc(z->padded, gb);
    z->gred = calloc(red, gb);
    z->pfull = calloc(z->padded, gb);
    if (z->cfg.dtype != OPT_F32)
        z->master = calloc(own ? own : 1, 4);
    opt_state_slots(&z->hp, used);
    for (int q = 0; q < 3; q++)
        if (used[q] && (z->state[q] = calloc(own ? own : 1, 4)) == NULL)
            return -1;
    if (z->grads == NULL || z->gred == NULL || z->pfull == NULL ||
        (z->cfg.dtype != OPT_F32 && z->master == NULL))
        return -1;
    if (own == 0)
        return 0; /* a rank past the end of a tiny model: nothing to update */
    z->g = opt_group_create(1, &own, z->cfg.dtype, z->cfg.dtype);
    return z->g != NULL ? 0 : -1;
}

/* Fills gradients, parameters, master and state; wires the group. */
static void fill(zr_ctx *z)
{
    int used[3];

    opt_state_slots(&z->hp, used);
    for (uint64_t i = 0; i < z->cfg.params; i++) {
        float p = (float)uni(z->cfg.seed, 1, i, -1, 1);

        opt_store(z->grads, z->cfg.dtype, i, grad_of(z, z->rank, i));
        opt_store(z->pfull, z->cfg.dtype, i, p);
        if (i < z->b || i >= z->e)
            continue;
        if (z->master != NULL)
            z->master[i - z->b] = p;
        for (int q = 0; q < 3; q++)
            if (used[q])
                z->state[q][i - z->b] = (float)opt_state_init(&z->hp, q);
    }
    if (z->g == NULL)
        return;
    z->g->master[0] = z->master != NULL ? z->master : (float *)z->pfull + z->b;
    z->g->param[0] = z->master != NULL ? (void *)((uint16_t *)z->pfull + z->b) : NULL;
    z->g->grad[0] = z->gred;
    for (int q = 0; q < 3; q++)
        z->g->state[q][0] = z->state[q];
}

/* The sampled elements, the same on every rank. */
static void pick_samples(zr_ctx *z)
{
    for (int j = 0; j < SAMPLES; j++)
        z->idx[j] = (uint64_t)uni(z->cfg.seed, 9, (uint64_t)j, 0, (double)z->cfg.params);
}

/* Checks the configuration against the launch; 0 or -1 with why. */
static int check_cfg(const zr_ctx *z, char *why, size_t cap)
{
    const zr_cfg *c = &z->cfg;

    if (c->kind < 0 || c->kind == OPT_LAMB || c->stage < 0 || c->stage > 3 ||
        (c->dtype != OPT_F32 && c->dtype != OPT_BF16)) {
        snprintf(why, cap,
                 "zero.mpi takes stage 0-3, dtype f32 or bf16 and an "
                 "element-wise optimizer (not lamb)");
        return -1;
    }
    if (c->params < (uint64_t)z->ranks) {
        snprintf(why, cap, "params %llu < ranks %d", (unsigned long long)c->params, z->ranks);
        return -1;
    }
    return 0;
}

zr_ctx *zr_create(const zr_cfg *cfg, char *why, size_t cap)
{
    zr_ctx *z = calloc(1, sizeof(*z));
    double ds = (double)opt_dtype_size(cfg->dtype);

    if (z == NULL) {
        snprintf(why, cap, "out of memory");
        return NULL;
    }
    z->cfg = *cfg;
    zr_start(&z->rank, &z->ranks, why, cap);
    if (check_cfg(z, why, cap) != 0) {
        free(z);
        return NULL;
    }
    /* Keep freed memory mapped: MPI's collectives allocate large temporary
     * buffers per call, and fresh pages cost a fault each (a 32 MB
     * reduce-scatter spent most of its time there in this project's VMs),
     * which no training framework's caching allocator would pay. */
    mallopt(M_MMAP_MAX, 0);
    mallopt(M_TRIM_THRESHOLD, INT_MAX);
    opt_hparams_default((opt_kind)cfg->kind, &z->hp);
    opt_zero_plan_make((unsigned)cfg->stage, (unsigned)z->ranks, cfg->params, ds, ds,
                       opt_state_bytes_per_param(&z->hp, cfg->dtype), 16, &z->plan);
    z->padded = (size_t)z->plan.shard * (size_t)z->ranks;
    z->b = 0;
    z->e = cfg->params;
    if (cfg->stage > 0)
        opt_zero_range(&z->plan, (unsigned)z->rank, &z->b, &z->e);
    if (allocate(z) != 0) {
        snprintf(why, cap, "out of memory (%zu parameters per rank)", z->padded);
        zr_destroy(z);
        return NULL;
    }
    fill(z);
    pick_samples(z);
    return z;
}

void zr_destroy(zr_ctx *z)
{
    if (z == NULL)
        return;
    opt_group_destroy(z->g);
    free(z->grads);
    free(z->gred);
    free(z->pfull);
    free(z->master);
    for (int q = 0; q < 3; q++)
        free(z->state[q]);
    free(z);
}

/* Records the owned samples' p and state (before the step) and the
 * reduced gradient the step reads. */
static void snap(zr_ctx *z)
{
    for (int j = 0; j < SAMPLES; j++) {
        uint64_t i = z->idx[j];
        size_t o = (size_t)(i - z->b);

        if (!owns(z, i))
            continue;
        z->snap[j][0] = *master_at(z, i);
        z->snap[j][1] = z->state[0] != NULL ? z->state[0][o] : 0;
        z->snap[j][2] = z->state[1] != NULL ? z->state[1][o] : 0;
        z->snap[j][3] = opt_load(z->gred, z->cfg.dtype, z->cfg.stage == 0 ? i : o);
        z->snap[j][4] = z->state[2] != NULL ? z->state[2][o] : 0;
    }
    z->snapped = 1;
}

/* Seconds since *t0 added to *acc; *t0 moves to now. */
static void lap(double *acc, double *t0)
{
    double t = zr_now();

    *acc += t - *t0;
    *t0 = t;
}

/* One ZeRO step; last: record the samples. 0 or -1. */
static int step(zr_ctx *z, int last)
{
    zr_times *t = &z->times;
    opt_dtype dt = z->cfg.dtype;
    double t0 = zr_now();
    int rc;

    if (z->cfg.stage == 0) {
        rc = zr_allreduce(&z->count, z->grads, z->gred, z->padded, dt);
        lap(&t->all_reduce, &t0);
    } else {
        rc = zr_reduce_scatter(&z->count, z->grads, z->gred, z->plan.shard, dt);
        lap(&t->reduce_scatter, &t0);
    }
    if (last)
        snap(z);
    t0 = zr_now();
    if (z->g != NULL)
        opt_step(z->g, &z->hp, z->hp.lr, 1.0 / z->ranks, NULL, OPT_PATH_MULTI, NULL);
    lap(&t->update, &t0);
    for (int k = 0; rc == 0 && z->cfg.stage > 0 && k < (z->cfg.stage == 3 ? 2 : 1); k++) {
        rc = zr_allgather(&z->count, z->pfull, z->plan.shard, dt);
        lap(&t->all_gather, &t0);
    }
    t->steps++;
    return rc;
}

int zr_run(zr_ctx *z, uint64_t steps)
{
    for (uint64_t s = 0; s < steps; s++)
        if (step(z, s + 1 == steps) != 0)
            return -1;
    return 0;
}

/* This rank's contribution to the samples: the owner's snapshot and its
 * state after the step, zeros elsewhere. */
static void contribute(const zr_ctx *z, double *mine)
{
    for (int j = 0; j < SAMPLES; j++) {
        uint64_t i = z->idx[j];
        size_t o = (size_t)(i - z->b);

        if (!owns(z, i))
            continue;
        for (int f = 0; f < 5; f++)
            mine[j * FIELDS + f] = z->snap[j][f];
        mine[j * FIELDS + 5] = *master_at(z, i);
        mine[j * FIELDS + 6] = z->state[0] != NULL ? z->state[0][o] : 0;
        mine[j * FIELDS + 7] = z->state[1] != NULL ? z->state[1][o] : 0;
    }
}

/* The parameter this rank holds at i after the all-gather, and what the
 * owner's master p rounds to on the wire. */
static int gathered_matches(const zr_ctx *z, uint64_t i, double p, double *held)
{
    if (z->cfg.dtype == OPT_F32) {
        *held = ((const float *)z->pfull)[i];
        return *held == (double)(float)p;
    }
    *held = opt_bf16_to_f32(((const uint16_t *)z->pfull)[i]);
    return *held == opt_bf16_to_f32(opt_f32_to_bf16((float)p));
}

/* Checks sample j (r: its gathered fields); 0 or -1 with why. */
static int check_sample(const zr_ctx *z, int j, const double *r, char *why, size_t cap)
{
    uint64_t i = z->idx[j];
    double p = r[0], s0 = r[1], s1 = r[2], s2 = r[4], gsum = 0, gabs = 0, g, held;
    double tol_g = z->cfg.dtype == OPT_F32 ? 1e-6 : z->ranks * 0x1p-8;

    for (int q = 0; q < z->ranks; q++) {
        gsum += grad_of(z, q, i);
        gabs += fabs(grad_of(z, q, i));
    }
    if (!(fabs(r[3] - gsum) <= tol_g * gabs + 1e-30)) {
        snprintf(why, cap, "element %llu: reduced gradient %.9g, sum of the ranks' %.9g",
                 (unsigned long long)i, r[3], gsum);
        return -1;
    }
    g = r[3] / z->ranks;
    opt_ref_step(&z->hp, z->times.steps, z->hp.lr, 1, &p, &g, &s0, &s1, &s2, -1);
    if (!(fabs(r[5] - p) <= RTOL * (fabs(r[0]) + fabs(p - r[0])) + 1e-30) ||
        !(fabs(r[6] - s0) <= RTOL * (fabs(s0) + fabs(s0 - r[1]) + fabs(g)) + 1e-30)) {
        snprintf(why, cap,
                 "element %llu step %llu: p %.9g reference %.9g, state %.9g "
                 "reference %.9g",
                 (unsigned long long)i, (unsigned long long)z->times.steps, r[5], p, r[6], s0);
        return -1;
    }
    if (!gathered_matches(z, i, r[5], &held)) {
        snprintf(why, cap, "rank %d element %llu: gathered parameter %.9g, owner's %.9g", z->rank,
                 (unsigned long long)i, held, r[5]);
        return -1;
    }
    return 0;
}

int zr_verify(zr_ctx *z, char *why, size_t cap)
{
    double all[SAMPLES * FIELDS] = {0}; /* 16 KiB; no early return before
                                         * the collective */
    int rc = 0;

    if (z->snapped)
        contribute(z, all);
    if (zr_allreduce_f64(all, SAMPLES * FIELDS, 'S') != 0) {
        snprintf(why, cap, "the samples' all-reduce failed");
        rc = -1;
    } else if (!z->snapped) {
        snprintf(why, cap, "verify before any step");
        rc = -1;
    }
    for (int j = 0; rc == 0 && j < SAMPLES; j++)
        rc = check_sample(z, j, all + j * FIELDS, why, cap);
    return rc;
}

uint64_t zr_params_digest(const zr_ctx *z)
{
    return zr_digest(z->pfull, (size_t)z->cfg.params * opt_dtype_size(z->cfg.dtype));
}

const zr_count *zr_counted(const zr_ctx *z)
{
    return &z->count;
}

const zr_times *zr_timed(const zr_ctx *z)
{
    return &z->times;
}

const opt_zero_plan *zr_plan(const zr_ctx *z)
{
    return &z->plan;
}

double zr_wire_bytes(const zr_ctx *z)
{
    return (double)opt_dtype_size(z->cfg.dtype);
}
