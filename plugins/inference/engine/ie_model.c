// SPDX-License-Identifier: MIT
/*
 * ie_model.c -- model construction: allocating every weight of a shape,
 * seeded random ("dummy") values, sizes, and teardown.
 */
#include "ie_internal.h"

#include "bh_rng.h"

#include <stdio.h>
#include <string.h>

/* Allocates a host vector of n floats, counted in m->host_bytes. */
static float *vec(ie_model *m, size_t n)
{
    float *p = ie_alloc(m->ctx, n * sizeof(float));

    if (p != NULL)
        m->host_bytes += n * sizeof(float);
    return p;
}

/* Allocates one layer's weights and vectors. */
static int alloc_layer(ie_model *m, ie_layer *L)
{
    const ie_config *c = &m->cfg;
    ie_ctx *ctx = m->ctx;
    int d = c->d_model, hd = c->head_dim, ff = c->d_ff;
    int qkv = (c->n_heads + 2 * c->n_kv_heads) * hd;
    int llama = c->arch == IE_ARCH_LLAMA;
    int rc;

    rc = ie_weight_alloc(ctx, &L->qkv, m->wtype, qkv, d);
    if (rc == IE_OK)
        rc = ie_weight_alloc(ctx, &L->o, m->wtype, d, c->n_heads * hd);
    if (rc == IE_OK)
        rc = ie_weight_alloc(ctx, &L->up, m->wtype, llama ? 2 * ff : ff, d);
    if (rc == IE_OK)
        rc = ie_weight_alloc(ctx, &L->down, m->wtype, d, ff);
    if (rc != IE_OK)
        return rc;
    L->n1_g = vec(m, (size_t)d);
    L->n2_g = vec(m, (size_t)d);
    if (L->n1_g == NULL || L->n2_g == NULL)
        return IE_ENOMEM;
    if (llama)
        return IE_OK;
    L->n1_b = vec(m, (size_t)d);
    L->n2_b = vec(m, (size_t)d);
    L->b_qkv = vec(m, (size_t)qkv);
    L->b_o = vec(m, (size_t)d);
    L->b_up = vec(m, (size_t)ff);
    L->b_down = vec(m, (size_t)d);
    if (!L->n1_b || !L->n2_b || !L->b_qkv || !L->b_o || !L->b_up || !L->b_down)
        return IE_ENOMEM;
    return IE_OK;
}

int ie_model_alloc(ie_model *m)
{
    const ie_config *c = &m->cfg;
    size_t d = (size_t)c->d_model;
    int rc;

    m->layers = ie_alloc(m->ctx, (size_t)c->n_layers * sizeof(ie_layer));
    if (m->layers == NULL)
        return IE_ENOMEM;
    memset(m->layers, 0, (size_t)c->n_layers * sizeof(ie_layer));
    rc = ie_weight_alloc(m->ctx, &m->tok, m->wtype, c->vocab, c->d_model);
    if (rc == IE_OK && c->arch == IE_ARCH_LLAMA)
        rc = ie_weight_alloc(m->ctx, &m->head, m->wtype, c->vocab,
                             c->d_model);
    if (rc != IE_OK)
        return rc;
    if (c->arch != IE_ARCH_LLAMA) {
        m->pos = vec(m, (size_t)c->max_pos * d);
        if (m->pos == NULL)
            return IE_ENOMEM;
    }
    if (c->arch == IE_ARCH_BERT) {
        m->type = vec(m, (size_t)c->type_vocab * d);
        m->emb_g = vec(m, d);
        m->emb_b = vec(m, d);
        if (!m->type || !m->emb_g || !m->emb_b)
            return IE_ENOMEM;
    } else {
        m->fin_g = vec(m, d);
        if (m->fin_g == NULL)
            return IE_ENOMEM;
        if (c->arch == IE_ARCH_GPT2 && (m->fin_b = vec(m, d)) == NULL)
            return IE_ENOMEM;
    }
    for (int l = 0; l < c->n_layers; l++) {
        rc = alloc_layer(m, &m->layers[l]);
        if (rc != IE_OK)
            return rc;
    }
    return IE_OK;
}

/* ---- Seeded values ---------------------------------------------------------- */

uint64_t ie_mix64(uint64_t x)
{
    return bh_rng_mix(x);
}

/* Uniform in [-1, 1) from (seed, tensor id, index). */
static float unit(uint64_t seed, uint64_t tid, uint64_t i)
{
    uint64_t z = ie_mix64(seed ^ (tid * UINT64_C(0xD1B54A32D192ED03)) ^
                          (i * UINT64_C(0x9E3779B97F4A7C15)));

    return (float)((double)(z >> 40) * (1.0 / 8388608.0) - 1.0);
}

/* center + spread * unit() over v[0..n). */
static void fill_vec(float *v, size_t n, uint64_t seed, uint64_t tid,
                     float center, float spread)
{
    for (size_t i = 0; v != NULL && i < n; i++)
        v[i] = center + spread * unit(seed, tid, i);
}

#define FILL_ROWS 16

typedef struct fill_job {
    ie_weight *w;
    uint64_t seed, tid;
    float spread;
    float *scratch; /* [threads][FILL_ROWS * cols_max] */
    size_t stride;
} fill_job;

/* Task t: rows [t*FILL_ROWS, ...) of one weight. */
static void fill_task(void *arg, int t, int thread)
{
    fill_job *j = arg;
    int r0 = t * FILL_ROWS;
    int n = j->w->rows - r0 < FILL_ROWS ? j->w->rows - r0 : FILL_ROWS;
    size_t cols = (size_t)j->w->cols;
    float *buf = j->scratch + (size_t)thread * j->stride;

    for (int r = 0; r < n; r++)
        for (size_t i = 0; i < cols; i++)
            buf[(size_t)r * cols + i] =
                j->spread * unit(j->seed, j->tid,
                                 (uint64_t)(r0 + r) * cols + i);
    ie_weight_set_rows(j->w, r0, n, buf);
}

/* Fills a weight matrix with spread * unit() values in parallel. */
static void fill_weight(ie_model *m, fill_job *j, ie_weight *w, uint64_t tid,
                        float spread)
{
    j->w = w;
    j->tid = tid;
    j->spread = spread;
    ie_pool_run(m->ctx->pool, (w->rows + FILL_ROWS - 1) / FILL_ROWS,
                fill_task, j);
}

int ie_model_fill_dummy(ie_model *m, uint64_t seed)
{
    const ie_config *c = &m->cfg;
    size_t d = (size_t)c->d_model;
    int cols = c->d_model > c->d_ff ? c->d_model : c->d_ff;
    int threads = ie_pool_threads(m->ctx->pool);
    fill_job j;
    const float ws = 0.0346f; /* uniform with sd 0.02 (GPT-2's init) */
    uint64_t tid = 1;

    memset(&j, 0, sizeof(j));
    j.seed = seed;
    if (cols < c->n_heads * c->head_dim)
        cols = c->n_heads * c->head_dim;
    j.stride = (size_t)FILL_ROWS * (size_t)cols;
    j.scratch = ie_alloc(m->ctx, j.stride * (size_t)threads * sizeof(float));
    if (j.scratch == NULL)
        return IE_ENOMEM;
    fill_weight(m, &j, &m->tok, tid++, ws);
    if (c->arch == IE_ARCH_LLAMA)
        fill_weight(m, &j, &m->head, tid++, ws);
    fill_vec(m->pos, (size_t)c->max_pos * d, seed, tid++, 0.0f, 0.0173f);
    fill_vec(m->type, (size_t)c->type_vocab * d, seed, tid++, 0.0f, ws);
    fill_vec(m->emb_g, d, seed, tid++, 1.0f, 0.1f);
    fill_vec(m->emb_b, d, seed, tid++, 0.0f, 0.02f);
    fill_vec(m->fin_g, d, seed, tid++, 1.0f, 0.1f);
    fill_vec(m->fin_b, d, seed, tid++, 0.0f, 0.02f);
    for (int l = 0; l < c->n_layers; l++) {
        ie_layer *L = &m->layers[l];

        tid = 100 + (uint64_t)l * 32;
        fill_weight(m, &j, &L->qkv, tid++, ws);
        fill_weight(m, &j, &L->o, tid++, ws);
        fill_weight(m, &j, &L->up, tid++, ws);
        fill_weight(m, &j, &L->down, tid++, ws);
        fill_vec(L->n1_g, d, seed, tid++, 1.0f, 0.1f);
        fill_vec(L->n2_g, d, seed, tid++, 1.0f, 0.1f);
        fill_vec(L->n1_b, d, seed, tid++, 0.0f, 0.02f);
        fill_vec(L->n2_b, d, seed, tid++, 0.0f, 0.02f);
        fill_vec(L->b_qkv, (size_t)L->qkv.rows, seed, tid++, 0.0f, 0.02f);
        fill_vec(L->b_o, d, seed, tid++, 0.0f, 0.02f);
        fill_vec(L->b_up, (size_t)c->d_ff, seed, tid++, 0.0f, 0.02f);
        fill_vec(L->b_down, d, seed, tid++, 0.0f, 0.02f);
    }
    ie_free(m->ctx, j.scratch);
    return IE_OK;
}

/* ---- Life cycle and sizes ---------------------------------------------- */

/* Pushes every weight to the device (a no-op for mapped buffers). */
static int commit_all(ie_model *m)
{
    int rc = ie_weight_commit(m->ctx, &m->tok);

    if (rc == IE_OK && m->head.rows)
        rc = ie_weight_commit(m->ctx, &m->head);
    for (int l = 0; rc == IE_OK && l < m->cfg.n_layers; l++) {
        ie_layer *L = &m->layers[l];

        rc = ie_weight_commit(m->ctx, &L->qkv);
        if (rc == IE_OK)
            rc = ie_weight_commit(m->ctx, &L->o);
        if (rc == IE_OK)
            rc = ie_weight_commit(m->ctx, &L->up);
        if (rc == IE_OK)
            rc = ie_weight_commit(m->ctx, &L->down);
    }
    return rc;
}

ie_model *ie_model_create(ie_ctx *ctx, const ie_config *c, int wtype,
                          const ie_source *src)
{
    ie_model *m;
    int rc;

    if (ie_config_check(c, ctx->err, sizeof(ctx->err)) != IE_OK)
        return NULL;
    if (wtype < IE_W_F32 || wtype > IE_W_I8) {
        ie_fail(ctx, IE_EINVAL, "unknown weight type %d", wtype);
        return NULL;
    }
    m = ie_alloc(ctx, sizeof(*m));
    if (m == NULL)
        return NULL;
    memset(m, 0, sizeof(*m));
    m->ctx = ctx;
    m->cfg = *c;
    m->wtype = wtype;
    rc = ie_model_alloc(m);
    if (rc == IE_OK) {
        if (src == NULL || src->path == NULL || src->path[0] == '\0' ||
            strcmp(src->path, "dummy") == 0)
            rc = ie_model_fill_dummy(m, src ? src->seed : 0);
        else
            rc = ie_model_load_file(m, src->path, src->io_read);
    }
    if (rc == IE_OK)
        rc = commit_all(m);
    if (rc != IE_OK) {
        ie_model_destroy(m);
        return NULL;
    }
    return m;
}

void ie_model_destroy(ie_model *m)
{
    ie_ctx *ctx;

    if (m == NULL)
        return;
    ctx = m->ctx;
    for (int l = 0; m->layers != NULL && l < m->cfg.n_layers; l++) {
        ie_layer *L = &m->layers[l];
        float *v[] = {L->n1_g, L->n1_b, L->n2_g, L->n2_b,
                      L->b_qkv, L->b_o, L->b_up, L->b_down};

        ie_weight_free(ctx, &L->qkv);
        ie_weight_free(ctx, &L->o);
        ie_weight_free(ctx, &L->up);
        ie_weight_free(ctx, &L->down);
        for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
            ie_free(ctx, v[i]);
    }
    ie_free(ctx, m->layers);
    ie_weight_free(ctx, &m->tok);
    ie_weight_free(ctx, &m->head);
    ie_free(ctx, m->pos);
    ie_free(ctx, m->type);
    ie_free(ctx, m->emb_g);
    ie_free(ctx, m->emb_b);
    ie_free(ctx, m->fin_g);
    ie_free(ctx, m->fin_b);
    ie_free(ctx, m);
}

const ie_config *ie_model_config(const ie_model *m)
{
    return &m->cfg;
}

const ie_weight *ie_model_head(const ie_model *m)
{
    return m->cfg.arch == IE_ARCH_LLAMA ? &m->head : &m->tok;
}

/* Weight bytes of one layer (matrices and vectors). */
static uint64_t layer_bytes(const ie_model *m, const ie_layer *L)
{
    const ie_config *c = &m->cfg;
    uint64_t v = 2u * (uint64_t)c->d_model;

    if (c->arch != IE_ARCH_LLAMA)
        v += 2u * (uint64_t)c->d_model + (uint64_t)L->qkv.rows +
             2u * (uint64_t)c->d_model + (uint64_t)c->d_ff;
    return ie_weight_bytes(&L->qkv) + ie_weight_bytes(&L->o) +
           ie_weight_bytes(&L->up) + ie_weight_bytes(&L->down) + 4u * v;
}

uint64_t ie_model_layer_bytes(const ie_model *m)
{
    return layer_bytes(m, &m->layers[0]);
}

uint64_t ie_model_bytes(const ie_model *m)
{
    uint64_t b = ie_weight_bytes(&m->tok) + ie_weight_bytes(&m->head);

    for (int l = 0; l < m->cfg.n_layers; l++)
        b += ie_weight_bytes(&m->layers[l].qkv) +
             ie_weight_bytes(&m->layers[l].o) +
             ie_weight_bytes(&m->layers[l].up) +
             ie_weight_bytes(&m->layers[l].down);
    return b + m->host_bytes;
}

uint64_t ie_model_step_bytes(const ie_model *m)
{
    const ie_config *c = &m->cfg;
    uint64_t b = 0;

    for (int l = 0; l < c->n_layers; l++)
        b += layer_bytes(m, &m->layers[l]);
    b += ie_weight_bytes(ie_model_head(m));
    if (c->arch == IE_ARCH_LLAMA) /* one embedding row */
        b += ie_weight_bytes(&m->tok) / (uint64_t)c->vocab;
    else
        b += 4u * (uint64_t)c->d_model; /* position row */
    b += 4u * (uint64_t)c->d_model * (c->arch == IE_ARCH_GPT2 ? 2u : 1u);
    return b;
}
