// SPDX-License-Identifier: MIT
/*
 * tk_body_create.h -- creation kernels (fill, arange, uniform draws) over
 * the vector vocabulary, for one contiguous chunk. Contracts in
 * tk_internal.h (tk_isa_ops).
 */

/* bytes of out from the periodic 64-byte pattern. The head up to 64-byte
 * alignment is a whole number of elements (out is element-aligned and the
 * element size divides 64), so the pattern's phase is 0 after it. */
static TK_T void fill64(void *out, size_t bytes, const void *pattern, int nt)
{
    unsigned char *p = out;
    size_t head = (64u - ((uintptr_t)p & 63u)) & 63u;
    size_t i;

    if (head > bytes)
        head = bytes;
    memcpy(p, pattern, head);
    i = head;
#if VF_N > 1
    {
        vf v[16 / VF_N];

        for (int k = 0; k < 16 / VF_N; k++)
            v[k] = vf_ld((const float *)pattern + k * VF_N);
        if (TK_HAS_NT && nt) {
            for (; i + 64 <= bytes; i += 64)
                for (int k = 0; k < 16 / VF_N; k++)
                    vf_stnt((float *)(void *)(p + i) + k * VF_N, v[k]);
        } else {
            for (; i + 64 <= bytes; i += 64)
                for (int k = 0; k < 16 / VF_N; k++)
                    vf_st((float *)(void *)(p + i) + k * VF_N, v[k]);
        }
    }
#else
    (void)nt;
    for (; i + 64 <= bytes; i += 64)
        memcpy(p + i, pattern, 64);
#endif
    memcpy(p + i, pattern, bytes - i);
}

/* The value of arange element i0 + j, VD_N lanes from j. */
#define AR_VAL(j) vd_fma(vd_add(vd_set1((double)(i0 + (j))), vd_iota()),     \
                         vd_set1(step), vd_set1(start))

/* o[j] = start + (i0 + j) * step rounded to float. */
static TK_T void arange_f32(float *o, size_t i0, size_t n, double start,
                            double step)
{
    size_t j = 0;

    for (; j + VD_N <= n; j += VD_N)
        vd_st_f32(o + j, AR_VAL(j));
    if (j < n)
        vd_st_f32n(o + j, AR_VAL(j), n - j);
}

/* o[j] = start + (i0 + j) * step. */
static TK_T void arange_f64(double *o, size_t i0, size_t n, double start,
                            double step)
{
    size_t j = 0;

    for (; j + VD_N <= n; j += VD_N)
        vd_st(o + j, AR_VAL(j));
    if (j < n)
        vd_stn(o + j, AR_VAL(j), n - j);
}

#undef AR_VAL

/* tk_hash32 on VF_N counters at once. */
static inline TK_T vi vhash32(vi i, vi k0, vi k1)
{
    vi h = vi_mul(vi_xor(i, k0), vi_set1((int32_t)UINT32_C(0x9E3779B1)));

    h = vi_xor(h, vi_srl(h, 15));
    h = vi_mul(vi_add(h, k1), vi_set1((int32_t)UINT32_C(0x85EBCA77)));
    h = vi_xor(h, vi_srl(h, 13));
    h = vi_mul(h, vi_set1((int32_t)UINT32_C(0xC2B2AE3D)));
    return vi_xor(h, vi_srl(h, 16));
}

/* o[j] = lo + span * u(i0 + j), u the top 24 hash bits scaled to [0, 1). */
static TK_T void rand_f32(float *o, size_t i0, size_t n, uint32_t k0,
                          uint32_t k1, float lo, float span)
{
    const vi vk0 = vi_set1((int32_t)k0);
    const vi vk1 = vi_set1((int32_t)k1);

    for (size_t j = 0; j < n; j += VF_N) {
        vi idx = vi_add(vi_set1((int32_t)(uint32_t)(i0 + j)), vi_iota());
        vf u = vf_mul(vi_cvt_vf(vi_srl(vhash32(idx, vk0, vk1), 8)),
                      vf_set1(0x1p-24f));
        vf y = vf_fma(u, vf_set1(span), vf_set1(lo));

        if (n - j >= VF_N)
            vf_st(o + j, y);
        else
            vf_stn(o + j, y, n - j);
    }
}
