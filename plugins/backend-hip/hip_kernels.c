// SPDX-License-Identifier: MIT
/*
 * hip_kernels.c -- the kernel tables of the HIP backend, all from the
 * embedded code-object bundle (kernels.hip): axpy, reduce (two passes),
 * tiled gemm (F32, F64; no hipBLAS in Debian); the build_stats and
 * device_index extensions. The module is loaded per device on the first
 * kernel use (hipModuleLoadData picks the code object of the device's
 * gfx target; a GPU outside -Damd_offload_arch gets no kernels, logged).
 */
#include "hip_internal.h"

#include "bh_gpu_args.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

extern const unsigned char bh_hip_code[];
extern const unsigned long bh_hip_code_size;

static const char *const names[BH_HIP_FUNCTIONS] = {
    "bh_axpy_f32",   "bh_axpy_f64", "bh_reduce_f32", "bh_reduce_f64",
    "bh_gemm_f32",   "bh_gemm_f64"};

/* Loads the code object on dev (current) into *mod and fn[]; fills
 * *stats. */
static bhost_status load(bhost_dev *dev, hipModule_t *mod,
                         hipFunction_t fn[BH_HIP_FUNCTIONS],
                         bhost_build_stats *stats)
{
    uint64_t t0 = bh_be_now_ns();
    hipError_t e = bh_hip.ModuleLoadData(mod, bh_hip_code);

    if (e != hipSuccess)
        return bh_hip_err(dev->h, e,
                          "hipModuleLoadData (is this GPU's gfx target in "
                          "-Damd_offload_arch?)");
    for (int i = 0; i < BH_HIP_FUNCTIONS; i++) {
        e = bh_hip.ModuleGetFunction(&fn[i], *mod, names[i]);
        if (e != hipSuccess) {
            bh_hip.ModuleUnload(*mod);
            *mod = NULL;
            return bh_hip_err(dev->h, e, "hipModuleGetFunction");
        }
    }
    memset(stats, 0, sizeof(*stats));
    stats->struct_size = sizeof(*stats);
    stats->programs = 1;
    stats->build_ns = (double)(bh_be_now_ns() - t0);
    snprintf(stats->cache, sizeof(stats->cache),
             "none (native code objects)");
    return BHOST_OK;
}

/* The device's module, loaded once. */
static bhost_status ensure(bhost_dev *dev)
{
    bhost_status st;

    if (dev->mod != NULL)
        return BHOST_OK;
    if (dev->mod_tried)
        return bh_hip_fail(dev->h, BHOST_E_UNSUPPORTED,
                           "kernels did not load on this device (see log)");
    dev->mod_tried = 1;
    st = bh_hip_use(dev);
    if (st == BHOST_OK)
        st = load(dev, &dev->mod, dev->fn, &dev->stats);
    if (st != BHOST_OK)
        bh_hip_log(dev->h, BHOST_LOG_ERROR, "kernels unavailable on device "
                                            "%" PRIu32, dev->index);
    return st;
}

/* Launches fn (grid x block) with args on s. */
static bhost_status launch(bhost_dev *dev, hipFunction_t fn, unsigned gx,
                           unsigned gy, unsigned bx, unsigned by, void **args,
                           hipStream_t s, const char *op)
{
    hipError_t e = bh_hip.ModuleLaunchKernel(fn, gx, gy, 1, bx, by, 1, 0, s,
                                             args, NULL);

    (void)op;
    return e == hipSuccess ? BHOST_OK : bh_hip_err(dev->h, e, "hipModuleLaunchKernel");
}

/* Common checks; the stream in *t. */
static bhost_status check_call(bhost_dev *dev, bhost_stream *s,
                               const void *args, const char *op,
                               bhost_stream **t)
{
    bhost_status st = bh_hip_check_dev(dev, op);

    if (st == BHOST_OK)
        st = ensure(dev);
    if (st == BHOST_OK)
        st = bh_hip_use(dev);
    if (st == BHOST_OK)
        st = bh_be_call(&bh_hip_be, dev, dev->def, s, args, op, t);
    return st;
}

/* y = alpha x + y (F32, F64). [instance] */
static bhost_status BHOST_ABI axpy_run(bhost_dev *dev, bhost_stream *s,
                                       const bhost_axpy_args *a)
{
    bhost_stream *t;
    bh_gpu_axpy_pack p;
    uint64_t es;
    int f64;
    bhost_status st = check_call(dev, s, a, "axpy", &t);

    if (st != BHOST_OK)
        return st;
    es = bh_gpu_elem(a->type, &f64);
    st = bh_be_check_axpy(&bh_hip_be, dev, a, es, " (F32, F64)");
    if (st != BHOST_OK || a->n == 0)
        return st;
    bh_gpu_axpy_pack_init(&p, a, f64);
    return launch(dev, dev->fn[f64 ? BH_HIP_AXPY_F64 : BH_HIP_AXPY_F32], p.blocks, 1,
                  BH_GPU_BLOCK, 1, p.args, t->s, "axpy");
}

/* result[0] = sum/min/max: partials per block, then one block. */
static bhost_status BHOST_ABI reduce_run(bhost_dev *dev, bhost_stream *s,
                                         const bhost_reduce_args *a)
{
    bhost_stream *t;
    unsigned long long n;
    unsigned op;
    uint64_t es, groups;
    hipFunction_t fn;
    int f64;
    bhost_status st = check_call(dev, s, a, "reduce", &t);

    if (st != BHOST_OK)
        return st;
    es = bh_gpu_elem(a->type, &f64);
    st = bh_be_check_reduce(&bh_hip_be, dev, a, es, " (F32, F64)");
    if (st != BHOST_OK)
        return st;
    fn = dev->fn[f64 ? BH_HIP_REDUCE_F64 : BH_HIP_REDUCE_F32];
    groups = bh_gpu_reduce_groups(a->n, BH_HIP_REDUCE_GROUPS);
    if (groups > 1 && t->scratch == NULL) {
        hipError_t e = bh_hip.Malloc(&t->scratch, 8 * BH_HIP_REDUCE_GROUPS);

        if (e != hipSuccess)
            return bh_hip_err(dev->h, e, "hipMalloc (reduce partials)");
    }
    n = a->n;
    op = (unsigned)a->op;
    {
        void *out = groups > 1 ? t->scratch : a->result->ptr;
        void *args[4] = {&n, &op, (void *)&a->x->ptr, &out};

        st = launch(dev, fn, (unsigned)groups, 1, 256, 1, args, t->s, "reduce");
        if (st != BHOST_OK || groups <= 1)
            return st;
        n = groups;
        args[2] = &t->scratch;
        out = a->result->ptr;
        return launch(dev, fn, 1, 1, 256, 1, args, t->s, "reduce");
    }
}

/* C = alpha op(A) op(B) + beta C, all F32 or all F64. [instance] */
static bhost_status BHOST_ABI gemm_run(bhost_dev *dev, bhost_stream *s,
                                       const bhost_gemm_args *g)
{
    bhost_stream *t;
    bh_gpu_gemm_pack p;
    uint64_t es;
    int f64;
    bhost_status st = check_call(dev, s, g, "gemm", &t);

    if (st != BHOST_OK)
        return st;
    es = bh_gpu_elem(g->c_type, &f64);
    if (!BHOST_HAS(bhost_gemm_args, g, c) || g->reserved != 0 || es == 0 ||
        g->a_type != g->c_type || g->b_type != g->c_type ||
        g->compute_type != g->c_type)
        return bh_hip_fail(dev->h, BHOST_E_UNSUPPORTED,
                           "gemm: dtypes a=%" PRId32 " c=%" PRId32
                           " unsupported (all F32 or all F64)",
                           g->a_type, g->c_type);
    if (g->trans_a > 1 || g->trans_b > 1 || g->m > UINT32_MAX - 16 ||
        g->n > UINT32_MAX - 16 || g->k > UINT32_MAX || g->lda > UINT32_MAX ||
        g->ldb > UINT32_MAX || g->ldc > UINT32_MAX)
        return bh_hip_fail(dev->h, BHOST_E_INVALID,
                           "gemm: trans flags or dimensions out of range");
    st = bh_be_check_gemm_spans(&bh_hip_be, dev, g, es, es);
    if (st != BHOST_OK || g->m == 0 || g->n == 0)
        return st;
    bh_gpu_gemm_pack_init(&p, g, f64);
    return launch(dev, dev->fn[f64 ? BH_HIP_GEMM_F64 : BH_HIP_GEMM_F32], p.grid_x, p.grid_y,
                  16, 16, p.args, t->s, "gemm");
}

/* build_stats.build: the code object loaded into a new module (native
 * code: nothing is compiled, so COLD and CACHED are the same). */
static bhost_status BHOST_ABI build(bhost_dev *dev, uint32_t mode,
                                    bhost_build_stats *out)
{
    bhost_build_stats stats;
    hipModule_t mod = NULL;
    hipFunction_t fn[BH_HIP_FUNCTIONS];
    bhost_status st = bh_hip_check_dev(dev, "build_stats");

    if (st == BHOST_OK)
        st = bh_hip_use(dev);
    if (st == BHOST_OK)
        st = bh_be_check_stats(&bh_hip_be, dev, out, mode);
    if (st != BHOST_OK)
        return st;
    st = load(dev, &mod, fn, &stats);
    if (st != BHOST_OK)
        return st;
    bh_hip.ModuleUnload(mod);
    bh_be_copy_sized(out, &stats, sizeof(stats));
    return BHOST_OK;
}

/* build_stats.last: the device's own module load. */
static bhost_status BHOST_ABI last(bhost_dev *dev, bhost_build_stats *out)
{
    bhost_status st = bh_be_check_stats(&bh_hip_be, dev, out, BHOST_BUILD_COLD);

    if (st == BHOST_OK)
        bh_be_copy_sized(out, &dev->stats, sizeof(dev->stats));
    return st;
}

static uint32_t BHOST_ABI index_of(bhost_dev *dev)
{
    return bh_hip_check_dev(dev, "device_index") == BHOST_OK ? dev->index : 0;
}

static const bhost_kernel_gemm gemm_table = {sizeof(bhost_kernel_gemm), 0,
                                             gemm_run};
static const bhost_kernel_axpy axpy_table = {sizeof(bhost_kernel_axpy), 0,
                                             axpy_run};
static const bhost_kernel_reduce reduce_table = {sizeof(bhost_kernel_reduce), 0,
                                                 reduce_run};
static const bhost_ext_build_stats build_table = {
    sizeof(bhost_ext_build_stats), 0, build, last};
static const bhost_ext_device_index index_table = {
    sizeof(bhost_ext_device_index), 0, index_of};

static const bh_be_tables tables = {&gemm_table, &axpy_table, &reduce_table,
                                    &build_table, &index_table};

const void *bh_hip_kernel(bhost_dev *dev, const char *id)
{
    int kernel;
    const void *t = bh_be_find_table(&tables, id, &kernel);

    return !kernel || ensure(dev) == BHOST_OK ? t : NULL;
}
