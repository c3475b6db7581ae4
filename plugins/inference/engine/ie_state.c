// SPDX-License-Identifier: MIT
/*
 * ie_state.c -- per-run state: the KV cache (one device buffer per layer,
 * sequence slot, KV head and K/V, since the gemm ABI takes whole buffers),
 * the activation buffers, attention and dequantization scratch, RoPE
 * tables, and accessors.
 */
#include "ie_internal.h"

#include <math.h>
#include <string.h>

#define QBLOCK 128

ie_dbuf *ie_state_kvbuf(const ie_state *s, int layer, int slot, int g,
                        int which)
{
    const ie_config *c = &s->m->cfg;
    size_t i = (((size_t)layer * (size_t)s->slots + (size_t)slot) *
                    (size_t)c->n_kv_heads +
                (size_t)g) *
                   2 +
               (size_t)which;

    return &s->kv[i];
}

/* Allocates the activation buffers for max_rows rows. */
static int alloc_acts(ie_state *s)
{
    const ie_config *c = &s->m->cfg;
    ie_ctx *ctx = s->ctx;
    uint64_t r = (uint64_t)s->max_rows, d = (uint64_t)c->d_model;
    uint64_t qkv = (uint64_t)(c->n_heads + 2 * c->n_kv_heads) * c->head_dim;
    uint64_t ff = (uint64_t)c->d_ff;
    uint64_t up = c->arch == IE_ARCH_LLAMA ? 2 * ff : ff;
    uint64_t gs = (uint64_t)(c->n_heads / c->n_kv_heads);
    uint64_t hd = (uint64_t)c->head_dim;
    struct {
        ie_dbuf *b;
        uint64_t elems;
    } list[] = {
        {&s->x, r * d},
        {&s->h, r * d},
        {&s->qkv, r * qkv},
        {&s->att, r * (uint64_t)c->n_heads * hd},
        {&s->proj, r * d},
        {&s->up, r * up},
        {&s->act, r * ff},
        {&s->head_in, (uint64_t)s->slots * d},
        {&s->logits, (uint64_t)s->slots * (uint64_t)c->vocab},
        {&s->aq, gs * (uint64_t)s->qblock * hd},
        {&s->as, gs * (uint64_t)s->qblock * (uint64_t)s->max_ctx},
        {&s->ao, gs * (uint64_t)s->qblock * hd},
    };
    int rc = IE_OK;

    for (size_t i = 0; rc == IE_OK && i < sizeof(list) / sizeof(list[0]); i++)
        rc = ie_dbuf_alloc(ctx, list[i].b, list[i].elems * 4u);
    if (rc != IE_OK || s->m->wtype == IE_W_F32)
        return rc;
    {
        uint64_t cols = d > ff ? d : ff;
        uint64_t budget = s->max_rows <= IE_MV_MAXB ? (512u << 10) : (4u << 20);
        uint64_t tr = budget / (4u * cols);

        tr = tr < 16 ? 16 : tr - tr % 16;
        s->tile_rows = (int)tr;
        rc = ie_dbuf_alloc(ctx, &s->wt, tr * cols * 4u);
        if (rc == IE_OK)
            rc = ie_dbuf_alloc(ctx, &s->yt, tr * r * 4u);
    }
    return rc;
}

/* cos/sin of position p and pair i: angle p / theta^(2i / hd). */
static int rope_tables(ie_state *s)
{
    const ie_config *c = &s->m->cfg;
    size_t half = (size_t)c->head_dim / 2;
    size_t n = (size_t)s->max_ctx * half;

    if (c->arch != IE_ARCH_LLAMA)
        return IE_OK;
    s->rope_cos = ie_alloc(s->ctx, n * sizeof(float));
    s->rope_sin = ie_alloc(s->ctx, n * sizeof(float));
    if (s->rope_cos == NULL || s->rope_sin == NULL)
        return IE_ENOMEM;
    for (size_t p = 0; p < (size_t)s->max_ctx; p++)
        for (size_t i = 0; i < half; i++) {
            double f = pow((double)c->rope_theta,
                           -2.0 * (double)i / (double)c->head_dim);

            s->rope_cos[p * half + i] = (float)cos((double)p * f);
            s->rope_sin[p * half + i] = (float)sin((double)p * f);
        }
    return IE_OK;
}

ie_state *ie_state_create(ie_model *m, int slots, int max_ctx, int max_rows)
{
    ie_ctx *ctx = m->ctx;
    const ie_config *c = &m->cfg;
    size_t nkv = (size_t)c->n_layers * (size_t)slots * (size_t)c->n_kv_heads * 2;
    ie_state *s;
    int rc = IE_OK;

    if (slots < 1 || slots > 4096 || max_ctx < 1 || max_ctx > c->max_pos ||
        max_rows < 1 || max_rows > (1 << 24)) {
        ie_fail(ctx, IE_EINVAL,
                "state: slots %d, context %d (model max %d), rows %d out of "
                "range",
                slots, max_ctx, c->max_pos, max_rows);
        return NULL;
    }
    s = ie_alloc(ctx, sizeof(*s));
    if (s == NULL)
        return NULL;
    memset(s, 0, sizeof(*s));
    s->m = m;
    s->ctx = ctx;
    s->slots = slots;
    s->max_ctx = max_ctx;
    s->max_rows = max_rows;
    s->qblock = max_rows < QBLOCK ? max_rows : QBLOCK;
    s->len = ie_alloc(ctx, (size_t)slots * sizeof(int));
    s->tokens = ie_alloc(ctx, (size_t)slots * (size_t)max_ctx * 4u);
    s->row_slot = ie_alloc(ctx, (size_t)max_rows * sizeof(int));
    s->row_pos = ie_alloc(ctx, (size_t)max_rows * sizeof(int));
    s->kv = ie_alloc(ctx, nkv * sizeof(ie_dbuf));
    s->scores = ie_alloc(ctx, (size_t)ctx->threads * (size_t)max_ctx * 4u);
    s->mv_spans = ie_alloc(ctx, (size_t)ctx->threads * sizeof(ie_mv_span));
    if (!s->len || !s->tokens || !s->row_slot || !s->row_pos || !s->kv ||
        !s->scores || !s->mv_spans) {
        ie_state_destroy(s);
        return NULL;
    }
    memset(s->len, 0, (size_t)slots * sizeof(int));
    memset(s->kv, 0, nkv * sizeof(ie_dbuf));
    for (size_t i = 0; rc == IE_OK && i < nkv; i++)
        rc = ie_dbuf_alloc(ctx, &s->kv[i],
                           (uint64_t)max_ctx * (uint64_t)c->head_dim * 4u);
    if (rc == IE_OK)
        rc = alloc_acts(s);
    if (rc == IE_OK)
        rc = rope_tables(s);
    if (rc != IE_OK) {
        ie_state_destroy(s);
        return NULL;
    }
    return s;
}

void ie_state_destroy(ie_state *s)
{
    ie_ctx *ctx;
    const ie_config *c;

    if (s == NULL)
        return;
    ctx = s->ctx;
    c = &s->m->cfg;
    if (s->kv != NULL) {
        size_t nkv = (size_t)c->n_layers * (size_t)s->slots *
                     (size_t)c->n_kv_heads * 2;

        for (size_t i = 0; i < nkv; i++)
            ie_dbuf_free(ctx, &s->kv[i]);
    }
    ie_dbuf_free(ctx, &s->x);
    ie_dbuf_free(ctx, &s->h);
    ie_dbuf_free(ctx, &s->qkv);
    ie_dbuf_free(ctx, &s->att);
    ie_dbuf_free(ctx, &s->proj);
    ie_dbuf_free(ctx, &s->up);
    ie_dbuf_free(ctx, &s->act);
    ie_dbuf_free(ctx, &s->head_in);
    ie_dbuf_free(ctx, &s->logits);
    ie_dbuf_free(ctx, &s->aq);
    ie_dbuf_free(ctx, &s->as);
    ie_dbuf_free(ctx, &s->ao);
    ie_dbuf_free(ctx, &s->wt);
    ie_dbuf_free(ctx, &s->yt);
    ie_free(ctx, s->kv);
    ie_free(ctx, s->len);
    ie_free(ctx, s->tokens);
    ie_free(ctx, s->row_slot);
    ie_free(ctx, s->row_pos);
    ie_free(ctx, s->scores);
    ie_free(ctx, s->mv_spans);
    ie_free(ctx, s->rope_cos);
    ie_free(ctx, s->rope_sin);
    ie_free(ctx, s);
}

uint64_t ie_state_kv_bytes(const ie_state *s)
{
    const ie_config *c = &s->m->cfg;

    return (uint64_t)c->n_layers * (uint64_t)s->slots *
           (uint64_t)c->n_kv_heads * 2u * (uint64_t)s->max_ctx *
           (uint64_t)c->head_dim * 4u;
}

int ie_state_len(const ie_state *s, int slot)
{
    return slot >= 0 && slot < s->slots ? s->len[slot] : 0;
}

int ie_state_truncate(ie_state *s, int slot, int len)
{
    if (slot < 0 || slot >= s->slots || len < 0 || len > s->len[slot])
        return ie_fail(s->ctx, IE_EINVAL, "truncate: slot %d to %d invalid",
                       slot, len);
    s->len[slot] = len;
    return IE_OK;
}

const int32_t *ie_state_tokens(const ie_state *s, int slot)
{
    return s->tokens + (size_t)slot * (size_t)s->max_ctx;
}

const float *ie_logits(const ie_state *s, int i)
{
    return (const float *)s->logits.host + (size_t)i * (size_t)s->m->cfg.vocab;
}

const float *ie_hidden(const ie_state *s, int r)
{
    return (const float *)s->x.host + (size_t)r * (size_t)s->m->cfg.d_model;
}

int ie_state_kv_row(const ie_state *s, int layer, int slot, int pos,
                    int which, float *out)
{
    const ie_config *c = &s->m->cfg;
    size_t hd = (size_t)c->head_dim;

    if (layer < 0 || layer >= c->n_layers || slot < 0 || slot >= s->slots ||
        pos < 0 || pos >= s->max_ctx || which < 0 || which > 1)
        return IE_EINVAL;
    for (int g = 0; g < c->n_kv_heads; g++) {
        const ie_dbuf *b = ie_state_kvbuf(s, layer, slot, g, which);

        memcpy(out + (size_t)g * hd, (const float *)b->host + (size_t)pos * hd,
               hd * sizeof(float));
    }
    return IE_OK;
}
