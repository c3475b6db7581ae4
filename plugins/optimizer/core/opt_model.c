// SPDX-License-Identifier: MIT
/*
 * opt_model.c -- the parameter tensors of published models, generated from
 * their architecture hyperparameters (Hugging Face configs) in module
 * order, so that the multi-tensor path sees the real mix of large matrices
 * and small biases and norms.
 *
 * Contracts of the exported functions: opt.h.
 */
#include "opt.h"

#include <string.h>

/* Appends size to sizes (when there is room) and counts it. */
static void put(size_t *sizes, size_t cap, size_t *n, size_t size)
{
    if (sizes != NULL && *n < cap)
        sizes[*n] = size;
    (*n)++;
}

/* bert-base-uncased: vocab 30522, 512 positions, 2 token types, hidden
 * 768, 12 layers, intermediate 3072, with the pooler: 109,482,240. */
static size_t bert_base(size_t *s, size_t cap)
{
    const size_t h = 768, ff = 3072;
    size_t n = 0;

    put(s, cap, &n, 30522 * h);
    put(s, cap, &n, 512 * h);
    put(s, cap, &n, 2 * h);
    put(s, cap, &n, h); /* embeddings LayerNorm weight, bias */
    put(s, cap, &n, h);
    for (int l = 0; l < 12; l++) {
        for (int q = 0; q < 4; q++) { /* query, key, value, output dense */
            put(s, cap, &n, h * h);
            put(s, cap, &n, h);
        }
        put(s, cap, &n, h); /* attention output LayerNorm */
        put(s, cap, &n, h);
        put(s, cap, &n, h * ff); /* intermediate */
        put(s, cap, &n, ff);
        put(s, cap, &n, ff * h); /* output */
        put(s, cap, &n, h);
        put(s, cap, &n, h); /* output LayerNorm */
        put(s, cap, &n, h);
    }
    put(s, cap, &n, h * h); /* pooler */
    put(s, cap, &n, h);
    return n;
}

/* gpt2 (small): vocab 50257, 1024 positions, 768 wide, 12 layers, lm_head
 * tied to wte: 124,439,808. */
static size_t gpt2(size_t *s, size_t cap)
{
    const size_t h = 768;
    size_t n = 0;

    put(s, cap, &n, 50257 * h);
    put(s, cap, &n, 1024 * h);
    for (int l = 0; l < 12; l++) {
        put(s, cap, &n, h); /* ln_1 */
        put(s, cap, &n, h);
        put(s, cap, &n, h * 3 * h); /* c_attn */
        put(s, cap, &n, 3 * h);
        put(s, cap, &n, h * h); /* attn c_proj */
        put(s, cap, &n, h);
        put(s, cap, &n, h); /* ln_2 */
        put(s, cap, &n, h);
        put(s, cap, &n, h * 4 * h); /* c_fc */
        put(s, cap, &n, 4 * h);
        put(s, cap, &n, 4 * h * h); /* mlp c_proj */
        put(s, cap, &n, h);
    }
    put(s, cap, &n, h); /* ln_f */
    put(s, cap, &n, h);
    return n;
}

/* llama-7b: vocab 32000, hidden 4096, 32 layers, intermediate 11008,
 * RMSNorm weights only, untied lm_head: 6,738,415,616. */
static size_t llama_7b(size_t *s, size_t cap)
{
    const size_t h = 4096, ff = 11008;
    size_t n = 0;

    put(s, cap, &n, 32000 * h);
    for (int l = 0; l < 32; l++) {
        for (int q = 0; q < 4; q++) /* q, k, v, o */
            put(s, cap, &n, h * h);
        for (int q = 0; q < 3; q++) /* gate, up, down */
            put(s, cap, &n, h * ff);
        put(s, cap, &n, h); /* input_layernorm */
        put(s, cap, &n, h); /* post_attention_layernorm */
    }
    put(s, cap, &n, h);         /* norm */
    put(s, cap, &n, 32000 * h); /* lm_head */
    return n;
}

size_t opt_model_tensors(const char *name, size_t *sizes, size_t cap)
{
    if (name == NULL)
        return 0;
    if (strcmp(name, "bert-base") == 0)
        return bert_base(sizes, cap);
    if (strcmp(name, "gpt2") == 0)
        return gpt2(sizes, cap);
    if (strcmp(name, "llama-7b") == 0)
        return llama_7b(sizes, cap);
    return 0;
}

uint64_t opt_model_params(const char *name)
{
    size_t sizes[512];
    size_t n = opt_model_tensors(name, sizes, 512);
    uint64_t total = 0;

    if (n > 512)
        return 0;
    for (size_t i = 0; i < n; i++)
        total += sizes[i];
    return total;
}
