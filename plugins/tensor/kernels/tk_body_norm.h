// SPDX-License-Identifier: MIT
/*
 * tk_body_norm.h -- one row of softmax / log-softmax, layernorm, rmsnorm
 * over the vector vocabulary. The statistics passes re-read the row from
 * cache; the last pass writes y (non-temporal when nt). Contracts in
 * tk_internal.h (tk_isa_ops).
 */

typedef struct norm_ctx {
    const float *x;
    const float *g; /* gamma or NULL */
    const float *b; /* beta or NULL */
    vf shift;       /* softmax: row max (or log-sum-exp); norms: mean */
    vf scale;       /* softmax: 1 / sum; norms: 1 / sqrt(var + eps) */
} norm_ctx;

/* softmax: exp(x - max) * (1 / sum). */
#define SM_F(C, i) vf_mul(vf_exp(vf_sub(vf_ld((C)->x + (i)), (C)->shift)), (C)->scale)
#define SM_P(C, i, k)                                                          \
    vf_mul(vf_exp(vf_sub(vf_ldn((C)->x + (i), (k), 0.0f), (C)->shift)), (C)->scale)
/* scaling of the stored exponentials: x * scale (x is the scratch). */
#define INPL_F(C, i) vf_mul(vf_ld((C)->x + (i)), (C)->scale)
#define INPL_P(C, i, k) vf_mul(vf_ldn((C)->x + (i), (k), 0.0f), (C)->scale)
/* log-softmax: x - (max + log sum). */
#define LSM_F(C, i) vf_sub(vf_ld((C)->x + (i)), (C)->shift)
#define LSM_P(C, i, k) vf_sub(vf_ldn((C)->x + (i), (k), 0.0f), (C)->shift)
/* (x - shift) * scale, then * g + b where present. */
#define NRM_F(C, i) norm_affine(C, vf_mul(vf_sub(vf_ld((C)->x + (i)), (C)->shift), (C)->scale), i, VF_N)
#define NRM_P(C, i, k)                                                         \
    norm_affine(C, vf_mul(vf_sub(vf_ldn((C)->x + (i), (k), 0.0f), (C)->shift), (C)->scale), i, k)

/* v * g[i..] + b[i..] for k lanes, skipping absent gamma/beta. */
static inline TK_T vf norm_affine(const norm_ctx *c, vf v, size_t i, size_t k)
{
    if (c->g != NULL)
        v = vf_mul(v, k == VF_N ? vf_ld(c->g + i) : vf_ldn(c->g + i, k, 1.0f));
    if (c->b != NULL)
        v = vf_add(v, k == VF_N ? vf_ld(c->b + i) : vf_ldn(c->b + i, k, 0.0f));
    return v;
}

/* Sum of exp(x - m) over x[0..n). */
static inline TK_T float sum_exp(const float *x, size_t n, float m)
{
    const vf vm = vf_set1(m);
    vf s0 = vf_zero(), s1 = vf_zero();
    size_t i = 0;

    for (; i + 2 * VF_N <= n; i += 2 * VF_N) {
        s0 = vf_add(s0, vf_exp(vf_sub(vf_ld(x + i), vm)));
        s1 = vf_add(s1, vf_exp(vf_sub(vf_ld(x + i + VF_N), vm)));
    }
    for (; i < n; i += VF_N)
        s0 = vf_add(s0, vf_exp(vf_sub(vf_ldn(x + i, n - i < VF_N ? n - i : VF_N,
                                             -__builtin_inff()), vm)));
    return vf_hsum(vf_add(s0, s1));
}

/* y[i] = exp(x[i] - m), returning the sum. */
static inline TK_T float store_exp(const float *x, float *y, size_t n, float m)
{
    const vf vm = vf_set1(m);
    vf s0 = vf_zero(), s1 = vf_zero();
    size_t i = 0;

    for (; i + 2 * VF_N <= n; i += 2 * VF_N) {
        vf e0 = vf_exp(vf_sub(vf_ld(x + i), vm));
        vf e1 = vf_exp(vf_sub(vf_ld(x + i + VF_N), vm));

        vf_st(y + i, e0);
        vf_st(y + i + VF_N, e1);
        s0 = vf_add(s0, e0);
        s1 = vf_add(s1, e1);
    }
    for (; i < n; i += VF_N) {
        size_t k = n - i < VF_N ? n - i : VF_N;
        vf e = vf_exp(vf_sub(vf_ldn(x + i, k, -__builtin_inff()), vm));

        vf_stn(y + i, e, k);
        s0 = vf_add(s0, e);
    }
    return vf_hsum(vf_add(s0, s1));
}

/* y = softmax(x) or log_softmax(x) over one row: the max, the sum of
 * exp(x - max), then the output pass. With a scratch row (n floats, the
 * caller's, reused for every row so it stays in L1/L2) softmax keeps the
 * exponentials there: one exp per element and y written once; without one
 * it recomputes them. pf (the next row, or NULL) is prefetched meanwhile. */
static TK_T void softmax_row(const float *x, float *y, size_t n, int log,
                             int nt, const float *pf, float *scratch)
{
    float m = max_f32(x, n);
    norm_ctx c = {x, NULL, NULL, vf_set1(m), vf_zero()};
    float s;

    if (!log && scratch != NULL) {
        s = store_exp(x, scratch, n, m);
        c.x = scratch;
        c.scale = vf_set1(1.0f / s);
        TK_MAP_F32_PF(y, n, nt, INPL_F, INPL_P, &c, pf);
        return;
    }
    s = sum_exp(x, n, m);
    c.scale = vf_set1(1.0f / s);
    if (log) {
        c.shift = vf_set1(m + logf(s));
        TK_MAP_F32_PF(y, n, nt, LSM_F, LSM_P, &c, pf);
    } else {
        TK_MAP_F32_PF(y, n, nt, SM_F, SM_P, &c, pf);
    }
}

/* y = (x - mean) / sqrt(var + eps) * g + b over one row (population
 * variance from moments_f32); pf as for softmax_row. */
static TK_T void layernorm_row(const float *x, float *y, const float *g,
                               const float *b, size_t n, float eps, int nt,
                               const float *pf)
{
    double mean, m2;
    norm_ctx c;

    moments_f32(x, n, &mean, &m2);
    c.x = x;
    c.g = g;
    c.b = b;
    c.shift = vf_set1((float)mean);
    c.scale = vf_set1((float)(1.0 / sqrt(m2 / (double)n + (double)eps)));
    TK_MAP_F32_PF(y, n, nt, NRM_F, NRM_P, &c, pf);
}

/* Sum of x^2 over x[0..n) into double, blockwise as sum_f32. */
static inline TK_T double sum_sq(const float *x, size_t n)
{
    double total = 0.0;

    for (size_t i0 = 0; i0 < n; i0 += RED_BLOCK) {
        size_t e = n - i0 < RED_BLOCK ? n : i0 + RED_BLOCK;
        vf s0 = vf_zero(), s1 = vf_zero();
        size_t i = i0;

        for (; i + 2 * VF_N <= e; i += 2 * VF_N) {
            vf a = vf_ld(x + i), b2 = vf_ld(x + i + VF_N);

            s0 = vf_fma(a, a, s0);
            s1 = vf_fma(b2, b2, s1);
        }
        for (; i < e; i += VF_N) {
            vf a = vf_ldn(x + i, e - i < VF_N ? e - i : VF_N, 0.0f);

            s0 = vf_fma(a, a, s0);
        }
        total += (double)vf_hsum(vf_add(s0, s1));
    }
    return total;
}

/* y = x / sqrt(mean(x^2) + eps) * g over one row; pf as for
 * softmax_row. */
static TK_T void rmsnorm_row(const float *x, float *y, const float *g,
                             size_t n, float eps, int nt, const float *pf)
{
    double ms = sum_sq(x, n) / (double)n;
    norm_ctx c;

    c.x = x;
    c.g = g;
    c.b = NULL;
    c.shift = vf_zero();
    c.scale = vf_set1((float)(1.0 / sqrt(ms + (double)eps)));
    TK_MAP_F32_PF(y, n, nt, NRM_F, NRM_P, &c, pf);
}
