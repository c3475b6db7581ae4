// SPDX-License-Identifier: MIT
/*
 * accel_common.c -- helpers every accel benchmark shares: errors,
 * parameters, accounted memory, seeded random inputs, kernel lookup,
 * agreement metrics, manual timing.
 */
#include "accel.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

const char *const bh_accel_dtypes[] = {"f32", "f64", NULL};

bhost_status bh_accel_fail(bhost_host *h, bhost_status st, const char *fmt,
                           ...)
{
    va_list ap;

    va_start(ap, fmt);
    st = bh_plugin_vfail(h, st, "accel: ", fmt, ap);
    va_end(ap);
    return st;
}

bhost_status bh_accel_base_init(bh_accel_base *b, bhost_host *h,
                                const bhost_backend *be, bhost_dev *dev,
                                const char *bench)
{
    memset(b, 0, sizeof(*b));
    if (be == NULL || dev == NULL)
        return bh_accel_fail(h, BHOST_E_INVALID, "%s: needs a backend device",
                             bench);
    if (!BHOST_HAS(bhost_backend, be, get_kernel))
        return bh_accel_fail(h, BHOST_E_VERSION,
                             "%s: backend table older than 1.0", bench);
    b->h = h;
    b->be = be;
    b->dev = dev;
    return BHOST_OK;
}

bhost_status bh_accel_dtype(bhost_host *h, bhost_dtype *t, uint64_t *es,
                            double *unit)
{
    char name[8];
    bhost_status st = bh_plugin_str(h, ACCEL_PREFIX, "dtype", name, sizeof(name));

    if (st != BHOST_OK)
        return st;
    if (strcmp(name, "f64") == 0) {
        *t = BHOST_DTYPE_F64;
        *es = 8;
        *unit = 0x1p-53;
    } else if (strcmp(name, "f32") == 0) {
        *t = BHOST_DTYPE_F32;
        *es = 4;
        *unit = 0x1p-24;
    } else {
        return bh_accel_fail(h, BHOST_E_INVALID, "dtype %s: f32 or f64", name);
    }
    return BHOST_OK;
}

void *bh_accel_alloc(bhost_host *h, uint64_t bytes)
{
    void *p = bh_accel_api->alloc(h, bytes ? bytes : 1, 64);

    if (p == NULL)
        bh_accel_fail(h, BHOST_E_NOMEM, "out of host memory (%" PRIu64 " bytes)",
                      bytes);
    return p;
}

void bh_accel_free(bhost_host *h, void *p)
{
    bh_accel_api->free(h, p);
}

void bh_accel_random(bhost_host *h, void *out, bhost_dtype t, uint64_t n,
                     double lo, double hi, uint64_t stream)
{
    uint64_t s = bh_accel_api->seed(h) ^ (stream * UINT64_C(0xa0761d6478bd642f));

    for (uint64_t i = 0; i < n; i++) {
        double v = lo + (hi - lo) * (double)(bh_rng_next(&s) >> 11) * 0x1p-53;

        if (t == BHOST_DTYPE_F64)
            ((double *)out)[i] = v;
        else
            ((float *)out)[i] = (float)v;
    }
}

double bh_accel_get(const void *p, bhost_dtype t, uint64_t i)
{
    return t == BHOST_DTYPE_F64 ? ((const double *)p)[i]
                                : (double)((const float *)p)[i];
}

const void *bh_accel_kernel(bh_accel_base *b, const char *id, bhost_status *st)
{
    /* every 1.0 kernel table is {struct_size, reserved, run} */
    const bhost_kernel_axpy *t = b->be->get_kernel(b->dev, id);

    if (t == NULL || t->struct_size < sizeof(bhost_kernel_axpy) ||
        t->run == NULL) {
        *st = bh_accel_fail(b->h, BHOST_E_UNSUPPORTED,
                            "backend '%s' has no %s kernel", b->be->id, id);
        return NULL;
    }
    *st = BHOST_OK;
    return t;
}

void bh_accel_err_add(bh_accel_err *e, uint64_t i, double got, double ref,
                      double tol)
{
    bh_plugin_err_add(e, i, got, ref, tol);
}

bhost_status bh_accel_err_report(bhost_host *h, const bh_accel_err *e,
                                 const char *what)
{
    /* The largest error has no single tolerance (each element has its
     * own); the worst error-to-tolerance ratio is held to 1, as below. */
    bh_plugin_metric_info(h, "verify.max_abs_err", "", e->max_abs);
    bh_plugin_metric_error(h, "verify.err_to_tol", "", e->max_ratio, 1.0);
    if (!(e->max_ratio <= 1.0))
        return bh_accel_fail(h, BHOST_E_VERIFY,
                             "%s: element %" PRIu64 " is %.9g, the host "
                             "reference %.9g (tolerance %.3g)",
                             what, e->worst, e->worst_got, e->worst_ref,
                             e->worst_tol);
    return BHOST_OK;
}

bhost_status bh_accel_manual(bhost_host *h, uint64_t t0)
{
    uint64_t t1 = bh_accel_api->now_ns(h);

    return bh_accel_api->set_iteration_time_ns(h, t1 > t0 ? t1 - t0 : 1);
}

double BHOST_ABI bh_accel_flops(void *inst)
{
    return ((const bh_accel_base *)inst)->flops;
}

double BHOST_ABI bh_accel_bytes(void *inst)
{
    return ((const bh_accel_base *)inst)->bytes;
}

double BHOST_ABI bh_accel_items(void *inst)
{
    return ((const bh_accel_base *)inst)->items;
}

bhost_status BHOST_ABI bh_accel_profile(void *inst, bhost_work_profile *out)
{
    const bh_accel_base *b = inst;

    return bh_plugin_profile(out, b->access, b->compute, 0, b->ws > 0 ? b->ws : b->bytes);
}

bhost_compute bh_accel_compute(uint64_t es)
{
    return es == 8 ? BHOST_COMPUTE_F64 : BHOST_COMPUTE_F32;
}
