// SPDX-License-Identifier: MIT
/*
 * manip_ops.c -- the manip.* benchmarks' parameters, one iteration of each
 * op, and their verification against index arithmetic written out here.
 */
#include "manip.h"

#include <stdlib.h>
#include <string.h>

/* Reads "rows" and "cols". */
static bhost_status rows_cols(bh_tensor_manip *m)
{
    int64_t r, c;
    bhost_status st = bh_tensor_i64(m->base.h, "rows", 1, (int64_t)1 << 40, &r);

    if (st == BHOST_OK)
        st = bh_tensor_i64(m->base.h, "cols", 1, (int64_t)1 << 40, &c);
    if (st == BHOST_OK && (double)r * (double)c > 0x1p36)
        st = bh_tensor_fail(m->base.h, BHOST_E_INVALID, "manip: rows * cols > 2^36");
    m->rows = (size_t)r;
    m->cols = (size_t)c;
    return st;
}

/* Parses "2,0,1" into m->perm: a permutation of m->ndim axes. */
static bhost_status parse_perm(bh_tensor_manip *m, const char *text)
{
    int seen[TK_MAX_DIMS] = {0};
    const char *p = text;
    int n = 0;

    while (*p != '\0') {
        char *end = NULL;
        long v = strtol(p, &end, 10);

        if (end == p || v < 0 || v >= m->ndim || n == m->ndim || seen[v]++)
            break;
        m->perm[n++] = (int)v;
        p = *end == ',' ? end + 1 : end;
        if (*end != ',' && *end != '\0')
            break;
    }
    if (n != m->ndim || *p != '\0')
        return bh_tensor_fail(m->base.h, BHOST_E_INVALID,
                              "permute: perm '%s' is not a permutation of %d axes",
                              text, m->ndim);
    return BHOST_OK;
}

bhost_status bh_tensor_manip_params(bh_tensor_manip *m)
{
    bhost_host *h = m->base.h;
    char text[96], mode[8];
    int64_t v, w;
    size_t n;
    bhost_status st = BHOST_OK;

    m->es = tk_dtype_size(m->dtype);
    switch (m->kind) {
    case BH_MANIP_PERMUTE:
        st = bh_tensor_str(h, "shape", text, sizeof(text));
        if (st == BHOST_OK)
            st = bh_tensor_shape(h, text, &m->ndim, m->dims, &n);
        if (st == BHOST_OK)
            st = bh_tensor_str(h, "perm", text, sizeof(text));
        if (st == BHOST_OK)
            st = parse_perm(m, text);
        m->in_elems = m->out_elems = n;
        break;
    case BH_MANIP_SLICE:
        st = rows_cols(m);
        if (st == BHOST_OK)
            st = bh_tensor_i64(h, "step", 1, 1 << 20, &v);
        m->step = (size_t)v;
        m->orows = (m->rows + m->step - 1) / m->step;
        m->ocols = (m->cols + m->step - 1) / m->step;
        m->in_elems = m->rows * m->cols;
        m->out_elems = m->orows * m->ocols;
        break;
    case BH_MANIP_CONCAT:
        st = rows_cols(m);
        if (st == BHOST_OK)
            st = bh_tensor_i64(h, "parts", 2, 64, &v);
        if (st == BHOST_OK)
            st = bh_tensor_i64(h, "axis", 0, 1, &w);
        m->parts = (size_t)v;
        m->axis = (int)w;
        m->in_elems = m->out_elems = m->parts * m->rows * m->cols;
        break;
    case BH_MANIP_GATHER:
        st = rows_cols(m);
        if (st == BHOST_OK)
            st = bh_tensor_i64(h, "indices", 1, (int64_t)1 << 36, &v);
        m->nidx = (size_t)v;
        m->in_elems = m->rows * m->cols;
        m->out_elems = m->nidx * m->cols;
        break;
    case BH_MANIP_RESHAPE:
        st = rows_cols(m);
        if (st == BHOST_OK)
            st = bh_tensor_str(h, "mode", mode, sizeof(mode));
        m->view = st == BHOST_OK && strcmp(mode, "view") == 0;
        m->in_elems = m->rows * m->cols;
        m->out_elems = m->view ? 1 : m->in_elems;
        break;
    default:
        st = rows_cols(m);
        m->in_elems = m->out_elems = m->rows * m->cols;
        break;
    }
    if (st != BHOST_OK)
        return st;
    m->base.items = (double)m->out_elems;
    m->base.bytes = 2.0 * (double)m->out_elems * (double)m->es;
    m->base.access = BHOST_ACCESS_READ_WRITE; /* bench_manip.c: the counting */
    m->base.compute = BHOST_COMPUTE_NONE;
    if (m->kind == BH_MANIP_RESHAPE && m->view) {
        m->base.bytes = 0.0;
        m->base.items = 1.0;
    } else if (m->kind == BH_MANIP_SLICE) {
        double row_read = m->step * m->es >= 64 ? 64.0 * (double)m->ocols
                                                : (double)(m->cols * m->es);

        m->base.bytes = (double)m->orows * row_read +
                        (double)m->out_elems * (double)m->es;
    } else if (m->kind == BH_MANIP_GATHER) {
        m->base.bytes += 8.0 * (double)m->nidx;
    }
    return BHOST_OK;
}

int bh_tensor_manip_once(bh_tensor_manip *m)
{
    size_t es = m->es;

    switch (m->kind) {
    case BH_MANIP_TRANSPOSE:
        return tk_transpose(m->in, m->out, es, m->rows, m->cols, m->cols,
                            m->rows, m->base.pool);
    case BH_MANIP_PERMUTE:
        return tk_permute(m->in, m->out, es, m->ndim, m->dims, m->perm,
                          m->base.pool);
    case BH_MANIP_RESHAPE: {
        size_t shape[2] = {m->rows, m->cols}, flat = m->rows * m->cols;
        size_t cstr[2] = {m->cols, 1}, tstr[2] = {1, m->rows};
        size_t nshape[2] = {m->cols, m->rows};
        int st;

        if (m->view) /* contiguous [rows, cols] as [cols, rows] */
            return tk_reshape_strides(2, shape, cstr, 2, nshape, m->strides);
        /* The transposed view of a [cols, rows] buffer cannot be flattened
         * without a copy: materialize it. */
        st = tk_reshape_strides(2, shape, tstr, 1, &flat, m->strides);
        if (st != TK_EUNSUP)
            return st == TK_OK ? TK_EINVAL : st;
        return tk_transpose(m->in, m->out, es, m->cols, m->rows, m->rows,
                            m->cols, m->base.pool);
    }
    case BH_MANIP_SLICE: {
        size_t shape[2] = {m->orows, m->ocols};
        size_t ss[2] = {m->step * m->cols, m->step}, ds[2] = {m->ocols, 1};

        return tk_strided_copy(m->in, ss, m->out, ds, es, 2, shape, m->base.pool);
    }
    case BH_MANIP_CONCAT: {
        const void *srcs[64];
        size_t inner[64], part = m->rows * m->cols;

        for (size_t p = 0; p < m->parts; p++) {
            srcs[p] = (const char *)m->in + p * part * es;
            inner[p] = m->axis ? m->cols : part;
        }
        return tk_concat(srcs, inner, m->parts, m->out, es, m->axis ? m->rows : 1,
                         m->base.pool);
    }
    default:
        return tk_gather_rows(m->in, m->rows, m->cols, es, m->idx, m->nidx,
                              m->out, m->base.pool);
    }
}

/* Element at index i of buffer p (es bytes). */
static const void *elem(const void *p, size_t i, size_t es)
{
    return (const char *)p + i * es;
}

/* Source index of output element k (linear, row-major output). */
static size_t source_of(const bh_tensor_manip *m, size_t k)
{
    size_t i, j, rem, so, dsh[TK_MAX_DIMS], ss[TK_MAX_DIMS];

    switch (m->kind) {
    case BH_MANIP_TRANSPOSE: /* out [cols, rows] */
        j = k / m->rows;
        i = k % m->rows;
        return i * m->cols + j;
    case BH_MANIP_RESHAPE: /* out [rows, cols] from in [cols, rows] */
        i = k / m->cols;
        j = k % m->cols;
        return j * m->rows + i;
    case BH_MANIP_SLICE:
        i = k / m->ocols;
        j = k % m->ocols;
        return i * m->step * m->cols + j * m->step;
    case BH_MANIP_CONCAT:
        if (!m->axis)
            return k;
        i = k / (m->parts * m->cols); /* row */
        j = k % (m->parts * m->cols);
        return (j / m->cols) * m->rows * m->cols + i * m->cols + j % m->cols;
    case BH_MANIP_GATHER:
        return (size_t)m->idx[k / m->cols] * m->cols + k % m->cols;
    default: /* permute */
        ss[m->ndim - 1] = 1;
        for (int d = m->ndim - 1; d > 0; d--)
            ss[d - 1] = ss[d] * m->dims[d];
        for (int d = 0; d < m->ndim; d++)
            dsh[d] = m->dims[m->perm[d]];
        rem = k;
        so = 0;
        for (int d = m->ndim - 1; d >= 0; d--) {
            so += (rem % dsh[d]) * ss[m->perm[d]];
            rem /= dsh[d];
        }
        return so;
    }
}

bhost_status bh_tensor_manip_verify(bh_tensor_manip *m)
{
    if (m->kind == BH_MANIP_RESHAPE && m->view) {
        if (m->strides[0] != m->rows || m->strides[1] != 1)
            return bh_tensor_fail(m->base.h, BHOST_E_VERIFY,
                                  "reshape: view strides %zu,%zu, expected %zu,1",
                                  m->strides[0], m->strides[1], m->rows);
        return BHOST_OK;
    }
    for (size_t k = 0; k < m->out_elems; k++) {
        size_t src = source_of(m, k);

        if (memcmp(elem(m->out, k, m->es), elem(m->in, src, m->es), m->es) != 0)
            return bh_tensor_fail(m->base.h, BHOST_E_VERIFY,
                                  "manip: output element %zu differs from source "
                                  "element %zu", k, src);
    }
    return BHOST_OK;
}
