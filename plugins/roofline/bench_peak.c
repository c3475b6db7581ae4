// SPDX-License-Identifier: MIT
/*
 * bench_peak.c -- peak: the multiply-add ceiling of one arithmetic type
 * (f64, f32, bf16, f16, int8) on `threads` threads, each running
 * ROOF_PEAK_CHAINS independent chains in registers (core/roof_peak.h):
 * AVX-512 FMA for f64 and f32 (AVX2 FMA without AVX-512), vdpbf16ps for
 * bf16 (AVX512_BF16), vfmadd231ph for f16 (AVX512_FP16), vpdpbusd for
 * int8 (AVX512_VNNI). A type this CPU has no instructions for is
 * unsupported, with the extension it lacks named.
 *
 * Counting: flops_per_iter is every thread's operations, 2 per
 * multiply-add (int8: operations of int8 TOPS). verify() compares every
 * accumulator lane of every thread with the closed-form value.
 */
#include "roof.h"

#include "bh_pool.h"
#include "roof_peak.h"

#include <string.h>

static const char *const type_names[] = {"f64", "f32", "bf16", "f16", "int8", NULL};

typedef struct peak_inst {
    bhost_host *h;
    roof_type type;
    unsigned threads;
    const roof_peak_kernel *k;
    bh_pool *pool;
    unsigned char *out; /* threads x ROOF_PEAK_OUT_BYTES */
    uint64_t iterations;
} peak_inst;

static const bhost_param_desc peak_params[] = {
    BH_PARAM_STR("type", "Arithmetic: f64, f32 (FMA), bf16 (dot), f16 (FMA), int8 (VNNI dot)",
                 "f32", type_names),
    BH_ROOF_PARAM_THREADS,
};

static void BHOST_ABI peak_destroy(void *inst);

/* Reads type and threads, picks the kernel and starts the pool;
 * BHOST_E_UNSUPPORTED when the CPU cannot do the type. Nothing is left
 * allocated on failure. [instance] */
static bhost_status BHOST_ABI peak_create(bhost_host *h, const bhost_backend *be, bhost_dev *dev,
                                          void **inst)
{
    peak_inst *p = bh_roof_alloc(h, sizeof(*p));
    int type = 0;
    char why[160];
    bhost_status st;

    (void)be;
    (void)dev;
    if (p == NULL)
        return BHOST_E_NOMEM;
    memset(p, 0, sizeof(*p));
    p->h = h;
    st = bh_plugin_choice(h, "peak: ", "type", type_names, &type);
    if (st == BHOST_OK)
        st = bh_roof_threads(h, "peak: ", &p->threads);
    if (st == BHOST_OK) {
        p->type = (roof_type)type;
        p->k = roof_peak_select(p->type, why, sizeof(why));
        if (p->k == NULL)
            st = bh_plugin_fail(h, BHOST_E_UNSUPPORTED, "peak: %s", why);
    }
    if (st == BHOST_OK && (p->pool = bh_pool_create(p->threads, 0)) == NULL)
        st = bh_plugin_fail(h, BHOST_E_NOMEM, "peak: cannot start %u threads", p->threads);
    if (st != BHOST_OK) {
        peak_destroy(p);
        return st;
    }
    *inst = p;
    return BHOST_OK;
}

/* Allocates the accumulator blocks, filled with a pattern no run leaves.
 * [instance] */
static bhost_status BHOST_ABI peak_setup(void *inst, bhost_stream *s)
{
    peak_inst *p = inst;
    size_t bytes = (size_t)p->threads * ROOF_PEAK_OUT_BYTES;

    (void)s;
    if (p->out == NULL)
        p->out = bh_roof_alloc(p->h, bytes);
    if (p->out == NULL)
        return bh_plugin_fail(p->h, BHOST_E_NOMEM, "peak: cannot allocate %zu bytes", bytes);
    memset(p->out, 0xff, bytes);
    p->iterations = 0;
    return BHOST_OK;
}

/* Pool task: thread t's chains, its accumulators into its block. */
static void chains_task(void *arg, uint32_t t, uint32_t tasks, uint32_t thread)
{
    peak_inst *p = arg;

    (void)tasks;
    (void)thread;
    p->k->run(p->iterations, p->out + (size_t)t * ROOF_PEAK_OUT_BYTES);
}

/* iterations iterations on every thread, one pool call. [instance] */
static bhost_status BHOST_ABI peak_run(void *inst, bhost_stream *s, uint64_t iterations)
{
    peak_inst *p = inst;

    (void)s;
    p->iterations = iterations;
    bh_pool_run(p->pool, p->threads, chains_task, p);
    bhost_clobber_memory();
    return BHOST_OK;
}

/* Every lane of every thread's accumulators against the closed form,
 * then the threads as a metric. [instance] */
static bhost_status BHOST_ABI peak_verify(void *inst)
{
    peak_inst *p = inst;
    char why[200];

    if (p->out == NULL || p->iterations == 0)
        return bh_plugin_fail(p->h, BHOST_E_VERIFY, "peak: verify before a run");
    for (unsigned t = 0; t < p->threads; t++)
        if (roof_peak_check(p->k, p->out + (size_t)t * ROOF_PEAK_OUT_BYTES, why, sizeof(why)) != 0)
            return bh_plugin_fail(p->h, BHOST_E_VERIFY, "peak: thread %u: %s", t, why);
    bh_plugin_metric_info(p->h, "threads", "", p->threads);
    return BHOST_OK;
}

/* Joins the pool and frees the blocks. [instance] */
static void BHOST_ABI peak_destroy(void *inst)
{
    peak_inst *p = inst;

    bh_pool_destroy(p->pool);
    bh_roof_free(p->h, p->out);
    bh_roof_free(p->h, p);
}

/* Operations of one iteration on all threads. [instance] */
static double BHOST_ABI peak_ops(void *inst)
{
    const peak_inst *p = inst;

    return p->threads * roof_peak_ops_per_iteration(p->k);
}

/* The arithmetic class and threads; no memory traffic. [instance] */
static bhost_status BHOST_ABI peak_profile(void *inst, bhost_work_profile *out)
{
    static const bhost_compute classes[ROOF_TYPE_COUNT] = {BHOST_COMPUTE_F64, BHOST_COMPUTE_F32,
                                                           BHOST_COMPUTE_BF16, BHOST_COMPUTE_F16,
                                                           BHOST_COMPUTE_INT8};
    const peak_inst *p = inst;

    return bh_plugin_profile(out, BHOST_ACCESS_UNKNOWN, classes[p->type], p->threads, 0);
}

const bhost_bench_desc bh_roof_peak = {
    .struct_size = sizeof(bhost_bench_desc),
    .flags = BHOST_BENCH_CEILING,
    .id = "peak",
    .summary = "Compute ceiling: independent multiply-add chains in registers for f64, f32, "
               "bf16, f16 or int8 (AVX-512 FMA, BF16, FP16, VNNI where the CPU has them)",
    .params = peak_params,
    .param_count = BH_PLUGIN_COUNT(peak_params),
    .create = peak_create,
    .setup = peak_setup,
    .run = peak_run,
    .verify = peak_verify,
    .destroy = peak_destroy,
    .flops_per_iter = peak_ops,
    .work_profile = peak_profile,
};
