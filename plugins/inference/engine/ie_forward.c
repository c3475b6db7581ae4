// SPDX-License-Identifier: MIT
/*
 * ie_forward.c -- the forward pass of the three architectures over a
 * batch of rows (tokens of one or more sequences): embeddings, layers
 * (pre-LN GPT-2, post-LN BERT, RMSNorm/RoPE/SwiGLU/GQA LLaMA), the KV
 * cache writes, the final norm and the LM head on each sequence's last
 * row.
 */
#include "ie_internal.h"

#include <string.h>

#define F(b) ((float *)(b).host)

/* x[r] = token (+ position (+ type, then LN)) embedding of each row. */
static void embed(ie_state *s, const int32_t *tok, int rows)
{
    const ie_model *m = s->m;
    const ie_config *c = &m->cfg;
    size_t d = (size_t)c->d_model;

    for (int r = 0; r < rows; r++) {
        float *x = F(s->x) + (size_t)r * d;

        ie_weight_row_f32(&m->tok, tok[r], x);
        if (m->pos != NULL) {
            const float *p = m->pos + (size_t)s->row_pos[r] * d;

            for (size_t i = 0; i < d; i++)
                x[i] += p[i];
        }
        if (m->type != NULL)
            for (size_t i = 0; i < d; i++)
                x[i] += m->type[i]; /* token type 0 */
    }
    if (c->arch == IE_ARCH_BERT)
        ie_ops_norm(s->ctx, F(s->x), F(s->x), m->emb_g, m->emb_b, rows,
                    c->d_model, c->norm_eps, 0);
}

/* Rotates pairs of one head vector by the position's angles. */
static void rope_one(const ie_state *s, float *v, int pos)
{
    const ie_config *c = &s->m->cfg;
    int half = c->head_dim / 2;
    const float *cs = s->rope_cos + (size_t)pos * (size_t)half;
    const float *sn = s->rope_sin + (size_t)pos * (size_t)half;

    for (int i = 0; i < half; i++) {
        int a = c->rope_style == IE_ROPE_HALF ? i : 2 * i;
        int b = c->rope_style == IE_ROPE_HALF ? i + half : 2 * i + 1;
        float x0 = v[a], x1 = v[b];

        v[a] = x0 * cs[i] - x1 * sn[i];
        v[b] = x0 * sn[i] + x1 * cs[i];
    }
}

/* RoPE on q and k of every row (LLaMA), then K/V rows into the cache. */
static int cache_rows(ie_state *s, int layer, int rows)
{
    const ie_config *c = &s->m->cfg;
    size_t hd = (size_t)c->head_dim;
    size_t qkv_w = (size_t)(c->n_heads + 2 * c->n_kv_heads) * hd;
    int rc = IE_OK;

    for (int r = 0; r < rows; r++) {
        float *q = F(s->qkv) + (size_t)r * qkv_w;
        float *k = q + (size_t)c->n_heads * hd;
        float *v = k + (size_t)c->n_kv_heads * hd;
        int slot = s->row_slot[r], pos = s->row_pos[r];

        if (c->arch == IE_ARCH_LLAMA)
            for (int h = 0; h < c->n_heads + c->n_kv_heads; h++)
                rope_one(s, q + (size_t)h * hd, pos);
        for (int g = 0; rc == IE_OK && g < c->n_kv_heads; g++) {
            ie_dbuf *K = ie_state_kvbuf(s, layer, slot, g, 0);
            ie_dbuf *V = ie_state_kvbuf(s, layer, slot, g, 1);
            uint64_t off = (uint64_t)pos * hd * 4u;

            memcpy((char *)K->host + off, k + (size_t)g * hd, hd * 4u);
            memcpy((char *)V->host + off, v + (size_t)g * hd, hd * 4u);
            rc = ie_dbuf_push(s->ctx, K, off, hd * 4u);
            if (rc == IE_OK)
                rc = ie_dbuf_push(s->ctx, V, off, hd * 4u);
        }
    }
    return rc;
}

/* One layer over the call's rows. */
static int layer_fwd(ie_state *s, int l, int rows, int causal)
{
    const ie_model *m = s->m;
    const ie_config *c = &m->cfg;
    const ie_layer *L = &m->layers[l];
    ie_ctx *ctx = s->ctx;
    int d = c->d_model, ff = c->d_ff;
    int post = c->arch == IE_ARCH_BERT, rms = c->arch == IE_ARCH_LLAMA;
    ie_dbuf *in = post ? &s->x : &s->h;
    int rc = IE_OK;

    if (!post)
        ie_ops_norm(ctx, F(s->x), F(s->h), L->n1_g, L->n1_b, rows, d,
                    c->norm_eps, rms);
    rc = ie_linear_ep(s, &L->qkv, L->b_qkv, IE_ACT_NONE, in, &s->qkv, rows);
    if (rc == IE_OK)
        rc = cache_rows(s, l, rows);
    if (rc == IE_OK)
        rc = ie_attention(s, l, rows, causal);
    if (rc == IE_OK)
        rc = ie_linear(s, &L->o, &s->att, &s->proj, rows);
    if (rc != IE_OK)
        return rc;
    ie_ops_residual(ctx, F(s->x), F(s->proj), L->b_o, rows, d);
    if (post)
        ie_ops_norm(ctx, F(s->x), F(s->x), L->n1_g, L->n1_b, rows, d,
                    c->norm_eps, 0);
    else
        ie_ops_norm(ctx, F(s->x), F(s->h), L->n2_g, L->n2_b, rows, d,
                    c->norm_eps, rms);
    if (rms) {
        rc = ie_linear(s, &L->up, in, &s->up, rows);
        if (rc == IE_OK)
            ie_ops_swiglu(ctx, F(s->up), F(s->act), rows, ff);
        if (rc == IE_OK)
            rc = ie_linear(s, &L->down, &s->act, &s->proj, rows);
    } else {
        rc = ie_linear_ep(s, &L->up, L->b_up,
                          post ? IE_ACT_GELU_ERF : IE_ACT_GELU_TANH, in,
                          &s->up, rows);
        if (rc == IE_OK)
            rc = ie_linear(s, &L->down, &s->up, &s->proj, rows);
    }
    if (rc != IE_OK)
        return rc;
    ie_ops_residual(ctx, F(s->x), F(s->proj), L->b_down, rows, d);
    if (post)
        ie_ops_norm(ctx, F(s->x), F(s->x), L->n2_g, L->n2_b, rows, d,
                    c->norm_eps, 0);
    return IE_OK;
}

/* Runs every layer, timing them into ctx->stats. */
static int layers(ie_state *s, int rows, int causal)
{
    ie_ctx *ctx = s->ctx;
    int rc = IE_OK;

    for (int l = 0; rc == IE_OK && l < s->m->cfg.n_layers; l++) {
        uint64_t t0 = ctx->host.now_ns(ctx->host.user);

        rc = layer_fwd(s, l, rows, causal);
        ctx->stats.layer_ns += ctx->host.now_ns(ctx->host.user) - t0;
        ctx->stats.layer_runs++;
    }
    return rc;
}

/* Checks slots (distinct, in range) and that rows fit; fills the row
 * bookkeeping: row i*T + t is slot slots[i] at position base + t. */
static int plan_rows(ie_state *s, const int *slots, int n, int T, int encode)
{
    if (n < 1 || T < 1 || n > s->slots || (int64_t)n * T > s->max_rows)
        return ie_fail(s->ctx, IE_EINVAL,
                       "forward: %d sequences x %d tokens exceed the state "
                       "(%d slots, %d rows)",
                       n, T, s->slots, s->max_rows);
    for (int i = 0; i < n; i++) {
        int sl = slots[i];
        int base = encode ? 0 : (sl >= 0 && sl < s->slots ? s->len[sl] : 0);

        if (sl < 0 || sl >= s->slots)
            return ie_fail(s->ctx, IE_EINVAL, "forward: slot %d out of range",
                           sl);
        for (int k = 0; k < i; k++)
            if (slots[k] == sl)
                return ie_fail(s->ctx, IE_EINVAL,
                               "forward: slot %d given twice", sl);
        if (base + T > s->max_ctx)
            return ie_fail(s->ctx, IE_EINVAL,
                           "forward: slot %d would hold %d tokens, context "
                           "is %d",
                           sl, base + T, s->max_ctx);
        for (int t = 0; t < T; t++) {
            s->row_slot[i * T + t] = sl;
            s->row_pos[i * T + t] = base + t;
        }
    }
    return IE_OK;
}

/* Records tokens and checks their range. */
static int take_tokens(ie_state *s, const int32_t *tokens, int rows)
{
    for (int r = 0; r < rows; r++) {
        if (tokens[r] < 0 || tokens[r] >= s->m->cfg.vocab)
            return ie_fail(s->ctx, IE_EINVAL,
                           "forward: token %d outside the vocabulary (%d)",
                           (int)tokens[r], s->m->cfg.vocab);
    }
    for (int r = 0; r < rows; r++)
        s->tokens[(size_t)s->row_slot[r] * (size_t)s->max_ctx +
                  (size_t)s->row_pos[r]] = tokens[r];
    return IE_OK;
}

int ie_forward(ie_state *s, const int *slots, int n, const int32_t *tokens,
               int T)
{
    ie_ctx *ctx = s->ctx;
    const ie_model *m = s->m;
    const ie_config *c = &m->cfg;
    size_t d = (size_t)c->d_model;
    uint64_t t0 = ctx->host.now_ns(ctx->host.user);
    int rows = n * T;
    int rc;

    if (c->arch == IE_ARCH_BERT)
        return ie_fail(ctx, IE_EINVAL, "forward: %s is an encoder (encode)",
                       c->name);
    rc = plan_rows(s, slots, n, T, 0);
    if (rc == IE_OK)
        rc = take_tokens(s, tokens, rows);
    if (rc != IE_OK)
        return rc;
    embed(s, tokens, rows);
    rc = layers(s, rows, 1);
    if (rc != IE_OK)
        return rc;
    for (int i = 0; i < n; i++) {
        s->len[slots[i]] += T;
        ie_ops_norm(ctx, F(s->x) + (size_t)(i * T + T - 1) * d,
                    F(s->head_in) + (size_t)i * d, m->fin_g, m->fin_b, 1,
                    c->d_model, c->norm_eps, c->arch == IE_ARCH_LLAMA);
    }
    rc = ie_linear(s, ie_model_head(m), &s->head_in, &s->logits, n);
    ctx->stats.total_ns += ctx->host.now_ns(ctx->host.user) - t0;
    ctx->stats.forwards++;
    return rc;
}

int ie_encode(ie_state *s, const int *slots, int n, const int32_t *tokens,
              int T)
{
    ie_ctx *ctx = s->ctx;
    uint64_t t0 = ctx->host.now_ns(ctx->host.user);
    int rc;

    if (s->m->cfg.arch != IE_ARCH_BERT)
        return ie_fail(ctx, IE_EINVAL, "encode: %s is a decoder (forward)",
                       s->m->cfg.name);
    rc = plan_rows(s, slots, n, T, 1);
    if (rc == IE_OK)
        rc = take_tokens(s, tokens, n * T);
    if (rc != IE_OK)
        return rc;
    for (int i = 0; i < n; i++)
        s->len[slots[i]] = T;
    embed(s, tokens, n * T);
    rc = layers(s, n * T, 0);
    s->hidden_rows = n * T;
    ctx->stats.total_ns += ctx->host.now_ns(ctx->host.user) - t0;
    ctx->stats.forwards++;
    return rc;
}
