// SPDX-License-Identifier: MIT
/*
 * sd_device.c -- the shared part of the scientific plugin's device cases
 * (contracts in sd_device.h): kernel lookup, device buffers, conversions
 * between double host arrays and the case's dtype, error reporting.
 */
#include "sd_device.h"

#include <stdio.h>
#include <string.h>

const char *const sd_dtypes[] = {"f32", "f64", NULL};
const char *const sd_dtypes_f32[] = {"f32", NULL};

bhost_status sd_init(sd_base *b, bhost_host *h, const bhost_backend *be, bhost_dev *dev,
                     const char *bench, const char *id)
{
    const bhost_kernel_spmv *t; /* every 1.0 table is {size, reserved, run} */

    memset(b, 0, sizeof(*b));
    b->h = h;
    b->be = be;
    b->dev = dev;
    b->bench = bench;
    if (be == NULL || dev == NULL)
        return bh_plugin_fail(h, BHOST_E_INVALID, "%s: needs a backend device", bench);
    if (!BHOST_HAS(bhost_backend, be, get_kernel))
        return bh_plugin_fail(h, BHOST_E_VERSION, "%s: backend table older than 1.0", bench);
    t = be->get_kernel(dev, id);
    if (t == NULL || t->struct_size < sizeof(bhost_kernel_spmv) || t->run == NULL)
        return bh_plugin_fail(h, BHOST_E_UNSUPPORTED, "%s: backend '%s' has no %s", bench, be->id,
                              id);
    b->kernel = t;
    return BHOST_OK;
}

bhost_status sd_dtype(sd_base *b, int f64_ok)
{
    int i = 0;
    char prefix[48];
    bhost_status st;

    snprintf(prefix, sizeof(prefix), "%s: ", b->bench);
    st = bh_plugin_choice(b->h, prefix, "dtype", f64_ok ? sd_dtypes : sd_dtypes_f32, &i);
    if (st != BHOST_OK)
        return st;
    b->type = i == 1 ? BHOST_DTYPE_F64 : BHOST_DTYPE_F32;
    b->es = i == 1 ? 8 : 4;
    b->unit = i == 1 ? 0x1p-53 : 0x1p-24;
    return BHOST_OK;
}

bhost_status sd_alloc(sd_base *b, uint64_t bytes, bhost_buf **out)
{
    bhost_status st;

    if (b->nbufs == SD_MAX_BUFS)
        return bh_plugin_fail(b->h, BHOST_E_INTERNAL, "%s: too many buffers", b->bench);
    st = b->be->alloc(b->dev, bytes ? bytes : 1, BHOST_MEM_DEVICE, out);
    if (st == BHOST_OK)
        b->bufs[b->nbufs++] = *out;
    return st;
}

/* Copies bytes of host memory p to buf on s and waits for it. */
static bhost_status put(sd_base *b, bhost_stream *s, bhost_buf *buf, const void *p, uint64_t bytes)
{
    bhost_status st = bytes ? b->be->copy_h2d(b->dev, s, buf, 0, p, bytes) : BHOST_OK;

    return st == BHOST_OK ? b->be->stream_sync(b->dev, s) : st;
}

bhost_status sd_upload(sd_base *b, bhost_stream *s, bhost_buf *buf, const double *src, uint64_t n)
{
    void *tmp = bh_sci_api->alloc(b->h, n * b->es + 1, 64);
    bhost_status st;

    if (tmp == NULL)
        return bh_plugin_fail(b->h, BHOST_E_NOMEM, "%s: out of memory", b->bench);
    for (uint64_t i = 0; i < n; i++)
        if (b->type == BHOST_DTYPE_F64)
            ((double *)tmp)[i] = src[i];
        else
            ((float *)tmp)[i] = (float)src[i];
    st = put(b, s, buf, tmp, n * b->es);
    bh_sci_api->free(b->h, tmp);
    return st;
}

bhost_status sd_upload_bytes(sd_base *b, bhost_stream *s, bhost_buf *buf, const void *src,
                             uint64_t bytes)
{
    return put(b, s, buf, src, bytes);
}

bhost_status sd_download(sd_base *b, const bhost_buf *buf, double *dst, uint64_t n)
{
    void *tmp = bh_sci_api->alloc(b->h, n * b->es + 1, 64);
    bhost_status st;

    if (tmp == NULL)
        return bh_plugin_fail(b->h, BHOST_E_NOMEM, "%s: out of memory", b->bench);
    st = b->be->device_sync(b->dev);
    if (st == BHOST_OK && n > 0)
        st = b->be->copy_d2h(b->dev, NULL, tmp, buf, 0, n * b->es);
    if (st == BHOST_OK)
        st = b->be->stream_sync(b->dev, NULL);
    for (uint64_t i = 0; st == BHOST_OK && i < n; i++)
        dst[i] = b->type == BHOST_DTYPE_F64 ? ((double *)tmp)[i] : ((float *)tmp)[i];
    bh_sci_api->free(b->h, tmp);
    return st;
}

void sd_release(sd_base *b)
{
    for (uint32_t i = 0; i < b->nbufs; i++)
        b->be->free(b->dev, b->bufs[i]);
    b->nbufs = 0;
}

void sd_random(const sd_base *b, double *out, uint64_t n, uint64_t stream)
{
    uint64_t seed = bh_rng_mix(bh_sci_api->seed(b->h) ^ (stream * BH_RNG_GAMMA));

    for (uint64_t i = 0; i < n; i++) {
        double v = 2.0 * bh_rng_unit(bh_rng_next(&seed)) - 1.0;

        out[i] = b->type == BHOST_DTYPE_F64 ? v : (double)(float)v;
    }
}

double *sd_doubles(sd_base *b, uint64_t n)
{
    double *p = bh_sci_api->alloc(b->h, (n ? n : 1) * sizeof(double), 64);

    if (p == NULL)
        bh_plugin_fail(b->h, BHOST_E_NOMEM, "%s: out of memory", b->bench);
    return p;
}

float *sd_floats(sd_base *b, uint64_t n, uint64_t stream)
{
    uint64_t seed = bh_rng_mix(bh_sci_api->seed(b->h) ^ (stream * BH_RNG_GAMMA));
    float *p = bh_sci_api->alloc(b->h, (n ? n : 1) * sizeof(float), 64);

    if (p == NULL)
        bh_plugin_fail(b->h, BHOST_E_NOMEM, "%s: out of memory", b->bench);
    for (uint64_t i = 0; p != NULL && i < n; i++)
        p[i] = (float)(2.0 * bh_rng_unit(bh_rng_next(&seed)) - 1.0);
    return p;
}

void sd_free(sd_base *b, void *p)
{
    if (p != NULL)
        bh_sci_api->free(b->h, p);
}

bhost_status sd_err_report(const sd_base *b, const sd_err *e, const char *what)
{
    bh_plugin_metric_info(b->h, "verify.max_abs_err", "", e->max_abs);
    bh_plugin_metric_error(b->h, "verify.err_to_tol", "", e->max_ratio, 1.0);
    if (e->max_ratio <= 1.0)
        return BHOST_OK;
    return bh_plugin_fail(b->h, BHOST_E_VERIFY, "%s: %s %llu is %.9g, expected %.9g +- %.3g",
                          b->bench, what, (unsigned long long)e->worst, e->worst_got, e->worst_ref,
                          e->worst_tol);
}

double BHOST_ABI sd_flops(void *inst)
{
    return ((const sd_base *)inst)->flops;
}

double BHOST_ABI sd_bytes(void *inst)
{
    return ((const sd_base *)inst)->bytes;
}

/* The profile with access a over sd_base. */
static bhost_status profile(const sd_base *b, bhost_access a, bhost_work_profile *out)
{
    return bh_plugin_profile(out, a, b->es == 8 ? BHOST_COMPUTE_F64 : BHOST_COMPUTE_F32, 0,
                             b->bytes);
}

bhost_status BHOST_ABI sd_profile_read(void *inst, bhost_work_profile *out)
{
    return profile(inst, BHOST_ACCESS_READ, out);
}

bhost_status BHOST_ABI sd_profile_compute(void *inst, bhost_work_profile *out)
{
    return profile(inst, BHOST_ACCESS_UNKNOWN, out);
}
