// SPDX-License-Identifier: MIT
/*
 * wk_ops.c -- the tensor kernels of wasm-sim (see wk.h). Freestanding C:
 * compiled to wasm32 by clang and natively by the host compiler from this
 * one file. Loops are plain and scalar on purpose: the wasm build is the
 * scalar wasm a browser would run without SIMD.
 */
#include "wk.h"

typedef union {
    float f;
    uint32_t u;
} wk_bits;

/* The bits of f. */
static uint32_t f2u(float f)
{
    wk_bits b;

    b.f = f;
    return b.u;
}

/* The float with bits u. */
static float u2f(uint32_t u)
{
    wk_bits b;

    b.u = u;
    return b.f;
}

WK_EXPORT(wk_axpy)
void wk_axpy(uint32_t n, float a, const float *restrict x,
             const float *restrict y, float *restrict z)
{
    for (size_t i = 0; i < n; i++)
        z[i] = a * x[i] + y[i];
}

WK_EXPORT(wk_dot)
float wk_dot(uint32_t n, const float *x, const float *y)
{
    float s = 0.0f;

    for (size_t i = 0; i < n; i++)
        s += x[i] * y[i];
    return s;
}

WK_EXPORT(wk_sgemm)
void wk_sgemm(uint32_t m, uint32_t n, uint32_t k, const float *restrict a,
              const float *restrict b, float *restrict c)
{
    for (size_t i = 0; i < m; i++) {
        float *ci = c + i * n;

        for (size_t j = 0; j < n; j++)
            ci[j] = 0.0f;
        for (size_t p = 0; p < k; p++) {
            float aip = a[i * k + p];
            const float *bp = b + p * n;

            for (size_t j = 0; j < n; j++)
                ci[j] += aip * bp[j];
        }
    }
}

WK_EXPORT(wk_expf)
float wk_expf(float x)
{
    const float log2e = 1.44269504088896341f;
    const float ln2_hi = 0.693145752f; /* 0x3f317200: exact times n < 2^9 */
    const float ln2_lo = 1.42860677e-6f;
    float t, r, p;
    int32_t n;

    if (x != x)
        return x;
    if (x > 88.7228394f)
        return u2f(0x7f800000u);
    if (x < -87.3365479f)
        return 0.0f;
    t = x * log2e;
    n = (int32_t)(t >= 0.0f ? t + 0.5f : t - 0.5f);
    r = (x - (float)n * ln2_hi) - (float)n * ln2_lo;
    p = 1.0f + r * (1.0f + r * (0.5f + r * (0.166666672f +
                     r * (0.0416666679f + r * (0.00833333377f +
                     r * 0.00138888892f)))));
    if (n > 127)
        return p * u2f(0x7f000000u) * 2.0f;
    return p * u2f((uint32_t)(n + 127) << 23);
}

WK_EXPORT(wk_softmax)
void wk_softmax(uint32_t rows, uint32_t cols, const float *restrict x,
                float *restrict y)
{
    for (size_t r = 0; r < rows; r++) {
        const float *xr = x + r * cols;
        float *yr = y + r * cols;
        float mx = xr[0], sum = 0.0f, inv;

        for (size_t j = 1; j < cols; j++)
            if (xr[j] > mx)
                mx = xr[j];
        for (size_t j = 0; j < cols; j++) {
            float e = wk_expf(xr[j] - mx);

            yr[j] = e;
            sum += e;
        }
        inv = 1.0f / sum;
        for (size_t j = 0; j < cols; j++)
            yr[j] *= inv;
    }
}

WK_EXPORT(wk_qmatmul)
void wk_qmatmul(uint32_t m, uint32_t n, uint32_t k, const int8_t *restrict a,
                const int8_t *restrict bt, const float *restrict sa,
                const float *restrict sb, float *restrict c)
{
    for (size_t i = 0; i < m; i++) {
        const int8_t *ai = a + i * k;

        for (size_t j = 0; j < n; j++) {
            const int8_t *bj = bt + j * k;
            int32_t acc = 0;

            for (size_t p = 0; p < k; p++)
                acc += (int32_t)ai[p] * (int32_t)bj[p];
            c[i * n + j] = (float)acc * (sa[i] * sb[j]);
        }
    }
}

WK_EXPORT(wk_f16_to_f32)
float wk_f16_to_f32(uint16_t h)
{
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
    uint32_t e = (h >> 10) & 0x1fu, m = h & 0x3ffu;

    if (e == 0) {
        float f = (float)m * 5.96046448e-8f; /* m * 2^-24, exact */

        return sign ? -f : f;
    }
    if (e == 31)
        return u2f(sign | 0x7f800000u | (m << 13));
    return u2f(sign | ((e + 112u) << 23) | (m << 13));
}

WK_EXPORT(wk_f32_to_f16)
uint16_t wk_f32_to_f16(float f)
{
    /* Round to nearest even: F. Giesen's float_to_half_fast3_rtne. */
    const uint32_t f32inf = 255u << 23, f16max = (127u + 16u) << 23;
    const float denorm_magic = u2f(((127u - 15u) + (23u - 10u) + 1u) << 23);
    uint32_t x = f2u(f), sign = x & 0x80000000u, o;

    x ^= sign;
    if (x >= f16max) {
        o = x > f32inf ? 0x7e00u : 0x7c00u;
    } else if (x < (113u << 23)) {
        o = f2u(u2f(x) + denorm_magic) - f2u(denorm_magic);
    } else {
        uint32_t odd = (x >> 13) & 1u;

        x -= (127u - 15u) << 23;
        x += 0xfffu + odd;
        o = x >> 13;
    }
    return (uint16_t)(o | (sign >> 16));
}

WK_EXPORT(wk_hgemm)
void wk_hgemm(uint32_t m, uint32_t n, uint32_t k, const float *restrict a,
              const uint16_t *restrict bh, float *restrict c)
{
    for (size_t i = 0; i < m; i++) {
        float *ci = c + i * n;

        for (size_t j = 0; j < n; j++)
            ci[j] = 0.0f;
        for (size_t p = 0; p < k; p++) {
            float aip = a[i * k + p];
            const uint16_t *bp = bh + p * n;

            for (size_t j = 0; j < n; j++)
                ci[j] += aip * wk_f16_to_f32(bp[j]);
        }
    }
}

WK_EXPORT(wk_quantize_rows)
void wk_quantize_rows(uint32_t m, uint32_t k, const float *restrict x,
                      int8_t *restrict q, float *restrict scale)
{
    for (size_t i = 0; i < m; i++) {
        const float *xi = x + i * k;
        float mx = 0.0f, inv;

        for (size_t p = 0; p < k; p++) {
            float v = xi[p] < 0.0f ? -xi[p] : xi[p];

            if (v > mx)
                mx = v;
        }
        if (!(mx > 0.0f))
            mx = 127.0f;
        scale[i] = mx / 127.0f;
        inv = 127.0f / mx;
        for (size_t p = 0; p < k; p++) {
            float v = xi[p] * inv;
            int32_t r = (int32_t)(v >= 0.0f ? v + 0.5f : v - 0.5f);

            q[i * k + p] = (int8_t)(r > 127 ? 127 : r < -127 ? -127 : r);
        }
    }
}
