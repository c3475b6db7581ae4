// SPDX-License-Identifier: MIT
/*
 * tk_body_reduce.h -- f32 reduction kernels over the vector vocabulary.
 * Contracts in tk_internal.h (tk_isa_ops). Sums run in 4 * VF_N f32 lanes
 * over blocks of 256 * VF_N elements (64 per lane), each block's total
 * added into a double: the error stays within (64 + 8) u sum|x| whatever
 * the length.
 */

#define RED_BLOCK (256 * VF_N)

/* f32 total of x[0..n), n <= RED_BLOCK, in 4 * VF_N lanes. */
static inline TK_T float block_sum(const float *x, size_t n)
{
    vf s0 = vf_zero(), s1 = vf_zero(), s2 = vf_zero(), s3 = vf_zero();
    size_t i = 0;

    for (; i + 4 * VF_N <= n; i += 4 * VF_N) {
        s0 = vf_add(s0, vf_ld(x + i));
        s1 = vf_add(s1, vf_ld(x + i + VF_N));
        s2 = vf_add(s2, vf_ld(x + i + 2 * VF_N));
        s3 = vf_add(s3, vf_ld(x + i + 3 * VF_N));
    }
    for (; i < n; i += VF_N)
        s0 = vf_add(s0, vf_ldn(x + i, n - i < VF_N ? n - i : VF_N, 0.0f));
    return vf_hsum(vf_add(vf_add(s0, s1), vf_add(s2, s3)));
}

/* Sum of x[0..n) as described above. */
static TK_T double sum_f32(const float *x, size_t n)
{
    double total = 0.0;

    for (size_t i = 0; i < n; i += RED_BLOCK)
        total += (double)block_sum(x + i, n - i < RED_BLOCK ? n - i : RED_BLOCK);
    return total;
}

/* Largest of x[0..n), n >= 1. */
static TK_T float max_f32(const float *x, size_t n)
{
    vf m0 = vf_set1(-__builtin_inff()), m1 = m0, m2 = m0, m3 = m0;
    size_t i = 0;

    for (; i + 4 * VF_N <= n; i += 4 * VF_N) {
        m0 = vf_max(m0, vf_ld(x + i));
        m1 = vf_max(m1, vf_ld(x + i + VF_N));
        m2 = vf_max(m2, vf_ld(x + i + 2 * VF_N));
        m3 = vf_max(m3, vf_ld(x + i + 3 * VF_N));
    }
    for (; i < n; i += VF_N)
        m0 = vf_max(m0, vf_ldn(x + i, n - i < VF_N ? n - i : VF_N,
                               -__builtin_inff()));
    return vf_hmax(vf_max(vf_max(m0, m1), vf_max(m2, m3)));
}

/* Folds the VF_N values v (lane indices idx) into the lane state (bv,
 * bi): a strictly greater value replaces the lane's best, so each lane
 * keeps its first maximum. */
#define AMAX_STEP(bv, bi, v, idx)                                              \
    do {                                                                       \
        vf v_ = (v);                                                           \
        vfm gt_ = vf_gt(v_, bv);                                               \
        bv = vf_sel(gt_, bv, v_);                                              \
        bi = vi_sel(gt_, bi, idx);                                             \
    } while (0)

/* Merges the lanes of (bv, bi) into (*best, *arg): larger value, then
 * smaller index; lanes that saw no element carry INT32_MAX. */
static inline TK_T void amax_merge(vf bv, vi bi, float *best, size_t *arg,
                                   int *first)
{
    float vals[VF_N];
    int32_t idxs[VF_N];

    vf_st(vals, bv);
    vi_st(idxs, bi);
    for (int l = 0; l < VF_N; l++) {
        if (idxs[l] == INT32_MAX)
            continue;
        if (*first || vals[l] > *best ||
            (vals[l] == *best && (size_t)idxs[l] < *arg)) {
            *best = vals[l];
            *arg = (size_t)idxs[l];
            *first = 0;
        }
    }
}

/* First index of the maximum of x[0..n) (n >= 1, n < 2^31), its value in
 * *best. Four independent lane states (so the compare-select chains
 * overlap) each keep their lanes' first strict maximum; the lane results
 * are merged by value, then by smallest index. */
static inline TK_T size_t argmax_chunk(const float *x, size_t n, float *best)
{
    const vf ninf = vf_set1(-__builtin_inff());
    const vi none = vi_set1(INT32_MAX), step = vi_set1(4 * VF_N);
    vf v0 = ninf, v1 = ninf, v2 = ninf, v3 = ninf;
    vi i0 = none, i1 = none, i2 = none, i3 = none;
    vi c0 = vi_iota(), c1 = vi_add(c0, vi_set1(VF_N));
    vi c2 = vi_add(c1, vi_set1(VF_N)), c3 = vi_add(c2, vi_set1(VF_N));
    size_t arg = 0, i = 0;
    int first = 1;

    for (; i + 4 * VF_N <= n; i += 4 * VF_N) {
        AMAX_STEP(v0, i0, vf_ld(x + i), c0);
        AMAX_STEP(v1, i1, vf_ld(x + i + VF_N), c1);
        AMAX_STEP(v2, i2, vf_ld(x + i + 2 * VF_N), c2);
        AMAX_STEP(v3, i3, vf_ld(x + i + 3 * VF_N), c3);
        c0 = vi_add(c0, step);
        c1 = vi_add(c1, step);
        c2 = vi_add(c2, step);
        c3 = vi_add(c3, step);
    }
    for (; i < n; i += VF_N)
        AMAX_STEP(v0, i0, vf_ldn(x + i, n - i < VF_N ? n - i : VF_N, -__builtin_inff()),
                  vi_add(vi_iota(), vi_set1((int32_t)i)));
    *best = -__builtin_inff();
    amax_merge(v0, i0, best, &arg, &first);
    amax_merge(v1, i1, best, &arg, &first);
    amax_merge(v2, i2, best, &arg, &first);
    amax_merge(v3, i3, best, &arg, &first);
    return arg;
}

/* argmax over chunks of 2^30 elements (int32 lane indices). */
static TK_T size_t argmax_f32(const float *x, size_t n, float *best)
{
    const size_t chunk = (size_t)1 << 30;
    size_t arg = argmax_chunk(x, n < chunk ? n : chunk, best);

    for (size_t i = chunk; i < n; i += chunk) {
        float v;
        size_t a = argmax_chunk(x + i, n - i < chunk ? n - i : chunk, &v);

        if (v > *best) {
            *best = v;
            arg = i + a;
        }
    }
    return arg;
}

/* Sum of squared deviations of x[0..n) from m, n <= RED_BLOCK. */
static inline TK_T float block_sqdev(const float *x, size_t n, float m)
{
    const vf vm = vf_set1(m);
    vf s0 = vf_zero(), s1 = vf_zero();
    size_t i = 0;

    for (; i + 2 * VF_N <= n; i += 2 * VF_N) {
        vf d0 = vf_sub(vf_ld(x + i), vm);
        vf d1 = vf_sub(vf_ld(x + i + VF_N), vm);

        s0 = vf_fma(d0, d0, s0);
        s1 = vf_fma(d1, d1, s1);
    }
    for (; i < n; i += VF_N) {
        vf d = vf_sub(vf_ldn(x + i, n - i < VF_N ? n - i : VF_N, m), vm);

        s0 = vf_fma(d, d, s0);
    }
    return vf_hsum(vf_add(s0, s1));
}

/* Mean and M2 (sum of squared deviations) of x[0..n), n >= 1: per block
 * the mean, then the squared deviations from its f32 rounding corrected
 * to the exact block mean, blocks merged by the pairwise update
 * (Chan, Golub, LeVeque) in double. The block is in L1 for the second
 * pass, so x is read from memory once. */
static TK_T void moments_f32(const float *x, size_t n, double *mean,
                             double *m2)
{
    double cnt = 0.0, mu = 0.0, acc = 0.0;

    for (size_t i = 0; i < n; i += RED_BLOCK) {
        size_t nb = n - i < RED_BLOCK ? n - i : RED_BLOCK;
        double bmean = (double)block_sum(x + i, nb) / (double)nb;
        float bm = (float)bmean;
        double bm2 = (double)block_sqdev(x + i, nb, bm) -
                     (double)nb * (bmean - bm) * (bmean - bm);
        double tot = cnt + (double)nb;
        double delta = bmean - mu;

        mu += delta * (double)nb / tot;
        acc += bm2 + delta * delta * cnt * (double)nb / tot;
        cnt = tot;
    }
    *mean = mu;
    *m2 = acc < 0.0 ? 0.0 : acc;
}

/* acc[j] += x[j]. */
static TK_T void acc_add(float *acc, const float *x, size_t n)
{
    size_t j = 0;

    for (; j + VF_N <= n; j += VF_N)
        vf_st(acc + j, vf_add(vf_ld(acc + j), vf_ld(x + j)));
    if (j < n)
        vf_stn(acc + j, vf_add(vf_ldn(acc + j, n - j, 0.0f),
                               vf_ldn(x + j, n - j, 0.0f)), n - j);
}

/* acc[j] = max(acc[j], x[j]). */
static TK_T void acc_max(float *acc, const float *x, size_t n)
{
    size_t j = 0;

    for (; j + VF_N <= n; j += VF_N)
        vf_st(acc + j, vf_max(vf_ld(acc + j), vf_ld(x + j)));
    if (j < n)
        vf_stn(acc + j, vf_max(vf_ldn(acc + j, n - j, 0.0f),
                               vf_ldn(x + j, n - j, 0.0f)), n - j);
}

/* acc[j] += (x[j] - mean[j])^2. */
static TK_T void acc_sqdev(float *acc, const float *x, const float *mean,
                           size_t n)
{
    size_t j = 0;

    for (; j + VF_N <= n; j += VF_N) {
        vf d = vf_sub(vf_ld(x + j), vf_ld(mean + j));

        vf_st(acc + j, vf_fma(d, d, vf_ld(acc + j)));
    }
    if (j < n) {
        vf d = vf_sub(vf_ldn(x + j, n - j, 0.0f), vf_ldn(mean + j, n - j, 0.0f));

        vf_stn(acc + j, vf_fma(d, d, vf_ldn(acc + j, n - j, 0.0f)), n - j);
    }
}
