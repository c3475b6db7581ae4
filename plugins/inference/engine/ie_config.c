// SPDX-License-Identifier: MIT
/*
 * ie_config.c -- the named model presets (published shapes), config
 * checks, and parameter / FLOP counts derived from a shape.
 */
#include "ie_internal.h"

#include <stdio.h>
#include <string.h>

typedef struct preset {
    const char *name;
    int arch, layers, d, heads, kv_heads, ff, vocab, max_pos;
    float eps;
} preset;

/* Published shapes: BERT (Devlin et al. 2018), GPT-2 (HF gpt2,
 * gpt2-medium), LLaMA-2 7B/13B (Touvron et al. 2023). tiny-* are test
 * shapes with odd sizes (tails in every kernel) and GQA for tiny-llama. */
static const preset presets[] = {
    {"bert-base", IE_ARCH_BERT, 12, 768, 12, 12, 3072, 30522, 512, 1e-12f},
    {"bert-large", IE_ARCH_BERT, 24, 1024, 16, 16, 4096, 30522, 512, 1e-12f},
    {"gpt2", IE_ARCH_GPT2, 12, 768, 12, 12, 3072, 50257, 1024, 1e-5f},
    {"gpt2-medium", IE_ARCH_GPT2, 24, 1024, 16, 16, 4096, 50257, 1024, 1e-5f},
    {"llama-7b", IE_ARCH_LLAMA, 32, 4096, 32, 32, 11008, 32000, 4096, 1e-5f},
    {"llama-13b", IE_ARCH_LLAMA, 40, 5120, 40, 40, 13824, 32000, 4096, 1e-5f},
    {"tiny-bert", IE_ARCH_BERT, 2, 60, 3, 3, 200, 89, 256, 1e-12f},
    {"tiny-gpt2", IE_ARCH_GPT2, 2, 64, 4, 4, 256, 97, 256, 1e-5f},
    {"tiny-llama", IE_ARCH_LLAMA, 2, 64, 4, 2, 160, 101, 256, 1e-5f},
};

#define N_PRESETS (sizeof(presets) / sizeof(presets[0]))

static const char *const preset_names[N_PRESETS + 1] = {
    "bert-base", "bert-large", "gpt2",      "gpt2-medium", "llama-7b",
    "llama-13b", "tiny-bert",  "tiny-gpt2", "tiny-llama",  NULL,
};

const char *const *ie_preset_names(void)
{
    return preset_names;
}

int ie_preset(const char *name, ie_config *out)
{
    for (size_t i = 0; name != NULL && i < N_PRESETS; i++) {
        const preset *p = &presets[i];

        if (strcmp(p->name, name) != 0)
            continue;
        memset(out, 0, sizeof(*out));
        snprintf(out->name, sizeof(out->name), "%s", p->name);
        out->arch = p->arch;
        out->n_layers = out->n_layers_full = p->layers;
        out->d_model = p->d;
        out->n_heads = p->heads;
        out->n_kv_heads = p->kv_heads;
        out->head_dim = p->d / p->heads;
        out->d_ff = p->ff;
        out->vocab = p->vocab;
        out->max_pos = p->max_pos;
        out->type_vocab = p->arch == IE_ARCH_BERT ? 2 : 0;
        out->rope_style = IE_ROPE_HALF;
        out->tied = p->arch == IE_ARCH_GPT2;
        out->norm_eps = p->eps;
        out->rope_theta = 10000.0f;
        return IE_OK;
    }
    return IE_EINVAL;
}

int ie_config_check(const ie_config *c, char *err, size_t cap)
{
    const char *why = NULL;

    if (c->arch < IE_ARCH_BERT || c->arch > IE_ARCH_LLAMA)
        why = "unknown architecture";
    else if (c->n_layers < 1 || c->n_layers > 256)
        why = "layers must be in [1, 256]";
    else if (c->d_model < 8 || c->d_model > 65536 || c->n_heads < 1 ||
             c->d_model % c->n_heads != 0)
        why = "d_model must be a multiple of heads";
    else if (c->head_dim != c->d_model / c->n_heads || c->head_dim % 2 != 0)
        why = "head_dim must be d_model / heads and even";
    else if (c->n_kv_heads < 1 || c->n_heads % c->n_kv_heads != 0)
        why = "heads must be a multiple of kv_heads";
    else if (c->arch != IE_ARCH_LLAMA && c->n_kv_heads != c->n_heads)
        why = "grouped-query attention is LLaMA-only";
    else if (c->d_ff < 1 || c->d_ff > 1 << 20 || c->vocab < 2 ||
             c->vocab > 1 << 24 || c->max_pos < 2 || c->max_pos > 1 << 20)
        why = "d_ff, vocab or max_pos out of range";
    else if (c->arch == IE_ARCH_BERT && c->type_vocab < 1)
        why = "BERT needs token types";
    else if (!(c->norm_eps > 0.0f))
        why = "norm_eps must be > 0";
    if (why == NULL)
        return IE_OK;
    snprintf(err, cap, "model %s: %s", c->name, why);
    return IE_EINVAL;
}

void ie_config_counts(const ie_config *c, ie_counts *out)
{
    double d = c->d_model, ff = c->d_ff, hd = c->head_dim;
    double qkv = (c->n_heads + 2.0 * c->n_kv_heads) * hd;
    double att = c->n_heads * hd;

    memset(out, 0, sizeof(*out));
    if (c->arch == IE_ARCH_LLAMA) {
        out->params_matmul_layer = qkv * d + att * d + 3.0 * ff * d;
        out->params_layer = out->params_matmul_layer + 2.0 * d;
        out->params_embed = (double)c->vocab * d;
        out->params_head = (double)c->vocab * d;
        out->params_total = out->params_embed + out->params_head + d;
    } else {
        out->params_matmul_layer = qkv * d + att * d + 2.0 * ff * d;
        out->params_layer =
            out->params_matmul_layer + qkv + d + ff + d + 4.0 * d;
        out->params_embed = ((double)c->vocab + c->max_pos + c->type_vocab) * d;
        out->params_head = 0;
        out->params_total =
            out->params_embed + (c->arch == IE_ARCH_BERT ? 2.0 * d : 2.0 * d);
    }
    out->params_total += out->params_layer * c->n_layers;
    out->head_matmul = c->arch == IE_ARCH_BERT ? 0 : (double)c->vocab * d;
}

double ie_flops(const ie_config *c, double rows, double attended_keys,
                double head_rows)
{
    ie_counts n;
    double att = 4.0 * c->n_heads * c->head_dim * attended_keys;

    ie_config_counts(c, &n);
    return c->n_layers * (2.0 * rows * n.params_matmul_layer + att) +
           2.0 * head_rows * n.head_matmul;
}
