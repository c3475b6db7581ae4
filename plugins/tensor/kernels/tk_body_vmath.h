// SPDX-License-Identifier: MIT
/*
 * tk_body_vmath.h -- f32 polynomial approximations of exp, log, tanh,
 * sigmoid and gelu over the vector vocabulary. Included by the three ISA
 * files after their tk_simd*.h.
 *
 * Accuracy (worst relative error against double over dense sweeps, see
 * tests/test_ew.c; identical on every ISA level):
 *  exp:     2.3e-7 on [-87.3, 88.7]; subnormal results rounded (below
 *           -103.9 they are 0), inf above 88.72, NaN kept.
 *  log:     1.7e-7 for normal and subnormal x > 0; log(0) = -inf,
 *           log(x < 0) = NaN, log(inf) = inf.
 *  tanh:    2.6e-7 (odd Taylor polynomial below |x| = 0.3,
 *           1 - 2 / (exp(2|x|) + 1) above).
 *  sigmoid: 2.8e-7 where the result is a normal float.
 *  gelu:    x / (1 + exp(-2u)), u = sqrt(2/pi) (x + 0.044715 x^3): the same
 *           tanh-form value as 0.5 x (1 + tanh u), without its cancellation
 *           for negative x; 3e-7 plus the rounding of the f32 argument
 *           (1.3e-5 at x = -9.9, where -2u is 73).
 */

#if !defined(TK_HAS_SCALEF)
/* p * 2^n for integral n in [-150, 128]: two exponent-field factors, each
 * 2^k with k in [-75, 64], so neither over- nor underflows on its own. */
static inline TK_T vf vf_scalef(vf p, vf n)
{
    vi n1 = vf_cvt_vi(vf_mul(n, vf_set1(0.5f)));
    vi n2 = vi_sub(vf_cvt_vi(n), n1);
    vf f1 = vi_as_vf(vi_sll(vi_add(n1, vi_set1(127)), 23));
    vf f2 = vi_as_vf(vi_sll(vi_add(n2, vi_set1(127)), 23));

    return vf_mul(vf_mul(p, f1), f2);
}
#endif

/* e^x: x clamped to [-104, 88.8] (beyond, the result is 0 or inf anyway;
 * the operand order keeps NaN), n = round(x / ln2), r = x - n ln2
 * (two-constant Cody-Waite), a degree-6 Taylor polynomial of e^r on
 * |r| <= ln2 / 2 (truncation r^7 / 7! < 1.2e-7 relative), scaled by 2^n
 * (vscalefps on AVX-512, exponent-field factors elsewhere), which also
 * rounds subnormal results correctly and overflows to inf. */
static inline TK_T vf vf_exp(vf x0)
{
    vf x = vf_max(vf_set1(-104.0f), vf_min(vf_set1(88.8f), x0));
    vf n = vf_round(vf_mul(x, vf_set1(1.44269504088896341f)));
    vf r = vf_fnma(n, vf_set1(0.693145751953125f), x);
    vf p = vf_set1(1.0f / 720.0f);

    r = vf_fnma(n, vf_set1(1.42860682030941723212e-6f), r);
    p = vf_fma(p, r, vf_set1(1.0f / 120.0f));
    p = vf_fma(p, r, vf_set1(1.0f / 24.0f));
    p = vf_fma(p, r, vf_set1(1.0f / 6.0f));
    p = vf_fma(p, r, vf_set1(0.5f));
    p = vf_fma(p, r, vf_set1(1.0f));
    p = vf_fma(p, r, vf_set1(1.0f));
    return vf_scalef(p, n);
}

/* ln x: x = m 2^e with m in [sqrt(1/2), sqrt(2)), s = (m - 1) / (m + 1),
 * ln m = 2 atanh s = 2s (1 + s^2/3 + s^4/5 + s^6/7 + s^8/9) (|s| <= 0.1716,
 * truncation < 1e-9 relative), plus e ln2 in two parts. */
static inline TK_T vf vf_log(vf x0)
{
    const vf one = vf_set1(1.0f);
    vfm sub = vf_lt(x0, vf_set1(1.17549435e-38f));
    vf x = vf_sel(sub, x0, vf_mul(x0, vf_set1(8388608.0f)));
    vi bits = vf_as_vi(x);
    vf e = vi_cvt_vf(vi_sub(vi_srl(bits, 23), vi_set1(127)));
    vf m = vi_as_vf(vi_or(vi_and(bits, vi_set1(0x007FFFFF)),
                          vi_set1(0x3F800000)));
    vfm big = vf_gt(m, vf_set1(1.41421356f));
    vf f, s, z, p, y;

    e = vf_sel(sub, e, vf_sub(e, vf_set1(23.0f)));
    m = vf_sel(big, m, vf_mul(m, vf_set1(0.5f)));
    e = vf_sel(big, e, vf_add(e, one));
    f = vf_sub(m, one);
    s = vf_div(f, vf_add(f, vf_set1(2.0f)));
    z = vf_mul(s, s);
    p = vf_fma(z, vf_set1(1.0f / 9.0f), vf_set1(1.0f / 7.0f));
    p = vf_fma(p, z, vf_set1(1.0f / 5.0f));
    p = vf_fma(p, z, vf_set1(1.0f / 3.0f));
    p = vf_mul(vf_mul(p, z), vf_add(s, s));
    y = vf_add(vf_add(s, s), vf_fma(e, vf_set1(-2.12194440e-4f), p));
    y = vf_fma(e, vf_set1(0.693359375f), y);
    y = vf_sel(vf_eq(x0, vf_zero()), y, vf_set1(-__builtin_inff()));
    y = vf_sel(vf_lt(x0, vf_zero()), y, vf_set1(__builtin_nanf("")));
    y = vf_sel(vf_eq(x0, vf_set1(__builtin_inff())), y, x0);
    return vf_sel(vf_eq(x0, x0), x0, y);
}

/* tanh x, odd: the Taylor polynomial x - x^3/3 + 2x^5/15 - 17x^7/315 +
 * 62x^9/2835 below |x| = 0.3 (truncation < 6e-8 relative), else
 * 1 - 2 / (e^{2|x|} + 1), with x's sign restored. */
static inline TK_T vf vf_tanh(vf x)
{
    vf a = vf_abs(x);
    vf z = vf_mul(x, x);
    vf p = vf_fma(z, vf_set1(62.0f / 2835.0f), vf_set1(-17.0f / 315.0f));
    vf big, y;

    p = vf_fma(p, z, vf_set1(2.0f / 15.0f));
    p = vf_fma(p, z, vf_set1(-1.0f / 3.0f));
    p = vf_fma(vf_mul(p, z), x, x);
    big = vf_exp(vf_add(a, a));
    big = vf_sub(vf_set1(1.0f),
                 vf_div(vf_set1(2.0f), vf_add(big, vf_set1(1.0f))));
    big = vi_as_vf(vi_or(vf_as_vi(big),
                         vi_and(vf_as_vi(x), vi_set1(INT32_MIN))));
    y = vf_sel(vf_lt(a, vf_set1(0.3f)), big, p);
    return vf_sel(vf_eq(x, x), x, y);
}

/* 1 / (1 + e^-x). */
static inline TK_T vf vf_sigmoid(vf x)
{
    vf e = vf_exp(vf_sub(vf_zero(), x));

    return vf_div(vf_set1(1.0f), vf_add(vf_set1(1.0f), e));
}

/* x / (1 + e^{-2u}) with -2u = x (c1 + c2 x^2). */
static inline TK_T vf vf_gelu(vf x)
{
    const vf c1 = vf_set1(-1.5957691216057308f);
    const vf c2 = vf_set1(-0.07135481627260025f);
    vf t = vf_mul(x, vf_fma(vf_mul(x, x), c2, c1));

    return vf_div(x, vf_add(vf_set1(1.0f), vf_exp(t)));
}
