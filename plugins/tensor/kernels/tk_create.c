// SPDX-License-Identifier: MIT
/*
 * tk_create.c -- creation ops: fill (zeros, ones, full), arange, uniform
 * and normal draws; argument checks and the split over threads. The
 * vector kernels are in tk_body_create.h.
 */
#include "tk_internal.h"

#include <math.h>
#include <string.h>

typedef struct create_job {
    int kind; /* 0 fill, 1 arange, 2 uniform, 3 normal */
    tk_dtype dtype;
    void *out;
    size_t n;
    double p0, p1; /* fill value | start, step | lo, hi | mean, stddev */
    uint64_t seed;
    unsigned char pattern[64];
    int nt;
    const tk_isa_ops *ops;
} create_job;

/* value rounded (floats) or saturated (integers) to dtype, into dst. */
static void encode(tk_dtype t, double v, void *dst)
{
    switch (t) {
    case TK_F32: {
        float f = (float)v;
        memcpy(dst, &f, 4);
        break;
    }
    case TK_F64:
        memcpy(dst, &v, 8);
        break;
    case TK_F16: {
        uint16_t h = tk_f32_to_f16((float)v);
        memcpy(dst, &h, 2);
        break;
    }
    case TK_BF16: {
        uint16_t h = tk_f32_to_bf16((float)v);
        memcpy(dst, &h, 2);
        break;
    }
    case TK_I8: {
        double r = v != v ? 0 : nearbyint(v);
        int8_t i = (int8_t)(r < -128 ? -128 : r > 127 ? 127 : r);
        memcpy(dst, &i, 1);
        break;
    }
    case TK_I32: {
        double r = v != v ? 0 : nearbyint(v);
        int32_t i = (int32_t)(r < -2147483648.0 ? -2147483648.0
                              : r > 2147483647.0 ? 2147483647.0 : r);
        memcpy(dst, &i, 4);
        break;
    }
    case TK_I64: {
        double r = v != v ? 0 : nearbyint(v);
        int64_t i = r < -9223372036854775808.0 ? INT64_MIN
                    : r >= 9223372036854775808.0 ? INT64_MAX : (int64_t)r;
        memcpy(dst, &i, 8);
        break;
    }
    }
}

/* Box-Muller pair from draws 2j and 2j+1 (1 - u keeps log's argument in
 * (0, 1]). */
static void normal_pair(uint32_t k0, uint32_t k1, size_t j, double *z0,
                        double *z1)
{
    double u1 = (double)(tk_hash32((uint32_t)(2 * j), k0, k1) >> 8) * 0x1p-24;
    double u2 = (double)(tk_hash32((uint32_t)(2 * j + 1), k0, k1) >> 8) *
                0x1p-24;
    double r = sqrt(-2.0 * log(1.0 - u1));

    *z0 = r * cos(2.0 * M_PI * u2);
    *z1 = r * sin(2.0 * M_PI * u2);
}

/* One thread's share of a creation job. Shares of normal draws start on
 * even elements so each pair is computed once. */
static void create_task(void *arg, unsigned tid, unsigned nthr)
{
    create_job *j = arg;
    size_t es = tk_dtype_size(j->dtype);
    size_t b, e;
    uint32_t k0, k1;

    bh_split(j->n, 64 / es, tid, nthr, &b, &e);
    if (e <= b)
        return;
    tk_rand_keys(j->seed, &k0, &k1);
    switch (j->kind) {
    case 0:
        j->ops->fill64((char *)j->out + b * es, (e - b) * es, j->pattern, j->nt);
        if (j->nt)
            tk_sfence();
        break;
    case 1:
        if (j->dtype == TK_F32)
            j->ops->arange_f32((float *)j->out + b, b, e - b, j->p0, j->p1);
        else if (j->dtype == TK_F64)
            j->ops->arange_f64((double *)j->out + b, b, e - b, j->p0, j->p1);
        else
            for (size_t i = b; i < e; i++)
                encode(j->dtype, j->p0 + (double)i * j->p1,
                       (char *)j->out + i * es);
        break;
    case 2:
        if (j->dtype == TK_F32) {
            j->ops->rand_f32((float *)j->out + b, b, e - b, k0, k1,
                             (float)j->p0, (float)(j->p1 - j->p0));
        } else {
            double *o = j->out;

            for (size_t i = b; i < e; i++)
                o[i] = j->p0 + (j->p1 - j->p0) *
                                   ((double)(tk_hash32((uint32_t)i, k0, k1) >> 8) *
                                    0x1p-24);
        }
        break;
    default:
        for (size_t i = b; i < e; i += 2) {
            double z0, z1;

            normal_pair(k0, k1, i / 2, &z0, &z1);
            encode(j->dtype, j->p0 + j->p1 * z0, (char *)j->out + i * es);
            if (i + 1 < e)
                encode(j->dtype, j->p0 + j->p1 * z1,
                       (char *)j->out + (i + 1) * es);
        }
        break;
    }
}

/* Checks out and n for dtype; TK_OK or TK_EINVAL. */
static int check_out(const void *out, tk_dtype dtype, size_t n)
{
    size_t es = tk_dtype_size(dtype), bytes;

    if (es == 0 || (out == NULL && n != 0) || tk_mul_overflow(n, es, &bytes))
        return TK_EINVAL;
    return TK_OK;
}

/* Fills j's remaining fields and runs it over the pool. */
static int run_job(create_job *j, tk_pool *pool, double cost_per_byte)
{
    size_t bytes = j->n * tk_dtype_size(j->dtype);

    j->ops = tk_ops();
    if (j->n != 0)
        tk_pool_run(pool, (size_t)((double)bytes * cost_per_byte),
                    create_task, j);
    return TK_OK;
}

int tk_fill(void *out, tk_dtype dtype, size_t n, double value, tk_pool *pool)
{
    create_job j;
    size_t es = tk_dtype_size(dtype);

    if (check_out(out, dtype, n) != TK_OK)
        return TK_EINVAL;
    memset(&j, 0, sizeof(j));
    j.kind = 0;
    j.dtype = dtype;
    j.out = out;
    j.n = n;
    for (size_t i = 0; i < 64; i += es)
        encode(dtype, value, j.pattern + i);
    j.nt = tk_want_nt(n * es);
    return run_job(&j, pool, 1.0);
}

int tk_arange(void *out, tk_dtype dtype, size_t n, double start, double step,
              tk_pool *pool)
{
    create_job j;

    if (check_out(out, dtype, n) != TK_OK ||
        (dtype != TK_F32 && dtype != TK_F64 && dtype != TK_I32 &&
         dtype != TK_I64))
        return TK_EINVAL;
    memset(&j, 0, sizeof(j));
    j.kind = 1;
    j.dtype = dtype;
    j.out = out;
    j.n = n;
    j.p0 = start;
    j.p1 = step;
    return run_job(&j, pool, 2.0);
}

int tk_rand_uniform(void *out, tk_dtype dtype, size_t n, uint64_t seed,
                    double lo, double hi, tk_pool *pool)
{
    create_job j;

    if (check_out(out, dtype, n) != TK_OK ||
        (dtype != TK_F32 && dtype != TK_F64) || n > UINT32_MAX ||
        !(lo <= hi))
        return TK_EINVAL;
    memset(&j, 0, sizeof(j));
    j.kind = 2;
    j.dtype = dtype;
    j.out = out;
    j.n = n;
    j.p0 = lo;
    j.p1 = hi;
    j.seed = seed;
    return run_job(&j, pool, 4.0);
}

int tk_rand_normal(void *out, tk_dtype dtype, size_t n, uint64_t seed,
                   double mean, double stddev, tk_pool *pool)
{
    create_job j;

    if (check_out(out, dtype, n) != TK_OK ||
        (dtype != TK_F32 && dtype != TK_F64) || n > UINT32_MAX ||
        !(stddev >= 0.0))
        return TK_EINVAL;
    memset(&j, 0, sizeof(j));
    j.kind = 3;
    j.dtype = dtype;
    j.out = out;
    j.n = n;
    j.p0 = mean;
    j.p1 = stddev;
    j.seed = seed;
    return run_job(&j, pool, 32.0);
}
