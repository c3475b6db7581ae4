// SPDX-License-Identifier: MIT
/*
 * tk_body_misc.h -- STREAM kernels, f16/bf16 conversions and int8
 * quantization over the vector vocabulary, for one contiguous chunk.
 * Contracts in tk_internal.h (tk_isa_ops).
 */

typedef struct stream_ctx {
    const double *x;
    const double *y;
    vd s;
} stream_ctx;

#define CP_F(C, i) vd_ld((C)->x + (i))
#define CP_P(C, i, k) vd_ldn((C)->x + (i), (k), 0.0)
#define SC_F(C, i) vd_mul((C)->s, vd_ld((C)->x + (i)))
#define SC_P(C, i, k) vd_mul((C)->s, vd_ldn((C)->x + (i), (k), 0.0))
#define AD_F(C, i) vd_add(vd_ld((C)->x + (i)), vd_ld((C)->y + (i)))
#define AD_P(C, i, k) vd_add(vd_ldn((C)->x + (i), (k), 0.0), vd_ldn((C)->y + (i), (k), 0.0))
#define TR_F(C, i) vd_fma((C)->s, vd_ld((C)->y + (i)), vd_ld((C)->x + (i)))
#define TR_P(C, i, k)                                                          \
    vd_fma((C)->s, vd_ldn((C)->y + (i), (k), 0.0), vd_ldn((C)->x + (i), (k), 0.0))

/* kind (tk_stream_kind): copy c = a, scale b = s c, add c = a + b,
 * triad a = b + s c. */
static TK_T void stream_k(int kind, double *a, double *b, double *c, size_t n,
                          double s, int nt)
{
    stream_ctx cx;

    cx.s = vd_set1(s);
    switch (kind) {
    case TK_STREAM_COPY:
        cx.x = a;
        cx.y = NULL;
        TK_MAP_F64(c, n, nt, CP_F, CP_P, &cx);
        break;
    case TK_STREAM_SCALE:
        cx.x = c;
        cx.y = NULL;
        TK_MAP_F64(b, n, nt, SC_F, SC_P, &cx);
        break;
    case TK_STREAM_ADD:
        cx.x = a;
        cx.y = b;
        TK_MAP_F64(c, n, nt, AD_F, AD_P, &cx);
        break;
    default:
        cx.x = b;
        cx.y = c;
        TK_MAP_F64(a, n, nt, TR_F, TR_P, &cx);
        break;
    }
}

/* f32 -> IEEE half, round to nearest even. */
static TK_T void cvt_f32_f16(const float *x, uint16_t *y, size_t n)
{
    size_t i = 0;

    for (; i + VF_N <= n; i += VF_N)
        vf_st_f16(y + i, vf_ld(x + i));
    if (i < n)
        vf_st_f16n(y + i, vf_ldn(x + i, n - i, 0.0f), n - i);
}

/* IEEE half -> f32 (exact). */
static TK_T void cvt_f16_f32(const uint16_t *x, float *y, size_t n)
{
    size_t i = 0;

    for (; i + VF_N <= n; i += VF_N)
        vf_st(y + i, vf_ld_f16(x + i));
    if (i < n)
        vf_stn(y + i, vf_ld_f16n(x + i, n - i), n - i);
}

/* bf16 bits of v, round to nearest even; NaN stays a quiet NaN. */
static inline TK_T vi to_bf16(vf v)
{
    vi b = vf_as_vi(v);
    vi r = vi_add(vi_set1(0x7FFF), vi_and(vi_srl(b, 16), vi_set1(1)));
    vi rounded = vi_srl(vi_add(b, r), 16);
    vi nan = vi_or(vi_srl(b, 16), vi_set1(0x40));

    return vi_sel(vf_eq(v, v), nan, rounded);
}

/* f32 -> bf16. */
static TK_T void cvt_f32_bf16(const float *x, uint16_t *y, size_t n)
{
    size_t i = 0;

    for (; i + VF_N <= n; i += VF_N)
        vi_st_u16(y + i, to_bf16(vf_ld(x + i)));
    if (i < n)
        vi_st_u16n(y + i, to_bf16(vf_ldn(x + i, n - i, 0.0f)), n - i);
}

/* bf16 -> f32 (exact). */
static TK_T void cvt_bf16_f32(const uint16_t *x, float *y, size_t n)
{
    size_t i = 0;

    for (; i + VF_N <= n; i += VF_N)
        vf_st(y + i, vi_as_vf(vi_sll(vi_ld_u16(x + i), 16)));
    if (i < n)
        vf_stn(y + i, vi_as_vf(vi_sll(vi_ld_u16n(x + i, n - i), 16)), n - i);
}

/* max |x[i]|, 0 for n = 0. */
static TK_T float absmax_f32(const float *x, size_t n)
{
    vf m0 = vf_zero(), m1 = vf_zero();
    size_t i = 0;

    for (; i + 2 * VF_N <= n; i += 2 * VF_N) {
        m0 = vf_max(m0, vf_abs(vf_ld(x + i)));
        m1 = vf_max(m1, vf_abs(vf_ld(x + i + VF_N)));
    }
    for (; i < n; i += VF_N)
        m0 = vf_max(m0, vf_abs(vf_ldn(x + i, n - i < VF_N ? n - i : VF_N, 0.0f)));
    return vf_hmax(vf_max(m0, m1));
}

/* clamp(rint(v / s), -qm, qm) as int32 lanes. */
static inline TK_T vi q8(vf v, vf s, vf qm)
{
    vf q = vf_round(vf_div(v, s));

    return vf_cvt_vi(vf_min(vf_max(q, vf_sub(vf_zero(), qm)), qm));
}

/* q[i] = clamp(rint(x[i] / scale), -qmax, qmax) (127 for int8, 7 for the
 * int4 values before packing). */
static TK_T void quant_i8(const float *x, int8_t *q, size_t n, float scale,
                          float qmax)
{
    const vf s = vf_set1(scale), qm = vf_set1(qmax);
    size_t i = 0;

    for (; i + VF_N <= n; i += VF_N)
        vi_st_i8(q + i, q8(vf_ld(x + i), s, qm));
    if (i < n)
        vi_st_i8n(q + i, q8(vf_ldn(x + i, n - i, 0.0f), s, qm), n - i);
}

/* y[i] = q[i] * scale. */
static TK_T void dequant_i8(const int8_t *q, float *y, size_t n, float scale)
{
    const vf s = vf_set1(scale);
    size_t i = 0;

    for (; i + VF_N <= n; i += VF_N)
        vf_st(y + i, vf_mul(vi_cvt_vf(vi_ld_i8(q + i)), s));
    if (i < n)
        vf_stn(y + i, vf_mul(vi_cvt_vf(vi_ld_i8n(q + i, n - i)), s), n - i);
}
