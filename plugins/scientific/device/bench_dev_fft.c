// SPDX-License-Identifier: MIT
/*
 * bench_dev_fft.c -- device.fft: batch complex 1D FFTs of n points
 * (a power of two) through the backend's bhost.kernel.fft/1, forward or
 * inverse (unnormalised), f32 or f64, inputs uniform in [-1, 1).
 *
 * Counting: FLOP 5 n log2 n per transform (the convention of fft);
 * bytes the input read and the output written once. verify(), untimed:
 * every bin of the output of the timed runs against the plugin's CPU
 * radix-2 (ft_radix2_f64 over the same rounded input; the inverse as
 * conj(FFT(conj x))) within 4 (log2 n + 2) u sum |x| of its transform
 * (sum |x| bounds every bin; an FFT's rounding grows with log2 n).
 */
#include "sd_device.h"

#include "ft_fft.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

typedef struct dfft {
    sd_base b; /* first: the callbacks read it */
    int64_t n, batch;
    int32_t direction;
    uint32_t reserved;
    double *x, *ref, *tol, *y;
    bhost_buf *din, *dout;
} dfft;

static const char *const directions[] = {"forward", "inverse", NULL};

static const bhost_param_desc params[] = {
    BH_PARAM_I64("n", "Points per transform (a power of two)", "4096", 1, 1073741824.0),
    BH_PARAM_I64("batch", "Transforms per call", "64", 1, 1073741824.0),
    BH_PARAM_STR("direction", "forward (e^-i) or inverse (e^+i, unnormalised)", "forward",
                 directions),
    BH_PARAM_STR("dtype", "Type of the real and imaginary parts", "f32", sd_dtypes),
};

static void BHOST_ABI fft_destroy(void *inst);

/* Reads the parameters and finds the kernel. [instance] */
static bhost_status BHOST_ABI fft_create(bhost_host *h, const bhost_backend *be, bhost_dev *dev,
                                         void **out)
{
    dfft *d = bh_sci_api->alloc(h, sizeof(*d), 0);
    int dir = 0;
    bhost_status st;

    if (d == NULL)
        return bh_plugin_fail(h, BHOST_E_NOMEM, "device.fft: out of memory");
    memset(d, 0, sizeof(*d));
    st = sd_init(&d->b, h, be, dev, "device.fft", BHOST_KERNEL_FFT);
    if (st == BHOST_OK)
        st = sd_dtype(&d->b, 1);
    if (st == BHOST_OK)
        st = bh_plugin_i64(h, "device.fft: ", "n", 1, 1 << 30, &d->n);
    if (st == BHOST_OK)
        st = bh_plugin_i64(h, "device.fft: ", "batch", 1, 1 << 30, &d->batch);
    if (st == BHOST_OK)
        st = bh_plugin_choice(h, "device.fft: ", "direction", directions, &dir);
    if (st == BHOST_OK && !ft_is_pow2((size_t)d->n))
        st = bh_plugin_fail(h, BHOST_E_INVALID, "device.fft: n=%" PRId64 " is not a power of two",
                            d->n);
    if (st == BHOST_OK && d->n * d->batch > INT32_MAX)
        st =
            bh_plugin_fail(h, BHOST_E_INVALID,
                           "device.fft: n x batch = %" PRId64 " exceeds 2^31 - 1", d->n * d->batch);
    if (st != BHOST_OK) {
        fft_destroy(d);
        return st;
    }
    d->direction = dir == 0 ? BHOST_FFT_FORWARD : BHOST_FFT_INVERSE;
    *out = d;
    return BHOST_OK;
}

/* The reference transforms of x into ref and each bin's tolerance into
 * tol (one per transform). */
static bhost_status reference(dfft *d)
{
    size_t n = (size_t)d->n, nb = (size_t)d->batch;
    double sign = d->direction == BHOST_FFT_INVERSE ? -1.0 : 1.0;
    double logn = log2((double)n);
    ft_radix2 plan;

    if (ft_radix2_init(&plan, 1, &n) != 0)
        return bh_plugin_fail(d->b.h, BHOST_E_NOMEM, "device.fft: cannot plan the reference");
    for (size_t t = 0; t < nb; t++) {
        double *z = d->ref + 2 * n * t, l1 = 0;

        for (size_t j = 0; j < n; j++) {
            z[2 * j] = d->x[2 * n * t + 2 * j];
            z[2 * j + 1] = sign * d->x[2 * n * t + 2 * j + 1];
            l1 += hypot(z[2 * j], z[2 * j + 1]);
        }
        ft_radix2_f64(&plan, z);
        for (size_t j = 0; j < n; j++)
            z[2 * j + 1] *= sign;
        d->tol[t] = 4.0 * (logn + 2.0) * d->b.unit * l1 + 1e-300;
    }
    ft_radix2_free(&plan);
    return BHOST_OK;
}

/* Input, reference, device buffers and upload, once. [instance] */
static bhost_status BHOST_ABI fft_setup(void *inst, bhost_stream *s)
{
    dfft *d = inst;
    uint64_t vals = 2 * (uint64_t)d->n * (uint64_t)d->batch;
    bhost_status st;

    if (d->x != NULL)
        return BHOST_OK;
    d->x = sd_doubles(&d->b, vals);
    d->ref = sd_doubles(&d->b, vals);
    d->y = sd_doubles(&d->b, vals);
    d->tol = sd_doubles(&d->b, (uint64_t)d->batch);
    if (!d->x || !d->ref || !d->y || !d->tol)
        return BHOST_E_NOMEM;
    sd_random(&d->b, d->x, vals, 1);
    st = reference(d);
    if (st == BHOST_OK)
        st = sd_alloc(&d->b, vals * d->b.es, &d->din);
    if (st == BHOST_OK)
        st = sd_alloc(&d->b, vals * d->b.es, &d->dout);
    if (st == BHOST_OK)
        st = sd_upload(&d->b, s, d->din, d->x, vals);
    d->b.flops = 5.0 * (double)d->n * log2((double)d->n) * (double)d->batch;
    d->b.bytes = 2.0 * (double)vals * (double)d->b.es;
    return st;
}

static bhost_status BHOST_ABI fft_run(void *inst, bhost_stream *s, uint64_t iterations)
{
    dfft *d = inst;
    const bhost_kernel_fft *k = d->b.kernel;
    bhost_fft_args a;
    bhost_status st = BHOST_OK;

    memset(&a, 0, sizeof(a));
    a.struct_size = sizeof(a);
    a.type = d->b.type;
    a.n = (uint64_t)d->n;
    a.batch = (uint64_t)d->batch;
    a.direction = d->direction;
    a.in = d->din;
    a.out = d->dout;
    for (uint64_t i = 0; i < iterations && st == BHOST_OK; i++)
        st = k->run(d->b.dev, s, &a);
    return st;
}

/* Every bin against the reference. [instance] */
static bhost_status BHOST_ABI fft_verify(void *inst)
{
    dfft *d = inst;
    uint64_t n = (uint64_t)d->n, vals = 2 * n * (uint64_t)d->batch;
    sd_err e;
    bhost_status st = sd_download(&d->b, d->dout, d->y, vals);

    memset(&e, 0, sizeof(e));
    for (uint64_t i = 0; st == BHOST_OK && i < vals; i++)
        bh_plugin_err_add(&e, i / 2, d->y[i], d->ref[i], d->tol[i / (2 * n)]);
    return st == BHOST_OK ? sd_err_report(&d->b, &e, "bin (batch x n + k)") : st;
}

static void BHOST_ABI fft_destroy(void *inst)
{
    dfft *d = inst;

    sd_release(&d->b);
    sd_free(&d->b, d->x);
    sd_free(&d->b, d->ref);
    sd_free(&d->b, d->tol);
    sd_free(&d->b, d->y);
    bh_sci_api->free(d->b.h, d);
}

const bhost_bench_desc bh_sci_dev_fft = {
    .struct_size = sizeof(bhost_bench_desc),
    .flags = BHOST_BENCH_NEEDS_DEVICE,
    .id = "device.fft",
    .summary = "Batched complex power-of-two FFT through the backend's fft kernel "
               "(bhost.kernel.fft/1), verified against the plugin's CPU radix-2",
    .params = params,
    .param_count = sizeof(params) / sizeof(params[0]),
    .create = fft_create,
    .setup = fft_setup,
    .run = fft_run,
    .verify = fft_verify,
    .destroy = fft_destroy,
    .flops_per_iter = sd_flops,
    .bytes_per_iter = sd_bytes,
    .work_profile = sd_profile_compute,
};
