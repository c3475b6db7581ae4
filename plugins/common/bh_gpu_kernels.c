// SPDX-License-Identifier: MIT
/*
 * bh_gpu_kernels.c -- the kernel tables of the CUDA and HIP backends
 * (compiled into each, bh_gpu_rt.h): axpy and the two-pass reduce on the
 * backend's own kernels (kernels.cu, kernels.hip), device_index, and the
 * tables that hold them with the backend's gemm and build_stats.
 */
#include BH_GPU_INTERNAL_H

#include "bh_gpu_args.h"

const char *const bh_gpu_fn_names[BH_GPU_FUNCTIONS] = {
    "bh_axpy_f32", "bh_axpy_f64", "bh_reduce_f32", "bh_reduce_f64", "bh_gemm_f32", "bh_gemm_f64"};

/* y = alpha x + y (F32, F64). [instance] */
static bhost_status BHOST_ABI axpy_run(bhost_dev *dev, bhost_stream *s, const bhost_axpy_args *a)
{
    bhost_stream *t;
    bh_gpu_axpy_pack p;
    uint64_t es;
    int f64;
    bhost_status st = BH_GPU(check_call)(dev, s, a, "axpy", &t);

    if (st != BHOST_OK)
        return st;
    es = bh_gpu_elem(a->type, &f64);
    st = bh_be_check_axpy(&BH_GPU(be), dev, a, es, " (F32, F64)");
    if (st != BHOST_OK || a->n == 0)
        return st;
    bh_gpu_axpy_pack_init(&p, a, f64);
    return BH_GPU(launch)(dev, f64 ? BH_GPU_AXPY_F64 : BH_GPU_AXPY_F32, p.blocks, 1, BH_GPU_BLOCK,
                          1, p.args, t->s, "axpy");
}

/* result[0] = sum/min/max: partials per block, then one block. */
static bhost_status BHOST_ABI reduce_run(bhost_dev *dev, bhost_stream *s,
                                         const bhost_reduce_args *a)
{
    bhost_stream *t;
    unsigned long long n;
    unsigned op;
    uint64_t es, groups;
    bh_gpu_fn fn;
    int f64;
    bhost_status st = BH_GPU(check_call)(dev, s, a, "reduce", &t);

    if (st != BHOST_OK)
        return st;
    es = bh_gpu_elem(a->type, &f64);
    st = bh_be_check_reduce(&BH_GPU(be), dev, a, es, " (F32, F64)");
    if (st != BHOST_OK)
        return st;
    fn = f64 ? BH_GPU_REDUCE_F64 : BH_GPU_REDUCE_F32;
    groups = bh_gpu_reduce_groups(a->n, BH_GPU_REDUCE_GROUPS);
    if (groups > 1 && t->scratch == NULL) {
        bh_gpu_error e = bh_gpu_rt.Malloc(&t->scratch, 8 * BH_GPU_REDUCE_GROUPS);

        if (e != BH_GPU_SUCCESS)
            return BH_GPU(err)(dev->h, e, BH_GPU_API "Malloc (reduce partials)");
    }
    n = a->n;
    op = (unsigned)a->op;
    {
        void *out = groups > 1 ? t->scratch : a->result->ptr;
        void *args[4] = {&n, &op, (void *)&a->x->ptr, &out};

        st = BH_GPU(launch)(dev, fn, (unsigned)groups, 1, 256, 1, args, t->s, "reduce");
        if (st != BHOST_OK || groups <= 1)
            return st;
        n = groups;
        args[2] = &t->scratch;
        out = a->result->ptr;
        return BH_GPU(launch)(dev, fn, 1, 1, 256, 1, args, t->s, "reduce");
    }
}

/* The device's index, 0 for a foreign handle. [instance] */
static uint32_t BHOST_ABI index_of(bhost_dev *dev)
{
    return bh_gpu_check_dev(dev, "device_index") == BHOST_OK ? dev->index : 0;
}

static const bhost_kernel_gemm gemm_table = {sizeof(bhost_kernel_gemm), 0, BH_GPU(gemm_run)};
static const bhost_kernel_axpy axpy_table = {sizeof(bhost_kernel_axpy), 0, axpy_run};
static const bhost_kernel_reduce reduce_table = {sizeof(bhost_kernel_reduce), 0, reduce_run};
static const bhost_ext_build_stats build_table = {sizeof(bhost_ext_build_stats), 0, BH_GPU(build),
                                                  BH_GPU(last)};
static const bhost_ext_device_index index_table = {sizeof(bhost_ext_device_index), 0, index_of};

const bh_be_tables BH_GPU(tables) = {&gemm_table, &axpy_table, &reduce_table, &build_table,
                                     &index_table};
