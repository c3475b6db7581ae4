// SPDX-License-Identifier: MIT
/*
 * tp_common.c -- helpers every tensor benchmark uses: errors, parameters,
 * the thread pool of an instance, accounted aligned memory, seeded input
 * data, shapes and throughput callbacks (the parameter readers, CPU count
 * and rate record are plugins/common's).
 */
#include "tp.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bhost_status bh_tensor_fail(bhost_host *h, bhost_status st, const char *fmt,
                            ...)
{
    va_list ap;

    va_start(ap, fmt);
    st = bh_plugin_vfail(h, st, "tensor: ", fmt, ap);
    va_end(ap);
    return st;
}

bhost_status bh_tensor_i64(bhost_host *h, const char *key, int64_t lo,
                           int64_t hi, int64_t *out)
{
    return bh_plugin_i64(h, "tensor: ", key, lo, hi, out);
}

bhost_status bh_tensor_f64(bhost_host *h, const char *key, double *out)
{
    return bh_plugin_f64(h, "tensor: ", key, 1, out);
}

bhost_status bh_tensor_str(bhost_host *h, const char *key, char *buf,
                           uint32_t cap)
{
    return bh_plugin_str(h, "tensor: ", key, buf, cap);
}

bhost_status bh_tensor_dtype(bhost_host *h, tk_dtype *out)
{
    char name[16];
    bhost_status st = bh_tensor_str(h, "dtype", name, sizeof(name));

    if (st != BHOST_OK)
        return st;
    *out = tk_dtype_from_name(name);
    if (*out == 0)
        return bh_tensor_fail(h, BHOST_E_INVALID, "unknown dtype '%s'", name);
    return BHOST_OK;
}

bhost_status bh_tensor_threads(bhost_host *h, unsigned *out)
{
    int64_t t;
    bhost_status st = bh_tensor_i64(h, "threads", 0, 256, &t);

    if (st != BHOST_OK)
        return st;
    *out = t == 0 ? bh_plugin_cpu_threads() : (unsigned)t;
    bh_plugin_metric_info(h, "threads", "", (double)*out);
    return BHOST_OK;
}

bhost_status bh_tensor_base_init(bh_tensor_base *b, bhost_host *h)
{
    bhost_status st;

    b->h = h;
    b->pool = NULL;
    b->threads = 1;
    st = bh_tensor_threads(h, &b->threads);
    if (st != BHOST_OK)
        return st;
    if (b->threads > 1) {
        b->pool = tk_pool_create(b->threads);
        if (b->pool == NULL)
            return bh_tensor_fail(h, BHOST_E_NOMEM, "cannot start %u threads",
                                  b->threads);
    }
    return BHOST_OK;
}

void bh_tensor_base_fini(bh_tensor_base *b)
{
    tk_pool_destroy(b->pool);
    b->pool = NULL;
}

void *bh_tensor_alloc(bhost_host *h, size_t bytes)
{
    void *p = bh_tensor_api->alloc(h, bytes ? bytes : 1, 64);

    if (p == NULL)
        bh_tensor_fail(h, BHOST_E_NOMEM, "cannot allocate %zu bytes", bytes);
    return p;
}

void bh_tensor_free(bhost_host *h, void *p)
{
    bh_tensor_api->free(h, p);
}

bhost_status bh_tensor_random(bh_tensor_base *b, void *out, tk_dtype dtype,
                              size_t n, double lo, double hi, uint64_t stream)
{
    uint64_t seed = bh_tensor_api->seed(b->h) ^ (stream * UINT64_C(0x9E3779B97F4A7C15));
    int st;

    if (dtype == TK_F16 || dtype == TK_BF16) {
        float *tmp = bh_tensor_alloc(b->h, n * sizeof(float));

        if (tmp == NULL)
            return BHOST_E_NOMEM;
        st = tk_rand_uniform(tmp, TK_F32, n, seed, lo, hi, b->pool);
        if (st == TK_OK)
            st = dtype == TK_F16 ? tk_cvt_f32_f16(tmp, out, n, b->pool)
                                 : tk_cvt_f32_bf16(tmp, out, n, b->pool);
        bh_tensor_free(b->h, tmp);
    } else {
        st = tk_rand_uniform(out, dtype, n, seed, lo, hi, b->pool);
    }
    if (st != TK_OK)
        return bh_tensor_fail(b->h, BHOST_E_INVALID,
                              "cannot draw %zu random values of this dtype", n);
    return BHOST_OK;
}

double bh_tensor_get(const void *p, tk_dtype dtype, size_t i)
{
    switch (dtype) {
    case TK_F32:
        return ((const float *)p)[i];
    case TK_F64:
        return ((const double *)p)[i];
    case TK_F16:
        return tk_f16_to_f32(((const uint16_t *)p)[i]);
    case TK_BF16:
        return tk_bf16_to_f32(((const uint16_t *)p)[i]);
    case TK_I8:
        return ((const int8_t *)p)[i];
    case TK_I32:
        return ((const int32_t *)p)[i];
    case TK_I64:
        return (double)((const int64_t *)p)[i];
    }
    return 0.0;
}

bhost_status bh_tensor_shape(bhost_host *h, const char *text, int *ndim,
                             size_t *dims, size_t *total)
{
    const char *p = text;

    *ndim = 0;
    *total = 1;
    while (*p != '\0') {
        char *end = NULL;
        unsigned long long v = strtoull(p, &end, 10);

        if (end == p || v == 0 || v > (1ull << 40) || *ndim == TK_MAX_DIMS ||
            __builtin_mul_overflow(*total, (size_t)v, total) ||
            *total > ((size_t)1 << 40))
            return bh_tensor_fail(h, BHOST_E_INVALID,
                                  "shape '%s': expected 1 to %d positive "
                                  "dimensions like 64x128, total <= 2^40",
                                  text, TK_MAX_DIMS);
        dims[(*ndim)++] = (size_t)v;
        p = end;
        if (*p == 'x')
            p++;
        else if (*p != '\0')
            return bh_tensor_fail(h, BHOST_E_INVALID,
                                  "shape '%s': unexpected '%c'", text, *p);
    }
    if (*ndim == 0)
        return bh_tensor_fail(h, BHOST_E_INVALID, "shape is empty");
    return BHOST_OK;
}

double BHOST_ABI bh_tensor_flops(void *inst)
{
    return ((const bh_tensor_base *)inst)->flops;
}

double BHOST_ABI bh_tensor_bytes(void *inst)
{
    return ((const bh_tensor_base *)inst)->bytes;
}

double BHOST_ABI bh_tensor_items(void *inst)
{
    return ((const bh_tensor_base *)inst)->items;
}

bhost_status BHOST_ABI bh_tensor_profile(void *inst, bhost_work_profile *out)
{
    const bh_tensor_base *b = inst;

    return bh_plugin_profile(out, b->access, b->compute, b->threads,
                             b->ws > 0 ? b->ws : b->bytes);
}
