// SPDX-License-Identifier: MIT
/*
 * cl_sci.c -- the scientific kernel extension of the OpenCL backend
 * (bhost/sci_kernels.h) over the kernels bh_spmv, bh_fft_bitrev,
 * bh_fft_stage and bh_conv2d of plugins/common/bh_kernels.cl: spmv (F32;
 * F64 with fp64), fft (power-of-two n; F32, F64 with fp64) and conv2d
 * (F32). Argument checks are the backend helper's (bh_be_sci.c).
 */
#include "cl_internal.h"

#include <string.h>

#define TYPES      " (F32; F64 on devices with fp64)"
#define GROUP      256u
#define MAX_GROUPS 4096u

/* Element size of dtype t on dev (0 when unsupported); *f = 1 for F64. */
static uint64_t elem(const bhost_dev *dev, bhost_dtype t, int *f)
{
    *f = t == BHOST_DTYPE_F64;
    if (t == BHOST_DTYPE_F32)
        return 4;
    return t == BHOST_DTYPE_F64 && dev->phys->fp64 ? 8 : 0;
}

/* Work-items for a grid-stride loop over n items. */
static size_t grid(uint64_t n)
{
    uint64_t groups = (n + GROUP - 1) / GROUP;

    return (size_t)(groups > MAX_GROUPS ? MAX_GROUPS : groups) * GROUP;
}

/* The scalar v as dtype f (double, or float in *tmp): its argument. */
static const void *scalar(int f, const double *v, float *tmp)
{
    *tmp = (float)*v;
    return f ? (const void *)v : (const void *)tmp;
}

/* y = alpha A x + beta y, A in CSR. [instance] */
static bhost_status BHOST_ABI spmv_run(bhost_dev *dev, bhost_stream *s, const bhost_spmv_args *a)
{
    bhost_stream *t;
    int f = 0;
    float af, bf;
    cl_uint rows;
    bhost_status st = bh_cl_kernel_call(dev, s, a, "spmv", &t);

    if (st == BHOST_OK)
        st = bh_be_check_spmv(&bh_cl_be, dev, a, elem(dev, a->type, &f), TYPES);
    if (st != BHOST_OK || a->rows == 0)
        return st;
    rows = (cl_uint)a->rows;
    {
        const size_t es = f ? 8 : 4, m = sizeof(cl_mem);
        const size_t sizes[8] = {sizeof(rows), es, es, m, m, m, m, m};
        const void *vals[8] = {&rows,
                               scalar(f, &a->alpha, &af),
                               scalar(f, &a->beta, &bf),
                               &a->row_ptr->mem,
                               &a->col_idx->mem,
                               &a->values->mem,
                               &a->x->mem,
                               &a->y->mem};

        return bh_cl_launch(t, dev->progs[f].k[BH_CL_K_SPMV], 8, sizes, vals, grid(a->rows), GROUP,
                            "spmv");
    }
}

/* The bit-reversed copy of in into out. */
static bhost_status fft_bitrev(bhost_stream *t, const bhost_fft_args *a, int f, cl_uint logn)
{
    cl_uint n = (cl_uint)a->n, total = (cl_uint)(a->n * a->batch);
    const size_t u = sizeof(cl_uint), m = sizeof(cl_mem);
    const size_t sizes[5] = {u, u, u, m, m};
    const void *vals[5] = {&n, &logn, &total, &a->in->mem, &a->out->mem};

    return bh_cl_launch(t, t->dev->progs[f].k[BH_CL_K_FFT_BITREV], 5, sizes, vals, grid(total),
                        GROUP, "fft");
}

/* Batched power-of-two complex FFT: bit reversal into out, then log2 n
 * in-place stages on out. [instance] */
static bhost_status BHOST_ABI fft_run(bhost_dev *dev, bhost_stream *s, const bhost_fft_args *a)
{
    bhost_stream *t;
    int f = 0;
    cl_uint logn = 0, n, bfly;
    cl_int sign;
    bhost_status st = bh_cl_kernel_call(dev, s, a, "fft", &t);

    if (st == BHOST_OK)
        st = bh_be_check_fft(&bh_cl_be, dev, a, elem(dev, a->type, &f), 1, TYPES);
    if (st != BHOST_OK)
        return st;
    while ((UINT64_C(1) << logn) < a->n)
        logn++;
    st = fft_bitrev(t, a, f, logn);
    n = (cl_uint)a->n;
    bfly = (cl_uint)(a->n / 2 * a->batch);
    sign = a->direction;
    for (cl_uint m = 1; st == BHOST_OK && m < n; m *= 2) {
        const size_t u = sizeof(cl_uint);
        const size_t sizes[5] = {u, u, sizeof(cl_int), u, sizeof(cl_mem)};
        const void *vals[5] = {&n, &m, &sign, &bfly, &a->out->mem};

        st = bh_cl_launch(t, dev->progs[f].k[BH_CL_K_FFT_STAGE], 5, sizes, vals, grid(bfly), GROUP,
                          "fft");
    }
    return st;
}

/* Direct NCHW convolution, F32. [instance] */
static bhost_status BHOST_ABI conv2d_run(bhost_dev *dev, bhost_stream *s,
                                         const bhost_conv2d_args *a)
{
    bhost_stream *t;
    cl_uint16 sh;
    uint64_t p = 0, q = 0;
    bhost_status st = bh_cl_kernel_call(dev, s, a, "conv2d", &t);

    if (st == BHOST_OK)
        st = bh_be_check_conv2d(&bh_cl_be, dev, a, a->type == BHOST_DTYPE_F32 ? 4 : 0, " (F32)", &p,
                                &q);
    if (st != BHOST_OK)
        return st;
    {
        const uint64_t v[16] = {a->n, a->c,        a->h,        a->w,     a->k,     a->r,
                                a->s, a->stride_h, a->stride_w, a->pad_h, a->pad_w, a->groups,
                                p,    q,           0,           0};
        const size_t sizes[4] = {sizeof(sh), sizeof(cl_mem), sizeof(cl_mem), sizeof(cl_mem)};
        const void *vals[4] = {&sh, &a->in->mem, &a->filter->mem, &a->out->mem};

        for (int i = 0; i < 16; i++)
            sh.s[i] = (cl_uint)v[i];
        return bh_cl_launch(t, dev->progs[0].k[BH_CL_K_CONV2D], 4, sizes, vals,
                            grid(a->n * a->k * p * q), GROUP, "conv2d");
    }
}

static const bhost_kernel_spmv spmv_table = {sizeof(bhost_kernel_spmv), 0, spmv_run};
static const bhost_kernel_fft fft_table = {sizeof(bhost_kernel_fft), 0, fft_run};
static const bhost_kernel_conv2d conv2d_table = {sizeof(bhost_kernel_conv2d), 0, conv2d_run};

const bh_be_sci_tables bh_cl_sci_tables = {&spmv_table, &fft_table, &conv2d_table};
