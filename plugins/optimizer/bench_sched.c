// SPDX-License-Identifier: MIT
/*
 * bench_sched.c -- schedule: the per-step cost of a learning-rate
 * scheduler (one opt_sched_step per iteration), restarted every
 * total_steps steps so that a long timing loop stays inside one training
 * run; verify() holds the running rate to the closed form.
 *
 * Counting: items_per_iter = 1 scheduler step; no bytes or FLOPs (a few
 * scalar operations). Work profile: nothing a ceiling measures, 1 thread.
 */
#include "op.h"

#include <math.h>
#include <stdlib.h>

typedef struct sched_inst {
    bhost_host *h;
    opt_sched_cfg cfg;
    opt_sched s;
    double sink;
} sched_inst;

static const bhost_param_desc sched_params[] = {
    BH_OPTIM_P(BHOST_PARAM_STR, "schedule", "Learning-rate schedule",
               "warmup_cosine", 1, 0, bh_optim_sched_choices),
    BH_OPTIM_P(BHOST_PARAM_I64, "total_steps", "Schedule horizon", "10000", 16,
               BH_OPTIM_I64_MAX, NULL),
    BH_OPTIM_P(BHOST_PARAM_F64, "lr", "Base (or maximum) learning rate",
               "0.001", 0, 100, NULL),
};

/* Reads the schedule. [instance] */
static bhost_status BHOST_ABI sched_create(bhost_host *h, const bhost_backend *be,
                                           bhost_dev *dev, void **inst)
{
    char name[24];
    int64_t total;
    double lr;
    int kind;
    sched_inst *x;
    bhost_status st = bh_plugin_str(h, BH_OPTIM_PREFIX, "schedule", name, sizeof(name));

    (void)be;
    (void)dev;
    if (st == BHOST_OK)
        st = bh_plugin_i64(h, BH_OPTIM_PREFIX, "total_steps", 16, INT64_MAX, &total);
    if (st == BHOST_OK)
        st = bh_plugin_f64_in(h, BH_OPTIM_PREFIX, "lr", 0, 100, &lr);
    if (st != BHOST_OK)
        return st;
    kind = opt_sched_from_name(name);
    if (kind < 0)
        return bh_optim_fail(h, BHOST_E_INVALID, "unknown schedule '%s'", name);
    x = calloc(1, sizeof(*x));
    if (x == NULL)
        return bh_optim_fail(h, BHOST_E_NOMEM, "out of memory");
    x->h = h;
    opt_sched_default((opt_sched_kind)kind, lr, (uint64_t)total, &x->cfg);
    if (opt_sched_check(&x->cfg) != OPT_OK) {
        free(x);
        return bh_optim_fail(h, BHOST_E_INVALID, "schedule %s: bad settings", name);
    }
    opt_sched_init(&x->s, &x->cfg);
    *inst = x;
    return BHOST_OK;
}

/* Nothing to prepare. [instance] */
static bhost_status BHOST_ABI sched_setup(void *inst, bhost_stream *s)
{
    (void)inst;
    (void)s;
    return BHOST_OK;
}

/* iterations scheduler steps. [instance] */
static bhost_status BHOST_ABI sched_run(void *inst, bhost_stream *strm,
                                        uint64_t iterations)
{
    sched_inst *x = inst;

    (void)strm;
    for (uint64_t i = 0; i < iterations; i++) {
        if (x->s.t >= x->cfg.total)
            opt_sched_init(&x->s, &x->cfg);
        x->sink = opt_sched_step(&x->s);
        bhost_do_not_optimize(&x->sink);
    }
    return BHOST_OK;
}

/* The running rate against the closed form at the current step (relative
 * 1e-9). [instance] */
static bhost_status BHOST_ABI sched_verify(void *inst)
{
    sched_inst *x = inst;
    double want = opt_sched_closed(&x->cfg, x->s.t);

    if (!(fabs(x->s.lr - want) <= 1e-9 * fabs(want) + 1e-15 * x->cfg.base_lr))
        return bh_optim_fail(x->h, BHOST_E_VERIFY,
                             "%s step %llu: lr %.17g, closed form %.17g",
                             opt_sched_name(x->cfg.kind),
                             (unsigned long long)x->s.t, x->s.lr, want);
    bh_plugin_metric_info(x->h, "lr", "", x->s.lr);
    return BHOST_OK;
}

/* Frees the instance. [instance] */
static void BHOST_ABI sched_destroy(void *inst)
{
    free(inst);
}

/* One scheduler step per iteration. */
static double BHOST_ABI sched_items(void *inst)
{
    (void)inst;
    return 1.0;
}

/* No memory stream, no compute class, one thread. [instance] */
static bhost_status BHOST_ABI sched_profile(void *inst, bhost_work_profile *out)
{
    (void)inst;
    return bh_plugin_profile(out, BHOST_ACCESS_UNKNOWN, BHOST_COMPUTE_NONE, 1, 0);
}

const bhost_bench_desc bh_optim_schedule = {
    .struct_size = sizeof(bhost_bench_desc),
    .id = "schedule",
    .summary = "Per-step cost of a learning-rate scheduler, checked against "
               "its closed form",
    .params = sched_params,
    .param_count = 3,
    .create = sched_create,
    .setup = sched_setup,
    .run = sched_run,
    .verify = sched_verify,
    .destroy = sched_destroy,
    .items_per_iter = sched_items,
    .work_profile = sched_profile,
};
