// SPDX-License-Identifier: MIT
/*
 * bench_dp.c -- dp.step: a plain data-parallel training step as a
 * multi-rank case (BHOST_BENCH_MULTI_RANK). Every rank holds the full
 * replica (the step benchmark's parameter set: a flat buffer, a tensor
 * list or a published model, any optimizer and dtype) and its own
 * gradient, in one contiguous buffer as a backward pass fills its bucket;
 * one iteration all-reduces (sums) the gradients into the buffer the step
 * reads, then runs the optimizer step over the full replica with the
 * gradients divided by the ranks (their mean). bf16/f16 gradients are
 * summed on the wire in their own precision.
 *
 * verify() on every rank: the reduced gradient of the sampled blocks
 * against the sum of every rank's gradient (regenerated from the seed;
 * relative ranks x 2^-23 f32, 2^-8 bf16, 2^-11 f16 of the sum of |g|),
 * then the step against the double reference as the step benchmark
 * checks it (op_check.c), the digest of the parameters (the host compares
 * the ranks) and the bytes sent per step against 2 (n-1)/n Psi.
 *
 * Counting: items_per_iter = parameters updated (each rank updates all);
 * bytes_per_iter = the step's memory traffic (op.h), not the network's.
 * Work profile: read-write, f32, the pool's threads, the set's arrays
 * (which hold no gradients: cfg.grad_external) plus the rank's two
 * gradient buffers.
 */
#include "op.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bh_rng.h"
#include "zr.h"

typedef struct dp_inst {
    bhost_host *h;
    bh_optim_cfg cfg;
    unsigned threads;
    int64_t ranks;
    int rank, size;
    opt_pool *pool;
    size_t *sizes, count;
    uint64_t total;
    void *local;   /* this rank's gradient, contiguous */
    void *reduced; /* the summed gradient the step reads, contiguous */
    opt_sched sched;
    bh_optim_set set;
    bh_optim_check check;
    zr_count comm;
    uint64_t steps;
    int have_set, have_check;
} dp_inst;

static const bhost_param_desc dp_params[] = {
    BH_OPTIM_COMMON_PARAMS,
    BH_OPTIM_P(BHOST_PARAM_I64, "ranks",
               "Processes of the launch (bhost "
               "starts them)",
               "2", 1, 1024, NULL),
};

static void BHOST_ABI dp_destroy(void *inst);

/* Reads the parameters, starts MPI and lists the tensors. [instance] */
static bhost_status BHOST_ABI dp_create(bhost_host *h, const bhost_backend *be, bhost_dev *dev,
                                        void **inst)
{
    dp_inst *d = calloc(1, sizeof(*d));
    bhost_status st;

    (void)be;
    (void)dev;
    if (d == NULL)
        return bh_optim_fail(h, BHOST_E_NOMEM, "out of memory");
    d->h = h;
    st = bh_optim_cfg_read(h, &d->cfg);
    if (st == BHOST_OK)
        st = bh_optim_threads_isa(h, &d->threads);
    if (st == BHOST_OK)
        st = bh_plugin_i64(h, BH_OPTIM_PREFIX, "ranks", 1, 1024, &d->ranks);
    if (st == BHOST_OK && d->cfg.accumulation > 1)
        st = bh_optim_fail(h, BHOST_E_INVALID,
                           "dp.step takes accumulation 1 "
                           "(its gradients are all-reduced as they come)");
    if (st == BHOST_OK)
        st = bh_optim_rank_start(h, d->ranks, &d->rank, &d->size);
    if (st == BHOST_OK)
        st = bh_optim_cfg_tensors(h, &d->cfg, &d->sizes, &d->count);
    if (st != BHOST_OK) {
        dp_destroy(d);
        return st;
    }
    for (size_t k = 0; k < d->count; k++)
        d->total += d->sizes[k];
    if (d->cfg.flat) {
        d->sizes[0] = (size_t)d->total;
        d->count = 1;
    }
    d->cfg.grad_div = (double)d->size;
    d->cfg.grad_external = 1;
    *inst = d;
    return BHOST_OK;
}

/* Rank r's gradient at global index i, as stored in the gradient dtype
 * (the set's scale: 0.01, times loss_scale for f16). */
static double grad_of(const dp_inst *d, uint64_t seed, int r, uint64_t i)
{
    double gs = 0.01 * d->cfg.loss_scale;
    double g = bh_optim_uniform(seed, 100 + (uint64_t)r, i, -gs, gs);
    uint16_t half[1];

    if (d->cfg.grad_dtype == OPT_F32)
        return (double)(float)g;
    opt_store(half, d->cfg.grad_dtype, 0, g);
    return opt_load(half, d->cfg.grad_dtype, 0);
}

/* Allocates the rank's gradient and the reduced one, fills the first and
 * points the set's tensors (which have no gradients of their own) at the
 * second. */
static bhost_status wire_gradients(dp_inst *d)
{
    opt_group *g = d->set.g;
    size_t es = opt_dtype_size(d->cfg.grad_dtype);
    uint64_t seed = bh_optim_api->seed(d->h);

    d->local = bh_optim_alloc(d->h, d->total * es);
    d->reduced = bh_optim_alloc(d->h, d->total * es);
    if (d->local == NULL || d->reduced == NULL)
        return bh_optim_fail(d->h, BHOST_E_NOMEM, "out of memory (gradients)");
    for (uint64_t i = 0; i < d->total; i++)
        opt_store(d->local, d->cfg.grad_dtype, i, grad_of(d, seed, d->rank, i));
    memcpy(d->reduced, d->local, d->total * es);
    for (size_t k = 0; k < g->count; k++)
        g->grad[k] = (char *)d->reduced + g->offset[k] * es;
    return BHOST_OK;
}

/* Starts the pool, builds the replica and the gradients. [instance] */
static bhost_status BHOST_ABI dp_setup(void *inst, bhost_stream *strm)
{
    dp_inst *d = inst;
    bhost_status st;

    (void)strm;
    if (d->have_set)
        return BHOST_OK;
    if (d->pool == NULL && d->threads > 1 && (d->pool = opt_pool_create(d->threads)) == NULL)
        return bh_optim_fail(d->h, BHOST_E_NOMEM, "cannot start %u threads", d->threads);
    st = bh_optim_set_init(&d->set, d->h, &d->cfg, d->pool, d->sizes, d->count);
    if (st != BHOST_OK)
        return st;
    d->have_set = 1;
    st = wire_gradients(d);
    if (st == BHOST_OK)
        st = bh_optim_check_init(&d->check, &d->set, bh_optim_api->seed(d->h));
    if (st != BHOST_OK)
        return st;
    d->have_check = 1;
    opt_sched_init(&d->sched, &d->cfg.sched);
    bh_plugin_metric_info(d->h, "mpi.ranks", "", d->size);
    bh_plugin_metric_info(d->h, "params_updated", "", (double)d->total);
    bh_plugin_metric_info(d->h, "tensors", "", (double)d->count);
    bh_plugin_metric_info(d->h, "rank_memory_bytes", "B",
                          d->set.bytes +
                              (double)d->total * 2 * (double)opt_dtype_size(d->cfg.grad_dtype));
    return BHOST_OK;
}

/* iterations of all-reduce then step. [instance] */
static bhost_status BHOST_ABI dp_run(void *inst, bhost_stream *strm, uint64_t iterations)
{
    dp_inst *d = inst;

    (void)strm;
    for (uint64_t i = 0; i < iterations; i++) {
        bhost_status st;

        if (zr_allreduce(&d->comm, d->local, d->reduced, d->total, d->cfg.grad_dtype) != 0)
            return bh_optim_fail(d->h, BHOST_E_DEVICE, "dp.step: MPI_Allreduce failed");
        st = bh_optim_set_iterate(&d->set, &d->sched, i + 1 == iterations ? &d->check : NULL);
        if (st != BHOST_OK)
            return st;
        d->steps++;
        bhost_clobber_memory();
    }
    return BHOST_OK;
}

/* The relative bound of a sum of ranks gradients in dtype. */
static double sum_tolerance(opt_dtype t, int ranks)
{
    double u = t == OPT_F32 ? 0x1p-23 : t == OPT_BF16 ? 0x1p-8 : 0x1p-11;

    return ranks * u;
}

/* The sampled reduced gradients against the sum of the ranks'. */
static bhost_status check_reduction(const dp_inst *d)
{
    const bh_optim_check *c = &d->check;
    const opt_group *g = d->set.g;
    uint64_t seed = bh_optim_api->seed(d->h);
    double tol = sum_tolerance(d->cfg.grad_dtype, d->size);

    for (size_t b = 0; b < c->blocks; b++) {
        size_t k = c->tensor[b], size = g->offset[k + 1] - g->offset[k];
        size_t n = size < c->len ? size : c->len;

        for (size_t i = 0; i < n; i++) {
            uint64_t gi = g->offset[k] + c->offset[b] + i;
            double got = c->g[b * c->len + i], sum = 0, mag = 0;

            for (int r = 0; r < d->size; r++) {
                sum += grad_of(d, seed, r, gi);
                mag += fabs(grad_of(d, seed, r, gi));
            }
            if (!(fabs(got - sum) <= tol * mag + 1e-30))
                return bh_optim_fail(d->h, BHOST_E_VERIFY,
                                     "dp.step: rank %d element %llu: reduced "
                                     "gradient %.9g, sum of the ranks' %.9g",
                                     d->rank, (unsigned long long)gi, got, sum);
        }
    }
    return BHOST_OK;
}

/* Digest of the replica: every tensor's master (and copy in mixed
 * precision). */
static uint64_t replica_digest(const dp_inst *d)
{
    const opt_group *g = d->set.g;
    uint64_t h = 0;

    for (size_t k = 0; k < g->count; k++) {
        size_t n = g->offset[k + 1] - g->offset[k];

        h = bh_rng_mix(h ^ zr_digest(g->master[k], n * 4));
        if (g->param_dtype != OPT_F32)
            h = bh_rng_mix(h ^ zr_digest(g->param[k], n * 2));
    }
    return h;
}

/* The reduction, the step, the digest and the volume, on every rank.
 * [instance] */
static bhost_status BHOST_ABI dp_verify(void *inst)
{
    dp_inst *d = inst;
    double steps = d->steps > 0 ? (double)d->steps : 1;
    uint64_t digest;
    bhost_status st;

    if (!d->have_check || !d->check.valid)
        return bh_optim_fail(d->h, BHOST_E_VERIFY, "dp.step: verify before any step");
    st = check_reduction(d);
    digest = replica_digest(d);
    if (st == BHOST_OK)
        st = bh_optim_check_verify(&d->check, &d->set, &d->sched);
    if (st != BHOST_OK)
        return st;
    bh_optim_rank_volume(d->h, d->comm.bytes / steps,
                         zr_expected_bytes(0, (unsigned)d->size, d->total,
                                           (double)opt_dtype_size(d->cfg.grad_dtype)),
                         1e-9);
    return bh_optim_rank_digest(d->h, digest);
}

/* Unhooks the gradients from the set and frees everything. [instance] */
static void BHOST_ABI dp_destroy(void *inst)
{
    dp_inst *d = inst;

    if (d->have_check)
        bh_optim_check_fini(&d->check, d->h);
    if (d->have_set) {
        for (size_t k = 0; k < d->set.g->count; k++)
            d->set.g->grad[k] = NULL;
        bh_optim_set_fini(&d->set);
    }
    if (d->local != NULL)
        bh_optim_free(d->h, d->local);
    if (d->reduced != NULL)
        bh_optim_free(d->h, d->reduced);
    opt_pool_destroy(d->pool);
    free(d->sizes);
    free(d);
}

/* Parameters updated per step. */
static double BHOST_ABI dp_items(void *inst)
{
    return (double)((dp_inst *)inst)->total;
}

/* The step's memory traffic (op.h). */
static double BHOST_ABI dp_bytes(void *inst)
{
    const dp_inst *d = inst;

    return bh_optim_iter_bytes(&d->cfg, d->total);
}

/* See the counting note at the top. [instance] */
static bhost_status BHOST_ABI dp_profile(void *inst, bhost_work_profile *out)
{
    const dp_inst *d = inst;
    double extra = (double)d->total * 2 * (double)opt_dtype_size(d->cfg.grad_dtype);

    return bh_plugin_profile(out, BHOST_ACCESS_READ_WRITE, BHOST_COMPUTE_F32, d->threads,
                             d->have_set ? d->set.bytes + extra : 0.0);
}

const bhost_bench_desc bh_optim_dp_step = {
    .struct_size = sizeof(bhost_bench_desc),
    .id = "dp.step",
    .summary = "A data-parallel training step on every rank of a multi-rank "
               "case: all-reduce of the gradients, then the optimizer step on "
               "the full replica (unsupported without MPI)",
    .flags = BHOST_BENCH_MULTI_RANK,
    .params = dp_params,
    .param_count = BH_OPTIM_COMMON_COUNT + 1,
    .create = dp_create,
    .setup = dp_setup,
    .run = dp_run,
    .verify = dp_verify,
    .destroy = dp_destroy,
    .bytes_per_iter = dp_bytes,
    .items_per_iter = dp_items,
    .work_profile = dp_profile,
};
