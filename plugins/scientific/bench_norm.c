// SPDX-License-Identifier: MIT
/*
 * bench_norm.c -- norm: BatchNorm in inference (per-channel scale and
 * shift folded from the running mean and variance, gamma and beta) and in
 * training forward (the batch's per-channel mean and biased variance),
 * and GroupNorm (per image and group of C/groups channels), f32, NCHW or
 * NHWC, eps 1e-5, by the plugin's loops or oneDNN (batch normalisation;
 * oneDNN 2.6 has no group normalisation, so those cases are skipped).
 *
 * Counting (a convention, stated so that figures compare): FLOP = 2 per
 * element for inference (x scale + shift), 6 for training and GroupNorm
 * (1 for the mean, 3 for the variance, 2 to normalise); bytes = the
 * compulsory traffic, input and output once and the per-channel arrays,
 * although training reads the input three times; items = images. Work
 * profile: read-write f32 on the case's threads. Threads: the plugin's
 * loops split images (inference, GroupNorm) or channels (training) over
 * its pool; oneDNN's OpenMP runtime runs on `threads`.
 *
 * Verified against outputs computed in double from statistics in double
 * (cv_norm_stats, cv_ref_norm), each within the bound derived in
 * cv_ref.c for statistics summed in f32 over the m elements of a channel
 * or group (all outputs up to LY_FULL_CHECK, else 4096 seeded ones);
 * in training also the batch mean and variance of every channel.
 */
#include "layer_adapt.h"

#include <float.h>
#include <math.h>
#include <string.h>

#define MAX_ELEMS (UINT64_C(1) << 28)
#define NORM_EPS  1e-5f

enum { BN_INFER, BN_TRAIN, GROUP_NORM };

typedef struct norm_inst {
    ly_base b; /* first */
    int onednn, kind, groups;
    float *in, *out, *gamma, *beta, *mean, *var, *scale, *shift;
    double *stats;              /* the plugin's scratch */
    double *ref_mean, *ref_var; /* per channel or per image and group */
#ifdef BH_SCI_CONV_DNNL
    cv_dnnl *dnnl;
#endif
} norm_inst;

static const char *const impls[] = {"own", "onednn", NULL};
static const char *const kinds[] = {"bn-infer", "bn-train", "groupnorm", NULL};

static const bhost_param_desc norm_params[] = {
    BH_PARAM_STR("impl", "own (the plugin's loops) or onednn (batch normalisation)", "own", impls),
    BH_PARAM_STR("kind", "bn-infer, bn-train (forward, batch statistics) or groupnorm", "bn-infer",
                 kinds),
    BH_PARAM_I64("channels", "Channels (C)", "64", 1, 65536),
    BH_PARAM_I64("size", "Height and width", "56", 1, 65536),
    BH_PARAM_I64("batch", "Images (N)", "1", 1, 4096),
    BH_PARAM_I64("groups", "Groups of channels (groupnorm), dividing channels", "32", 1, 65536),
    LY_PARAMS,
};

static void BHOST_ABI norm_destroy(void *inst);

/* The shape and the kind's constraints. [instance] */
static bhost_status read_shape(norm_inst *d)
{
    const char *const keys[] = {"channels", "size", "batch", "groups"};
    const int64_t hi[] = {65536, 65536, 4096, 65536};
    int64_t v[4];
    bhost_status st = BHOST_OK;

    for (int i = 0; i < 4 && st == BHOST_OK; i++)
        st = bh_plugin_i64(d->b.h, "norm: ", keys[i], 1, hi[i], &v[i]);
    if (st != BHOST_OK)
        return st;
    d->b.sh =
        (cv_shape){(int)v[2], (int)v[0], (int)v[1], (int)v[1], (int)v[0], 1, 1, 1, 0, 1, 0, 0};
    d->groups = d->kind == GROUP_NORM ? (int)v[3] : 1;
    if (cv_shape_finish(&d->b.sh) != 0 || cv_in_elems(&d->b.sh) > MAX_ELEMS)
        return bh_plugin_fail(d->b.h, BHOST_E_INVALID, "norm: more than 2^28 elements");
    if (d->b.sh.c % d->groups != 0)
        return bh_plugin_fail(d->b.h, BHOST_E_INVALID,
                              "norm: groups %d does not divide channels %d", d->groups, d->b.sh.c);
    return BHOST_OK;
}

/* The implementation and kind (the cases oneDNN lacks skipped), and the
 * shape. */
static bhost_status read_norm(void *inst)
{
    norm_inst *d = inst;
    bhost_status st = bh_plugin_choice(d->b.h, "norm: ", "impl", impls, &d->onednn);

    if (st == BHOST_OK)
        st = bh_plugin_choice(d->b.h, "norm: ", "kind", kinds, &d->kind);
    d->b.own_threads = !d->onednn;
#ifndef BH_SCI_CONV_DNNL
    if (st == BHOST_OK && d->onednn)
        st = bh_plugin_fail(d->b.h, BHOST_E_SKIP,
                            "norm: onednn needs oneDNN (Debian's libdnnl-dev) at build time");
#endif
    if (st == BHOST_OK && d->onednn && d->kind == GROUP_NORM)
        st = bh_plugin_fail(d->b.h, BHOST_E_SKIP,
                            "norm: oneDNN 2.6 has no group normalisation primitive");
    return st == BHOST_OK ? read_shape(d) : st;
}

/* Reads the parameters. [instance] */
static bhost_status BHOST_ABI norm_create(bhost_host *h, const bhost_backend *be, bhost_dev *dev,
                                          void **out)
{
    (void)be;
    (void)dev;
    return ly_create(h, sizeof(norm_inst), "norm: ", read_norm, norm_destroy, out);
}

/* Doubles of the plugin's scratch for an image (GroupNorm) or the batch
 * (see cv_bn_train). */
static size_t image_scratch(const norm_inst *d)
{
    return 2 * (size_t)d->groups + (size_t)d->b.sh.c;
}

static size_t scratch(const norm_inst *d)
{
    return d->kind == GROUP_NORM ? (size_t)d->b.sh.n * image_scratch(d) : 4 * (size_t)d->b.sh.c;
}

/* Statistic buckets: channels, or images x groups for GroupNorm. */
static size_t buckets(const norm_inst *d)
{
    return d->kind == GROUP_NORM ? (size_t)d->b.sh.n * (size_t)d->groups : (size_t)d->b.sh.c;
}

/* The per-channel arrays and statistics: inputs in [-1, 3) (a mean of 1,
 * so that the statistics matter), gamma in [0.5, 1.5), beta in [-0.5,
 * 0.5), running mean in [0, 2) and variance in [0.5, 1.5); the reference
 * statistics in double. [instance] */
static bhost_status fill(norm_inst *d)
{
    size_t c = (size_t)d->b.sh.c, nb = buckets(d);
    float *per_c[6];

    for (int i = 0; i < 6; i++)
        per_c[i] = ly_alloc(&d->b, c);
    d->gamma = per_c[0], d->beta = per_c[1], d->mean = per_c[2], d->var = per_c[3];
    d->scale = per_c[4], d->shift = per_c[5];
    d->stats = bh_sci_api->alloc(d->b.h, scratch(d) * sizeof(double), 64);
    d->ref_mean = bh_sci_api->alloc(d->b.h, nb * sizeof(double), 64);
    d->ref_var = bh_sci_api->alloc(d->b.h, nb * sizeof(double), 64);
    for (int i = 0; i < 6; i++)
        if (!per_c[i])
            return BHOST_E_NOMEM;
    if (!d->stats || !d->ref_mean || !d->ref_var)
        return BHOST_E_NOMEM;
    ly_fill(d->b.h, d->in, cv_in_elems(&d->b.sh), 4, -1.0f, 3.0f);
    ly_fill(d->b.h, d->gamma, c, 5, 0.5f, 1.5f);
    ly_fill(d->b.h, d->beta, c, 6, -0.5f, 0.5f);
    ly_fill(d->b.h, d->mean, c, 7, 0.0f, 2.0f);
    ly_fill(d->b.h, d->var, c, 8, 0.5f, 1.5f);
    for (size_t i = 0; d->kind == BN_INFER && i < c; i++)
        d->ref_mean[i] = d->mean[i], d->ref_var[i] = d->var[i];
    if (d->kind != BN_INFER)
        cv_norm_stats(&d->b.sh, d->b.layout, d->in, d->groups, d->kind == BN_TRAIN, d->ref_mean,
                      d->ref_var);
    return BHOST_OK;
}

/* Buffers and inputs (first call); the output filled with NaN. [instance] */
static bhost_status BHOST_ABI norm_setup(void *inst, bhost_stream *s)
{
    norm_inst *d = inst;
    size_t bytes = cv_in_elems(&d->b.sh) * sizeof(float);

    (void)s;
    if (d->in == NULL) {
        d->in = ly_alloc(&d->b, cv_in_elems(&d->b.sh));
        d->out = ly_alloc(&d->b, cv_in_elems(&d->b.sh));
        if (!d->in || !d->out || fill(d) != BHOST_OK)
            return bh_plugin_fail(d->b.h, BHOST_E_NOMEM, "norm: out of memory");
#ifdef BH_SCI_CONV_DNNL
        if (d->onednn) {
            cv_dnnl_bufs bufs = {.in = d->in,
                                 .out = d->out,
                                 .mean = d->mean,
                                 .var = d->var,
                                 .gamma = d->gamma,
                                 .beta = d->beta};
            bhost_status st = ly_dnnl_create(
                &d->b, &d->dnnl, d->kind == BN_TRAIN ? CV_DNNL_BN_TRAIN : CV_DNNL_BN_INFER,
                &d->b.sh, NORM_EPS, &bufs);

            if (st != BHOST_OK)
                return st;
        }
#endif
    }
    memset(d->out, 0xFF, bytes);
    return BHOST_OK;
}

/* Images [u0, u1) (inference, GroupNorm) or channels (training). */
static void norm_range(void *arg, size_t u0, size_t u1)
{
    const norm_inst *d = arg;
    size_t img = (size_t)d->b.sh.c * (size_t)d->b.sh.h * (size_t)d->b.sh.w;
    cv_shape one = d->b.sh;

    one.n = (int)(u1 - u0);
    if (d->kind == BN_INFER)
        cv_bn_apply(&one, d->b.layout, d->in + u0 * img, d->out + u0 * img, d->scale, d->shift);
    else if (d->kind == GROUP_NORM)
        cv_group_norm(&one, d->b.layout, d->groups, d->in + u0 * img, d->out + u0 * img, d->gamma,
                      d->beta, NORM_EPS, d->stats + u0 * image_scratch(d));
    else
        cv_bn_train(&d->b.sh, d->b.layout, d->in, d->out, d->gamma, d->beta, NORM_EPS, d->stats,
                    (int)u0, (int)u1);
}

/* One normalisation by the case's implementation. [instance] */
static bhost_status norm_once(void *inst)
{
    norm_inst *d = inst;

#ifdef BH_SCI_CONV_DNNL
    if (d->onednn)
        return ly_dnnl_run(&d->b, d->dnnl);
#endif
    if (d->kind == BN_INFER)
        cv_bn_fold(d->b.sh.c, d->gamma, d->beta, d->mean, d->var, NORM_EPS, d->scale, d->shift);
    ly_parallel(&d->b, (size_t)(d->kind == BN_TRAIN ? d->b.sh.c : d->b.sh.n), norm_range, d);
    return BHOST_OK;
}

/* iterations normalisations. [instance] */
static bhost_status BHOST_ABI norm_run(void *inst, bhost_stream *s, uint64_t iterations)
{
    (void)s;
    return ly_run(inst, iterations, norm_once);
}

/* The double-precision reference of output i and its bound. */
static double norm_ref(void *arg, size_t i, double *bound)
{
    const norm_inst *d = arg;
    const cv_shape *sh = &d->b.sh;
    int n, c, y, x;
    size_t b;
    double m = d->kind == BN_INFER   ? 0.0
               : d->kind == BN_TRAIN ? (double)sh->n * sh->h * sh->w
                                     : (double)(sh->c / d->groups) * sh->h * sh->w;

    ly_unflat(d->b.layout, sh->c, sh->h, sh->w, i, &n, &c, &y, &x);
    b = d->kind == GROUP_NORM ? (size_t)n * (size_t)d->groups + (size_t)(c / (sh->c / d->groups))
                              : (size_t)c;
    return cv_ref_norm((double)d->in[i], d->ref_mean[b], d->ref_var[b], (double)d->gamma[c],
                       (double)d->beta[c], (double)NORM_EPS, m, bound);
}

/* BatchNorm training: the batch mean and variance the implementation
 * computed (oneDNN's f32 outputs, the plugin's doubles) against the
 * reference's, within cv_ref_stats_bound and their f32 rounding; the
 * largest error over bound is the metric stats.error.to_bound. [instance] */
static bhost_status check_stats(norm_inst *d)
{
    const cv_shape *sh = &d->b.sh;
    double m = (double)sh->n * sh->h * sh->w, u = FLT_EPSILON / 2.0, worst = 0.0;

    for (int c = 0; c < sh->c; c++) {
        double mu = d->onednn ? (double)d->mean[c] : d->stats[c];
        double var = d->onednn ? (double)d->var[c] : d->stats[sh->c + c];
        double dmu, dvar, e;

        cv_ref_stats_bound(d->ref_mean[c], d->ref_var[c], m, &dmu, &dvar);
        dmu += u * fabs(d->ref_mean[c]) + FLT_MIN;
        dvar += u * d->ref_var[c] + FLT_MIN;
        e = fmax(fabs(mu - d->ref_mean[c]) / dmu, fabs(var - d->ref_var[c]) / dvar);
        if (!(e <= 1.0))
            return bh_plugin_fail(d->b.h, BHOST_E_VERIFY,
                                  "norm: channel %d's batch mean %.9g and variance %.9g are off "
                                  "the reference's %.9g and %.9g by %.3g of their bounds",
                                  c, mu, var, d->ref_mean[c], d->ref_var[c], e);
        worst = fmax(worst, e);
    }
    bh_plugin_metric_error(d->b.h, "stats.error.to_bound", "", worst, 1.0);
    return BHOST_OK;
}

/* Outputs against norm_ref; in training, the batch statistics too.
 * [instance] */
static bhost_status BHOST_ABI norm_verify(void *inst)
{
    norm_inst *d = inst;
    bhost_status st = ly_verify(&d->b, d->out, cv_in_elems(&d->b.sh), norm_ref, d);

    return st == BHOST_OK && d->kind == BN_TRAIN ? check_stats(d) : st;
}

static void BHOST_ABI norm_destroy(void *inst)
{
    norm_inst *d = inst;
    void *bufs[] = {d->in,    d->out,   d->gamma, d->beta,     d->mean,   d->var,
                    d->scale, d->shift, d->stats, d->ref_mean, d->ref_var};

#ifdef BH_SCI_CONV_DNNL
    cv_dnnl_destroy(d->dnnl);
#endif
    ly_fini(&d->b);
    for (size_t i = 0; i < sizeof(bufs) / sizeof(bufs[0]); i++)
        bh_sci_api->free(d->b.h, bufs[i]);
    bh_sci_api->free(d->b.h, d);
}

/* 2 FLOP per element in inference, 6 otherwise. [instance] */
static double BHOST_ABI norm_flops(void *inst)
{
    const norm_inst *d = inst;

    return (d->kind == BN_INFER ? 2.0 : 6.0) * (double)cv_in_elems(&d->b.sh);
}

/* Input and output once, and the per-channel arrays (gamma, beta; and
 * mean, variance for BatchNorm). [instance] */
static double BHOST_ABI norm_bytes(void *inst)
{
    const norm_inst *d = inst;

    return 4.0 * (2.0 * (double)cv_in_elems(&d->b.sh) +
                  (d->kind == GROUP_NORM ? 2.0 : 4.0) * (double)d->b.sh.c);
}

static bhost_status BHOST_ABI norm_profile(void *inst, bhost_work_profile *out)
{
    return ly_profile(inst, out, norm_bytes(inst));
}

const bhost_bench_desc bh_sci_norm = {
    .struct_size = sizeof(bhost_bench_desc),
    .id = "norm",
    .summary = "BatchNorm (inference, training forward) and GroupNorm, f32, NCHW or NHWC: own "
               "loops, oneDNN",
    .params = norm_params,
    .param_count = BH_PLUGIN_COUNT(norm_params),
    .create = norm_create,
    .setup = norm_setup,
    .run = norm_run,
    .verify = norm_verify,
    .destroy = norm_destroy,
    .flops_per_iter = norm_flops,
    .bytes_per_iter = norm_bytes,
    .items_per_iter = ly_items,
    .work_profile = norm_profile,
};
