// SPDX-License-Identifier: MIT
/*
 * tk_body_map.h -- the one loop every streaming kernel body uses: write
 * n elements of O, each vector produced by FULL(CTX, i) (VN full lanes at
 * element i) or PART(CTX, i, k) (k < VN lanes at i, for the head and the
 * tail). With NT set (and TK_HAS_NT) the main loop uses non-temporal
 * stores after a partial head that aligns O to 64 bytes; the caller issues
 * vsfence() afterwards. O must be aligned to its element size. PF, when
 * not NULL, is prefetched alongside (PF[i] as each O[i] is written): the
 * row kernels fetch their next row this way while computing this one.
 */
#ifndef TK_BODY_MAP_H
#define TK_BODY_MAP_H

/* Locality hint of the row prefetches (3: into L1). */
#ifndef TK_PF_HINT
#define TK_PF_HINT 3
#endif

#define TK_MAP(VN, ST, STN, STNT, O, N, NT, FULL, PART, CTX, PF)               \
    do {                                                                       \
        size_t ix_ = 0;                                                        \
        if (TK_HAS_NT && (NT)) {                                               \
            size_t hd_ = ((64u - ((uintptr_t)(O)&63u)) & 63u) / sizeof(*(O));  \
            if (hd_ > (N))                                                     \
                hd_ = (N);                                                     \
            while (ix_ < hd_) {                                                \
                size_t kx_ = hd_ - ix_ < (VN) ? hd_ - ix_ : (VN);              \
                STN((O) + ix_, PART(CTX, ix_, kx_), kx_);                      \
                ix_ += kx_;                                                    \
            }                                                                  \
            for (; ix_ + (VN) <= (N); ix_ += (VN)) {                           \
                if ((PF) != NULL)                                              \
                    __builtin_prefetch((PF) + ix_, 0, TK_PF_HINT);                      \
                STNT((O) + ix_, FULL(CTX, ix_));                               \
            }                                                                  \
        }                                                                      \
        for (; ix_ + 2 * (VN) <= (N); ix_ += 2 * (VN)) {                       \
            if ((PF) != NULL) {                                                \
                __builtin_prefetch((PF) + ix_, 0, TK_PF_HINT);                          \
                __builtin_prefetch((PF) + ix_ + (VN), 0, TK_PF_HINT);                   \
            }                                                                  \
            ST((O) + ix_, FULL(CTX, ix_));                                     \
            ST((O) + ix_ + (VN), FULL(CTX, ix_ + (VN)));                       \
        }                                                                      \
        for (; ix_ < (N); ix_ += (VN)) {                                       \
            size_t kx_ = (N)-ix_ < (VN) ? (N)-ix_ : (VN);                      \
            STN((O) + ix_, PART(CTX, ix_, kx_), kx_);                          \
        }                                                                      \
    } while (0)

#define TK_MAP_F32(O, N, NT, FULL, PART, CTX)                                  \
    TK_MAP(VF_N, vf_st, vf_stn, vf_stnt, O, N, NT, FULL, PART, CTX,           \
           (const float *)NULL)
#define TK_MAP_F32_PF(O, N, NT, FULL, PART, CTX, PF)                           \
    TK_MAP(VF_N, vf_st, vf_stn, vf_stnt, O, N, NT, FULL, PART, CTX, PF)
#define TK_MAP_F64(O, N, NT, FULL, PART, CTX)                                  \
    TK_MAP(VD_N, vd_st, vd_stn, vd_stnt, O, N, NT, FULL, PART, CTX,           \
           (const double *)NULL)

#endif /* TK_BODY_MAP_H */
