// SPDX-License-Identifier: MIT
/*
 * tk_half.c -- IEEE half and bfloat16: exact scalar conversions (round to
 * nearest even, subnormals kept, NaN quieted) and the threaded array
 * conversions, whose vector kernels are in tk_body_misc.h.
 */
#include "tk_internal.h"

#include <string.h>

uint16_t tk_f32_to_f16(float x)
{
    uint32_t b, mant, h;
    uint16_t sign;
    int e;

    memcpy(&b, &x, sizeof(b));
    sign = (uint16_t)((b >> 16) & 0x8000u);
    b &= 0x7FFFFFFFu;
    if (b > 0x7F800000u) /* NaN: quiet, top payload bits kept */
        return (uint16_t)(sign | 0x7E00u | ((b >> 13) & 0x3FFu));
    e = (int)(b >> 23) - 127;
    mant = b & 0x7FFFFFu;
    if (e > 15) /* >= 2^16, or inf */
        return (uint16_t)(sign | 0x7C00u);
    if (e >= -14) { /* normal: drop 13 bits, round to even (may carry to inf) */
        uint32_t rem = mant & 0x1FFFu;

        h = ((uint32_t)(e + 15) << 10) | (mant >> 13);
        if (rem > 0x1000u || (rem == 0x1000u && (h & 1u)))
            h++;
        return (uint16_t)(sign | h);
    }
    if (e >= -25) { /* subnormal half: units of 2^-24 */
        uint32_t m = mant | 0x800000u;
        int s = -(e + 1);
        uint32_t rem = m & ((1u << s) - 1u), half = 1u << (s - 1);

        h = m >> s;
        if (rem > half || (rem == half && (h & 1u)))
            h++;
        return (uint16_t)(sign | h);
    }
    return sign;
}

float tk_f16_to_f32(uint16_t h)
{
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
    uint32_t e = (h >> 10) & 0x1Fu, m = h & 0x3FFu, b;
    float f;

    if (e == 0) {
        f = (float)m * 0x1p-24f;
        return sign ? -f : f;
    }
    if (e == 31)
        b = sign | 0x7F800000u | (m << 13);
    else
        b = sign | ((e + 112u) << 23) | (m << 13);
    memcpy(&f, &b, sizeof(f));
    return f;
}

uint16_t tk_f32_to_bf16(float x)
{
    uint32_t b;

    memcpy(&b, &x, sizeof(b));
    if ((b & 0x7FFFFFFFu) > 0x7F800000u)
        return (uint16_t)((b >> 16) | 0x40u);
    b += 0x7FFFu + ((b >> 16) & 1u);
    return (uint16_t)(b >> 16);
}

float tk_bf16_to_f32(uint16_t h)
{
    uint32_t b = (uint32_t)h << 16;
    float f;

    memcpy(&f, &b, sizeof(f));
    return f;
}

typedef struct cvt_job {
    int kind; /* 0 f32->f16, 1 f16->f32, 2 f32->bf16, 3 bf16->f32 */
    const void *x;
    void *y;
    size_t n;
    const tk_isa_ops *ops;
} cvt_job;

/* Thread tid's share of the conversion. */
static void cvt_task(void *arg, unsigned tid, unsigned nthr)
{
    const cvt_job *j = arg;
    size_t b, e;

    bh_split(j->n, 32, tid, nthr, &b, &e);
    if (e <= b)
        return;
    switch (j->kind) {
    case 0:
        j->ops->cvt_f32_f16((const float *)j->x + b, (uint16_t *)j->y + b, e - b);
        break;
    case 1:
        j->ops->cvt_f16_f32((const uint16_t *)j->x + b, (float *)j->y + b, e - b);
        break;
    case 2:
        j->ops->cvt_f32_bf16((const float *)j->x + b, (uint16_t *)j->y + b, e - b);
        break;
    default:
        j->ops->cvt_bf16_f32((const uint16_t *)j->x + b, (float *)j->y + b, e - b);
        break;
    }
}

/* Checks and runs one conversion of n elements. */
static int run_cvt(int kind, const void *x, void *y, size_t n, tk_pool *pool)
{
    cvt_job j = {kind, x, y, n, NULL};
    size_t bytes;

    if ((n != 0 && (x == NULL || y == NULL)) ||
        tk_mul_overflow(n, 6, &bytes))
        return TK_EINVAL;
    if (n == 0)
        return TK_OK;
    j.ops = tk_ops();
    tk_pool_run(pool, bytes, cvt_task, &j);
    return TK_OK;
}

int tk_cvt_f32_f16(const float *x, uint16_t *y, size_t n, tk_pool *pool)
{
    return run_cvt(0, x, y, n, pool);
}

int tk_cvt_f16_f32(const uint16_t *x, float *y, size_t n, tk_pool *pool)
{
    return run_cvt(1, x, y, n, pool);
}

int tk_cvt_f32_bf16(const float *x, uint16_t *y, size_t n, tk_pool *pool)
{
    return run_cvt(2, x, y, n, pool);
}

int tk_cvt_bf16_f32(const uint16_t *x, float *y, size_t n, tk_pool *pool)
{
    return run_cvt(3, x, y, n, pool);
}
