// SPDX-License-Identifier: MIT
/*
 * bench_dev_conv.c -- device.conv2d: a direct f32 NCHW convolution (no
 * bias; groups for depthwise layers) through the backend's
 * bhost.kernel.conv2d/1, inputs and weights uniform in [-1, 1).
 *
 * Counting: FLOP 2 n k P Q (c / groups) r s; bytes input, weights and
 * output once. verify(), untimed: every output against the conv suite's
 * double-precision reference (cv_ref_conv of conv/, NCHW with k x
 * c/groups x r x s weights: the layout the ABI fixes) within its
 * worst-case f32 bound 2 (L + 1) u sum |in w|, L = (c / groups) r s.
 */
#include "sd_device.h"

#include "cv_layer.h"

#include <string.h>

typedef struct dconv {
    sd_base b;           /* first: the callbacks read it */
    bhost_conv2d_args a; /* the shape; buffers set in setup */
    cv_shape sh;         /* the same for the reference */
    uint64_t in_n, w_n, out_n;
    float *in, *w;
    double *y;
    bhost_buf *din, *dw, *dout;
} dconv;

static const bhost_param_desc params[] = {
    BH_PARAM_I64("n", "Images", "1", 1, 65536),
    BH_PARAM_I64("c", "Input channels", "64", 1, 65536),
    BH_PARAM_I64("h", "Input height", "56", 1, 65536),
    BH_PARAM_I64("w", "Input width", "56", 1, 65536),
    BH_PARAM_I64("k", "Output channels", "64", 1, 65536),
    BH_PARAM_I64("r", "Filter height and width", "3", 1, 64),
    BH_PARAM_I64("stride", "Stride (both dimensions)", "1", 1, 64),
    BH_PARAM_I64("pad", "Zero padding (both dimensions)", "1", 0, 64),
    BH_PARAM_I64("groups", "Groups (c for depthwise)", "1", 1, 65536),
    BH_PARAM_STR("dtype", "Element type", "f32", sd_dtypes_f32),
};

static void BHOST_ABI conv_destroy(void *inst);

/* Reads the shape into d->sh and d->a; BHOST_E_INVALID for a malformed
 * one (cv_shape_finish's checks). */
static bhost_status read_shape(dconv *d)
{
    static const char *const keys[] = {"n", "c", "h", "w", "k", "r", "stride", "pad", "groups"};
    int64_t v[9];
    cv_shape *sh = &d->sh;
    bhost_status st = BHOST_OK;

    for (int i = 0; i < 9 && st == BHOST_OK; i++)
        st = bh_plugin_i64(d->b.h, "device.conv2d: ", keys[i], i == 7 ? 0 : 1, 65536, &v[i]);
    if (st != BHOST_OK)
        return st;
    sh->n = (int)v[0], sh->c = (int)v[1], sh->h = (int)v[2], sh->w = (int)v[3];
    sh->k = (int)v[4], sh->r = sh->s = (int)v[5], sh->stride = (int)v[6];
    sh->pad = (int)v[7], sh->groups = (int)v[8];
    if (cv_shape_finish(sh) != 0)
        return bh_plugin_fail(d->b.h, BHOST_E_INVALID,
                              "device.conv2d: groups must divide c and k, and the filter fit "
                              "the padded input");
    d->in_n = cv_in_elems(sh);
    d->w_n = cv_weight_elems(sh);
    d->out_n = cv_out_elems(sh);
    if (d->in_n > INT32_MAX || d->w_n > INT32_MAX || d->out_n > INT32_MAX)
        return bh_plugin_fail(d->b.h, BHOST_E_INVALID,
                              "device.conv2d: a tensor exceeds 2^31 - 1 elements");
    d->a.n = (uint64_t)sh->n, d->a.c = (uint64_t)sh->c, d->a.h = (uint64_t)sh->h;
    d->a.w = (uint64_t)sh->w, d->a.k = (uint64_t)sh->k;
    d->a.r = d->a.s = (uint64_t)sh->r;
    d->a.stride_h = d->a.stride_w = (uint64_t)sh->stride;
    d->a.pad_h = d->a.pad_w = (uint64_t)sh->pad;
    d->a.groups = (uint64_t)sh->groups;
    return BHOST_OK;
}

/* Reads the parameters and finds the kernel. [instance] */
static bhost_status BHOST_ABI conv_create(bhost_host *h, const bhost_backend *be, bhost_dev *dev,
                                          void **out)
{
    dconv *d = bh_sci_api->alloc(h, sizeof(*d), 0);
    bhost_status st;

    if (d == NULL)
        return bh_plugin_fail(h, BHOST_E_NOMEM, "device.conv2d: out of memory");
    memset(d, 0, sizeof(*d));
    st = sd_init(&d->b, h, be, dev, "device.conv2d", BHOST_KERNEL_CONV2D);
    if (st == BHOST_OK)
        st = sd_dtype(&d->b, 0);
    if (st == BHOST_OK)
        st = read_shape(d);
    if (st != BHOST_OK) {
        conv_destroy(d);
        return st;
    }
    d->b.flops = 2.0 * (double)d->out_n * (double)(d->w_n / d->a.k);
    d->b.bytes = (double)(d->in_n + d->w_n + d->out_n) * 4.0;
    *out = d;
    return BHOST_OK;
}

/* Inputs, weights, device buffers and uploads, once. [instance] */
static bhost_status BHOST_ABI conv_setup(void *inst, bhost_stream *s)
{
    dconv *d = inst;
    bhost_status st;

    if (d->in != NULL)
        return BHOST_OK;
    d->in = sd_floats(&d->b, d->in_n, 1);
    d->w = sd_floats(&d->b, d->w_n, 2);
    d->y = sd_doubles(&d->b, d->out_n);
    if (!d->in || !d->w || !d->y)
        return BHOST_E_NOMEM;
    st = sd_alloc(&d->b, d->in_n * 4, &d->din);
    if (st == BHOST_OK)
        st = sd_alloc(&d->b, d->w_n * 4, &d->dw);
    if (st == BHOST_OK)
        st = sd_alloc(&d->b, d->out_n * 4, &d->dout);
    if (st == BHOST_OK)
        st = sd_upload_bytes(&d->b, s, d->din, d->in, d->in_n * 4);
    if (st == BHOST_OK)
        st = sd_upload_bytes(&d->b, s, d->dw, d->w, d->w_n * 4);
    d->a.struct_size = sizeof(d->a);
    d->a.type = BHOST_DTYPE_F32;
    d->a.in = d->din;
    d->a.filter = d->dw;
    d->a.out = d->dout;
    return st;
}

static bhost_status BHOST_ABI conv_run(void *inst, bhost_stream *s, uint64_t iterations)
{
    dconv *d = inst;
    const bhost_kernel_conv2d *k = d->b.kernel;
    bhost_status st = BHOST_OK;

    for (uint64_t i = 0; i < iterations && st == BHOST_OK; i++)
        st = k->run(d->b.dev, s, &d->a);
    return st;
}

/* Every output against the double reference. [instance] */
static bhost_status BHOST_ABI conv_verify(void *inst)
{
    dconv *d = inst;
    const cv_shape *sh = &d->sh;
    sd_err e;
    bhost_status st = sd_download(&d->b, d->dout, d->y, d->out_n);

    memset(&e, 0, sizeof(e));
    for (uint64_t o = 0; st == BHOST_OK && o < d->out_n; o++) {
        int q = (int)(o % (uint64_t)sh->q), p = (int)(o / (uint64_t)sh->q % (uint64_t)sh->p);
        int k = (int)(o / (uint64_t)sh->q / (uint64_t)sh->p % (uint64_t)sh->k);
        int n = (int)(o / (uint64_t)sh->q / (uint64_t)sh->p / (uint64_t)sh->k);
        double bound, ref = cv_ref_conv(sh, CV_NCHW, d->in, d->w, n, k, p, q, &bound);

        bh_plugin_err_add(&e, o, d->y[o], ref, bound);
    }
    return st == BHOST_OK ? sd_err_report(&d->b, &e, "output (NKPQ order)") : st;
}

static void BHOST_ABI conv_destroy(void *inst)
{
    dconv *d = inst;

    sd_release(&d->b);
    sd_free(&d->b, d->in);
    sd_free(&d->b, d->w);
    sd_free(&d->b, d->y);
    bh_sci_api->free(d->b.h, d);
}

const bhost_bench_desc bh_sci_dev_conv2d = {
    .struct_size = sizeof(bhost_bench_desc),
    .flags = BHOST_BENCH_NEEDS_DEVICE,
    .id = "device.conv2d",
    .summary = "Direct f32 NCHW 2D convolution through the backend's conv2d kernel "
               "(bhost.kernel.conv2d/1), verified against a double-precision loop",
    .params = params,
    .param_count = sizeof(params) / sizeof(params[0]),
    .create = conv_create,
    .setup = conv_setup,
    .run = conv_run,
    .verify = conv_verify,
    .destroy = conv_destroy,
    .flops_per_iter = sd_flops,
    .bytes_per_iter = sd_bytes,
    .work_profile = sd_profile_compute,
};
