// SPDX-License-Identifier: MIT
/*
 * op_params.c -- the optimizer options of a case: choice lists of the
 * common parameters (op.h, BH_OPTIM_COMMON_PARAMS) and their reading into
 * a bh_optim_cfg. Sentinels: lr 0 and weight_decay -1 keep the optimizer's
 * PyTorch default.
 *
 * Contracts of the exported functions: op.h.
 */
#include "op.h"

#include <stdlib.h>
#include <string.h>

const char *const bh_optim_kind_choices[] = {
    "sgd", "adam", "adamw", "adagrad", "rmsprop", "lamb", "lion", NULL,
};
const char *const bh_optim_dtype_choices[] = {"f32", "bf16", "f16", NULL};
const char *const bh_optim_layout_choices[] = {
    "flat", "multi_tensor", "per_tensor", NULL,
};
const char *const bh_optim_model_choices[] = {
    "none", "bert-base", "gpt2", "llama-7b", NULL,
};
const char *const bh_optim_sched_choices[] = {
    "constant",      "step",          "multistep", "exponential",
    "cosine_restarts", "warmup_cosine", "warmup_linear", "onecycle",
    "polynomial",    NULL,
};
const char *const bh_optim_isa_choices[] = {
    "auto", "portable", "avx2", "avx512", NULL,
};

/* Reads the optimizer and its hyperparameters into cfg->hp. */
static bhost_status read_hparams(bhost_host *h, bh_optim_cfg *cfg)
{
    char name[16];
    double lr, wd, mom, damp, clip;
    int64_t nesterov, centered;
    int kind;
    bhost_status st = bh_plugin_str(h, BH_OPTIM_PREFIX, "optimizer", name, sizeof(name));

    if (st == BHOST_OK)
        st = bh_plugin_f64_in(h, BH_OPTIM_PREFIX, "lr", 0, 100, &lr);
    if (st == BHOST_OK)
        st = bh_plugin_f64_in(h, BH_OPTIM_PREFIX, "weight_decay", -1, 10, &wd);
    if (st == BHOST_OK)
        st = bh_plugin_f64_in(h, BH_OPTIM_PREFIX, "momentum", 0, 0.999999, &mom);
    if (st == BHOST_OK)
        st = bh_plugin_f64_in(h, BH_OPTIM_PREFIX, "dampening", 0, 1, &damp);
    if (st == BHOST_OK)
        st = bh_plugin_f64_in(h, BH_OPTIM_PREFIX, "max_grad_norm", 0, 1e30, &clip);
    if (st == BHOST_OK)
        st = bh_plugin_i64(h, BH_OPTIM_PREFIX, "nesterov", 0, 1, &nesterov);
    if (st == BHOST_OK)
        st = bh_plugin_i64(h, BH_OPTIM_PREFIX, "centered", 0, 1, &centered);
    if (st != BHOST_OK)
        return st;
    kind = opt_kind_from_name(name);
    if (kind < 0)
        return bh_optim_fail(h, BHOST_E_INVALID, "unknown optimizer '%s'", name);
    opt_hparams_default((opt_kind)kind, &cfg->hp);
    if (lr > 0)
        cfg->hp.lr = lr;
    if (wd >= 0)
        cfg->hp.weight_decay = wd;
    cfg->hp.momentum = mom;
    cfg->hp.dampening = damp;
    cfg->hp.nesterov = (int)nesterov;
    cfg->hp.centered = (int)centered;
    cfg->hp.max_grad_norm = clip;
    if (cfg->hp.nesterov && (mom <= 0 || damp != 0))
        return bh_optim_fail(h, BHOST_E_INVALID,
                             "nesterov needs momentum > 0 and dampening 0");
    return BHOST_OK;
}

/* Reads dtype, layout, model, sizes and accumulation. */
static bhost_status read_shape(bhost_host *h, bh_optim_cfg *cfg)
{
    char dtype[8], layout[16];
    int64_t params, tensors, acc, inter;
    bhost_status st = bh_plugin_str(h, BH_OPTIM_PREFIX, "dtype", dtype, sizeof(dtype));

    if (st == BHOST_OK)
        st = bh_plugin_i64(h, BH_OPTIM_PREFIX, "interleave", 0, 1, &inter);

    if (st == BHOST_OK)
        st = bh_plugin_str(h, BH_OPTIM_PREFIX, "layout", layout, sizeof(layout));
    if (st == BHOST_OK)
        st = bh_plugin_str(h, BH_OPTIM_PREFIX, "model", cfg->model, sizeof(cfg->model));
    if (st == BHOST_OK)
        st = bh_plugin_i64(h, BH_OPTIM_PREFIX, "params", 1, INT64_MAX, &params);
    if (st == BHOST_OK)
        st = bh_plugin_i64(h, BH_OPTIM_PREFIX, "tensors", 1, 100000000, &tensors);
    if (st == BHOST_OK)
        st = bh_plugin_i64(h, BH_OPTIM_PREFIX, "accumulation", 1, 1024, &acc);
    if (st == BHOST_OK)
        st = bh_plugin_f64_in(h, BH_OPTIM_PREFIX, "loss_scale", 1, 1e9, &cfg->loss_scale);
    if (st != BHOST_OK)
        return st;
    cfg->dtype = opt_dtype_from_name(dtype);
    if (cfg->dtype == 0)
        return bh_optim_fail(h, BHOST_E_INVALID, "unknown dtype '%s'", dtype);
    if (strcmp(cfg->model, "none") != 0 &&
        opt_model_tensors(cfg->model, NULL, 0) == 0)
        return bh_optim_fail(h, BHOST_E_INVALID, "unknown model '%s'", cfg->model);
    cfg->flat = strcmp(layout, "flat") == 0;
    cfg->interleave = (int)inter;
    cfg->path = strcmp(layout, "per_tensor") == 0 ? OPT_PATH_LOOP : OPT_PATH_MULTI;
    if (!cfg->flat && cfg->path == OPT_PATH_MULTI && strcmp(layout, "multi_tensor") != 0)
        return bh_optim_fail(h, BHOST_E_INVALID, "unknown layout '%s'", layout);
    if ((uint64_t)tensors > (uint64_t)params)
        return bh_optim_fail(h, BHOST_E_INVALID, "tensors=%lld > params=%lld",
                             (long long)tensors, (long long)params);
    cfg->params = (uint64_t)params;
    cfg->tensors = (uint64_t)tensors;
    cfg->accumulation = (int)acc;
    cfg->grad_dtype = acc > 1 ? OPT_F32 : cfg->dtype;
    if (cfg->dtype != OPT_F16)
        cfg->loss_scale = 1;
    else
        cfg->hp.skip_nonfinite = 1;
    return BHOST_OK;
}

/* Reads the schedule around the optimizer's lr. */
static bhost_status read_sched(bhost_host *h, bh_optim_cfg *cfg)
{
    char name[24];
    int64_t total;
    int kind;
    bhost_status st = bh_plugin_str(h, BH_OPTIM_PREFIX, "schedule", name, sizeof(name));

    if (st == BHOST_OK)
        st = bh_plugin_i64(h, BH_OPTIM_PREFIX, "total_steps", 16, INT64_MAX, &total);
    if (st != BHOST_OK)
        return st;
    kind = opt_sched_from_name(name);
    if (kind < 0)
        return bh_optim_fail(h, BHOST_E_INVALID, "unknown schedule '%s'", name);
    opt_sched_default((opt_sched_kind)kind, cfg->hp.lr, (uint64_t)total,
                      &cfg->sched);
    if (opt_sched_check(&cfg->sched) != OPT_OK)
        return bh_optim_fail(h, BHOST_E_INVALID, "schedule %s: bad settings", name);
    return BHOST_OK;
}

bhost_status bh_optim_cfg_read(bhost_host *h, bh_optim_cfg *cfg)
{
    bhost_status st;

    memset(cfg, 0, sizeof(*cfg));
    cfg->grad_div = 1;
    st = read_hparams(h, cfg);
    if (st == BHOST_OK)
        st = read_shape(h, cfg);
    if (st == BHOST_OK)
        st = read_sched(h, cfg);
    return st;
}

bhost_status bh_optim_cfg_tensors(bhost_host *h, const bh_optim_cfg *c, size_t **out,
                                  size_t *count)
{
    size_t n = strcmp(c->model, "none") == 0 ? (size_t)c->tensors
                                             : opt_model_tensors(c->model, NULL, 0);
    size_t *sizes = malloc(n * sizeof(size_t));

    if (sizes == NULL)
        return bh_optim_fail(h, BHOST_E_NOMEM, "out of memory (tensor list)");
    if (strcmp(c->model, "none") == 0) {
        for (size_t k = 0; k < n; k++)
            sizes[k] = (size_t)(c->params / n + (k < c->params % n ? 1 : 0));
    } else {
        opt_model_tensors(c->model, sizes, n);
    }
    *out = sizes;
    *count = n;
    return BHOST_OK;
}
