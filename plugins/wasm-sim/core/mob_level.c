// SPDX-License-Identifier: MIT
/*
 * mob_level.c -- one layer y = x W at the three optimization levels a
 * mobile runtime offers (f32; f16 weights widened on the fly; int8 weights
 * per output column with x quantized per row in every run), on the
 * kernels of wasm/wk_ops.c built natively, rows split over a pool; and the
 * adaptation rule that picks a level for a latency budget.
 */
#include "mob.h"
#include "wk.h"

#include <stdlib.h>
#include <string.h>

static const char *const level_names[MOB_LEVELS] = {"f32", "f16", "int8"};

const char *mob_level_name(int level)
{
    return level >= 0 && level < MOB_LEVELS ? level_names[level] : "?";
}

int mob_level_find(const char *name)
{
    for (int i = 0; i < MOB_LEVELS; i++)
        if (name != NULL && strcmp(level_names[i], name) == 0)
            return i;
    return -1;
}

/* Bytes per weight at level. */
static double weight_bytes(int level)
{
    return level == MOB_F32 ? 4.0 : level == MOB_F16 ? 2.0 : 1.0;
}

uint64_t mob_layer_bytes(int level, uint32_t m, uint32_t n, uint32_t k)
{
    uint64_t act = 4 * ((uint64_t)m * k + (uint64_t)m * n);
    uint64_t w = (uint64_t)((double)k * n * weight_bytes(level));

    if (level == MOB_INT8)
        w += 4 * (uint64_t)n + (uint64_t)m * k + 4 * (uint64_t)m;
    return act + w;
}

double mob_layer_traffic(int level, uint32_t m, uint32_t n, uint32_t k)
{
    return (double)k * n * weight_bytes(level) + 4.0 * m * k + 4.0 * m * n;
}

double mob_level_energy(int level)
{
    /* int8 multiply-adds and half loads cost less energy per unit of work
     * than f32 ones: the usual ordering on mobile SoCs */
    return level == MOB_F32 ? 1.0 : level == MOB_F16 ? 0.8 : 0.5;
}

void mob_layer_free(mob_layer *l)
{
    free(l->x);
    free(l->y);
    free(l->w);
    free(l->wh);
    free(l->wq);
    free(l->xq);
    free(l->ws);
    free(l->xs);
    memset(l, 0, sizeof(*l));
}

/* W (k x n) to int8 per output column: quantize the rows of W^T. */
static int quantize_weights(mob_layer *l, const float *w)
{
    float *wt = malloc((size_t)l->n * l->k * sizeof(float));

    if (wt == NULL)
        return -1;
    for (size_t p = 0; p < l->k; p++)
        for (size_t j = 0; j < l->n; j++)
            wt[j * l->k + p] = w[p * l->n + j];
    wk_quantize_rows(l->n, l->k, wt, l->wq, l->ws);
    free(wt);
    return 0;
}

int mob_layer_init(mob_layer *l, int level, uint32_t m, uint32_t n,
                   uint32_t k, const float *x, const float *w)
{
    size_t mk = (size_t)m * k, kn = (size_t)k * n, mn = (size_t)m * n;

    memset(l, 0, sizeof(*l));
    l->level = level;
    l->m = m;
    l->n = n;
    l->k = k;
    l->x = malloc(mk * sizeof(float));
    l->y = calloc(mn, sizeof(float));
    if (l->x == NULL || l->y == NULL)
        goto fail;
    memcpy(l->x, x, mk * sizeof(float));
    if (level == MOB_F32) {
        l->w = malloc(kn * sizeof(float));
        if (l->w == NULL)
            goto fail;
        memcpy(l->w, w, kn * sizeof(float));
    } else if (level == MOB_F16) {
        l->wh = malloc(kn * sizeof(uint16_t));
        if (l->wh == NULL)
            goto fail;
        for (size_t i = 0; i < kn; i++)
            l->wh[i] = wk_f32_to_f16(w[i]);
    } else {
        l->wq = malloc(kn);
        l->ws = malloc((size_t)n * sizeof(float));
        l->xq = malloc(mk);
        l->xs = malloc((size_t)m * sizeof(float));
        if (!l->wq || !l->ws || !l->xq || !l->xs || quantize_weights(l, w))
            goto fail;
    }
    return 0;
fail:
    mob_layer_free(l);
    return -1;
}

/* Rows [r0, r1) of the layer. */
static void run_rows(mob_layer *l, uint32_t r0, uint32_t r1)
{
    uint32_t rows = r1 - r0;
    size_t xo = (size_t)r0 * l->k, yo = (size_t)r0 * l->n;

    if (rows == 0)
        return;
    if (l->level == MOB_F32) {
        wk_sgemm(rows, l->n, l->k, l->x + xo, l->w, l->y + yo);
    } else if (l->level == MOB_F16) {
        wk_hgemm(rows, l->n, l->k, l->x + xo, l->wh, l->y + yo);
    } else {
        wk_quantize_rows(rows, l->k, l->x + xo, l->xq + xo, l->xs + r0);
        wk_qmatmul(rows, l->n, l->k, l->xq + xo, l->wq, l->xs + r0, l->ws,
                   l->y + yo);
    }
}

static void layer_task(void *arg, unsigned tid, unsigned nt)
{
    mob_layer *l = arg;
    uint32_t r0 = (uint32_t)((uint64_t)l->m * tid / nt);
    uint32_t r1 = (uint32_t)((uint64_t)l->m * (tid + 1) / nt);

    run_rows(l, r0, r1);
}

void mob_layer_run(mob_layer *l, mob_pool *pool)
{
    mob_pool_run(pool, layer_task, l);
}

int mob_adapt_pick(const double latency_ms[MOB_LEVELS],
                   const int fits[MOB_LEVELS], double budget_ms, int *met)
{
    int fastest = -1;

    *met = 0;
    for (int i = 0; i < MOB_LEVELS; i++) {
        if (!fits[i])
            continue;
        if (latency_ms[i] <= budget_ms) {
            *met = 1;
            return i;
        }
        if (fastest < 0 || latency_ms[i] < latency_ms[fastest])
            fastest = i;
    }
    return fastest;
}
