// SPDX-License-Identifier: MIT
/*
 * mem_trace_gen.c -- the decode and optimizer trace generators
 * (mem_trace.h): the shapes come from the inference engine's presets and
 * the optimizer core's model layouts, the order from an eager framework.
 */
#include "mem_trace_build.h"

#include "ie.h"
#include "opt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define F32         4u /* bytes per element: every tensor is f32 */
#define MAX_LAYERS  128
#define MAX_TENSORS 1024

/* out = op(in): allocates out, frees in; returns out's slot. */
static uint32_t step_op(mem_trace *t, uint32_t in, uint64_t elems)
{
    uint32_t out = mem_tb_alloc(t, elems * F32);

    mem_tb_free(t, in);
    return out;
}

/* x + f(x): the residual branch from h = norm(x) through `width`-wide
 * intermediates back to d; frees x and returns the sum's slot. */
static uint32_t mlp_block(mem_trace *t, const ie_config *c, uint32_t x)
{
    uint64_t d = (uint64_t)c->d_model, ff = (uint64_t)c->d_ff;
    uint32_t h = mem_tb_alloc(t, d * F32), y, sum;

    if (c->arch == IE_ARCH_LLAMA) { /* down(silu(gate(h)) * up(h)) */
        uint32_t gate = mem_tb_alloc(t, ff * F32), up = mem_tb_alloc(t, ff * F32);
        uint32_t act = step_op(t, gate, ff), prod = mem_tb_alloc(t, ff * F32);

        mem_tb_free(t, act);
        mem_tb_free(t, up);
        y = step_op(t, prod, d);
    } else { /* proj(gelu(fc(h))) */
        uint32_t fc = mem_tb_alloc(t, ff * F32);

        y = step_op(t, step_op(t, fc, ff), d);
    }
    mem_tb_free(t, h);
    sum = mem_tb_alloc(t, d * F32);
    mem_tb_free(t, x);
    mem_tb_free(t, y);
    return sum;
}

/* One layer of one decode step at ctx cached tokens: norm, qkv, the K and
 * V caches grown by one row (concatenation), scores, softmax, attention
 * output, projection, residual, then the MLP block. Returns x's new slot. */
static uint32_t attn_layer(mem_trace *t, const ie_config *c, uint32_t x, uint32_t kv[2],
                           uint64_t ctx)
{
    uint64_t d = (uint64_t)c->d_model, hd = (uint64_t)c->head_dim;
    uint64_t kvw = (uint64_t)c->n_kv_heads * hd, heads = (uint64_t)c->n_heads;
    uint32_t h = mem_tb_alloc(t, d * F32);
    uint32_t qkv = mem_tb_alloc(t, (d + 2 * kvw) * F32), probs, att, proj, sum;

    mem_tb_free(t, h);
    for (int i = 0; i < 2; i++)
        kv[i] = step_op(t, kv[i], (ctx + 1) * kvw);
    probs = step_op(t, mem_tb_alloc(t, heads * (ctx + 1) * F32), heads * (ctx + 1));
    att = mem_tb_alloc(t, d * F32);
    mem_tb_free(t, probs);
    mem_tb_free(t, qkv);
    proj = step_op(t, att, d);
    sum = mem_tb_alloc(t, d * F32);
    mem_tb_free(t, x);
    mem_tb_free(t, proj);
    return mlp_block(t, c, sum);
}

int mem_trace_decode(mem_trace *t, const char *model, int context, int steps, char *err, size_t cap)
{
    ie_config c;
    uint32_t kv[MAX_LAYERS][2];
    uint64_t kvw;

    memset(t, 0, sizeof(*t));
    if (ie_preset(model, &c) != IE_OK || c.arch == IE_ARCH_BERT || c.n_layers > MAX_LAYERS) {
        snprintf(err, cap, "model '%s' is not a decoder preset of the inference engine", model);
        return -1;
    }
    kvw = (uint64_t)c.n_kv_heads * (uint64_t)c.head_dim;
    for (int l = 0; l < c.n_layers; l++)
        for (int i = 0; i < 2; i++)
            kv[l][i] = mem_tb_alloc(t, (uint64_t)(context > 0 ? context : 1) * kvw * F32);
    for (int s = 0; s < steps; s++) {
        uint64_t ctx = (uint64_t)context + (uint64_t)s;
        uint32_t x = mem_tb_alloc(t, (uint64_t)c.d_model * F32), logits;

        for (int l = 0; l < c.n_layers; l++)
            x = attn_layer(t, &c, x, kv[l], ctx);
        logits = step_op(t, step_op(t, x, (uint64_t)c.d_model), (uint64_t)c.vocab);
        mem_tb_free(t, step_op(t, logits, (uint64_t)c.vocab));
    }
    for (int l = 0; l < c.n_layers; l++)
        for (int i = 0; i < 2; i++)
            mem_tb_free(t, kv[l][i]);
    return mem_tb_done(t, err, cap);
}

/* One Adam step over n tensors: gradients in reverse order, then per
 * tensor the lazily created m and v (first step) and the denominator
 * temporaries; finally zero_grad. */
static void adam_step(mem_trace *t, const uint64_t *bytes, size_t n, uint32_t *grad,
                      uint32_t (*state)[2], int first)
{
    for (size_t k = n; k-- > 0;)
        grad[k] = mem_tb_alloc(t, bytes[k]);
    for (size_t k = 0; k < n; k++) {
        uint32_t sq;

        if (first) {
            state[k][0] = mem_tb_alloc(t, bytes[k]);
            state[k][1] = mem_tb_alloc(t, bytes[k]);
        }
        sq = mem_tb_alloc(t, bytes[k]);                 /* exp_avg_sq.sqrt() */
        mem_tb_free(t, step_op(t, sq, bytes[k] / F32)); /* / bias_correction2_sqrt */
    }
    for (size_t k = 0; k < n; k++)
        mem_tb_free(t, grad[k]);
}

int mem_trace_optimizer(mem_trace *t, const char *model, int steps, int scale, char *err,
                        size_t cap)
{
    size_t sizes[MAX_TENSORS], n = opt_model_tensors(model, sizes, MAX_TENSORS);
    uint64_t *bytes = NULL;
    uint32_t *param = NULL, *grad = NULL, (*state)[2] = NULL;

    memset(t, 0, sizeof(*t));
    if (n == 0 || n > MAX_TENSORS || scale < 1) {
        snprintf(err, cap, "model '%s' is not a layout of the optimizer core", model);
        return -1;
    }
    bytes = malloc(n * sizeof(*bytes));
    param = malloc(n * sizeof(*param));
    grad = malloc(n * sizeof(*grad));
    state = malloc(n * sizeof(*state));
    if (bytes != NULL && param != NULL && grad != NULL && state != NULL) {
        for (size_t k = 0; k < n; k++) {
            size_t e = sizes[k] / (size_t)scale;

            bytes[k] = (e ? e : 1) * F32;
            param[k] = mem_tb_alloc(t, bytes[k]);
        }
        for (int s = 0; s < steps; s++)
            adam_step(t, bytes, n, grad, state, s == 0);
        for (size_t k = 0; k < n && steps > 0; k++) {
            mem_tb_free(t, state[k][0]);
            mem_tb_free(t, state[k][1]);
        }
        for (size_t k = 0; k < n; k++)
            mem_tb_free(t, param[k]);
    } else {
        t->failed = 1;
    }
    free(bytes);
    free(param);
    free(grad);
    free(state);
    return mem_tb_done(t, err, cap);
}
