// SPDX-License-Identifier: MIT
/*
 * ie_load.c -- fills a model from a .safetensors (Hugging Face names) or
 * .gguf (llama.cpp names) file: which tensor feeds which weight (q/k/v
 * and gate/up are fused into one matrix each), shape checks against the
 * model's config, GPT-2's Conv1D [in, out] matrices transposed, and every
 * element converted from f32/f16/bf16/f64 to the model's storage type.
 * Only the first n_layers layers are read.
 */
#include "ie_file.h"
#include "ie_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { T_TOK, T_HEAD, T_POS, T_TYPE, T_EMB_G, T_EMB_B, T_FIN_G, T_FIN_B,
       T_QKV, T_O, T_UP, T_DOWN, T_N1G, T_N1B, T_N2G, T_N2B,
       T_BQKV, T_BO, T_BUP, T_BDOWN };
enum { P_ALL, P_Q, P_K, P_V, P_GATE, P_UP };
#define F_TRANS 1 /* safetensors stores it [in, out] (GPT-2 Conv1D) */
#define F_OPT 2   /* may be absent */

typedef struct spec {
    int target, part, flags;
    const char *st;   /* safetensors name; %d = layer; '|' separates */
    const char *gguf; /* GGUF name */
} spec;

static const spec gpt2_specs[] = {
    {T_TOK, P_ALL, 0, "wte.weight", "token_embd.weight"},
    {T_POS, P_ALL, 0, "wpe.weight", "position_embd.weight"},
    {T_FIN_G, P_ALL, 0, "ln_f.weight", "output_norm.weight"},
    {T_FIN_B, P_ALL, 0, "ln_f.bias", "output_norm.bias"},
    {T_N1G, P_ALL, 0, "h.%d.ln_1.weight", "blk.%d.attn_norm.weight"},
    {T_N1B, P_ALL, 0, "h.%d.ln_1.bias", "blk.%d.attn_norm.bias"},
    {T_QKV, P_ALL, F_TRANS, "h.%d.attn.c_attn.weight", "blk.%d.attn_qkv.weight"},
    {T_BQKV, P_ALL, 0, "h.%d.attn.c_attn.bias", "blk.%d.attn_qkv.bias"},
    {T_O, P_ALL, F_TRANS, "h.%d.attn.c_proj.weight", "blk.%d.attn_output.weight"},
    {T_BO, P_ALL, 0, "h.%d.attn.c_proj.bias", "blk.%d.attn_output.bias"},
    {T_N2G, P_ALL, 0, "h.%d.ln_2.weight", "blk.%d.ffn_norm.weight"},
    {T_N2B, P_ALL, 0, "h.%d.ln_2.bias", "blk.%d.ffn_norm.bias"},
    {T_UP, P_ALL, F_TRANS, "h.%d.mlp.c_fc.weight", "blk.%d.ffn_up.weight"},
    {T_BUP, P_ALL, 0, "h.%d.mlp.c_fc.bias", "blk.%d.ffn_up.bias"},
    {T_DOWN, P_ALL, F_TRANS, "h.%d.mlp.c_proj.weight", "blk.%d.ffn_down.weight"},
    {T_BDOWN, P_ALL, 0, "h.%d.mlp.c_proj.bias", "blk.%d.ffn_down.bias"},
};

static const spec llama_specs[] = {
    {T_TOK, P_ALL, 0, "model.embed_tokens.weight", "token_embd.weight"},
    {T_HEAD, P_ALL, F_OPT, "lm_head.weight", "output.weight"},
    {T_FIN_G, P_ALL, 0, "model.norm.weight", "output_norm.weight"},
    {T_N1G, P_ALL, 0, "model.layers.%d.input_layernorm.weight",
     "blk.%d.attn_norm.weight"},
    {T_QKV, P_Q, 0, "model.layers.%d.self_attn.q_proj.weight", "blk.%d.attn_q.weight"},
    {T_QKV, P_K, 0, "model.layers.%d.self_attn.k_proj.weight", "blk.%d.attn_k.weight"},
    {T_QKV, P_V, 0, "model.layers.%d.self_attn.v_proj.weight", "blk.%d.attn_v.weight"},
    {T_O, P_ALL, 0, "model.layers.%d.self_attn.o_proj.weight",
     "blk.%d.attn_output.weight"},
    {T_N2G, P_ALL, 0, "model.layers.%d.post_attention_layernorm.weight",
     "blk.%d.ffn_norm.weight"},
    {T_UP, P_GATE, 0, "model.layers.%d.mlp.gate_proj.weight", "blk.%d.ffn_gate.weight"},
    {T_UP, P_UP, 0, "model.layers.%d.mlp.up_proj.weight", "blk.%d.ffn_up.weight"},
    {T_DOWN, P_ALL, 0, "model.layers.%d.mlp.down_proj.weight",
     "blk.%d.ffn_down.weight"},
};

static const spec bert_specs[] = {
    {T_TOK, P_ALL, 0, "embeddings.word_embeddings.weight", "token_embd.weight"},
    {T_POS, P_ALL, 0, "embeddings.position_embeddings.weight",
     "position_embd.weight"},
    {T_TYPE, P_ALL, 0, "embeddings.token_type_embeddings.weight",
     "token_types.weight"},
    {T_EMB_G, P_ALL, 0, "embeddings.LayerNorm.weight|embeddings.LayerNorm.gamma",
     "token_embd_norm.weight"},
    {T_EMB_B, P_ALL, 0, "embeddings.LayerNorm.bias|embeddings.LayerNorm.beta",
     "token_embd_norm.bias"},
    {T_QKV, P_Q, 0, "encoder.layer.%d.attention.self.query.weight", "blk.%d.attn_q.weight"},
    {T_QKV, P_K, 0, "encoder.layer.%d.attention.self.key.weight", "blk.%d.attn_k.weight"},
    {T_QKV, P_V, 0, "encoder.layer.%d.attention.self.value.weight", "blk.%d.attn_v.weight"},
    {T_BQKV, P_Q, 0, "encoder.layer.%d.attention.self.query.bias", "blk.%d.attn_q.bias"},
    {T_BQKV, P_K, 0, "encoder.layer.%d.attention.self.key.bias", "blk.%d.attn_k.bias"},
    {T_BQKV, P_V, 0, "encoder.layer.%d.attention.self.value.bias", "blk.%d.attn_v.bias"},
    {T_O, P_ALL, 0, "encoder.layer.%d.attention.output.dense.weight",
     "blk.%d.attn_output.weight"},
    {T_BO, P_ALL, 0, "encoder.layer.%d.attention.output.dense.bias",
     "blk.%d.attn_output.bias"},
    {T_N1G, P_ALL, 0,
     "encoder.layer.%d.attention.output.LayerNorm.weight|"
     "encoder.layer.%d.attention.output.LayerNorm.gamma",
     "blk.%d.attn_output_norm.weight"},
    {T_N1B, P_ALL, 0,
     "encoder.layer.%d.attention.output.LayerNorm.bias|"
     "encoder.layer.%d.attention.output.LayerNorm.beta",
     "blk.%d.attn_output_norm.bias"},
    {T_UP, P_ALL, 0, "encoder.layer.%d.intermediate.dense.weight", "blk.%d.ffn_up.weight"},
    {T_BUP, P_ALL, 0, "encoder.layer.%d.intermediate.dense.bias", "blk.%d.ffn_up.bias"},
    {T_DOWN, P_ALL, 0, "encoder.layer.%d.output.dense.weight", "blk.%d.ffn_down.weight"},
    {T_BDOWN, P_ALL, 0, "encoder.layer.%d.output.dense.bias", "blk.%d.ffn_down.bias"},
    {T_N2G, P_ALL, 0,
     "encoder.layer.%d.output.LayerNorm.weight|encoder.layer.%d.output.LayerNorm.gamma",
     "blk.%d.layer_output_norm.weight"},
    {T_N2B, P_ALL, 0,
     "encoder.layer.%d.output.LayerNorm.bias|encoder.layer.%d.output.LayerNorm.beta",
     "blk.%d.layer_output_norm.bias"},
};

typedef struct loader {
    ie_model *m;
    const ie_tensor_dir *dir;
    const char *path;
    const char *prefix; /* safetensors: also tried with this prefix */
} loader;

/* Where a target lands: a weight (+ row offset) or a vector (+ offset),
 * and its expected [rows, cols] (cols 0 for vectors). */
typedef struct dest {
    ie_weight *w;
    float *v;
    int off, rows, cols;
} dest;

/* True for per-layer targets. */
static int is_layer(int target)
{
    return target >= T_QKV;
}

/* Rows of a fused part (q/k/v, gate/up) and its row offset; -1 for a
 * whole tensor. */
static int part_rows(const ie_config *c, int part, int *off)
{
    int qh = c->n_heads * c->head_dim, kh = c->n_kv_heads * c->head_dim;

    switch (part) {
    case P_Q: *off = 0; return qh;
    case P_K: *off = qh; return kh;
    case P_V: *off = qh + kh; return kh;
    case P_GATE: *off = 0; return c->d_ff;
    case P_UP: *off = c->d_ff; return c->d_ff;
    default: *off = 0; return -1;
    }
}

/* Where spec s of layer l lands in m, with its expected shape. */
static dest locate(ie_model *m, const spec *s, int l)
{
    const ie_config *c = &m->cfg;
    ie_layer *L = is_layer(s->target) ? &m->layers[l] : NULL;
    int d = c->d_model, qkvw = (c->n_heads + 2 * c->n_kv_heads) * c->head_dim;
    dest r = {NULL, NULL, 0, 0, 0};
    int pr = part_rows(c, s->part, &r.off);

    switch (s->target) {
    case T_TOK: r.w = &m->tok; r.rows = c->vocab; r.cols = d; break;
    case T_HEAD: r.w = &m->head; r.rows = c->vocab; r.cols = d; break;
    case T_POS: r.v = m->pos; r.rows = c->max_pos; r.cols = d; break;
    case T_TYPE: r.v = m->type; r.rows = c->type_vocab; r.cols = d; break;
    case T_EMB_G: r.v = m->emb_g; r.rows = d; break;
    case T_EMB_B: r.v = m->emb_b; r.rows = d; break;
    case T_FIN_G: r.v = m->fin_g; r.rows = d; break;
    case T_FIN_B: r.v = m->fin_b; r.rows = d; break;
    case T_QKV: r.w = &L->qkv; r.rows = pr > 0 ? pr : qkvw; r.cols = d; break;
    case T_O: r.w = &L->o; r.rows = d; r.cols = c->n_heads * c->head_dim; break;
    case T_UP: r.w = &L->up; r.rows = pr > 0 ? pr : c->d_ff; r.cols = d; break;
    case T_DOWN: r.w = &L->down; r.rows = d; r.cols = c->d_ff; break;
    case T_N1G: r.v = L->n1_g; r.rows = d; break;
    case T_N1B: r.v = L->n1_b; r.rows = d; break;
    case T_N2G: r.v = L->n2_g; r.rows = d; break;
    case T_N2B: r.v = L->n2_b; r.rows = d; break;
    case T_BQKV: r.v = L->b_qkv; r.rows = pr > 0 ? pr : qkvw; break;
    case T_BO: r.v = L->b_o; r.rows = d; break;
    case T_BUP: r.v = L->b_up; r.rows = c->d_ff; break;
    case T_BDOWN: r.v = L->b_down; r.rows = d; break;
    default: break;
    }
    if (r.v != NULL)
        r.v += r.off;
    return r;
}

/* Copies pat[0..len) into out with each "%d" replaced by l. */
static void subst(const char *pat, int len, int l, char *out, size_t cap)
{
    size_t o = 0;

    for (int i = 0; i < len && o + 12 < cap; i++) {
        if (pat[i] == '%' && i + 1 < len && pat[i + 1] == 'd') {
            o += (size_t)snprintf(out + o, cap - o, "%d", l);
            i++;
        } else {
            out[o++] = pat[i];
        }
    }
    out[o] = '\0';
}

/* Finds the tensor for spec s at layer l; fills tried with the names. */
static const ie_tensor *find(const loader *ld, const spec *s, int l,
                             char *tried, size_t cap)
{
    const char *names = ld->dir->gguf ? s->gguf : s->st;
    const char *p = names;

    tried[0] = '\0';
    while (p != NULL && *p) {
        const char *bar = strchr(p, '|');
        int len = bar ? (int)(bar - p) : (int)strlen(p);
        char name[200];
        const ie_tensor *t;

        subst(p, len, l, name, sizeof(name));
        if (tried[0] == '\0')
            snprintf(tried, cap, "%s", name);
        t = ie_tensor_find(ld->dir, name);
        if (t == NULL && !ld->dir->gguf && ld->prefix[0]) {
            char pre[240];

            snprintf(pre, sizeof(pre), "%s%s", ld->prefix, name);
            t = ie_tensor_find(ld->dir, pre);
        }
        if (t != NULL)
            return t;
        p = bar ? bar + 1 : NULL;
    }
    return NULL;
}

/* Fails unless every element of t is finite. */
static int finite_all(loader *ld, const ie_tensor *t, uint64_t n)
{
    for (uint64_t i = 0; i < n; i++) {
        float v = ie_tensor_get(t, i);

        if (v - v != 0.0f)
            return ie_fail(ld->m->ctx, IE_EFILE,
                           "%s: tensor '%s' element %llu is %s; expected "
                           "finite weights",
                           ld->path, t->name, (unsigned long long)i,
                           v != v ? "NaN" : "infinite");
    }
    return IE_OK;
}

/* Copies tensor t into dst, transposing when trans (file is [cols, rows]). */
static int put(loader *ld, const dest *dst, const ie_tensor *t, int trans)
{
    size_t rows = (size_t)dst->rows, cols = (size_t)(dst->cols ? dst->cols : 1);
    float *buf;
    const size_t chunk = 64;
    int rc = finite_all(ld, t, (uint64_t)rows * cols);

    if (rc != IE_OK)
        return rc;
    if (dst->w == NULL) {
        for (size_t i = 0; i < rows * cols; i++)
            dst->v[i] = ie_tensor_get(t, i);
        return IE_OK;
    }
    buf = malloc(chunk * cols * sizeof(float));
    if (buf == NULL)
        return ie_fail(ld->m->ctx, IE_ENOMEM, "%s: out of memory converting '%s'",
                       ld->path, t->name);
    for (size_t r0 = 0; r0 < rows; r0 += chunk) {
        size_t n = rows - r0 < chunk ? rows - r0 : chunk;

        for (size_t r = 0; r < n; r++)
            for (size_t c = 0; c < cols; c++)
                buf[r * cols + c] = ie_tensor_get(
                    t, trans ? c * rows + (r0 + r) : (r0 + r) * cols + c);
        ie_weight_set_rows(dst->w, dst->off + (int)r0, (int)n, buf);
    }
    free(buf);
    return IE_OK;
}

/* Loads one spec at layer l. */
static int load_one(loader *ld, const spec *s, int l)
{
    ie_ctx *ctx = ld->m->ctx;
    dest dst = locate(ld->m, s, l);
    int trans = (s->flags & F_TRANS) && !ld->dir->gguf;
    uint64_t want0 = (uint64_t)dst.rows, want1 = (uint64_t)dst.cols;
    char name[200];
    const ie_tensor *t = find(ld, s, l, name, sizeof(name));

    if (t == NULL) {
        if (s->flags & F_OPT)
            return IE_OK;
        return ie_fail(ctx, IE_EFILE, "%s: missing tensor '%s'%s%s%s",
                       ld->path, name,
                       ld->prefix[0] && !ld->dir->gguf ? " (also tried '" : "",
                       ld->prefix[0] && !ld->dir->gguf ? ld->prefix : "",
                       ld->prefix[0] && !ld->dir->gguf ? "...')" : "");
    }
    if (t->data == NULL)
        return ie_fail(ctx, IE_EFILE,
                       "%s: tensor '%s' has type %s; expected f32, f16, bf16 "
                       "or f64",
                       ld->path, t->name, t->type_name);
    if (trans) {
        uint64_t x = want0;

        want0 = want1;
        want1 = x;
    }
    if ((dst.cols == 0 && (t->ndim != 1 || t->shape[0] != want0)) ||
        (dst.cols != 0 &&
         (t->ndim != 2 || t->shape[0] != want0 || t->shape[1] != want1)))
        return ie_fail(ctx, IE_EFILE,
                       "%s: tensor '%s' has shape [%llu%s%llu], expected "
                       "[%llu%s%llu]",
                       ld->path, t->name, (unsigned long long)t->shape[0],
                       t->ndim > 1 ? ", " : "",
                       t->ndim > 1 ? (unsigned long long)t->shape[1] : 0ull,
                       (unsigned long long)want0, dst.cols ? ", " : "",
                       dst.cols ? (unsigned long long)want1 : 0ull);
    return put(ld, &dst, t, trans);
}

/* GGUF metadata against the config (absent keys are not checked). */
static int check_meta(loader *ld)
{
    ie_config *c = &ld->m->cfg;
    const ie_file_meta *mt = &ld->dir->meta;
    static const char *const arch_names[] = {"", "bert", "gpt2", "llama"};
    const char *bad = NULL;
    long long got = 0, want = 0;

    if (!ld->dir->gguf)
        return IE_OK;
    if (mt->arch[0] && strcmp(mt->arch, arch_names[c->arch]) != 0)
        return ie_fail(ld->m->ctx, IE_EFILE,
                       "%s: general.architecture is '%s', model %s expects "
                       "'%s'",
                       ld->path, mt->arch, c->name, arch_names[c->arch]);
#define CHECK(field, value, cond)                                              \
    if (bad == NULL && mt->field >= 0 && !(cond)) {                           \
        bad = #field;                                                          \
        got = mt->field;                                                       \
        want = value;                                                          \
    }
    CHECK(block_count, c->n_layers, mt->block_count >= c->n_layers)
    CHECK(embedding_length, c->d_model, mt->embedding_length == c->d_model)
    CHECK(feed_forward_length, c->d_ff, mt->feed_forward_length == c->d_ff)
    CHECK(head_count, c->n_heads, mt->head_count == c->n_heads)
    CHECK(head_count_kv, c->n_kv_heads, mt->head_count_kv == c->n_kv_heads)
#undef CHECK
    if (bad != NULL)
        return ie_fail(ld->m->ctx, IE_EFILE,
                       "%s: %s is %lld, model %s expects %s%lld", ld->path,
                       bad, got, c->name,
                       strcmp(bad, "block_count") == 0 ? "at least " : "",
                       want);
    if (mt->norm_eps > 0)
        c->norm_eps = (float)mt->norm_eps;
    if (mt->rope_base > 0)
        c->rope_theta = (float)mt->rope_base;
    if (c->arch == IE_ARCH_LLAMA) /* llama.cpp keeps Meta's pair order */
        c->rope_style = IE_ROPE_INTERLEAVED;
    return IE_OK;
}

int ie_model_load_dir(ie_model *m, const ie_tensor_dir *dir, const char *path)
{
    const ie_config *c = &m->cfg;
    loader ld = {m, dir, path, ""};
    const spec *specs = c->arch == IE_ARCH_GPT2   ? gpt2_specs
                        : c->arch == IE_ARCH_BERT ? bert_specs
                                                  : llama_specs;
    size_t n = c->arch == IE_ARCH_GPT2   ? sizeof(gpt2_specs) / sizeof(spec)
               : c->arch == IE_ARCH_BERT ? sizeof(bert_specs) / sizeof(spec)
                                         : sizeof(llama_specs) / sizeof(spec);
    int head_found = 0;
    int rc;

    ld.prefix = c->arch == IE_ARCH_GPT2   ? "transformer."
                : c->arch == IE_ARCH_BERT ? "bert."
                                          : "";
    rc = check_meta(&ld);
    for (size_t i = 0; rc == IE_OK && i < n; i++) {
        int layers = is_layer(specs[i].target) ? c->n_layers : 1;

        for (int l = 0; rc == IE_OK && l < layers; l++)
            rc = load_one(&ld, &specs[i], l);
        if (specs[i].target == T_HEAD) {
            char name[200];

            head_found = find(&ld, &specs[i], 0, name, sizeof(name)) != NULL;
        }
    }
    if (rc == IE_OK && c->arch == IE_ARCH_LLAMA && !head_found) {
        float *row = ie_alloc(m->ctx, (size_t)c->d_model * sizeof(float));

        if (row == NULL)
            return IE_ENOMEM;
        for (int r = 0; r < c->vocab; r++) { /* tied: head = embedding */
            ie_weight_row_f32(&m->tok, r, row);
            ie_weight_set_rows(&m->head, r, 1, row);
        }
        ie_free(m->ctx, row);
    }
    return rc;
}

int ie_model_load_file(ie_model *m, const char *path, int io_read)
{
    ie_mapped map;
    ie_tensor_dir dir;
    int rc = io_read ? ie_read_file(path, &map, m->ctx->err, sizeof(m->ctx->err))
                     : ie_map_file(path, &map, m->ctx->err, sizeof(m->ctx->err));

    if (rc != IE_OK)
        return rc;
    rc = ie_parse_file(path, &map, &dir, m->ctx->err, sizeof(m->ctx->err));
    if (rc == IE_OK)
        rc = ie_model_load_dir(m, &dir, path);
    ie_tensor_dir_free(&dir);
    ie_unmap_file(&map);
    return rc;
}
