// SPDX-License-Identifier: MIT
/*
 * ie_attn.c -- scaled dot-product attention over the KV cache.
 *
 * Runs of many rows of one sequence (prefill, encoder) go through the
 * backend gemm, per KV head and block of queries: S = Q K^T (all query
 * heads of the group stacked), a masked softmax on the host, O = P V.
 * Causal blocks only reach the keys up to their last query. Single rows
 * (decode steps) are one fused host kernel per (row, head) over the cache
 * (scores, softmax, weighted sum of V rows), one task each on the pool.
 */
#include "ie_internal.h"

#include <math.h>
#include <string.h>

/* Segments shorter than this use the host path. */
#define GEMM_MIN_ROWS 8
/* Work (multiply-adds) below which the host path stays on one thread. */
#define PAR_MIN 65536

typedef struct host_job {
    ie_state *s;
    int layer, r0, rows, causal;
    float scale;
    const ie_kern *k;
} host_job;

/* Task t = row * heads + head over rows [r0, r0+rows). */
static void host_task(void *arg, int t, int thread)
{
    host_job *j = arg;
    ie_state *s = j->s;
    const ie_config *c = &s->m->cfg;
    int hd = c->head_dim, gs = c->n_heads / c->n_kv_heads;
    int r = j->r0 + t / c->n_heads, h = t % c->n_heads;
    int slot = s->row_slot[r];
    int n = j->causal ? s->row_pos[r] + 1 : s->len[slot];
    size_t qkv_w = (size_t)(c->n_heads + 2 * c->n_kv_heads) * (size_t)hd;
    const float *q = (const float *)s->qkv.host + (size_t)r * qkv_w +
                     (size_t)h * (size_t)hd;
    const float *K = ie_state_kvbuf(s, j->layer, slot, h / gs, 0)->host;
    const float *V = ie_state_kvbuf(s, j->layer, slot, h / gs, 1)->host;
    float *sc = s->scores + (size_t)thread * (size_t)s->max_ctx;
    float *out = (float *)s->att.host +
                 (size_t)r * (size_t)c->n_heads * (size_t)hd +
                 (size_t)h * (size_t)hd;

    j->k->attend(q, K, V, n, hd, j->scale, sc, out);
}

/* Host attention of rows [r0, r0+rows). */
static int host_rows(ie_state *s, int layer, int r0, int rows, int causal)
{
    const ie_config *c = &s->m->cfg;
    host_job j = {s, layer, r0, rows, causal,
                  (float)(1.0 / sqrt((double)c->head_dim)), ie_kern_get()};
    double work = (double)rows * c->n_heads * c->head_dim *
                  (double)s->len[s->row_slot[r0]];

    if (work < PAR_MIN) {
        for (int t = 0; t < rows * c->n_heads; t++)
            host_task(&j, t, 0);
        return IE_OK;
    }
    ie_pool_run(s->ctx->pool, rows * c->n_heads, host_task, &j);
    return IE_OK;
}

typedef struct smax_job {
    float *S;
    int nb, nkeys, p_first, causal;
    const ie_kern *k;
} smax_job;

/* Task t: softmax of score row t (head t / nb, query t % nb). */
static void smax_task(void *arg, int t, int thread)
{
    smax_job *j = arg;
    int valid = j->causal ? j->p_first + t % j->nb + 1 : j->nkeys;

    (void)thread;
    j->k->softmax(j->S + (size_t)t * (size_t)j->nkeys, valid, j->nkeys);
}

/* One query block of one KV head through the backend gemm: queries at
 * rows [r, r+nb) (positions p, p+1, ...) of every head of group g. */
static int gemm_block(ie_state *s, int layer, int g, int r, int nb,
                      int causal)
{
    ie_ctx *ctx = s->ctx;
    const ie_config *c = &s->m->cfg;
    int hd = c->head_dim, gs = c->n_heads / c->n_kv_heads;
    int slot = s->row_slot[r], p = s->row_pos[r];
    int nkeys = causal ? p + nb : s->len[slot];
    size_t qkv_w = (size_t)(c->n_heads + 2 * c->n_kv_heads) * (size_t)hd;
    size_t att_w = (size_t)c->n_heads * (size_t)hd;
    float scale = (float)(1.0 / sqrt((double)hd));
    float *aq = s->aq.host, *ao = s->ao.host;
    ie_dbuf *K = ie_state_kvbuf(s, layer, slot, g, 0);
    ie_dbuf *V = ie_state_kvbuf(s, layer, slot, g, 1);
    int rows = gs * nb;
    smax_job sj = {s->as.host, nb, nkeys, p, causal, ie_kern_get()};
    int rc;

    for (int hh = 0; hh < gs; hh++)
        for (int i = 0; i < nb; i++) {
            const float *q = (const float *)s->qkv.host +
                             (size_t)(r + i) * qkv_w +
                             (size_t)(g * gs + hh) * (size_t)hd;
            float *d = aq + ((size_t)hh * (size_t)nb + (size_t)i) * (size_t)hd;

            for (int e = 0; e < hd; e++)
                d[e] = q[e] * scale;
        }
    rc = ie_dbuf_push(ctx, &s->aq, 0, (uint64_t)rows * (uint64_t)hd * 4u);
    if (rc == IE_OK)
        rc = ie_gemm_xwt(ctx, &s->aq, K, &s->as, (uint64_t)rows,
                         (uint64_t)nkeys, (uint64_t)hd, 0.0);
    if (rc == IE_OK)
        rc = ie_dbuf_pull(ctx, &s->as, 0, (uint64_t)rows * nkeys * 4u);
    if (rc != IE_OK)
        return rc;
    if ((size_t)rows * (size_t)nkeys >= PAR_MIN)
        ie_pool_run(ctx->pool, rows, smax_task, &sj);
    else
        for (int t = 0; t < rows; t++)
            smax_task(&sj, t, 0);
    rc = ie_dbuf_push(ctx, &s->as, 0, (uint64_t)rows * nkeys * 4u);
    if (rc == IE_OK)
        rc = ie_gemm_xy(ctx, &s->as, V, &s->ao, (uint64_t)rows,
                        (uint64_t)hd, (uint64_t)nkeys);
    if (rc == IE_OK)
        rc = ie_dbuf_pull(ctx, &s->ao, 0, (uint64_t)rows * hd * 4u);
    if (rc != IE_OK)
        return rc;
    for (int hh = 0; hh < gs; hh++)
        for (int i = 0; i < nb; i++)
            memcpy((float *)s->att.host + (size_t)(r + i) * att_w +
                       (size_t)(g * gs + hh) * (size_t)hd,
                   ao + ((size_t)hh * (size_t)nb + (size_t)i) * (size_t)hd,
                   (size_t)hd * sizeof(float));
    return IE_OK;
}

/* Attention of one slot's rows [r0, r0+n) through the gemm path. */
static int gemm_rows(ie_state *s, int layer, int r0, int n, int causal)
{
    const ie_config *c = &s->m->cfg;
    int rc = IE_OK;

    for (int g = 0; rc == IE_OK && g < c->n_kv_heads; g++)
        for (int i = 0; rc == IE_OK && i < n; i += s->qblock) {
            int nb = n - i < s->qblock ? n - i : s->qblock;

            rc = gemm_block(s, layer, g, r0 + i, nb, causal);
        }
    return rc;
}

int ie_attention(ie_state *s, int layer, int rows, int causal)
{
    int longest = 0;
    int rc = IE_OK;

    for (int r = 0, e; r < rows; r = e) {
        for (e = r + 1; e < rows && s->row_slot[e] == s->row_slot[r];)
            e++;
        longest = e - r > longest ? e - r : longest;
    }
    if (longest < GEMM_MIN_ROWS) /* decode steps: all rows at once */
        return host_rows(s, layer, 0, rows, causal);
    for (int r = 0, e; rc == IE_OK && r < rows; r = e) {
        for (e = r + 1; e < rows && s->row_slot[e] == s->row_slot[r];)
            e++;
        if (e - r >= GEMM_MIN_ROWS)
            rc = gemm_rows(s, layer, r, e - r, causal);
        else
            rc = host_rows(s, layer, r, e - r, causal);
    }
    return rc;
}
