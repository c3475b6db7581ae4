// SPDX-License-Identifier: MIT
/*
 * ie_kern_body.h -- the engine's host kernels written once in GCC vector
 * extensions. Include from exactly one .c file per instruction set after
 * defining IE_T (a target attribute, or nothing), IE_FN(name) (a suffixed
 * name) and VN (floats per vector). Every function carries IE_T, so an
 * AVX-512 body is only executed after ie_kern_get() chose it.
 *
 * Accuracy: vexp is Cephes' expf polynomial (a few ulp); gelu_erf uses
 * Abramowitz-Stegun 7.1.26 for erf (absolute error <= 1.5e-7).
 */
#include <stdint.h>
#include <string.h>

typedef float vf __attribute__((vector_size(VN * 4)));
typedef int32_t vi __attribute__((vector_size(VN * 4)));
typedef uint32_t vu __attribute__((vector_size(VN * 4)));
typedef uint16_t vh __attribute__((vector_size(VN * 2)));
typedef int8_t vb __attribute__((vector_size(VN)));

static inline IE_T vf vld(const float *p)
{
    vf v;

    memcpy(&v, p, sizeof(v));
    return v;
}

static inline IE_T void vst(float *p, vf v)
{
    memcpy(p, &v, sizeof(v));
}

static inline IE_T vf vset(float x)
{
    vf z = {0};

    return z + x;
}

/* bf16 -> f32 of VN values. */
static inline IE_T vf vld_bf16(const uint16_t *p)
{
    vh h;
    vu u;

    memcpy(&h, p, sizeof(h));
    u = __builtin_convertvector(h, vu) << 16;
    return (vf)u;
}

/* int8 -> f32 of VN values (IE_LOAD_I8 from the ISA file when set: GCC
 * 12 scalarizes the generic int8 -> float conversion). */
static inline IE_T vf vld_i8(const int8_t *p)
{
#if defined(IE_LOAD_I8)
    return IE_LOAD_I8(p);
#else
    vb b;

    memcpy(&b, p, sizeof(b));
    return __builtin_convertvector(b, vf);
#endif
}

/* Sum of the lanes by halving (log2(VN) shuffle + add steps; GCC's
 * __builtin_shuffle or clang's __builtin_shufflevector). */
#if defined(__clang__)
#define SHUF(v, ...) __builtin_shufflevector(v, v, __VA_ARGS__)
#else
#define SHUF(v, ...) __builtin_shuffle(v, (vi){__VA_ARGS__})
#endif

static inline IE_T float hsum(vf v)
{
#if VN == 16
    v += SHUF(v, 8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7);
    v += SHUF(v, 4, 5, 6, 7, 0, 1, 2, 3, 12, 13, 14, 15, 8, 9, 10, 11);
    v += SHUF(v, 2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13);
    v += SHUF(v, 1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14);
#elif VN == 8
    v += SHUF(v, 4, 5, 6, 7, 0, 1, 2, 3);
    v += SHUF(v, 2, 3, 0, 1, 6, 7, 4, 5);
    v += SHUF(v, 1, 0, 3, 2, 5, 4, 7, 6);
#else
    v += SHUF(v, 2, 3, 0, 1);
    v += SHUF(v, 1, 0, 3, 2);
#endif
    return v[0];
}

static inline IE_T vf vsel(vi m, vf a, vf b)
{
    return (vf)((m & (vi)a) | (~m & (vi)b));
}

static inline IE_T vf vmax(vf a, vf b)
{
    return vsel(a > b, a, b);
}

static inline IE_T vf vmin(vf a, vf b)
{
    return vsel(a < b, a, b);
}

static inline IE_T float hmax(vf v)
{
    float m = v[0];

    for (int i = 1; i < VN; i++)
        m = v[i] > m ? v[i] : m;
    return m;
}

/* e^x, clamped to [e^-87, e^88] (Cephes expf). */
static inline IE_T vf vexp(vf x)
{
    vf fx, fn, y, z;
    vi n;

    x = vmin(vmax(x, vset(-87.0f)), vset(88.0f));
    fx = x * 1.44269504088896341f + 0.5f;
    n = __builtin_convertvector(fx, vi);
    fn = __builtin_convertvector(n, vf);
    n = n + (fn > fx); /* truncation rounded up: step down (floor) */
    fn = __builtin_convertvector(n, vf);
    x = x - fn * 0.693359375f - fn * -2.12194440e-4f;
    z = x * x;
    y = vset(1.9875691500e-4f);
    y = y * x + 1.3981999507e-3f;
    y = y * x + 8.3334519073e-3f;
    y = y * x + 4.1665795894e-2f;
    y = y * x + 1.6666665459e-1f;
    y = y * x + 5.0000001201e-1f;
    y = y * z + x + 1.0f;
    return y * (vf)((n + 127) << 23);
}

static inline IE_T float sexp(float x)
{
    vf v = vset(x);

    return vexp(v)[0];
}

/* ---- Matrix-vector products --------------------------------------------- */

#define LOADW_F32(p) vld(p)
#define LOADW_BF16(p) vld_bf16(p)
#define LOADW_I8(p) vld_i8(p)
#define SW_F32(v) (v)
#define SW_BF16(v) ie_bf16_to_f32(v)
#define SW_I8(v) ((float)(v))

/* out[b] = W row . x[b] for NB (1, 2 or 4) rows of x, ldx apart. Every
 * accumulator is a named variable (two per row, two W vectors per step)
 * so that they stay in registers. */
#define ROW_TAIL(SW, b, acc)                                                   \
    do {                                                                       \
        float s_ = hsum(acc);                                                  \
        for (int j = i; j < cols; j++)                                         \
            s_ += SW(wr[j]) * x[(size_t)(b) * ldx + j];                        \
        out[b] = s_;                                                           \
    } while (0)

/* Software prefetch of the weight stream PF_AHEAD bytes ahead of the
 * loads, one hint per cache line of the span a step reads: the hardware
 * prefetcher alone leaves about a tenth of the read bandwidth unused on
 * the machines measured (plugins/inference/README.md). The hint is
 * non-temporal (prefetchnta): every weight byte is read once per step, so
 * it should not evict the activations and the KV cache from L2/L3; on the
 * 2-core EPYC (Zen 5) VM that made gpt2 decode 4-10% faster than
 * prefetcht0 at 8 KiB (paired runs). Hints past the end of the matrix are
 * harmless. */
#define PF_AHEAD 4096
#define PREFETCH_SPAN(p, bytes)                                                \
    do {                                                                       \
        for (int pf_ = 0; pf_ < (int)(bytes); pf_ += 64)                       \
            __builtin_prefetch((const char *)(p) + PF_AHEAD + pf_, 0, 0);      \
    } while (0)

#define DEF_ROWDOT(SUF, WT, LOADW, SW)                                         \
    static inline IE_T void IE_FN(rowdot_##SUF##_1)(                           \
        const WT *wr, int cols, const float *x, int ldx, float *out)           \
    {                                                                          \
        vf a = vset(0.0f), b = vset(0.0f), c = vset(0.0f), d = vset(0.0f);     \
        int i = 0;                                                             \
        (void)ldx;                                                             \
        for (; i + 4 * VN <= cols; i += 4 * VN) {                              \
            PREFETCH_SPAN(wr + i, 4 * VN * sizeof(WT));                        \
            a += LOADW(wr + i) * vld(x + i);                                   \
            b += LOADW(wr + i + VN) * vld(x + i + VN);                         \
            c += LOADW(wr + i + 2 * VN) * vld(x + i + 2 * VN);                 \
            d += LOADW(wr + i + 3 * VN) * vld(x + i + 3 * VN);                 \
        }                                                                      \
        for (; i + VN <= cols; i += VN)                                        \
            a += LOADW(wr + i) * vld(x + i);                                   \
        ROW_TAIL(SW, 0, (a + b) + (c + d));                                    \
    }                                                                          \
    static inline IE_T void IE_FN(rowdot_##SUF##_2)(                           \
        const WT *wr, int cols, const float *x, int ldx, float *out)           \
    {                                                                          \
        const float *x1 = x + ldx;                                             \
        vf a0 = vset(0.0f), a1 = vset(0.0f), b0 = vset(0.0f), b1 = vset(0.0f); \
        int i = 0;                                                             \
        for (; i + 2 * VN <= cols; i += 2 * VN) {                              \
            PREFETCH_SPAN(wr + i, 2 * VN * sizeof(WT));                        \
            vf w0 = LOADW(wr + i), w1 = LOADW(wr + i + VN);                    \
            a0 += w0 * vld(x + i);                                             \
            a1 += w0 * vld(x1 + i);                                            \
            b0 += w1 * vld(x + i + VN);                                        \
            b1 += w1 * vld(x1 + i + VN);                                       \
        }                                                                      \
        for (; i + VN <= cols; i += VN) {                                      \
            vf w0 = LOADW(wr + i);                                             \
            a0 += w0 * vld(x + i);                                             \
            a1 += w0 * vld(x1 + i);                                            \
        }                                                                      \
        ROW_TAIL(SW, 0, a0 + b0);                                              \
        ROW_TAIL(SW, 1, a1 + b1);                                              \
    }                                                                          \
    static inline IE_T void IE_FN(rowdot_##SUF##_4)(                           \
        const WT *wr, int cols, const float *x, int ldx, float *out)           \
    {                                                                          \
        const float *x1 = x + ldx, *x2 = x1 + ldx, *x3 = x2 + ldx;             \
        vf a0 = vset(0.0f), a1 = vset(0.0f), a2 = vset(0.0f), a3 = vset(0.0f); \
        vf b0 = vset(0.0f), b1 = vset(0.0f), b2 = vset(0.0f), b3 = vset(0.0f); \
        int i = 0;                                                             \
        for (; i + 2 * VN <= cols; i += 2 * VN) {                              \
            PREFETCH_SPAN(wr + i, 2 * VN * sizeof(WT));                        \
            vf w0 = LOADW(wr + i), w1 = LOADW(wr + i + VN);                    \
            a0 += w0 * vld(x + i);                                             \
            a1 += w0 * vld(x1 + i);                                            \
            a2 += w0 * vld(x2 + i);                                            \
            a3 += w0 * vld(x3 + i);                                            \
            b0 += w1 * vld(x + i + VN);                                        \
            b1 += w1 * vld(x1 + i + VN);                                       \
            b2 += w1 * vld(x2 + i + VN);                                       \
            b3 += w1 * vld(x3 + i + VN);                                       \
        }                                                                      \
        for (; i + VN <= cols; i += VN) {                                      \
            vf w0 = LOADW(wr + i);                                             \
            a0 += w0 * vld(x + i);                                             \
            a1 += w0 * vld(x1 + i);                                            \
            a2 += w0 * vld(x2 + i);                                            \
            a3 += w0 * vld(x3 + i);                                            \
        }                                                                      \
        ROW_TAIL(SW, 0, a0 + b0);                                              \
        ROW_TAIL(SW, 1, a1 + b1);                                              \
        ROW_TAIL(SW, 2, a2 + b2);                                              \
        ROW_TAIL(SW, 3, a3 + b3);                                              \
    }                                                                          \
    static inline IE_T void IE_FN(rowdot_##SUF##_8)(                           \
        const WT *wr, int cols, const float *x, int ldx, float *out)           \
    {                                                                          \
        const float *x1 = x + ldx, *x2 = x1 + ldx, *x3 = x2 + ldx;             \
        const float *x4 = x3 + ldx, *x5 = x4 + ldx, *x6 = x5 + ldx;            \
        const float *x7 = x6 + ldx;                                            \
        vf a0 = vset(0.0f), a1 = vset(0.0f), a2 = vset(0.0f), a3 = vset(0.0f); \
        vf a4 = vset(0.0f), a5 = vset(0.0f), a6 = vset(0.0f), a7 = vset(0.0f); \
        int i = 0;                                                             \
        for (; i + VN <= cols; i += VN) {                                      \
            vf w0 = LOADW(wr + i);                                             \
            a0 += w0 * vld(x + i);                                             \
            a1 += w0 * vld(x1 + i);                                            \
            a2 += w0 * vld(x2 + i);                                            \
            a3 += w0 * vld(x3 + i);                                            \
            a4 += w0 * vld(x4 + i);                                            \
            a5 += w0 * vld(x5 + i);                                            \
            a6 += w0 * vld(x6 + i);                                            \
            a7 += w0 * vld(x7 + i);                                            \
        }                                                                      \
        ROW_TAIL(SW, 0, a0);                                                   \
        ROW_TAIL(SW, 1, a1);                                                   \
        ROW_TAIL(SW, 2, a2);                                                   \
        ROW_TAIL(SW, 3, a3);                                                   \
        ROW_TAIL(SW, 4, a4);                                                   \
        ROW_TAIL(SW, 5, a5);                                                   \
        ROW_TAIL(SW, 6, a6);                                                   \
        ROW_TAIL(SW, 7, a7);                                                   \
    }

#define DEF_MV(SUF, WT)                                                        \
    DEF_ROWDOT(SUF, WT, LOADW_##SUF, SW_##SUF)                                 \
    static IE_T void IE_FN(mvs_##SUF)(const WT *w, const float *scale,         \
                                      int cols, int o0, int o1,                \
                                      const float *x, int ldx, int nb,         \
                                      float *y, int ldy)                       \
    {                                                                          \
        float out[8];                                                          \
        for (int o = o0; o < o1; o++) {                                        \
            const WT *wr = w + (size_t)o * cols;                               \
            float sc = scale ? scale[o] : 1.0f;                                \
            int b = 0;                                                         \
            for (; b + 8 <= nb; b += 8) {                                      \
                IE_FN(rowdot_##SUF##_8)(wr, cols, x + (size_t)b * ldx, ldx,    \
                                        out);                                  \
                for (int k = 0; k < 8; k++)                                    \
                    y[(size_t)(b + k) * ldy + o] = out[k] * sc;                \
            }                                                                  \
            if (nb - b >= 4) {                                                 \
                IE_FN(rowdot_##SUF##_4)(wr, cols, x + (size_t)b * ldx, ldx,    \
                                        out);                                  \
                for (int k = 0; k < 4; k++)                                    \
                    y[(size_t)(b + k) * ldy + o] = out[k] * sc;                \
                b += 4;                                                        \
            }                                                                  \
            if (nb - b >= 2) {                                                 \
                IE_FN(rowdot_##SUF##_2)(wr, cols, x + (size_t)b * ldx, ldx,    \
                                        out);                                  \
                for (int k = 0; k < 2; k++)                                    \
                    y[(size_t)(b + k) * ldy + o] = out[k] * sc;                \
                b += 2;                                                        \
            }                                                                  \
            if (nb - b == 1) {                                                 \
                IE_FN(rowdot_##SUF##_1)(wr, cols, x + (size_t)b * ldx, ldx,    \
                                        out);                                  \
                y[(size_t)b * ldy + o] = out[0] * sc;                          \
            }                                                                  \
        }                                                                      \
    }

DEF_MV(F32, float)
DEF_MV(BF16, uint16_t)
DEF_MV(I8, int8_t)

static IE_T void IE_FN(mv_f32)(const float *w, int cols, int o0, int o1,
                               const float *x, int ldx, int nb, float *y,
                               int ldy)
{
    IE_FN(mvs_F32)(w, NULL, cols, o0, o1, x, ldx, nb, y, ldy);
}

static IE_T void IE_FN(mv_bf16)(const uint16_t *w, int cols, int o0, int o1,
                                const float *x, int ldx, int nb, float *y,
                                int ldy)
{
    IE_FN(mvs_BF16)(w, NULL, cols, o0, o1, x, ldx, nb, y, ldy);
}

static IE_T void IE_FN(mv_i8)(const int8_t *w, const float *scale, int cols,
                              int o0, int o1, const float *x, int ldx, int nb,
                              float *y, int ldy)
{
    IE_FN(mvs_I8)(w, scale, cols, o0, o1, x, ldx, nb, y, ldy);
}

/* ---- Conversions ---------------------------------------------------------- */

static IE_T void IE_FN(deq_bf16)(const uint16_t *src, float *dst, size_t n)
{
    size_t i = 0;

    for (; i + VN <= n; i += VN)
        vst(dst + i, vld_bf16(src + i));
    for (; i < n; i++)
        dst[i] = ie_bf16_to_f32(src[i]);
}

static IE_T void IE_FN(deq_i8)(const int8_t *src, float scale, float *dst,
                               size_t n)
{
    size_t i = 0;

    for (; i + VN <= n; i += VN)
        vst(dst + i, vld_i8(src + i) * scale);
    for (; i < n; i++)
        dst[i] = (float)src[i] * scale;
}

/* ---- Vector primitives ------------------------------------------------------ */

static inline IE_T float IE_FN(dot)(const float *a, const float *b, int n)
{
    vf acc = vset(0.0f), acc2 = vset(0.0f);
    int i = 0;
    float s;

    for (; i + 2 * VN <= n; i += 2 * VN) {
        acc += vld(a + i) * vld(b + i);
        acc2 += vld(a + i + VN) * vld(b + i + VN);
    }
    for (; i + VN <= n; i += VN)
        acc += vld(a + i) * vld(b + i);
    s = hsum(acc + acc2);
    for (; i < n; i++)
        s += a[i] * b[i];
    return s;
}

static IE_T void IE_FN(add)(float *y, const float *x, size_t n)
{
    size_t i = 0;

    for (; i + VN <= n; i += VN)
        vst(y + i, vld(y + i) + vld(x + i));
    for (; i < n; i++)
        y[i] += x[i];
}

static IE_T void IE_FN(softmax)(float *x, int n, int ntotal)
{
    vf vm = vset(-3.0e38f), vs = vset(0.0f);
    float m, s = 0.0f, inv;
    int i = 0;

    for (; i + VN <= n; i += VN)
        vm = vmax(vm, vld(x + i));
    m = hmax(vm);
    for (; i < n; i++)
        m = x[i] > m ? x[i] : m;
    for (i = 0; i + VN <= n; i += VN) {
        vf e = vexp(vld(x + i) - m);

        vst(x + i, e);
        vs += e;
    }
    s = hsum(vs);
    for (; i < n; i++) {
        x[i] = sexp(x[i] - m);
        s += x[i];
    }
    inv = 1.0f / s;
    for (i = 0; i + VN <= n; i += VN)
        vst(x + i, vld(x + i) * inv);
    for (; i < n; i++)
        x[i] *= inv;
    for (i = n; i < ntotal; i++)
        x[i] = 0.0f;
}

/* Decode attention of one query head over n cached keys: out[0..hd) =
 * sum_i softmax(scale q.K[i])_i V[i], K and V rows hd floats apart; sc
 * holds n scores. The output stays in registers, 4 vectors of it per pass
 * over the keys. */
static IE_T void IE_FN(attend)(const float *q, const float *K, const float *V,
                               int n, int hd, float scale, float *sc,
                               float *out)
{
    size_t ld = (size_t)hd;
    int c = 0;

    for (int i = 0; i < n; i++)
        sc[i] = IE_FN(dot)(q, K + (size_t)i * ld, hd) * scale;
    IE_FN(softmax)(sc, n, n);
    for (; c + 4 * VN <= hd; c += 4 * VN) {
        vf a0 = vset(0.0f), a1 = vset(0.0f), a2 = vset(0.0f), a3 = vset(0.0f);

        for (int i = 0; i < n; i++) {
            const float *v = V + (size_t)i * ld + (size_t)c;
            vf p = vset(sc[i]);

            a0 += p * vld(v);
            a1 += p * vld(v + VN);
            a2 += p * vld(v + 2 * VN);
            a3 += p * vld(v + 3 * VN);
        }
        vst(out + c, a0);
        vst(out + c + VN, a1);
        vst(out + c + 2 * VN, a2);
        vst(out + c + 3 * VN, a3);
    }
    for (; c + VN <= hd; c += VN) {
        vf a = vset(0.0f);

        for (int i = 0; i < n; i++)
            a += sc[i] * vld(V + (size_t)i * ld + (size_t)c);
        vst(out + c, a);
    }
    for (; c < hd; c++) {
        float a = 0.0f;

        for (int i = 0; i < n; i++)
            a += sc[i] * V[(size_t)i * ld + (size_t)c];
        out[c] = a;
    }
}

/* ---- Activations -------------------------------------------------------- */

static inline IE_T vf v_gelu_tanh(vf x)
{
    vf u = 0.7978845608028654f * (x + 0.044715f * x * x * x);

    return x / (1.0f + vexp(-2.0f * u));
}

static inline IE_T vf v_gelu_erf(vf x)
{
    vf z = x * 0.7071067811865476f;
    vi neg = z < 0.0f;
    vf az = vsel(neg, -z, z);
    vf t = 1.0f / (1.0f + 0.3275911f * az);
    vf p = t * (0.254829592f +
                t * (-0.284496736f +
                     t * (1.421413741f + t * (-1.453152027f + t * 1.061405429f))));
    vf e = 1.0f - p * vexp(-az * az);

    e = vsel(neg, -e, e);
    return 0.5f * x * (1.0f + e);
}

static IE_T void IE_FN(gelu_tanh)(float *x, size_t n)
{
    size_t i = 0;

    for (; i + VN <= n; i += VN)
        vst(x + i, v_gelu_tanh(vld(x + i)));
    for (; i < n; i++)
        x[i] = v_gelu_tanh(vset(x[i]))[0];
}

static IE_T void IE_FN(gelu_erf)(float *x, size_t n)
{
    size_t i = 0;

    for (; i + VN <= n; i += VN)
        vst(x + i, v_gelu_erf(vld(x + i)));
    for (; i < n; i++)
        x[i] = v_gelu_erf(vset(x[i]))[0];
}

static IE_T void IE_FN(silu_mul)(const float *g, const float *u, float *out,
                                 size_t n)
{
    size_t i = 0;

    for (; i + VN <= n; i += VN) {
        vf a = vld(g + i);

        vst(out + i, a / (1.0f + vexp(-a)) * vld(u + i));
    }
    for (; i < n; i++)
        out[i] = g[i] / (1.0f + sexp(-g[i])) * u[i];
}

/* ---- Norms ------------------------------------------------------------------ */

static IE_T void IE_FN(layernorm)(const float *x, const float *g,
                                  const float *b, float *y, int n, float eps)
{
    vf vs = vset(0.0f), vq = vset(0.0f);
    float mean, var, rstd;
    int i = 0;
    float s, q = 0.0f;

    for (; i + VN <= n; i += VN)
        vs += vld(x + i);
    s = hsum(vs);
    for (; i < n; i++)
        s += x[i];
    mean = s / (float)n;
    for (i = 0; i + VN <= n; i += VN) {
        vf d = vld(x + i) - mean;

        vq += d * d;
    }
    q = hsum(vq);
    for (; i < n; i++)
        q += (x[i] - mean) * (x[i] - mean);
    var = q / (float)n;
    rstd = 1.0f / __builtin_sqrtf(var + eps);
    for (i = 0; i + VN <= n; i += VN) {
        vf v = (vld(x + i) - mean) * rstd * vld(g + i);

        vst(y + i, b ? v + vld(b + i) : v);
    }
    for (; i < n; i++)
        y[i] = (x[i] - mean) * rstd * g[i] + (b ? b[i] : 0.0f);
}

static IE_T void IE_FN(rmsnorm)(const float *x, const float *g, float *y,
                                int n, float eps)
{
    vf vq = vset(0.0f);
    float q, r;
    int i = 0;

    for (; i + VN <= n; i += VN)
        vq += vld(x + i) * vld(x + i);
    q = hsum(vq);
    for (; i < n; i++)
        q += x[i] * x[i];
    r = 1.0f / __builtin_sqrtf(q / (float)n + eps);
    for (i = 0; i + VN <= n; i += VN)
        vst(y + i, vld(x + i) * r * vld(g + i));
    for (; i < n; i++)
        y[i] = x[i] * r * g[i];
}

/* ---- The table ------------------------------------------------------------ */

#define IE_KERN_TABLE(NAME)                                                    \
    {                                                                          \
        NAME, IE_FN(mv_f32), IE_FN(mv_bf16), IE_FN(mv_i8), IE_FN(deq_bf16),    \
            IE_FN(deq_i8), IE_FN(attend), IE_FN(softmax),                      \
            IE_FN(gelu_tanh), IE_FN(gelu_erf), IE_FN(silu_mul),                \
            IE_FN(layernorm), IE_FN(rmsnorm), IE_FN(add),                      \
    }
