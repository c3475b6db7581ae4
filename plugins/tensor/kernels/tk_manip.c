// SPDX-License-Identifier: MIT
/*
 * tk_manip.c -- strided copies (slices), reshape views, concatenation and
 * row gathers, for element sizes 1, 2, 4 and 8. Work is split over threads
 * by outer index ranges; contiguous inner runs are memcpy.
 */
#include "tk_internal.h"

#include <string.h>

static int esize_ok(size_t es)
{
    return es == 1 || es == 2 || es == 4 || es == 8;
}

/* ---- Strided copy ---------------------------------------------------------- */

typedef struct sc_job {
    const char *src;
    char *dst;
    size_t es;
    int ndim;
    size_t shape[TK_MAX_DIMS], ss[TK_MAX_DIMS], ds[TK_MAX_DIMS];
    size_t outer; /* product of shape[0 .. ndim-2] */
} sc_job;

/* Copies n elements with element strides s (src) and d (dst). */
#define STRIDED(T)                                                             \
    do {                                                                       \
        const T *sp = (const T *)(const void *)src;                            \
        T *dp = (T *)(void *)dst;                                              \
        for (size_t i = 0; i < n; i++)                                         \
            dp[i * d] = sp[i * s];                                             \
    } while (0)

/* One inner run of n elements. */
static void copy_run(const char *src, char *dst, size_t es, size_t n,
                     size_t s, size_t d)
{
    if (s == 1 && d == 1) {
        memcpy(dst, src, n * es);
        return;
    }
    switch (es) {
    case 1:
        STRIDED(uint8_t);
        break;
    case 2:
        STRIDED(uint16_t);
        break;
    case 4:
        STRIDED(uint32_t);
        break;
    default:
        STRIDED(uint64_t);
        break;
    }
}

/* Thread tid's range of outer indices (all dimensions but the last). */
static void sc_task(void *arg, unsigned tid, unsigned nthr)
{
    const sc_job *j = arg;
    int last = j->ndim - 1;
    size_t b, e;

    bh_split(j->outer, 1, tid, nthr, &b, &e);
    for (size_t k = b; k < e; k++) {
        size_t rem = k, so = 0, dof = 0;

        for (int d = last - 1; d >= 0; d--) {
            size_t idx = rem % j->shape[d];

            rem /= j->shape[d];
            so += idx * j->ss[d];
            dof += idx * j->ds[d];
        }
        copy_run(j->src + so * j->es, j->dst + dof * j->es, j->es,
                 j->shape[last], j->ss[last], j->ds[last]);
    }
}

int tk_strided_copy(const void *src, const size_t *src_strides, void *dst,
                    const size_t *dst_strides, size_t esize, int ndim,
                    const size_t *shape, tk_pool *pool)
{
    sc_job j;
    size_t total = 1, bytes;

    if (src == NULL || dst == NULL || src_strides == NULL ||
        dst_strides == NULL || shape == NULL || !esize_ok(esize) || ndim < 1 ||
        ndim > TK_MAX_DIMS)
        return TK_EINVAL;
    memset(&j, 0, sizeof(j));
    for (int d = 0; d < ndim; d++) {
        size_t span;

        if (tk_mul_overflow(total, shape[d], &total) ||
            (shape[d] > 0 && (tk_mul_overflow(shape[d] - 1, src_strides[d], &span) ||
                              tk_mul_overflow(shape[d] - 1, dst_strides[d], &span))))
            return TK_EINVAL;
        j.shape[d] = shape[d];
        j.ss[d] = src_strides[d];
        j.ds[d] = dst_strides[d];
    }
    if (total == 0)
        return TK_OK;
    if (tk_mul_overflow(total, 2 * esize, &bytes))
        return TK_EINVAL;
    j.src = src;
    j.dst = dst;
    j.es = esize;
    j.ndim = ndim;
    j.outer = total / shape[ndim - 1];
    tk_pool_run(pool, bytes, sc_task, &j);
    return TK_OK;
}

/* ---- Reshape --------------------------------------------------------------- */

int tk_reshape_strides(int ndim, const size_t *shape, const size_t *strides,
                       int new_ndim, const size_t *new_shape,
                       size_t *new_strides)
{
    size_t od[TK_MAX_DIMS], os[TK_MAX_DIMS];
    size_t n_old = 1, n_new = 1;
    int on = 0, oi = 0, ni = 0;

    if (shape == NULL || strides == NULL || new_shape == NULL ||
        new_strides == NULL || ndim < 1 || ndim > TK_MAX_DIMS ||
        new_ndim < 1 || new_ndim > TK_MAX_DIMS)
        return TK_EINVAL;
    for (int d = 0; d < ndim; d++) {
        if (tk_mul_overflow(n_old, shape[d], &n_old))
            return TK_EINVAL;
        if (shape[d] != 1) { /* size-1 axes carry no layout */
            od[on] = shape[d];
            os[on++] = strides[d];
        }
    }
    for (int d = 0; d < new_ndim; d++)
        if (tk_mul_overflow(n_new, new_shape[d], &n_new))
            return TK_EINVAL;
    if (n_old != n_new)
        return TK_EINVAL;
    if (n_old == 0 || on == 0) { /* empty or one element: contiguous */
        new_strides[new_ndim - 1] = 1;
        for (int d = new_ndim - 1; d > 0; d--)
            new_strides[d - 1] = new_strides[d] * (new_shape[d] ? new_shape[d] : 1);
        return TK_OK;
    }
    /* Match groups of old axes to groups of new axes with equal products;
     * each old group must be contiguous in itself. */
    while (ni < new_ndim && oi < on) {
        int oj = oi + 1, nj = ni + 1;
        size_t np = new_shape[ni], op = od[oi];

        while (np != op) {
            if (np < op)
                np *= new_shape[nj++];
            else
                op *= od[oj++];
        }
        for (int k = oi; k < oj - 1; k++)
            if (os[k] != od[k + 1] * os[k + 1])
                return TK_EUNSUP;
        new_strides[nj - 1] = os[oj - 1];
        for (int k = nj - 1; k > ni; k--)
            new_strides[k - 1] = new_strides[k] * new_shape[k];
        ni = nj;
        oi = oj;
    }
    for (; ni < new_ndim; ni++) /* trailing size-1 axes */
        new_strides[ni] = 1;
    return TK_OK;
}

/* ---- Concat ---------------------------------------------------------------- */

typedef struct cat_job {
    const void *const *srcs;
    const size_t *inner;
    char *dst;
    size_t nsrc, es, outer, row; /* row: dst elements per outer index */
} cat_job;

/* Thread tid's outer rows; with a single outer row, its byte range of
 * each source instead. */
static void cat_task(void *arg, unsigned tid, unsigned nthr)
{
    const cat_job *j = arg;
    size_t b, e;

    if (j->outer >= nthr) {
        bh_split(j->outer, 1, tid, nthr, &b, &e);
        for (size_t o = b; o < e; o++) {
            char *d = j->dst + o * j->row * j->es;

            for (size_t s = 0; s < j->nsrc; s++) {
                size_t len = j->inner[s] * j->es;

                memcpy(d, (const char *)j->srcs[s] + o * len, len);
                d += len;
            }
        }
        return;
    }
    for (size_t o = 0; o < j->outer; o++) {
        char *d = j->dst + o * j->row * j->es;

        for (size_t s = 0; s < j->nsrc; s++) {
            size_t len = j->inner[s] * j->es;

            bh_split(len, 64, tid, nthr, &b, &e);
            if (e > b)
                memcpy(d + b, (const char *)j->srcs[s] + o * len + b, e - b);
            d += len;
        }
    }
}

int tk_concat(const void *const *srcs, const size_t *inner, size_t nsrc,
              void *dst, size_t esize, size_t outer, tk_pool *pool)
{
    size_t row = 0, bytes;
    cat_job j;

    if (srcs == NULL || inner == NULL || dst == NULL || nsrc == 0 ||
        nsrc > 64 || !esize_ok(esize))
        return TK_EINVAL;
    for (size_t s = 0; s < nsrc; s++) {
        if (srcs[s] == NULL || __builtin_add_overflow(row, inner[s], &row))
            return TK_EINVAL;
    }
    if (tk_mul_overflow(row, outer, &bytes) ||
        tk_mul_overflow(bytes, 2 * esize, &bytes))
        return TK_EINVAL;
    if (bytes == 0)
        return TK_OK;
    j.srcs = srcs;
    j.dst = dst;
    j.inner = inner;
    j.nsrc = nsrc;
    j.es = esize;
    j.outer = outer;
    j.row = row;
    tk_pool_run(pool, bytes, cat_task, &j);
    return TK_OK;
}

/* ---- Gather ---------------------------------------------------------------- */

typedef struct gather_job {
    const char *table;
    const int64_t *idx;
    size_t nidx, row_bytes;
    char *dst;
} gather_job;

/* Thread tid's range of indices. */
static void gather_task(void *arg, unsigned tid, unsigned nthr)
{
    const gather_job *j = arg;
    size_t b, e;

    bh_split(j->nidx, 1, tid, nthr, &b, &e);
    for (size_t i = b; i < e; i++)
        memcpy(j->dst + i * j->row_bytes,
               j->table + (size_t)j->idx[i] * j->row_bytes, j->row_bytes);
}

int tk_gather_rows(const void *table, size_t rows, size_t cols, size_t esize,
                   const int64_t *idx, size_t nidx, void *dst, tk_pool *pool)
{
    gather_job j;
    size_t row_bytes, bytes;

    if (table == NULL || idx == NULL || dst == NULL || !esize_ok(esize) ||
        tk_mul_overflow(cols, esize, &row_bytes) ||
        tk_mul_overflow(row_bytes, rows, &bytes) ||
        tk_mul_overflow(row_bytes, nidx, &bytes))
        return TK_EINVAL;
    for (size_t i = 0; i < nidx; i++)
        if (idx[i] < 0 || (uint64_t)idx[i] >= rows)
            return TK_EINVAL;
    if (bytes == 0)
        return TK_OK;
    j.table = table;
    j.idx = idx;
    j.nidx = nidx;
    j.row_bytes = row_bytes;
    j.dst = dst;
    tk_pool_run(pool, 2 * bytes, gather_task, &j);
    return TK_OK;
}
