// SPDX-License-Identifier: MIT
/*
 * hip_kernels.c -- the HIP backend's kernels, all from the embedded
 * code-object bundle (kernels.hip): their module and launches, which the
 * shared axpy and reduce use (plugins/common/bh_gpu_kernels.c), the tiled
 * gemm (F32, F64; no hipBLAS in Debian) and the build_stats extension.
 * The module is loaded per device on the first kernel use
 * (hipModuleLoadData picks the code object of the device's gfx target; a
 * GPU outside -Damd_offload_arch gets no kernels, logged).
 */
#include "hip_internal.h"

#include "bh_gpu_args.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

extern const unsigned char bh_hip_code[];
extern const unsigned long bh_hip_code_size;

/* Loads the code object on dev (current) into *mod and fn[]; fills
 * *stats. */
static bhost_status load(bhost_dev *dev, hipModule_t *mod,
                         hipFunction_t fn[BH_GPU_FUNCTIONS],
                         bhost_build_stats *stats)
{
    uint64_t t0 = bh_be_now_ns();
    hipError_t e = bh_hip.ModuleLoadData(mod, bh_hip_code);

    if (e != hipSuccess)
        return bh_hip_err(dev->h, e,
                          "hipModuleLoadData (is this GPU's gfx target in "
                          "-Damd_offload_arch?)");
    for (int i = 0; i < BH_GPU_FUNCTIONS; i++) {
        e = bh_hip.ModuleGetFunction(&fn[i], *mod, bh_gpu_fn_names[i]);
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
        return bh_gpu_fail(dev->h, BHOST_E_UNSUPPORTED,
                           "kernels did not load on this device (see log)");
    dev->mod_tried = 1;
    st = bh_hip_use(dev);
    if (st == BHOST_OK)
        st = load(dev, &dev->mod, dev->fn, &dev->stats);
    if (st != BHOST_OK)
        bh_gpu_log(dev->h, BHOST_LOG_ERROR, "kernels unavailable on device "
                                            "%" PRIu32, dev->index);
    return st;
}

/* Nothing: the module waits for the first kernel use. [main] */
bhost_status bh_hip_open_extra(bhost_dev *dev)
{
    (void)dev;
    return BHOST_OK;
}

/* Unloads the device's module. [main] */
void bh_hip_close_extra(bhost_dev *dev)
{
    if (dev->mod != NULL)
        bh_hip.ModuleUnload(dev->mod);
}

bhost_status bh_hip_launch(bhost_dev *dev, bh_gpu_fn fn, unsigned gx,
                           unsigned gy, unsigned bx, unsigned by, void **args,
                           hipStream_t s, const char *op)
{
    hipError_t e = bh_hip.ModuleLaunchKernel(dev->fn[fn], gx, gy, 1, bx, by, 1,
                                             0, s, args, NULL);

    (void)op;
    return e == hipSuccess ? BHOST_OK : bh_hip_err(dev->h, e, "hipModuleLaunchKernel");
}

bhost_status bh_hip_check_call(bhost_dev *dev, bhost_stream *s,
                               const void *args, const char *op,
                               bhost_stream **t)
{
    bhost_status st = bh_gpu_check_dev(dev, op);

    if (st == BHOST_OK)
        st = ensure(dev);
    if (st == BHOST_OK)
        st = bh_hip_use(dev);
    if (st == BHOST_OK)
        st = bh_be_call(&bh_hip_be, dev, dev->def, s, args, op, t);
    return st;
}

/* C = alpha op(A) op(B) + beta C, all F32 or all F64. [instance] */
bhost_status BHOST_ABI bh_hip_gemm_run(bhost_dev *dev, bhost_stream *s,
                                       const bhost_gemm_args *g)
{
    bhost_stream *t;
    bh_gpu_gemm_pack p;
    uint64_t es;
    int f64;
    bhost_status st = bh_hip_check_call(dev, s, g, "gemm", &t);

    if (st != BHOST_OK)
        return st;
    es = bh_gpu_elem(g->c_type, &f64);
    if (!BHOST_HAS(bhost_gemm_args, g, c) || g->reserved != 0 || es == 0 ||
        g->a_type != g->c_type || g->b_type != g->c_type ||
        g->compute_type != g->c_type)
        return bh_gpu_fail(dev->h, BHOST_E_UNSUPPORTED,
                           "gemm: dtypes a=%" PRId32 " c=%" PRId32
                           " unsupported (all F32 or all F64)",
                           g->a_type, g->c_type);
    if (g->trans_a > 1 || g->trans_b > 1 || g->m > UINT32_MAX - 16 ||
        g->n > UINT32_MAX - 16 || g->k > UINT32_MAX || g->lda > UINT32_MAX ||
        g->ldb > UINT32_MAX || g->ldc > UINT32_MAX)
        return bh_gpu_fail(dev->h, BHOST_E_INVALID,
                           "gemm: trans flags or dimensions out of range");
    st = bh_be_check_gemm_spans(&bh_hip_be, dev, g, es, es);
    if (st != BHOST_OK || g->m == 0 || g->n == 0)
        return st;
    bh_gpu_gemm_pack_init(&p, g, f64);
    return bh_hip_launch(dev, f64 ? BH_GPU_GEMM_F64 : BH_GPU_GEMM_F32, p.grid_x,
                         p.grid_y, 16, 16, p.args, t->s, "gemm");
}

/* build_stats.build: the code object loaded into a new module (native
 * code: nothing is compiled, so COLD and CACHED are the same). */
bhost_status BHOST_ABI bh_hip_build(bhost_dev *dev, uint32_t mode,
                                    bhost_build_stats *out)
{
    bhost_build_stats stats;
    hipModule_t mod = NULL;
    hipFunction_t fn[BH_GPU_FUNCTIONS];
    bhost_status st = bh_gpu_check_dev(dev, "build_stats");

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
bhost_status BHOST_ABI bh_hip_last(bhost_dev *dev, bhost_build_stats *out)
{
    bhost_status st = bh_be_check_stats(&bh_hip_be, dev, out, BHOST_BUILD_COLD);

    if (st == BHOST_OK)
        bh_be_copy_sized(out, &dev->stats, sizeof(dev->stats));
    return st;
}

const void *bh_hip_kernel(bhost_dev *dev, const char *id)
{
    int kernel;
    const void *t = bh_be_find_table(&bh_hip_tables, id, &kernel);

    return !kernel || ensure(dev) == BHOST_OK ? t : NULL;
}
