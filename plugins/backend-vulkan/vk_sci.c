// SPDX-License-Identifier: MIT
/*
 * vk_sci.c -- the scientific kernel extension of the Vulkan backend
 * (bhost/sci_kernels.h) over the shaders spmv.comp, fft_bitrev.comp and
 * fft_stage.comp (a power-of-two radix-2 FFT; both F32, F64 with
 * shaderFloat64) and conv2d.comp (F32).
 * Each operand is bound whole, so a buffer beyond the binding limit is
 * BHOST_E_UNSUPPORTED. The pipelines are built on the first call, through
 * the device's VkPipelineCache. Argument checks: bh_be_sci.c.
 */
#include "vk_internal.h"

#include <inttypes.h>
#include <string.h>

static const uint32_t spv_spmv_f32[] = {
#include "spmv_f32.inc"
};
static const uint32_t spv_spmv_f64[] = {
#include "spmv_f64.inc"
};
static const uint32_t spv_fft_bitrev_f32[] = {
#include "fft_bitrev_f32.inc"
};
static const uint32_t spv_fft_bitrev_f64[] = {
#include "fft_bitrev_f64.inc"
};
static const uint32_t spv_fft_stage_f32[] = {
#include "fft_stage_f32.inc"
};
static const uint32_t spv_fft_stage_f64[] = {
#include "fft_stage_f64.inc"
};
static const uint32_t spv_conv2d[] = {
#include "conv2d_f32.inc"
};

static const struct {
    const uint32_t *code;
    size_t bytes;
} spv[BH_VK_SCI_KERNELS] = {
    {spv_spmv_f32, sizeof(spv_spmv_f32)},
    {spv_spmv_f64, sizeof(spv_spmv_f64)},
    {spv_fft_bitrev_f32, sizeof(spv_fft_bitrev_f32)},
    {spv_fft_bitrev_f64, sizeof(spv_fft_bitrev_f64)},
    {spv_fft_stage_f32, sizeof(spv_fft_stage_f32)},
    {spv_fft_stage_f64, sizeof(spv_fft_stage_f64)},
    {spv_conv2d, sizeof(spv_conv2d)},
};

#define MAX_GROUPS 65535u

void bh_vk_sci_release(bhost_dev *dev)
{
    for (int k = 0; k < BH_VK_SCI_KERNELS; k++)
        if (dev->sci[k] != VK_NULL_HANDLE) {
            bh_vk.vkDestroyPipeline(dev->dev, dev->sci[k], NULL);
            dev->sci[k] = VK_NULL_HANDLE;
        }
}

/* Builds the scientific pipelines once (the F64 ones only with
 * shaderFloat64). */
static bhost_status ensure_sci(bhost_dev *dev)
{
    if (dev->sci_tried)
        return dev->sci[BH_VK_S_SPMV] != VK_NULL_HANDLE ? BHOST_OK : BHOST_E_DEVICE;
    dev->sci_tried = 1;
    for (int k = 0; k < BH_VK_SCI_KERNELS; k++) {
        VkResult r;

        if (k != BH_VK_S_CONV2D && k % 2 == 1 && !dev->phys->has_f64)
            continue;
        r = bh_vk_pipeline(dev, dev->cache, spv[k].code, spv[k].bytes, &dev->sci[k]);
        if (r != VK_SUCCESS) {
            bh_vk_sci_release(dev);
            return bh_vk_fail(dev->h, bh_vk_status(r), "building scientific pipeline %d: %s", k,
                              bh_vk_result_name(r));
        }
    }
    return BHOST_OK;
}

/* The common start of a call: checks, pipelines, the stream in *t. */
static bhost_status sci_call(bhost_dev *dev, bhost_stream *s, const void *args, const char *op,
                             bhost_stream **t)
{
    bhost_status st = bh_vk_kernel_call(dev, s, args, op, t);

    return st == BHOST_OK ? ensure_sci(dev) : st;
}

/* Binds bytes of buf from its start. */
static bhost_status bind(const bhost_dev *dev, const bhost_buf *buf, uint64_t bytes, const char *op,
                         const char *what, bh_vk_bind *b)
{
    uint32_t skip;

    return bh_vk_bind_elems(dev, buf, 0, bytes, 1, op, what, b, &skip);
}

/* Workgroups of wg invocations for a grid-stride loop over n items. */
static uint32_t groups(uint64_t n, uint32_t wg)
{
    uint64_t g = (n + wg - 1) / wg;

    return (uint32_t)(g > MAX_GROUPS ? MAX_GROUPS : (g == 0 ? 1 : g));
}

/* y = alpha A x + beta y, A in CSR. [instance] */
static bhost_status BHOST_ABI spmv_run(bhost_dev *dev, bhost_stream *s, const bhost_spmv_args *a)
{
    bhost_stream *t;
    bh_vk_bind b[5];
    unsigned char push[24];
    uint64_t es = 0, nwg;
    uint32_t rows, gx;
    int f = 0;
    bhost_status st = sci_call(dev, s, a, "spmv", &t);

    if (st == BHOST_OK)
        es = bh_vk_elem(dev, a->type, &f);
    if (st == BHOST_OK)
        st = bh_be_check_spmv(&bh_vk_be, dev, a, es, " (F32; F64 with shaderFloat64)");
    if (st != BHOST_OK || a->rows == 0)
        return st;
    st = bind(dev, a->row_ptr, (a->rows + 1) * 4, "spmv", "row_ptr", &b[0]);
    if (st == BHOST_OK)
        st = bind(dev, a->col_idx, a->nnz * 4, "spmv", "col_idx", &b[1]);
    if (st == BHOST_OK)
        st = bind(dev, a->values, a->nnz * es, "spmv", "values", &b[2]);
    if (st == BHOST_OK)
        st = bind(dev, a->x, a->cols * es, "spmv", "x", &b[3]);
    if (st == BHOST_OK)
        st = bind(dev, a->y, a->rows * es, "spmv", "y", &b[4]);
    if (st != BHOST_OK)
        return st;
    memset(push, 0, sizeof(push));
    rows = (uint32_t)a->rows;
    memcpy(push, &rows, 4);
    if (f) {
        memcpy(push + 8, &a->alpha, 8);
        memcpy(push + 16, &a->beta, 8);
    } else {
        float al = (float)a->alpha, be = (float)a->beta;

        memcpy(push + 8, &al, 4);
        memcpy(push + 12, &be, 4);
    }
    nwg = (a->rows + 7) / 8; /* eight rows per workgroup */
    gx = nwg > MAX_GROUPS ? MAX_GROUPS : (uint32_t)nwg;
    return bh_vk_dispatch_n(t, dev->sci[BH_VK_S_SPMV + f], b, 5, push, f ? 24u : 16u, gx,
                            (uint32_t)((nwg + gx - 1) / gx));
}

/* Batched power-of-two complex FFT: bit reversal into out, then log2 n
 * in-place stages on out. [instance] */
static bhost_status BHOST_ABI fft_run(bhost_dev *dev, bhost_stream *s, const bhost_fft_args *a)
{
    bhost_stream *t;
    bh_vk_bind b[2];
    uint32_t u[4], logn = 0;
    uint64_t es = 0;
    int f = 0;
    bhost_status st = sci_call(dev, s, a, "fft", &t);

    if (st == BHOST_OK)
        es = bh_vk_elem(dev, a->type, &f);
    if (st == BHOST_OK)
        st = bh_be_check_fft(&bh_vk_be, dev, a, es, 1, " (F32; F64 with shaderFloat64)");
    if (st == BHOST_OK)
        st = bind(dev, a->in, a->n * a->batch * 2 * es, "fft", "in", &b[0]);
    if (st == BHOST_OK)
        st = bind(dev, a->out, a->n * a->batch * 2 * es, "fft", "out", &b[1]);
    if (st != BHOST_OK)
        return st;
    while ((UINT64_C(1) << logn) < a->n)
        logn++;
    u[0] = (uint32_t)a->n;
    u[1] = logn;
    u[2] = (uint32_t)(a->n * a->batch);
    st = bh_vk_dispatch_n(t, dev->sci[BH_VK_S_FFT_BITREV + f], b, 2, u, 12, groups(u[2], 256), 1);
    for (uint32_t m = 1; st == BHOST_OK && m < a->n; m *= 2) {
        int32_t sign = a->direction;

        u[1] = m;
        memcpy(&u[2], &sign, 4);
        u[3] = (uint32_t)(a->n / 2 * a->batch);
        st = bh_vk_dispatch_n(t, dev->sci[BH_VK_S_FFT_STAGE + f], &b[1], 1, u, 16,
                              groups(u[3], 256), 1);
    }
    return st;
}

/* Direct NCHW convolution, F32. [instance] */
static bhost_status BHOST_ABI conv2d_run(bhost_dev *dev, bhost_stream *s,
                                         const bhost_conv2d_args *a)
{
    bhost_stream *t;
    bh_vk_bind b[3];
    uint32_t sh[16];
    uint64_t p = 0, q = 0;
    bhost_status st = sci_call(dev, s, a, "conv2d", &t);

    if (st == BHOST_OK)
        st = bh_be_check_conv2d(&bh_vk_be, dev, a, a->type == BHOST_DTYPE_F32 ? 4 : 0, " (F32)", &p,
                                &q);
    if (st == BHOST_OK)
        st = bind(dev, a->in, a->n * a->c * a->h * a->w * 4, "conv2d", "in", &b[0]);
    if (st == BHOST_OK)
        st = bind(dev, a->filter, a->k * (a->c / a->groups) * a->r * a->s * 4, "conv2d", "filter",
                  &b[1]);
    if (st == BHOST_OK)
        st = bind(dev, a->out, a->n * a->k * p * q * 4, "conv2d", "out", &b[2]);
    if (st != BHOST_OK)
        return st;
    {
        const uint64_t v[16] = {a->n, a->c,        a->h,        a->w,     a->k,     a->r,
                                a->s, a->stride_h, a->stride_w, a->pad_h, a->pad_w, a->groups,
                                p,    q,           0,           0};

        for (int i = 0; i < 16; i++)
            sh[i] = (uint32_t)v[i];
    }
    return bh_vk_dispatch_n(t, dev->sci[BH_VK_S_CONV2D], b, 3, sh, sizeof(sh),
                            groups(a->n * a->k * p * q, 256), 1);
}

static const bhost_kernel_spmv spmv_table = {sizeof(bhost_kernel_spmv), 0, spmv_run};
static const bhost_kernel_fft fft_table = {sizeof(bhost_kernel_fft), 0, fft_run};
static const bhost_kernel_conv2d conv2d_table = {sizeof(bhost_kernel_conv2d), 0, conv2d_run};

const bh_be_sci_tables bh_vk_sci_tables = {&spmv_table, &fft_table, &conv2d_table};
