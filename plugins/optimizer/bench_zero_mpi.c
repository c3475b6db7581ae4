// SPDX-License-Identifier: MIT
/*
 * bench_zero_mpi.c -- zero.mpi: ZeRO steps with real MPI collectives as a
 * multi-rank case (BHOST_BENCH_MULTI_RANK): bhost starts 'ranks'
 * processes through its launcher (mpirun, srun, local), every one runs
 * this benchmark, create() starts MPI in each, and run(n) does n ZeRO
 * steps on every rank (rank/zr_step.c: reduce-scatter of the gradients,
 * the shard's update, all-gather of the parameters; stage 0 all-reduces
 * and updates the full replica; stage 3 gathers twice). verify() checks
 * the last step on every rank against the double reference, reports the
 * digest of the gathered parameters (the host compares the ranks), the
 * phase times (the slowest rank's) and the bytes one rank sent per step
 * against the ZeRO paper's formula. Without MPI at build time the case is
 * unsupported with the reason.
 *
 * Counting: items_per_iter = parameters of the model updated per step
 * (all ranks together). Communication volumes are metrics, not
 * bytes_per_iter (they are not DRAM traffic). Work profile: read-write,
 * f32, one thread per rank, working set unknown (spread over the ranks).
 */
#include "op.h"

#include <stdlib.h>

#include "zr.h"

typedef struct mpi_inst {
    bhost_host *h;
    zr_cfg cfg;
    int64_t ranks;
    int rank, size;
    zr_ctx *z;
} mpi_inst;

static const char *const mpi_dtype_choices[] = {"f32", "bf16", NULL};
static const char *const mpi_kind_choices[] = {
    "sgd", "adam", "adamw", "adagrad", "rmsprop", "lion", NULL,
};

static const bhost_param_desc mpi_params[] = {
    BH_OPTIM_P(BHOST_PARAM_I64, "params", "Model parameters (all ranks)", "8388608", 64,
               BH_OPTIM_I64_MAX, NULL),
    BH_OPTIM_P(BHOST_PARAM_I64, "stage", "ZeRO stage 0-3", "2", 0, 3, NULL),
    BH_OPTIM_P(BHOST_PARAM_I64, "ranks",
               "Processes of the launch (bhost "
               "starts them)",
               "2", 1, 1024, NULL),
    BH_OPTIM_P(BHOST_PARAM_STR, "dtype",
               "f32, or bf16 gradients and "
               "parameters on the wire (f32 master and state)",
               "f32", 1, 0, mpi_dtype_choices),
    BH_OPTIM_P(BHOST_PARAM_STR, "optimizer", "An element-wise optimizer", "adamw", 1, 0,
               mpi_kind_choices),
};

/* Reads the parameters and starts MPI. [instance] */
static bhost_status BHOST_ABI mpi_create(bhost_host *h, const bhost_backend *be, bhost_dev *dev,
                                         void **inst)
{
    mpi_inst *m = calloc(1, sizeof(*m));
    int64_t params, stage;
    char dtype[8], kind[16];
    bhost_status st;

    (void)be;
    (void)dev;
    if (m == NULL)
        return bh_optim_fail(h, BHOST_E_NOMEM, "out of memory");
    m->h = h;
    st = bh_plugin_i64(h, BH_OPTIM_PREFIX, "params", 64, INT64_MAX, &params);
    if (st == BHOST_OK)
        st = bh_plugin_i64(h, BH_OPTIM_PREFIX, "stage", 0, 3, &stage);
    if (st == BHOST_OK)
        st = bh_plugin_i64(h, BH_OPTIM_PREFIX, "ranks", 1, 1024, &m->ranks);
    if (st == BHOST_OK)
        st = bh_plugin_str(h, BH_OPTIM_PREFIX, "dtype", dtype, sizeof(dtype));
    if (st == BHOST_OK)
        st = bh_plugin_str(h, BH_OPTIM_PREFIX, "optimizer", kind, sizeof(kind));
    if (st == BHOST_OK)
        st = bh_optim_rank_start(h, m->ranks, &m->rank, &m->size);
    if (st != BHOST_OK) {
        free(m);
        return st;
    }
    m->cfg = (zr_cfg){(uint64_t)params,           (int)stage,
                      opt_dtype_from_name(dtype), opt_kind_from_name(kind),
                      bh_optim_api->seed(h),      0};
    *inst = m;
    return BHOST_OK;
}

/* Allocates and fills this rank's buffers; reports the plan. [instance] */
static bhost_status BHOST_ABI mpi_setup(void *inst, bhost_stream *s)
{
    mpi_inst *m = inst;
    const opt_zero_plan *p;
    char why[256];

    (void)s;
    if (m->z != NULL)
        return BHOST_OK;
    m->z = zr_create(&m->cfg, why, sizeof(why));
    if (m->z == NULL)
        return bh_optim_fail(m->h, BHOST_E_INVALID, "zero.mpi: %s", why);
    p = zr_plan(m->z);
    bh_plugin_metric_info(m->h, "mpi.ranks", "", m->size);
    bh_plugin_metric_info(m->h, "zero.stage", "", (double)p->stage);
    bh_plugin_metric_info(m->h, "zero.shard_params", "", (double)p->shard);
    bh_plugin_metric_info(m->h, "zero.rank_memory_bytes", "B", p->mem_total);
    bh_plugin_metric_info(m->h, "zero.reduce_scatter_bytes", "B", p->reduce_scatter_bytes);
    bh_plugin_metric_info(m->h, "zero.all_gather_bytes", "B", p->all_gather_bytes);
    bh_plugin_metric_info(m->h, "zero.all_reduce_bytes", "B", p->all_reduce_bytes);
    bh_plugin_metric_info(m->h, "zero.comm_bytes_per_rank", "B", p->comm_bytes);
    return BHOST_OK;
}

/* iterations ZeRO steps on this rank (the others run theirs). [instance] */
static bhost_status BHOST_ABI mpi_run(void *inst, bhost_stream *s, uint64_t iterations)
{
    mpi_inst *m = inst;

    (void)s;
    if (zr_run(m->z, iterations) != 0)
        return bh_optim_fail(m->h, BHOST_E_DEVICE, "zero.mpi: an MPI collective failed");
    return BHOST_OK;
}

/* The slowest rank's phase times per step and their rates. */
static void report_times(mpi_inst *m)
{
    const zr_times *t = zr_timed(m->z);
    const opt_zero_plan *p = zr_plan(m->z);
    double steps = t->steps > 0 ? (double)t->steps : 1;
    double w[4] = {t->reduce_scatter, t->all_gather, t->all_reduce, t->update};
    static const char *const names[4] = {"mpi.reduce_scatter_ns_per_step",
                                         "mpi.all_gather_ns_per_step", "mpi.all_reduce_ns_per_step",
                                         "mpi.update_ns_per_step"};
    const double bytes[3] = {p->reduce_scatter_bytes, p->all_gather_bytes, p->all_reduce_bytes};
    static const char *const rates[3] = {"mpi.reduce_scatter_bytes_per_s",
                                         "mpi.all_gather_bytes_per_s",
                                         "mpi.all_reduce_bytes_per_s"};

    if (zr_allreduce_f64(w, 4, 'M') != 0)
        return;
    for (int k = 0; k < 4; k++) /* the phases the stage has */
        if (w[k] > 0)
            bh_plugin_metric(m->h, names[k], "ns", BHOST_LOWER_IS_BETTER, w[k] * 1e9 / steps);
    for (int k = 0; k < 3; k++)
        if (w[k] > 0 && bytes[k] > 0)
            bh_plugin_metric(m->h, rates[k], "B/s", BHOST_HIGHER_IS_BETTER,
                             bytes[k] * steps / w[k]);
}

/* Every rank checks the last step; digest, times and volume. Both
 * collectives (the check's and the times') run on every rank before any
 * rank returns a failure, so no rank waits on one that gave up.
 * [instance] */
static bhost_status BHOST_ABI mpi_verify(void *inst)
{
    mpi_inst *m = inst;
    const zr_times *t;
    char why[256];
    double steps, pad;
    int bad;

    if (m->z == NULL)
        return bh_optim_fail(m->h, BHOST_E_VERIFY, "zero.mpi: verify before setup");
    bad = zr_verify(m->z, why, sizeof(why)) != 0;
    report_times(m);
    if (bad)
        return bh_optim_fail(m->h, BHOST_E_VERIFY, "zero.mpi: rank %d: %s", m->rank, why);
    t = zr_timed(m->z);
    steps = t->steps > 0 ? (double)t->steps : 1;
    pad = (double)(zr_plan(m->z)->shard * (uint64_t)m->size - m->cfg.params);
    bh_optim_rank_volume(
        m->h, zr_counted(m->z)->bytes / steps,
        zr_expected_bytes(m->cfg.stage, (unsigned)m->size, m->cfg.params, zr_wire_bytes(m->z)),
        pad / (double)m->cfg.params + 1e-9);
    return bh_optim_rank_digest(m->h, zr_params_digest(m->z));
}

/* Frees this rank's buffers (MPI finalizes at exit). [instance] */
static void BHOST_ABI mpi_destroy(void *inst)
{
    mpi_inst *m = inst;

    zr_destroy(m->z);
    free(m);
}

/* Model parameters updated per step. */
static double BHOST_ABI mpi_items(void *inst)
{
    return (double)((mpi_inst *)inst)->cfg.params;
}

/* See the counting note at the top. [instance] */
static bhost_status BHOST_ABI mpi_profile(void *inst, bhost_work_profile *out)
{
    (void)inst;
    return bh_plugin_profile(out, BHOST_ACCESS_READ_WRITE, BHOST_COMPUTE_F32, 1, 0);
}

const bhost_bench_desc bh_optim_zero_mpi = {
    .struct_size = sizeof(bhost_bench_desc),
    .id = "zero.mpi",
    .summary = "ZeRO stage 0-3 steps with real MPI collectives on every rank "
               "of a multi-rank case (unsupported without MPI)",
    .flags = BHOST_BENCH_MULTI_RANK,
    .params = mpi_params,
    .param_count = 5,
    .create = mpi_create,
    .setup = mpi_setup,
    .run = mpi_run,
    .verify = mpi_verify,
    .destroy = mpi_destroy,
    .items_per_iter = mpi_items,
    .work_profile = mpi_profile,
};
