// SPDX-License-Identifier: MIT
/*
 * ie_write.c -- writes a model's weights as a safetensors file (Hugging
 * Face tensor names, GPT-2 Conv1D matrices as [in, out]) or a GGUF v3 file
 * (llama.cpp names, ne innermost first), in F32, F16 or BF16: the files
 * the loaders are tested on, and the fresh files the model-loading
 * benchmark times. The tensors are gathered in file order first (one copy
 * of the weights as f32), then written in 64 KiB chunks.
 */
#include "ie.h"
#include "ie_file.h"
#include "ie_internal.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHUNK 16384 /* elements converted per fwrite */

typedef struct entry {
    char name[96];
    uint64_t rows, cols; /* cols 0: a vector of rows elements */
    float *data;         /* file order, row-major */
} entry;

typedef struct list {
    entry *e;
    int n, cap;
    int failed; /* out of memory on some add() */
} list;

/* The next free entry of L, or NULL (L->failed set) when out of memory. */
static entry *next_entry(list *L)
{
    if (L->n == L->cap) {
        int cap = L->cap ? 2 * L->cap : 256;
        entry *e = realloc(L->e, (size_t)cap * sizeof(*e));

        if (e == NULL) {
            L->failed = 1;
            return NULL;
        }
        L->e = e;
        L->cap = cap;
    }
    return &L->e[L->n];
}

/* Appends a copy of n floats (or a transposed matrix when trans); sets
 * L->failed when out of memory. */
static void add(list *L, const char *name, uint64_t rows, uint64_t cols, const float *src,
                int trans)
{
    entry *e = L->failed || src == NULL ? NULL : next_entry(L);
    uint64_t n = rows * (cols ? cols : 1);

    if (e == NULL) {
        L->failed = 1;
        return;
    }
    snprintf(e->name, sizeof(e->name), "%s", name);
    e->rows = trans ? cols : rows;
    e->cols = trans ? rows : cols;
    e->data = malloc((size_t)n * sizeof(float));
    if (e->data == NULL) {
        L->failed = 1;
        return;
    }
    L->n++;
    for (uint64_t r = 0; r < rows; r++)
        for (uint64_t c = 0; c < (cols ? cols : 1); c++) {
            float v = src[r * (cols ? cols : 1) + c];

            if (trans)
                e->data[c * rows + r] = v;
            else
                e->data[r * (cols ? cols : 1) + c] = v;
        }
}

/* Rows [r0, r0+n) of a weight as floats (caller frees), or NULL. */
static float *rows_of(const ie_weight *w, int r0, int n)
{
    float *p = malloc((size_t)n * (size_t)w->cols * sizeof(float));

    for (int r = 0; p != NULL && r < n; r++)
        ie_weight_row_f32(w, r0 + r, p + (size_t)r * (size_t)w->cols);
    return p;
}

/* Appends rows [r0, r0+n) of w. */
static void add_w(list *L, const char *name, const ie_weight *w, int r0, int n, int trans)
{
    float *p = rows_of(w, r0, n);

    add(L, name, (uint64_t)n, (uint64_t)w->cols, p, trans);
    free(p);
}

/* The tensors of m under HF (gguf 0) or llama.cpp (gguf 1) names. */
static void collect(const ie_model *m, int gguf, list *L)
{
    const ie_config *c = &m->cfg;
    int d = c->d_model, qh = c->n_heads * c->head_dim, kh = c->n_kv_heads * c->head_dim,
        ff = c->d_ff;
    char nm[96];

#define NAME(...) (snprintf(nm, sizeof(nm), __VA_ARGS__), nm)
    if (c->arch == IE_ARCH_GPT2) {
        add_w(L, gguf ? "token_embd.weight" : "wte.weight", &m->tok, 0, c->vocab, 0);
        add(L, gguf ? "position_embd.weight" : "wpe.weight", (uint64_t)c->max_pos, (uint64_t)d,
            m->pos, 0);
        add(L, gguf ? "output_norm.weight" : "ln_f.weight", (uint64_t)d, 0, m->fin_g, 0);
        add(L, gguf ? "output_norm.bias" : "ln_f.bias", (uint64_t)d, 0, m->fin_b, 0);
        for (int l = 0; l < c->n_layers; l++) {
            const ie_layer *y = &m->layers[l];
            int t = !gguf; /* HF Conv1D: [in, out] */

            add(L, gguf ? NAME("blk.%d.attn_norm.weight", l) : NAME("h.%d.ln_1.weight", l),
                (uint64_t)d, 0, y->n1_g, 0);
            add(L, gguf ? NAME("blk.%d.attn_norm.bias", l) : NAME("h.%d.ln_1.bias", l), (uint64_t)d,
                0, y->n1_b, 0);
            add_w(L, gguf ? NAME("blk.%d.attn_qkv.weight", l) : NAME("h.%d.attn.c_attn.weight", l),
                  &y->qkv, 0, y->qkv.rows, t);
            add(L, gguf ? NAME("blk.%d.attn_qkv.bias", l) : NAME("h.%d.attn.c_attn.bias", l),
                (uint64_t)y->qkv.rows, 0, y->b_qkv, 0);
            add_w(L,
                  gguf ? NAME("blk.%d.attn_output.weight", l) : NAME("h.%d.attn.c_proj.weight", l),
                  &y->o, 0, d, t);
            add(L, gguf ? NAME("blk.%d.attn_output.bias", l) : NAME("h.%d.attn.c_proj.bias", l),
                (uint64_t)d, 0, y->b_o, 0);
            add(L, gguf ? NAME("blk.%d.ffn_norm.weight", l) : NAME("h.%d.ln_2.weight", l),
                (uint64_t)d, 0, y->n2_g, 0);
            add(L, gguf ? NAME("blk.%d.ffn_norm.bias", l) : NAME("h.%d.ln_2.bias", l), (uint64_t)d,
                0, y->n2_b, 0);
            add_w(L, gguf ? NAME("blk.%d.ffn_up.weight", l) : NAME("h.%d.mlp.c_fc.weight", l),
                  &y->up, 0, ff, t);
            add(L, gguf ? NAME("blk.%d.ffn_up.bias", l) : NAME("h.%d.mlp.c_fc.bias", l),
                (uint64_t)ff, 0, y->b_up, 0);
            add_w(L, gguf ? NAME("blk.%d.ffn_down.weight", l) : NAME("h.%d.mlp.c_proj.weight", l),
                  &y->down, 0, d, t);
            add(L, gguf ? NAME("blk.%d.ffn_down.bias", l) : NAME("h.%d.mlp.c_proj.bias", l),
                (uint64_t)d, 0, y->b_down, 0);
        }
    } else if (c->arch == IE_ARCH_LLAMA) {
        add_w(L, gguf ? "token_embd.weight" : "model.embed_tokens.weight", &m->tok, 0, c->vocab, 0);
        add_w(L, gguf ? "output.weight" : "lm_head.weight", &m->head, 0, c->vocab, 0);
        add(L, gguf ? "output_norm.weight" : "model.norm.weight", (uint64_t)d, 0, m->fin_g, 0);
        for (int l = 0; l < c->n_layers; l++) {
            const ie_layer *y = &m->layers[l];
            const char *p = "model.layers";

            add(L,
                gguf ? NAME("blk.%d.attn_norm.weight", l)
                     : NAME("%s.%d.input_layernorm.weight", p, l),
                (uint64_t)d, 0, y->n1_g, 0);
            add_w(L,
                  gguf ? NAME("blk.%d.attn_q.weight", l)
                       : NAME("%s.%d.self_attn.q_proj.weight", p, l),
                  &y->qkv, 0, qh, 0);
            add_w(L,
                  gguf ? NAME("blk.%d.attn_k.weight", l)
                       : NAME("%s.%d.self_attn.k_proj.weight", p, l),
                  &y->qkv, qh, kh, 0);
            add_w(L,
                  gguf ? NAME("blk.%d.attn_v.weight", l)
                       : NAME("%s.%d.self_attn.v_proj.weight", p, l),
                  &y->qkv, qh + kh, kh, 0);
            add_w(L,
                  gguf ? NAME("blk.%d.attn_output.weight", l)
                       : NAME("%s.%d.self_attn.o_proj.weight", p, l),
                  &y->o, 0, d, 0);
            add(L,
                gguf ? NAME("blk.%d.ffn_norm.weight", l)
                     : NAME("%s.%d.post_attention_layernorm.weight", p, l),
                (uint64_t)d, 0, y->n2_g, 0);
            add_w(L,
                  gguf ? NAME("blk.%d.ffn_gate.weight", l)
                       : NAME("%s.%d.mlp.gate_proj.weight", p, l),
                  &y->up, 0, ff, 0);
            add_w(L,
                  gguf ? NAME("blk.%d.ffn_up.weight", l) : NAME("%s.%d.mlp.up_proj.weight", p, l),
                  &y->up, ff, ff, 0);
            add_w(L,
                  gguf ? NAME("blk.%d.ffn_down.weight", l)
                       : NAME("%s.%d.mlp.down_proj.weight", p, l),
                  &y->down, 0, d, 0);
        }
    } else {
        const char *e = "bert.embeddings";

        add_w(L, gguf ? "token_embd.weight" : "bert.embeddings.word_embeddings.weight", &m->tok, 0,
              c->vocab, 0);
        add(L, gguf ? "position_embd.weight" : NAME("%s.position_embeddings.weight", e),
            (uint64_t)c->max_pos, (uint64_t)d, m->pos, 0);
        add(L, gguf ? "token_types.weight" : NAME("%s.token_type_embeddings.weight", e),
            (uint64_t)c->type_vocab, (uint64_t)d, m->type, 0);
        /* old-style gamma/beta names on purpose */
        add(L, gguf ? "token_embd_norm.weight" : NAME("%s.LayerNorm.gamma", e), (uint64_t)d, 0,
            m->emb_g, 0);
        add(L, gguf ? "token_embd_norm.bias" : NAME("%s.LayerNorm.beta", e), (uint64_t)d, 0,
            m->emb_b, 0);
        for (int l = 0; l < c->n_layers; l++) {
            const ie_layer *y = &m->layers[l];
            const char *p = "bert.encoder.layer";
            static const char *const qkv[] = {"query", "key", "value"};
            static const char *const gq[] = {"q", "k", "v"};

            for (int k = 0; k < 3; k++) {
                add_w(L,
                      gguf ? NAME("blk.%d.attn_%s.weight", l, gq[k])
                           : NAME("%s.%d.attention.self.%s.weight", p, l, qkv[k]),
                      &y->qkv, k * qh, qh, 0);
                add(L,
                    gguf ? NAME("blk.%d.attn_%s.bias", l, gq[k])
                         : NAME("%s.%d.attention.self.%s.bias", p, l, qkv[k]),
                    (uint64_t)qh, 0, y->b_qkv + k * qh, 0);
            }
            add_w(L,
                  gguf ? NAME("blk.%d.attn_output.weight", l)
                       : NAME("%s.%d.attention.output.dense.weight", p, l),
                  &y->o, 0, d, 0);
            add(L,
                gguf ? NAME("blk.%d.attn_output.bias", l)
                     : NAME("%s.%d.attention.output.dense.bias", p, l),
                (uint64_t)d, 0, y->b_o, 0);
            add(L,
                gguf ? NAME("blk.%d.attn_output_norm.weight", l)
                     : NAME("%s.%d.attention.output.LayerNorm.weight", p, l),
                (uint64_t)d, 0, y->n1_g, 0);
            add(L,
                gguf ? NAME("blk.%d.attn_output_norm.bias", l)
                     : NAME("%s.%d.attention.output.LayerNorm.bias", p, l),
                (uint64_t)d, 0, y->n1_b, 0);
            add_w(L,
                  gguf ? NAME("blk.%d.ffn_up.weight", l)
                       : NAME("%s.%d.intermediate.dense.weight", p, l),
                  &y->up, 0, ff, 0);
            add(L,
                gguf ? NAME("blk.%d.ffn_up.bias", l) : NAME("%s.%d.intermediate.dense.bias", p, l),
                (uint64_t)ff, 0, y->b_up, 0);
            add_w(L,
                  gguf ? NAME("blk.%d.ffn_down.weight", l)
                       : NAME("%s.%d.output.dense.weight", p, l),
                  &y->down, 0, d, 0);
            add(L, gguf ? NAME("blk.%d.ffn_down.bias", l) : NAME("%s.%d.output.dense.bias", p, l),
                (uint64_t)d, 0, y->b_down, 0);
            add(L,
                gguf ? NAME("blk.%d.layer_output_norm.weight", l)
                     : NAME("%s.%d.output.LayerNorm.weight", p, l),
                (uint64_t)d, 0, y->n2_g, 0);
            add(L,
                gguf ? NAME("blk.%d.layer_output_norm.bias", l)
                     : NAME("%s.%d.output.LayerNorm.bias", p, l),
                (uint64_t)d, 0, y->n2_b, 0);
        }
    }
#undef NAME
}

/* f rounded to the nearest IEEE half (ties to even on the dropped bits). */
static uint16_t to_f16(float f)
{
    uint32_t u, sign, man;
    int exp;

    memcpy(&u, &f, 4);
    sign = (u >> 16) & 0x8000u;
    exp = (int)((u >> 23) & 0xff) - 127 + 15;
    man = u & 0x7fffffu;
    if (exp <= 0) { /* subnormal or zero */
        if (exp < -10)
            return (uint16_t)sign;
        man |= 0x800000u;
        return (uint16_t)(sign | ((man >> (14 - exp)) + ((man >> (13 - exp)) & 1u)));
    }
    if (exp >= 31)
        return (uint16_t)(sign | 0x7c00u);
    return (uint16_t)(sign | (uint32_t)(exp << 10) | (man >> 13)) + (uint16_t)((man >> 12) & 1u);
}

/* Bytes per element of "F32" (4) or "F16"/"BF16" (2). */
static size_t esize(const char *type)
{
    return strcmp(type, "F32") == 0 ? 4 : 2;
}

/* Writes e's elements as type, CHUNK at a time (write errors show in
 * ferror(f)). */
static void put_elems(FILE *f, const entry *e, const char *type)
{
    uint64_t n = e->rows * (e->cols ? e->cols : 1);
    uint16_t half[CHUNK];
    int f16 = strcmp(type, "F16") == 0;

    if (strcmp(type, "F32") == 0) {
        fwrite(e->data, sizeof(float), (size_t)n, f);
        return;
    }
    for (uint64_t i = 0; i < n; i += CHUNK) {
        size_t k = n - i < CHUNK ? (size_t)(n - i) : CHUNK;

        for (size_t j = 0; j < k; j++)
            half[j] = f16 ? to_f16(e->data[i + j]) : ie_f32_to_bf16(e->data[i + j]);
        fwrite(half, 2, k, f);
    }
}

/* Closes f: 0 when every write and the close succeeded, else -1. */
static int close_checked(FILE *f)
{
    int bad = ferror(f);

    return (fclose(f) != 0 || bad) ? -1 : 0;
}

/* The safetensors file: 8-byte header length, the JSON header, the data. */
static int write_st(const list *L, const char *path, const char *type)
{
    cJSON *root = cJSON_CreateObject(), *meta = cJSON_CreateObject();
    uint64_t off = 0, hl;
    char *json;
    FILE *f;

    cJSON_AddStringToObject(meta, "format", "pt");
    cJSON_AddItemToObject(root, "__metadata__", meta);
    for (int i = 0; i < L->n; i++) {
        const entry *e = &L->e[i];
        cJSON *t = cJSON_CreateObject(), *sh = cJSON_CreateArray(), *of = cJSON_CreateArray();
        uint64_t bytes = e->rows * (e->cols ? e->cols : 1) * esize(type);

        cJSON_AddStringToObject(t, "dtype", type);
        cJSON_AddItemToArray(sh, cJSON_CreateNumber((double)e->rows));
        if (e->cols)
            cJSON_AddItemToArray(sh, cJSON_CreateNumber((double)e->cols));
        cJSON_AddItemToObject(t, "shape", sh);
        cJSON_AddItemToArray(of, cJSON_CreateNumber((double)off));
        cJSON_AddItemToArray(of, cJSON_CreateNumber((double)(off + bytes)));
        cJSON_AddItemToObject(t, "data_offsets", of);
        cJSON_AddItemToObject(root, e->name, t);
        off += bytes;
    }
    json = cJSON_PrintUnformatted(root);
    cJSON_Delete(root);
    f = fopen(path, "wb");
    if (f == NULL || json == NULL) {
        free(json);
        if (f)
            fclose(f);
        return -1;
    }
    hl = strlen(json);
    fwrite(&hl, 8, 1, f);
    fwrite(json, 1, (size_t)hl, f);
    for (int i = 0; i < L->n; i++)
        put_elems(f, &L->e[i], type);
    free(json);
    return close_checked(f);
}

/* Little-endian scalars and GGUF strings and key-values (x86/arm64 are
 * little-endian, as GGUF and safetensors are). */
static void w_u32(FILE *f, uint32_t v)
{
    fwrite(&v, 4, 1, f);
}

static void w_u64(FILE *f, uint64_t v)
{
    fwrite(&v, 8, 1, f);
}

static void w_str(FILE *f, const char *s)
{
    w_u64(f, strlen(s));
    fwrite(s, 1, strlen(s), f);
}

static void w_kv_u32(FILE *f, const char *key, uint32_t v)
{
    w_str(f, key);
    w_u32(f, 4);
    w_u32(f, v);
}

/* The GGUF v3 file: header, the metadata the loader checks, the tensor
 * infos, then the data, 32-byte aligned. */
static int write_gguf(const ie_model *m, const list *L, const char *path, const char *type)
{
    static const char *const arch[] = {"", "bert", "gpt2", "llama"};
    const ie_config *c = &m->cfg;
    const char *a = arch[c->arch];
    uint32_t ggml = strcmp(type, "F32") == 0 ? 0 : strcmp(type, "F16") == 0 ? 1 : 30;
    FILE *f = fopen(path, "wb");
    uint64_t off = 0;
    char key[96];

    if (f == NULL)
        return -1;
    w_u32(f, 0x46554747u);
    w_u32(f, 3);
    w_u64(f, (uint64_t)L->n);
    w_u64(f, 7);
    w_str(f, "general.architecture");
    w_u32(f, 8);
    w_str(f, a);
    w_kv_u32(f, "general.alignment", 32);
    snprintf(key, sizeof(key), "%s.block_count", a);
    w_kv_u32(f, key, (uint32_t)c->n_layers);
    snprintf(key, sizeof(key), "%s.embedding_length", a);
    w_kv_u32(f, key, (uint32_t)c->d_model);
    snprintf(key, sizeof(key), "%s.feed_forward_length", a);
    w_kv_u32(f, key, (uint32_t)c->d_ff);
    snprintf(key, sizeof(key), "%s.attention.head_count", a);
    w_kv_u32(f, key, (uint32_t)c->n_heads);
    snprintf(key, sizeof(key), "%s.attention.head_count_kv", a);
    w_kv_u32(f, key, (uint32_t)c->n_kv_heads);
    for (int i = 0; i < L->n; i++) {
        const entry *e = &L->e[i];
        uint64_t bytes = e->rows * (e->cols ? e->cols : 1) * esize(type);

        w_str(f, e->name);
        w_u32(f, e->cols ? 2 : 1);
        if (e->cols)
            w_u64(f, e->cols); /* ne[0]: innermost */
        w_u64(f, e->rows);
        w_u32(f, ggml);
        w_u64(f, off);
        off += (bytes + 31) / 32 * 32;
    }
    while (ftell(f) % 32 != 0)
        fputc(0, f);
    for (int i = 0; i < L->n; i++) {
        put_elems(f, &L->e[i], type);
        while (ftell(f) % 32 != 0)
            fputc(0, f);
    }
    return close_checked(f);
}

int ie_model_write(const ie_model *m, const char *path, int gguf, const char *type)
{
    list L = {NULL, 0, 0, 0};
    int rc = -1;

    if (strcmp(type, "F32") != 0 && strcmp(type, "F16") != 0 && strcmp(type, "BF16") != 0)
        return -1;
    collect(m, gguf, &L);
    if (!L.failed)
        rc = gguf ? write_gguf(m, &L, path, type) : write_st(&L, path, type);
    for (int i = 0; i < L.n; i++)
        free(L.e[i].data);
    free(L.e);
    return rc;
}
