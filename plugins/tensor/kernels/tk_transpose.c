// SPDX-License-Identifier: MIT
/*
 * tk_transpose.c -- 2-D transpose in cache tiles and N-D permute (a batch
 * of 2-D tile transposes when the innermost axis moves, row copies when it
 * stays), for element sizes 1, 2, 4 and 8. 4-byte elements move as 8 x 8
 * register blocks (AVX) inside each tile when the CPU has AVX2.
 */
#include "tk_internal.h"

#include <string.h>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define HAVE_AVX_TILES 1
#endif

/* Tile edge in elements: two 32x32 tiles of 8-byte elements fit L1. */
#define TILE 32

typedef struct tr_job {
    const char *src;
    char *dst;
    size_t esize, rows, cols, lds, ldd; /* one 2-D transpose (elements) */
    /* permute: outer iteration over the other dimensions */
    int nouter;
    size_t oshape[TK_MAX_DIMS], osrc[TK_MAX_DIMS], odst[TK_MAX_DIMS];
    size_t outer_count;
    size_t row_bytes; /* > 0: copy rows of this many bytes instead */
} tr_job;

/* dst[j][i] = src[i][j] over rows [r0, r1) of src, in TILE x TILE tiles;
 * T is the element type. */
#define TR_TILES(T)                                                            \
    do {                                                                       \
        const T *s = (const T *)(const void *)src;                             \
        T *d = (T *)(void *)dst;                                               \
        for (size_t i0 = r0; i0 < r1; i0 += TILE) {                            \
            size_t i1 = r1 - i0 < TILE ? r1 : i0 + TILE;                       \
            for (size_t j0 = 0; j0 < cols; j0 += TILE) {                       \
                size_t j1 = cols - j0 < TILE ? cols : j0 + TILE;               \
                for (size_t j = j0; j < j1; j++)                               \
                    for (size_t i = i0; i < i1; i++)                           \
                        d[j * ldd + i] = s[i * lds + j];                       \
            }                                                                  \
        }                                                                      \
    } while (0)

#if defined(HAVE_AVX_TILES)
/* One 8 x 8 block of 4-byte elements through registers: unpack pairs,
 * shuffle quads, swap 128-bit halves. */
__attribute__((target("avx"))) static void block8(const float *s, size_t lds,
                                                  float *d, size_t ldd)
{
    __m256 r[8], t[8], u[8];

    for (int i = 0; i < 8; i++)
        r[i] = _mm256_loadu_ps(s + (size_t)i * lds);
    for (int i = 0; i < 8; i += 2) {
        t[i] = _mm256_unpacklo_ps(r[i], r[i + 1]);
        t[i + 1] = _mm256_unpackhi_ps(r[i], r[i + 1]);
    }
    for (int i = 0; i < 8; i += 4) {
        u[i] = _mm256_shuffle_ps(t[i], t[i + 2], 0x44);
        u[i + 1] = _mm256_shuffle_ps(t[i], t[i + 2], 0xEE);
        u[i + 2] = _mm256_shuffle_ps(t[i + 1], t[i + 3], 0x44);
        u[i + 3] = _mm256_shuffle_ps(t[i + 1], t[i + 3], 0xEE);
    }
    for (int j = 0; j < 4; j++) {
        _mm256_storeu_ps(d + (size_t)j * ldd, _mm256_permute2f128_ps(u[j], u[j + 4], 0x20));
        _mm256_storeu_ps(d + (size_t)(j + 4) * ldd,
                         _mm256_permute2f128_ps(u[j], u[j + 4], 0x31));
    }
}

/* TR_TILES for 4-byte elements with whole 8 x 8 blocks in registers and
 * the partial blocks of the edges element by element. */
static void tiles4_avx(const uint32_t *s, uint32_t *d, size_t r0, size_t r1,
                       size_t cols, size_t lds, size_t ldd)
{
    for (size_t i0 = r0; i0 < r1; i0 += TILE) {
        size_t i1 = r1 - i0 < TILE ? r1 : i0 + TILE;

        for (size_t j0 = 0; j0 < cols; j0 += TILE) {
            size_t j1 = cols - j0 < TILE ? cols : j0 + TILE;

            for (size_t ib = i0; ib < i1; ib += 8)
                for (size_t jb = j0; jb < j1; jb += 8) {
                    if (ib + 8 <= i1 && jb + 8 <= j1) {
                        block8((const float *)(const void *)(s + ib * lds + jb), lds,
                               (float *)(void *)(d + jb * ldd + ib), ldd);
                        continue;
                    }
                    for (size_t j = jb; j < jb + 8 && j < j1; j++)
                        for (size_t i = ib; i < ib + 8 && i < i1; i++)
                            d[j * ldd + i] = s[i * lds + j];
                }
        }
    }
}
#endif

/* Transposes rows [r0, r1) of a rows x cols src into dst. */
static void transpose_rows(const char *src, char *dst, size_t esize,
                           size_t r0, size_t r1, size_t cols, size_t lds,
                           size_t ldd)
{
#if defined(HAVE_AVX_TILES)
    if (esize == 4 && tk_isa() >= TK_ISA_AVX2) {
        tiles4_avx((const uint32_t *)(const void *)src, (uint32_t *)(void *)dst,
                   r0, r1, cols, lds, ldd);
        return;
    }
#endif
    switch (esize) {
    case 1:
        TR_TILES(uint8_t);
        break;
    case 2:
        TR_TILES(uint16_t);
        break;
    case 4:
        TR_TILES(uint32_t);
        break;
    default:
        TR_TILES(uint64_t);
        break;
    }
}

/* Element offsets of outer iteration k in src and dst (odometer order,
 * last outer dimension fastest). */
static void outer_offsets(const tr_job *j, size_t k, size_t *so, size_t *dof)
{
    *so = 0;
    *dof = 0;
    for (int d = j->nouter - 1; d >= 0; d--) {
        size_t idx = k % j->oshape[d];

        k /= j->oshape[d];
        *so += idx * j->osrc[d];
        *dof += idx * j->odst[d];
    }
}

/* One thread's share: outer iterations when there are enough of them,
 * else a range of src rows of every 2-D transpose. */
static void tr_task(void *arg, unsigned tid, unsigned nthr)
{
    const tr_job *j = arg;
    size_t b, e, es = j->esize;
    int by_outer = j->outer_count >= nthr || j->row_bytes != 0;

    if (by_outer)
        bh_split(j->outer_count, 1, tid, nthr, &b, &e);
    else
        bh_split(j->rows, TILE, tid, nthr, &b, &e);
    for (size_t k = by_outer ? b : 0; k < (by_outer ? e : j->outer_count); k++) {
        size_t so, dof;

        outer_offsets(j, k, &so, &dof);
        if (j->row_bytes != 0)
            memcpy(j->dst + dof * es, j->src + so * es, j->row_bytes);
        else
            transpose_rows(j->src + so * es, j->dst + dof * es, es,
                           by_outer ? 0 : b, by_outer ? j->rows : e, j->cols,
                           j->lds, j->ldd);
    }
}

int tk_transpose(const void *src, void *dst, size_t esize, size_t rows,
                 size_t cols, size_t lds, size_t ldd, tk_pool *pool)
{
    tr_job j;
    size_t span, bytes;

    if (src == NULL || dst == NULL ||
        (esize != 1 && esize != 2 && esize != 4 && esize != 8) ||
        (rows > 1 && lds < cols) || (cols > 1 && ldd < rows))
        return TK_EINVAL;
    if (rows == 0 || cols == 0)
        return TK_OK;
    if (tk_mul_overflow(rows, cols, &span) ||
        tk_mul_overflow(span, 2 * esize, &bytes) ||
        tk_mul_overflow(rows - 1, lds, &span) ||
        tk_mul_overflow(cols - 1, ldd, &span))
        return TK_EINVAL;
    memset(&j, 0, sizeof(j));
    j.src = src;
    j.dst = dst;
    j.esize = esize;
    j.rows = rows;
    j.cols = cols;
    j.lds = lds;
    j.ldd = ldd;
    j.outer_count = 1;
    tk_pool_run(pool, bytes, tr_task, &j);
    return TK_OK;
}

int tk_permute(const void *src, void *dst, size_t esize, int ndim,
               const size_t *shape, const int *perm, tk_pool *pool)
{
    size_t ss[TK_MAX_DIMS], ds[TK_MAX_DIMS], dshape[TK_MAX_DIMS];
    int seen[TK_MAX_DIMS] = {0};
    size_t total = 1, bytes;
    tr_job j;
    int q = 0, last;

    if (src == NULL || dst == NULL || shape == NULL || perm == NULL ||
        ndim < 1 || ndim > TK_MAX_DIMS ||
        (esize != 1 && esize != 2 && esize != 4 && esize != 8))
        return TK_EINVAL;
    for (int d = 0; d < ndim; d++) {
        if (perm[d] < 0 || perm[d] >= ndim || seen[perm[d]]++ ||
            tk_mul_overflow(total, shape[d], &total))
            return TK_EINVAL;
    }
    if (total == 0)
        return TK_OK;
    if (tk_mul_overflow(total, 2 * esize, &bytes))
        return TK_EINVAL;
    last = ndim - 1;
    ss[last] = 1;
    for (int d = last; d > 0; d--)
        ss[d - 1] = ss[d] * shape[d];
    for (int d = 0; d < ndim; d++)
        dshape[d] = shape[perm[d]];
    ds[last] = 1;
    for (int d = last; d > 0; d--)
        ds[d - 1] = ds[d] * dshape[d];
    memset(&j, 0, sizeof(j));
    j.src = src;
    j.dst = dst;
    j.esize = esize;
    j.outer_count = 1;
    if (perm[last] == last) {
        /* Innermost axis stays: copy rows of dshape[last] elements. */
        j.row_bytes = dshape[last] * esize;
        for (int d = 0; d < last; d++) {
            j.oshape[j.nouter] = dshape[d];
            j.osrc[j.nouter] = ss[perm[d]];
            j.odst[j.nouter++] = ds[d];
            j.outer_count *= dshape[d];
        }
    } else {
        /* Transpose the plane of dst axes q (src-contiguous) and last. */
        while (perm[q] != last)
            q++;
        j.rows = dshape[last];
        j.cols = dshape[q];
        j.lds = ss[perm[last]];
        j.ldd = ds[q];
        for (int d = 0; d < last; d++) {
            if (d == q)
                continue;
            j.oshape[j.nouter] = dshape[d];
            j.osrc[j.nouter] = ss[perm[d]];
            j.odst[j.nouter++] = ds[d];
            j.outer_count *= dshape[d];
        }
    }
    tk_pool_run(pool, bytes, tr_task, &j);
    return TK_OK;
}
