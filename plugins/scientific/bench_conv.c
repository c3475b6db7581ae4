// SPDX-License-Identifier: MIT
/*
 * bench_conv.c -- conv: 2-D convolutions of ResNet-50 and MobileNet layer
 * shapes (or a custom one), f32, NCHW or NHWC, batch a parameter, by the
 * plugin's direct loops, im2col + OpenBLAS sgemm, or oneDNN (which
 * chooses its layouts; the activation reorders are timed, see cv_dnnl.h).
 *
 * Counting: FLOP = 2 N K (C/groups) R S P Q (a multiply and an add per
 * weight and output, padding included as real work); bytes = the
 * compulsory traffic, input, weights and output once, 4 bytes each;
 * items = images. Work profile: read-write f32 on the case's threads, so
 * a large layer is held against the f32 compute peak of that many
 * threads. Threads: the direct loops split output planes (NCHW) or rows
 * (NHWC) over the plugin's pool; im2col runs on the calling thread and
 * OpenBLAS's gemm on `threads` (openblas_set_num_threads); oneDNN's OpenMP
 * runtime on `threads` (omp_set_num_threads).
 *
 * Verified after every run against the double-precision sum of each
 * output (cv_ref_conv): every output up to LY_FULL_CHECK, else 4096 seeded
 * ones with the first and the last, each within 2 (L + 1) u sum |x w| for
 * L = (C/groups) R S (the worst case of an f32 sum in any order).
 */
#include "layer_adapt.h"

#include <stdio.h>
#include <string.h>

#define MAX_ELEMS (UINT64_C(1) << 28)

enum { IMPL_DIRECT, IMPL_IM2COL, IMPL_ONEDNN };

typedef struct conv_inst {
    ly_base b; /* first */
    int impl;
    float *in, *w, *out, *col;
#ifdef BH_SCI_CONV_DNNL
    cv_dnnl *dnnl;
#endif
} conv_inst;

/* The named layers: c, h, w, k, r, s, stride, pad, groups. */
typedef struct conv_layer {
    const char *name;
    int c, h, w, k, r, s, stride, pad, groups;
} conv_layer;

static const conv_layer layers[] = {
    {"resnet50-conv1", 3, 224, 224, 64, 7, 7, 2, 3, 1},
    {"resnet50-3x3", 64, 56, 56, 64, 3, 3, 1, 1, 1},
    {"resnet50-1x1", 256, 56, 56, 64, 1, 1, 1, 0, 1},
    {"resnet50-3x3s2", 128, 56, 56, 128, 3, 3, 2, 1, 1},
    {"mobilenetv1-dw112", 32, 112, 112, 32, 3, 3, 1, 1, 32},
    {"mobilenetv1-pw56", 128, 56, 56, 128, 1, 1, 1, 0, 1},
    {"mobilenetv2-dw56", 144, 56, 56, 144, 3, 3, 1, 1, 144},
    {"mobilenetv2-dw56s2", 144, 56, 56, 144, 3, 3, 2, 1, 144},
    {"mobilenetv2-pw56", 144, 56, 56, 24, 1, 1, 1, 0, 1},
};

static const char *const layer_names[] = {"resnet50-conv1",
                                          "resnet50-3x3",
                                          "resnet50-1x1",
                                          "resnet50-3x3s2",
                                          "mobilenetv1-dw112",
                                          "mobilenetv1-pw56",
                                          "mobilenetv2-dw56",
                                          "mobilenetv2-dw56s2",
                                          "mobilenetv2-pw56",
                                          "custom",
                                          NULL};
static const char *const impls[] = {"direct", "im2col", "onednn", NULL};

static const bhost_param_desc conv_params[] = {
    BH_PARAM_STR("impl", "direct (the plugin's loops), im2col (+ OpenBLAS sgemm) or onednn",
                 "im2col", impls),
    BH_PARAM_STR("layer", "A ResNet-50 or MobileNet layer, or custom (see shape)", "resnet50-3x3",
                 layer_names),
    BH_PARAM_STR("shape", "layer: custom: C,H,W,K,R,S,stride,pad,groups", "8,10,10,8,3,3,1,1,1",
                 NULL),
    BH_PARAM_I64("batch", "Images (N)", "1", 1, 4096),
    LY_PARAMS,
};

static void BHOST_ABI conv_destroy(void *inst);

/* The shape of the named layer, or of "shape" for custom. */
static bhost_status read_shape(conv_inst *d)
{
    int layer = 0, v[9];
    int64_t batch;
    char text[128];
    bhost_status st = bh_plugin_choice(d->b.h, "conv: ", "layer", layer_names, &layer);
    int named = layer < (int)(sizeof(layers) / sizeof(layers[0]));

    if (st == BHOST_OK)
        st = bh_plugin_str(d->b.h, "conv: ", "shape", text, sizeof(text));
    if (st == BHOST_OK)
        st = bh_plugin_i64(d->b.h, "conv: ", "batch", 1, 4096, &batch);
    if (st != BHOST_OK)
        return st;
    if (named) {
        const conv_layer *l = &layers[layer];

        d->b.sh =
            (cv_shape){1, l->c, l->h, l->w, l->k, l->r, l->s, l->stride, l->pad, l->groups, 0, 0};
    } else if (sscanf(text, "%d,%d,%d,%d,%d,%d,%d,%d,%d", &v[0], &v[1], &v[2], &v[3], &v[4], &v[5],
                      &v[6], &v[7], &v[8]) != 9) {
        return bh_plugin_fail(d->b.h, BHOST_E_INVALID,
                              "conv: shape '%s': expected C,H,W,K,R,S,stride,pad,groups", text);
    } else {
        d->b.sh = (cv_shape){1, v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8], 0, 0};
    }
    d->b.sh.n = (int)batch;
    if (cv_shape_finish(&d->b.sh) != 0 || cv_in_elems(&d->b.sh) > MAX_ELEMS ||
        cv_out_elems(&d->b.sh) > MAX_ELEMS || cv_weight_elems(&d->b.sh) > MAX_ELEMS)
        return bh_plugin_fail(d->b.h, BHOST_E_INVALID,
                              "conv: no valid convolution of %d images of shape '%s' (groups must "
                              "divide C and K, pad < R and S, at most 2^28 elements a tensor)",
                              d->b.sh.n, named ? layer_names[layer] : text);
    return BHOST_OK;
}

/* The implementation, skipped with the package name when not built,
 * and the shape. */
static bhost_status read_conv(void *inst)
{
    conv_inst *d = inst;
    bhost_status st = bh_plugin_choice(d->b.h, "conv: ", "impl", impls, &d->impl);

    if (st != BHOST_OK)
        return st;
    d->b.own_threads = d->impl == IMPL_DIRECT;
#ifndef BH_SCI_CONV_BLAS
    if (d->impl == IMPL_IM2COL)
        return bh_plugin_fail(
            d->b.h, BHOST_E_SKIP,
            "conv: im2col needs OpenBLAS (Debian's libopenblas-dev) at build time");
#endif
#ifndef BH_SCI_CONV_DNNL
    if (d->impl == IMPL_ONEDNN)
        return bh_plugin_fail(d->b.h, BHOST_E_SKIP,
                              "conv: onednn needs oneDNN (Debian's libdnnl-dev) at build time");
#endif
    return read_shape(d);
}

/* Reads the parameters. [instance] */
static bhost_status BHOST_ABI conv_create(bhost_host *h, const bhost_backend *be, bhost_dev *dev,
                                          void **out)
{
    (void)be;
    (void)dev;
    return ly_create(h, sizeof(conv_inst), "conv: ", read_conv, conv_destroy, out);
}

/* Buffers, inputs and weights (first call), the implementation's state;
 * the output filled with NaN so that verify sees one never written.
 * [instance] */
static bhost_status BHOST_ABI conv_setup(void *inst, bhost_stream *s)
{
    conv_inst *d = inst;
    const cv_shape *sh = &d->b.sh;

    (void)s;
    if (d->in == NULL) {
        d->in = ly_alloc(&d->b, cv_in_elems(sh));
        d->w = ly_alloc(&d->b, cv_weight_elems(sh));
        d->out = ly_alloc(&d->b, cv_out_elems(sh));
        if (d->impl == IMPL_IM2COL)
            d->col = ly_alloc(&d->b, cv_col_elems(sh));
        if (!d->in || !d->w || !d->out || (d->impl == IMPL_IM2COL && !d->col))
            return bh_plugin_fail(d->b.h, BHOST_E_NOMEM, "conv: out of memory");
        ly_fill(d->b.h, d->in, cv_in_elems(sh), 1, -1.0f, 1.0f);
        ly_fill(d->b.h, d->w, cv_weight_elems(sh), 2, -1.0f, 1.0f);
#ifdef BH_SCI_CONV_DNNL
        if (d->impl == IMPL_ONEDNN) {
            cv_dnnl_bufs bufs = {.in = d->in, .w = d->w, .out = d->out};
            bhost_status st = ly_dnnl_create(&d->b, &d->dnnl, CV_DNNL_CONV, sh, 0.0f, &bufs);

            if (st != BHOST_OK)
                return st;
        }
#endif
    }
    memset(d->out, 0xFF, cv_out_elems(sh) * sizeof(float));
    return BHOST_OK;
}

/* A range of the direct convolution's units. */
static void direct_range(void *arg, size_t u0, size_t u1)
{
    const conv_inst *d = arg;

    cv_conv_direct(&d->b.sh, d->b.layout, d->in, d->w, d->out, u0, u1);
}

/* One convolution by the case's implementation. [instance] */
static bhost_status conv_once(void *inst)
{
    conv_inst *d = inst;

    if (d->impl == IMPL_DIRECT) {
        ly_parallel(&d->b, cv_direct_units(&d->b.sh, d->b.layout), direct_range, d);
        return BHOST_OK;
    }
#ifdef BH_SCI_CONV_BLAS
    if (d->impl == IMPL_IM2COL) {
        cv_conv_im2col(&d->b.sh, d->b.layout, d->in, d->w, d->out, d->col, cv_sgemm_blas, 0,
                       d->b.sh.n);
        return BHOST_OK;
    }
#endif
#ifdef BH_SCI_CONV_DNNL
    if (d->impl == IMPL_ONEDNN)
        return ly_dnnl_run(&d->b, d->dnnl);
#endif
    return bh_plugin_fail(d->b.h, BHOST_E_INTERNAL, "conv: implementation not built");
}

/* iterations convolutions; OpenBLAS's thread count (per process) set
 * first. [instance] */
static bhost_status BHOST_ABI conv_run(void *inst, bhost_stream *s, uint64_t iterations)
{
    (void)s;
#ifdef BH_SCI_CONV_BLAS
    if (((conv_inst *)inst)->impl == IMPL_IM2COL)
        cv_blas_set_threads((int)((conv_inst *)inst)->b.threads);
#endif
    return ly_run(inst, iterations, conv_once);
}

/* The double-precision reference of output i. */
static double conv_ref(void *arg, size_t i, double *bound)
{
    const conv_inst *d = arg;
    int n, k, p, q;

    ly_unflat(d->b.layout, d->b.sh.k, d->b.sh.p, d->b.sh.q, i, &n, &k, &p, &q);
    return cv_ref_conv(&d->b.sh, d->b.layout, d->in, d->w, n, k, p, q, bound);
}

/* Outputs against conv_ref (see the file's comment). [instance] */
static bhost_status BHOST_ABI conv_verify(void *inst)
{
    conv_inst *d = inst;

    return ly_verify(&d->b, d->out, cv_out_elems(&d->b.sh), conv_ref, d);
}

/* Frees the primitive, the buffers and the instance; fine half-built. */
static void BHOST_ABI conv_destroy(void *inst)
{
    conv_inst *d = inst;

#ifdef BH_SCI_CONV_DNNL
    cv_dnnl_destroy(d->dnnl);
#endif
    ly_fini(&d->b);
    bh_sci_api->free(d->b.h, d->in);
    bh_sci_api->free(d->b.h, d->w);
    bh_sci_api->free(d->b.h, d->out);
    bh_sci_api->free(d->b.h, d->col);
    bh_sci_api->free(d->b.h, d);
}

/* 2 N K (C/groups) R S P Q. [instance] */
static double BHOST_ABI conv_flops(void *inst)
{
    const cv_shape *sh = &((const ly_base *)inst)->sh;

    return 2.0 * (double)cv_out_elems(sh) * (double)(sh->c / sh->groups) * sh->r * sh->s;
}

/* Input, weights and output once, f32. [instance] */
static double BHOST_ABI conv_bytes(void *inst)
{
    const cv_shape *sh = &((const ly_base *)inst)->sh;

    return 4.0 * (double)(cv_in_elems(sh) + cv_weight_elems(sh) + cv_out_elems(sh));
}

/* Read-write f32 on the case's threads. [instance] */
static bhost_status BHOST_ABI conv_profile(void *inst, bhost_work_profile *out)
{
    return ly_profile(inst, out, conv_bytes(inst));
}

const bhost_bench_desc bh_sci_conv = {
    .struct_size = sizeof(bhost_bench_desc),
    .id = "conv",
    .summary = "2-D convolution of ResNet-50 / MobileNet layers, f32, NCHW or NHWC: direct, "
               "im2col + OpenBLAS, oneDNN",
    .params = conv_params,
    .param_count = BH_PLUGIN_COUNT(conv_params),
    .create = conv_create,
    .setup = conv_setup,
    .run = conv_run,
    .verify = conv_verify,
    .destroy = conv_destroy,
    .flops_per_iter = conv_flops,
    .bytes_per_iter = conv_bytes,
    .items_per_iter = ly_items,
    .work_profile = conv_profile,
};
