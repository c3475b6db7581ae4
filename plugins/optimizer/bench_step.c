// SPDX-License-Identifier: MIT
/*
 * bench_step.c -- step and zero: one fused optimizer step per iteration
 * over a parameter set (a flat buffer, a list of equal tensors, or a
 * published model's tensors), and the ZeRO view of the same step: the
 * local shard of one rank at stage 0-3 with its modelled per-rank memory
 * and communication volumes.
 *
 * Sharding: a set that would not fit in max_memory_mb (parameters x bytes
 * per parameter) runs as rank 'rank' of the smallest power-of-two number
 * of ranks that fits (step, ranks = 0), or of 'ranks' when given; the
 * shard is the rank's contiguous slice of the flat parameter space (ZeRO's
 * partition), cut into the model tensors it crosses. The metrics say what
 * actually ran: params_updated, shard_ranks, rank_memory_bytes.
 *
 * Counting: items_per_iter = parameters updated; bytes_per_iter as op.h
 * (each stream read once and written once); no FLOPs. Work profile:
 * read-write, f32 (mixed precision keeps f32 master weights and state),
 * the pool's threads, working set every array the set allocated (master,
 * grads, states, copies, micro-batch gradients).
 */
#include "op.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct step_inst {
    bhost_host *h;
    bh_optim_cfg cfg;
    int zero;            /* the zero benchmark */
    unsigned threads;
    unsigned ranks, rank, stage;
    int reserved;
    opt_pool *pool;
    size_t *sizes;       /* the tensors this rank runs */
    size_t count;
    uint64_t model_params, run_params;
    double max_bytes;
    opt_zero_plan plan;
    opt_sched sched;
    bh_optim_set set;
    bh_optim_check check;
    int have_set, have_check;
} step_inst;

static const bhost_param_desc step_params[] = {
    BH_OPTIM_COMMON_PARAMS,
    BH_OPTIM_P(BHOST_PARAM_I64, "ranks", "Shard over this many ranks; 0 = "
               "only when the set exceeds max_memory_mb", "0", 0, 65536, NULL),
    BH_OPTIM_P(BHOST_PARAM_I64, "rank", "The rank whose shard runs", "0", 0,
               65535, NULL),
    BH_OPTIM_P(BHOST_PARAM_I64, "max_memory_mb", "Memory the case may use",
               "8192", 1, 1 << 24, NULL),
};

static const bhost_param_desc zero_params[] = {
    BH_OPTIM_COMMON_PARAMS,
    BH_OPTIM_P(BHOST_PARAM_I64, "ranks", "Data-parallel ranks", "8", 1, 65536,
               NULL),
    BH_OPTIM_P(BHOST_PARAM_I64, "rank", "The rank whose shard runs", "0", 0,
               65535, NULL),
    BH_OPTIM_P(BHOST_PARAM_I64, "max_memory_mb", "Memory the case may use",
               "8192", 1, 1 << 24, NULL),
    BH_OPTIM_P(BHOST_PARAM_I64, "stage", "ZeRO stage: 0 (plain data "
               "parallel), 1 (optimizer state), 2 (+ gradients), 3 (+ "
               "parameters)", "1", 0, 3, NULL),
};

static void BHOST_ABI step_destroy(void *inst);

/* The full tensor list of the case (op_params.c). */
static bhost_status full_sizes(step_inst *s, size_t **out, size_t *count)
{
    return bh_optim_cfg_tensors(s->h, &s->cfg, out, count);
}

/* Smallest power of two r with need / r <= cap. */
static unsigned fit_ranks(double need, double cap)
{
    unsigned r = 1;

    while (need / r > cap && r < 65536)
        r *= 2;
    return r;
}

/* Chooses ranks (step) or builds the ZeRO plan (zero), then cuts this
 * rank's tensors out of the full list. */
static bhost_status plan_shard(step_inst *s, const size_t *full, size_t n)
{
    const bh_optim_cfg *c = &s->cfg;
    double per = bh_optim_set_bytes_per_param(c);
    double ds = (double)opt_dtype_size(c->dtype);
    uint64_t b = 0, e = s->model_params;
    unsigned stage = s->zero ? s->stage : 1;

    if (!s->zero && s->ranks == 0)
        s->ranks = fit_ranks(per * (double)s->model_params, s->max_bytes);
    if (s->rank >= s->ranks)
        return bh_optim_fail(s->h, BHOST_E_INVALID, "rank %u >= ranks %u", s->rank,
                             s->ranks);
    if (opt_zero_plan_make(stage, s->ranks, s->model_params, ds, ds,
                           opt_state_bytes_per_param(&c->hp, c->dtype), 16,
                           &s->plan) != OPT_OK)
        return bh_optim_fail(s->h, BHOST_E_INVALID, "bad ZeRO plan");
    if (stage > 0)
        opt_zero_range(&s->plan, s->rank, &b, &e);
    if (e <= b)
        return bh_optim_fail(s->h, BHOST_E_SKIP, "rank %u holds no parameters",
                             s->rank);
    s->run_params = e - b;
    if (c->flat) {
        s->count = 1;
        s->sizes = malloc(sizeof(size_t));
        if (s->sizes != NULL)
            s->sizes[0] = (size_t)(e - b);
    } else {
        s->count = opt_zero_cut(full, n, b, e, NULL, 0);
        s->sizes = malloc(s->count * sizeof(size_t));
        if (s->sizes != NULL)
            opt_zero_cut(full, n, b, e, s->sizes, s->count);
    }
    if (s->sizes == NULL)
        return bh_optim_fail(s->h, BHOST_E_NOMEM, "out of memory (shard list)");
    if (per * (double)s->run_params > s->max_bytes)
        return bh_optim_fail(s->h, BHOST_E_SKIP,
                             "%s needs %.2f GB per rank (%llu parameters x %.0f "
                             "B) > max_memory_mb",
                             s->zero && stage == 0 ? "stage 0 (full replica)"
                                                   : "the shard",
                             per * (double)s->run_params / 1e9,
                             (unsigned long long)s->run_params, per);
    return BHOST_OK;
}

/* Reads the parameters and plans the shard; allocates nothing big. */
static bhost_status create_common(bhost_host *h, int zero, void **out)
{
    step_inst *s = calloc(1, sizeof(*s));
    int64_t ranks, rank, mb, stage = 0;
    size_t *full = NULL, n = 0;
    bhost_status st;

    if (s == NULL)
        return bh_optim_fail(h, BHOST_E_NOMEM, "out of memory");
    s->h = h;
    s->zero = zero;
    st = bh_optim_cfg_read(h, &s->cfg);
    if (st == BHOST_OK)
        st = bh_optim_threads_isa(h, &s->threads);
    if (st == BHOST_OK)
        st = bh_plugin_i64(h, BH_OPTIM_PREFIX, "ranks", zero ? 1 : 0, 65536, &ranks);
    if (st == BHOST_OK)
        st = bh_plugin_i64(h, BH_OPTIM_PREFIX, "rank", 0, 65535, &rank);
    if (st == BHOST_OK)
        st = bh_plugin_i64(h, BH_OPTIM_PREFIX, "max_memory_mb", 1, 1 << 24, &mb);
    if (st == BHOST_OK && zero)
        st = bh_plugin_i64(h, BH_OPTIM_PREFIX, "stage", 0, 3, &stage);
    if (st == BHOST_OK)
        st = full_sizes(s, &full, &n);
    if (st == BHOST_OK) {
        for (size_t k = 0; k < n; k++)
            s->model_params += full[k];
        s->ranks = (unsigned)ranks;
        s->rank = (unsigned)rank;
        s->stage = (unsigned)stage;
        s->max_bytes = (double)mb * 1048576.0;
        st = plan_shard(s, full, n);
    }
    free(full);
    if (st != BHOST_OK) {
        step_destroy(s);
        return st;
    }
    *out = s;
    return BHOST_OK;
}

/* [instance] */
static bhost_status BHOST_ABI step_create(bhost_host *h, const bhost_backend *be,
                                          bhost_dev *dev, void **inst)
{
    (void)be;
    (void)dev;
    return create_common(h, 0, inst);
}

/* [instance] */
static bhost_status BHOST_ABI zero_create(bhost_host *h, const bhost_backend *be,
                                          bhost_dev *dev, void **inst)
{
    (void)be;
    (void)dev;
    return create_common(h, 1, inst);
}

/* The metrics of what runs: counts, bytes per parameter, memory, and for
 * zero the plan. */
static void report(const step_inst *s)
{
    const bh_optim_cfg *c = &s->cfg;
    const opt_zero_plan *z = &s->plan;
    bhost_host *h = s->h;
    double phys = (double)sysconf(_SC_PHYS_PAGES) * (double)sysconf(_SC_PAGESIZE);

    bh_plugin_metric_info(h, "params_updated", "", (double)s->run_params);
    bh_plugin_metric_info(h, "model_params", "", (double)s->model_params);
    bh_plugin_metric_info(h, "tensors", "", (double)s->count);
    bh_plugin_metric_info(h, "shard_ranks", "", (double)s->ranks);
    bh_plugin_metric_info(h, "shard_rank", "", (double)s->rank);
    bh_plugin_metric_info(h, "state_bytes_per_param", "B",
                          opt_state_bytes_per_param(&c->hp, c->dtype));
    bh_plugin_metric_info(h, "traffic_bytes_per_param", "B", bh_optim_iter_bytes(c, 1));
    bh_plugin_metric_info(h, "memory_bytes_per_param", "B", bh_optim_set_bytes_per_param(c));
    bh_plugin_metric_info(h, "rank_memory_bytes", "B", s->set.bytes);
    if (!s->zero)
        return;
    bh_plugin_metric_info(h, "zero.stage", "", (double)z->stage);
    bh_plugin_metric_info(h, "zero.ranks", "", (double)z->ranks);
    bh_plugin_metric_info(h, "zero.shard_params", "", (double)z->shard);
    bh_plugin_metric_info(h, "zero.rank_memory_bytes", "B", z->mem_total);
    bh_plugin_metric_info(h, "zero.rank_param_bytes", "B", z->mem_params);
    bh_plugin_metric_info(h, "zero.rank_grad_bytes", "B", z->mem_grads);
    bh_plugin_metric_info(h, "zero.rank_state_bytes", "B", z->mem_state);
    bh_plugin_metric_info(h, "zero.all_reduce_bytes", "B", z->all_reduce_bytes);
    bh_plugin_metric_info(h, "zero.reduce_scatter_bytes", "B", z->reduce_scatter_bytes);
    bh_plugin_metric_info(h, "zero.all_gather_bytes", "B", z->all_gather_bytes);
    bh_plugin_metric_info(h, "zero.comm_bytes_per_rank", "B", z->comm_bytes);
    bh_plugin_metric_info(h, "zero.fits_this_machine", "0/1", z->mem_total <= phys ? 1 : 0);
}

/* Starts the pool, allocates and fills the set, picks the sample, starts
 * the schedule. [instance] */
static bhost_status BHOST_ABI step_setup(void *inst, bhost_stream *strm)
{
    step_inst *s = inst;
    bhost_status st;

    (void)strm;
    if (s->have_set)
        return BHOST_OK;
    if (s->pool == NULL && s->threads > 1) {
        s->pool = opt_pool_create(s->threads);
        if (s->pool == NULL)
            return bh_optim_fail(s->h, BHOST_E_NOMEM, "cannot start %u threads",
                                 s->threads);
    }
    st = bh_optim_set_init(&s->set, s->h, &s->cfg, s->pool, s->sizes, s->count);
    if (st != BHOST_OK)
        return st;
    s->have_set = 1;
    st = bh_optim_check_init(&s->check, &s->set, bh_optim_api->seed(s->h));
    if (st != BHOST_OK)
        return st;
    s->have_check = 1;
    opt_sched_init(&s->sched, &s->cfg.sched);
    report(s);
    return BHOST_OK;
}

/* iterations steps; the last one's sampled state is recorded. [instance] */
static bhost_status BHOST_ABI step_run(void *inst, bhost_stream *strm,
                                       uint64_t iterations)
{
    step_inst *s = inst;

    (void)strm;
    for (uint64_t i = 0; i < iterations; i++) {
        bhost_status st = bh_optim_set_iterate(
            &s->set, &s->sched, i + 1 == iterations ? &s->check : NULL);

        if (st != BHOST_OK)
            return st;
        bhost_clobber_memory();
    }
    return BHOST_OK;
}

/* The last step against the double reference on the sample. [instance] */
static bhost_status BHOST_ABI step_verify(void *inst)
{
    step_inst *s = inst;

    if (!s->have_check)
        return bh_optim_fail(s->h, BHOST_E_VERIFY, "verify before setup");
    return bh_optim_check_verify(&s->check, &s->set, &s->sched);
}

/* Joins the pool and frees everything. [instance] */
static void BHOST_ABI step_destroy(void *inst)
{
    step_inst *s = inst;

    if (s->have_check)
        bh_optim_check_fini(&s->check, s->h);
    if (s->have_set)
        bh_optim_set_fini(&s->set);
    opt_pool_destroy(s->pool);
    free(s->sizes);
    free(s);
}

/* See the counting note at the top (the set exists after setup).
 * [instance] */
static bhost_status BHOST_ABI step_profile(void *inst, bhost_work_profile *out)
{
    const step_inst *s = inst;

    return bh_plugin_profile(out, BHOST_ACCESS_READ_WRITE, BHOST_COMPUTE_F32, s->threads,
                             s->have_set ? s->set.bytes : 0.0);
}

/* Parameters updated per step. */
static double BHOST_ABI step_items(void *inst)
{
    return (double)((step_inst *)inst)->run_params;
}

/* Minimum bytes one step moves (op.h). */
static double BHOST_ABI step_bytes(void *inst)
{
    const step_inst *s = inst;

    return bh_optim_iter_bytes(&s->cfg, s->run_params);
}

const bhost_bench_desc bh_optim_step = {
    .struct_size = sizeof(bhost_bench_desc),
    .id = "step",
    .summary = "One fused optimizer step per iteration (flat buffer, tensor "
               "list or model), threaded, f32 or mixed precision",
    .params = step_params,
    .param_count = BH_OPTIM_COMMON_COUNT + 3,
    .create = step_create,
    .setup = step_setup,
    .run = step_run,
    .verify = step_verify,
    .destroy = step_destroy,
    .bytes_per_iter = step_bytes,
    .items_per_iter = step_items,
    .work_profile = step_profile,
};

const bhost_bench_desc bh_optim_zero = {
    .struct_size = sizeof(bhost_bench_desc),
    .id = "zero",
    .summary = "ZeRO stage 0-3 simulated over N ranks: the local shard's step, "
               "per-rank memory and per-step communication volumes",
    .params = zero_params,
    .param_count = BH_OPTIM_COMMON_COUNT + 4,
    .create = zero_create,
    .setup = step_setup,
    .run = step_run,
    .verify = step_verify,
    .destroy = step_destroy,
    .bytes_per_iter = step_bytes,
    .items_per_iter = step_items,
    .work_profile = step_profile,
};
