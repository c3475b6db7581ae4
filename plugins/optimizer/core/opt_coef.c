// SPDX-License-Identifier: MIT
/*
 * opt_coef.c -- what describes an optimizer without running it: names,
 * defaults, state slots, bytes per parameter, and the per-step
 * coefficients of the element kernels.
 *
 * Contracts of the exported functions: opt.h and opt_internal.h.
 */
#include "opt_internal.h"

#include <math.h>
#include <string.h>

static const char *const kind_names[OPT_KIND_COUNT] = {
    "sgd", "adam", "adamw", "adagrad", "rmsprop", "lamb", "lion",
};

const char *opt_kind_name(opt_kind kind)
{
    return (unsigned)kind < OPT_KIND_COUNT ? kind_names[kind] : NULL;
}

int opt_kind_from_name(const char *s)
{
    for (int i = 0; s != NULL && i < OPT_KIND_COUNT; i++)
        if (strcmp(s, kind_names[i]) == 0)
            return i;
    return -1;
}

opt_dtype opt_dtype_from_name(const char *s)
{
    if (s == NULL)
        return (opt_dtype)0;
    if (strcmp(s, "f32") == 0)
        return OPT_F32;
    if (strcmp(s, "bf16") == 0)
        return OPT_BF16;
    if (strcmp(s, "f16") == 0)
        return OPT_F16;
    return (opt_dtype)0;
}

size_t opt_dtype_size(opt_dtype t)
{
    return t == OPT_F32 ? 4 : t == OPT_BF16 || t == OPT_F16 ? 2 : 0;
}

void opt_hparams_default(opt_kind kind, opt_hparams *hp)
{
    memset(hp, 0, sizeof(*hp));
    hp->kind = kind;
    hp->lr = 1e-3;
    hp->beta1 = 0.9;
    hp->beta2 = 0.999;
    hp->eps = 1e-8;
    hp->alpha = 0.99;
    switch (kind) {
    case OPT_ADAMW:
        hp->weight_decay = 1e-2;
        break;
    case OPT_ADAGRAD:
        hp->lr = 1e-2;
        hp->eps = 1e-10;
        break;
    case OPT_RMSPROP:
        hp->lr = 1e-2;
        break;
    case OPT_LAMB:
        hp->eps = 1e-6;
        hp->weight_decay = 1e-2;
        break;
    case OPT_LION:
        hp->lr = 1e-4;
        hp->beta2 = 0.99;
        break;
    default:
        break;
    }
}

int opt_state_slots(const opt_hparams *hp, int used[3])
{
    int u[3] = {0, 0, 0};

    switch (hp->kind) {
    case OPT_SGD:
        u[0] = hp->momentum != 0;
        break;
    case OPT_ADAM:
    case OPT_ADAMW:
    case OPT_LAMB:
        u[0] = u[1] = 1;
        break;
    case OPT_ADAGRAD:
    case OPT_LION:
        u[0] = 1;
        break;
    case OPT_RMSPROP:
        u[0] = 1;
        u[1] = hp->momentum > 0;
        u[2] = hp->centered != 0;
        break;
    default:
        break;
    }
    if (used != NULL)
        memcpy(used, u, sizeof(u));
    return u[0] + u[1] + u[2];
}

double opt_state_init(const opt_hparams *hp, int slot)
{
    return hp->kind == OPT_ADAGRAD && slot == 0 ? hp->initial_accumulator : 0.0;
}

double opt_state_bytes_per_param(const opt_hparams *hp, opt_dtype param_dtype)
{
    return 4.0 * opt_state_slots(hp, NULL) + (param_dtype == OPT_F32 ? 0 : 4);
}

double opt_traffic_bytes_per_param(const opt_hparams *hp, opt_dtype param_dtype,
                                   opt_dtype grad_dtype)
{
    double g = (double)opt_dtype_size(grad_dtype);
    double b = g + 8.0 + 8.0 * opt_state_slots(hp, NULL);

    if (param_dtype != OPT_F32)
        b += (double)opt_dtype_size(param_dtype);
    if (hp->max_grad_norm > 0 || hp->skip_nonfinite)
        b += g;
    if (hp->kind == OPT_LAMB) /* pass 2 re-reads p, m and v */
        b += 12.0;
    return b;
}

void opt_coef_make(const opt_hparams *hp, uint64_t t, double lr, double gscale,
                   opt_coef *c)
{
    double bc1 = 1.0 - pow(hp->beta1, (double)t);
    double bc2 = 1.0 - pow(hp->beta2, (double)t);

    memset(c, 0, sizeof(*c));
    c->gscale = (float)gscale;
    c->lr = (float)lr;
    c->decay = 1.0f;
    c->eps = (float)hp->eps;
    switch (hp->kind) {
    case OPT_SGD:
        c->l2 = (float)hp->weight_decay;
        c->b1 = (float)hp->momentum;
        c->omb1 = (float)(1.0 - hp->dampening);
        c->momentum = hp->momentum != 0;
        c->first = t == 1;
        c->nesterov = hp->nesterov != 0;
        break;
    case OPT_ADAM:
    case OPT_ADAMW:
        if (hp->kind == OPT_ADAM)
            c->l2 = (float)hp->weight_decay;
        else
            c->decay = (float)(1.0 - lr * hp->weight_decay);
        c->b1 = (float)hp->beta1;
        c->omb1 = (float)(1.0 - hp->beta1);
        c->b2 = (float)hp->beta2;
        c->omb2 = (float)(1.0 - hp->beta2);
        c->step_size = (float)(lr / bc1);
        c->rsqrt_bc2 = (float)(1.0 / sqrt(bc2));
        break;
    case OPT_ADAGRAD:
        c->l2 = (float)hp->weight_decay;
        c->step_size = (float)(lr / (1.0 + (double)(t - 1) * hp->lr_decay));
        break;
    case OPT_RMSPROP:
        c->l2 = (float)hp->weight_decay;
        c->b1 = (float)hp->momentum;
        c->b2 = (float)hp->alpha;
        c->omb2 = (float)(1.0 - hp->alpha);
        c->momentum = hp->momentum > 0;
        c->centered = hp->centered != 0;
        break;
    case OPT_LAMB:
        c->b1 = (float)hp->beta1;
        c->omb1 = (float)(1.0 - hp->beta1);
        c->b2 = (float)hp->beta2;
        c->omb2 = (float)(1.0 - hp->beta2);
        c->inv_bc1 = (float)(1.0 / bc1);
        c->rsqrt_bc2 = (float)(1.0 / sqrt(bc2));
        c->wd = (float)hp->weight_decay;
        c->ratio = (float)lr;
        break;
    case OPT_LION:
        c->b1 = (float)hp->beta1;
        c->omb1 = (float)(1.0 - hp->beta1);
        c->b2 = (float)hp->beta2;
        c->omb2 = (float)(1.0 - hp->beta2);
        c->decay = (float)(1.0 - lr * hp->weight_decay);
        break;
    default:
        break;
    }
}
