// SPDX-License-Identifier: MIT
/*
 * test_quant.c -- half-precision conversions (exhaustive f16, nearest-even
 * property of f32 -> f16/bf16, vector paths against the scalar ones on
 * every ISA level) and int8/int4 quantization per tensor and per channel
 * against the definition, with odd row lengths.
 */
#include "tt_util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Every half value survives f16 -> f32 -> f16 (NaN stays NaN). */
static void test_f16_exhaustive(void **state)
{
    (void)state;
    for (uint32_t h = 0; h < 65536; h++) {
        float f = tk_f16_to_f32((uint16_t)h);

        if ((h & 0x7C00u) == 0x7C00u && (h & 0x3FFu) != 0)
            assert_true(isnan(f));
        else
            assert_int_equal(tk_f32_to_f16(f), h);
    }
    assert_true(tk_f16_to_f32(0x3C00) == 1.0f);
    assert_true(tk_f16_to_f32(0x0001) == 0x1p-24f);
    assert_true(tk_f16_to_f32(0xFBFF) == -65504.0f);
}

/* True when h is a nearest half to x, ties to even. */
static int nearest_f16(float x, uint16_t h)
{
    double v = tk_f16_to_f32(h), d = fabs((double)x - v);
    uint16_t up = (uint16_t)(h + 1), dn = (uint16_t)(h - 1);

    if (isinf(v))
        return fabs((double)x) >= 65520.0;
    if ((h & 0x7FFFu) != 0x7BFFu && fabs((double)x - tk_f16_to_f32(up)) < d)
        return 0;
    if ((h & 0x7FFFu) != 0 && fabs((double)x - tk_f16_to_f32(dn)) < d)
        return 0;
    if ((h & 0x7FFFu) != 0x7BFFu && fabs((double)x - tk_f16_to_f32(up)) == d)
        return (h & 1u) == 0;
    return 1;
}

/* Random and edge floats: scalar conversions round to nearest even; the
 * vector array conversions match the scalar ones bit for bit. */
static void half_at(int level, void *ctx)
{
    const size_t n = 100003;
    float *x = tt_alloc(n * 4), *back = tt_alloc(n * 4);
    uint16_t *h = tt_alloc(n * 2), *b = tt_alloc(n * 2);
    tt_rng r;

    (void)ctx;
    tt_seed(&r, 1100 + (uint64_t)level);
    for (size_t i = 0; i < n; i++) {
        double mag = pow(2.0, tt_uniform(&r, -30, 20));

        x[i] = (float)(i & 1 ? -mag : mag);
    }
    x[0] = 65504.0f;
    x[1] = 65519.0f;
    x[2] = 65520.0f;
    x[3] = 0x1p-25f;
    x[4] = 0x1.8p-25f;
    x[5] = NAN;
    x[6] = -INFINITY;
    x[7] = 1.0f + 0x1p-11f; /* a tie: rounds to even 1.0 */
    x[8] = 3.4e38f;
    assert_int_equal(tk_cvt_f32_f16(x, h, n, NULL), TK_OK);
    assert_int_equal(tk_cvt_f32_bf16(x, b, n, NULL), TK_OK);
    for (size_t i = 0; i < n; i++) {
        if (isnan(x[i])) {
            assert_true(isnan(tk_f16_to_f32(h[i])) && isnan(tk_bf16_to_f32(b[i])));
            continue;
        }
        assert_int_equal(h[i], tk_f32_to_f16(x[i]));
        assert_int_equal(b[i], tk_f32_to_bf16(x[i]));
        assert_true(nearest_f16(x[i], h[i]));
        /* bf16: 8 significant bits, nearest even, computed in double
         * (x is normal here); past the largest bf16 it is inf. */
        {
            int e;
            double m = frexp((double)x[i], &e);
            double v = ldexp(nearbyint(m * 256.0), e - 8);

            if (fabs(v) > 0x1.FEp127)
                v = copysign(INFINITY, v);
            assert_true(tk_bf16_to_f32(b[i]) == (float)v);
        }
    }
    assert_int_equal(h[7], 0x3C00);
    assert_int_equal(tk_cvt_f16_f32(h, back, n, NULL), TK_OK);
    for (size_t i = 0; i < n; i++)
        if (!isnan(x[i]))
            assert_true(back[i] == tk_f16_to_f32(h[i]));
    assert_int_equal(tk_cvt_bf16_f32(b, back, n, NULL), TK_OK);
    for (size_t i = 0; i < n; i++)
        if (!isnan(x[i]))
            assert_true(back[i] == tk_bf16_to_f32(b[i]));
    free(x);
    free(back);
    free(h);
    free(b);
}

static void test_half_arrays(void **state)
{
    (void)state;
    tt_each_isa(half_at, NULL);
}

/* One quantization case against the definition. */
static void check_quant(size_t rows, size_t cols, int bits, int per_channel,
                        tk_pool *pool, tt_rng *r)
{
    float qmax = bits == 8 ? 127.0f : 7.0f;
    size_t rowb = bits == 8 ? cols : (cols + 1) / 2;
    float *x = tt_alloc(rows * cols * 4), *y = tt_alloc(rows * cols * 4);
    float *sc = tt_alloc(rows * 4);
    unsigned char *q = tt_alloc(rows * rowb);
    float amax_all = 0.0f;

    tt_fill_f32(r, x, rows * cols, -3, 3);
    if (rows > 1)
        memset(x + cols, 0, cols * 4); /* an all-zero channel: scale 1 */
    for (size_t i = 0; i < rows * cols; i++)
        amax_all = fabsf(x[i]) > amax_all ? fabsf(x[i]) : amax_all;
    if (bits == 8) {
        assert_int_equal(tk_quantize_i8(x, (int8_t *)q, sc, rows, cols, per_channel,
                                        pool), TK_OK);
        assert_int_equal(tk_dequantize_i8((int8_t *)q, sc, y, rows, cols,
                                          per_channel, pool), TK_OK);
    } else {
        assert_int_equal(tk_quantize_i4(x, q, sc, rows, cols, per_channel, pool),
                         TK_OK);
        assert_int_equal(tk_dequantize_i4(q, sc, y, rows, cols, per_channel, pool),
                         TK_OK);
    }
    for (size_t rr = 0; rr < rows; rr++) {
        float amax = 0.0f, s;

        for (size_t c = 0; c < cols; c++)
            amax = fabsf(x[rr * cols + c]) > amax ? fabsf(x[rr * cols + c]) : amax;
        if (!per_channel)
            amax = amax_all;
        s = amax > 0.0f ? amax / qmax : 1.0f;
        assert_true(sc[per_channel ? rr : 0] == s);
        for (size_t c = 0; c < cols; c++) {
            float v = nearbyintf(x[rr * cols + c] / s);
            int want = (int)(v > qmax ? qmax : v < -qmax ? -qmax : v);
            int got;

            if (bits == 8) {
                got = ((int8_t *)q)[rr * cols + c];
            } else {
                unsigned nib = (q[rr * rowb + c / 2] >> (4 * (c & 1))) & 15u;

                got = (int)nib - (nib & 8u ? 16 : 0);
            }
            assert_int_equal(got, want);
            assert_true(y[rr * cols + c] == (float)want * s);
            assert_true(fabsf(y[rr * cols + c] - x[rr * cols + c]) <= s * 0.5001f);
        }
        if (bits == 4 && (cols & 1)) /* the pad nibble stays 0 */
            assert_int_equal(q[rr * rowb + rowb - 1] >> 4, 0);
    }
    free(x);
    free(y);
    free(sc);
    free(q);
}

/* Every format, granularity and odd size at one level. */
static void quant_at(int level, void *ctx)
{
    tt_rng r;

    (void)ctx;
    tt_seed(&r, 1200 + (uint64_t)level);
    for (size_t s = 0; s < tt_nsizes; s++)
        for (int bits = 4; bits <= 8; bits += 4)
            for (int pc = 0; pc < 2; pc++)
                check_quant(3, tt_sizes[s], bits, pc, NULL, &r);
}

static void test_quant(void **state)
{
    tk_pool *pool = tk_pool_create(3);
    tt_rng r;

    (void)state;
    tt_each_isa(quant_at, NULL);
    tt_seed(&r, 1300);
    for (int bits = 4; bits <= 8; bits += 4)
        for (int pc = 0; pc < 2; pc++)
            check_quant(301, 1001, bits, pc, pool, &r);
    assert_int_equal(tk_quantize_i8(NULL, NULL, NULL, 1, 1, 0, NULL), TK_EINVAL);
    tk_pool_destroy(pool);
}

int tt_group_quant(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_f16_exhaustive),
        cmocka_unit_test(test_half_arrays),
        cmocka_unit_test(test_quant),
    };

    return cmocka_run_group_tests_name("tensor_quant", tests, NULL, NULL);
}
