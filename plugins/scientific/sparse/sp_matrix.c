// SPDX-License-Identifier: MIT
/*
 * sp_matrix.c -- the coordinate list, its conversion to CSR, and the CSR
 * kernels (SpMV and SpMM over a range of rows) with their byte counts.
 */
#include "sp_matrix.h"

#include <stdlib.h>
#include <string.h>

void sp_coo_free(sp_coo *c)
{
    free(c->row);
    free(c->col);
    free(c->val);
    memset(c, 0, sizeof(*c));
}

void sp_csr_free(sp_csr *m)
{
    free(m->ptr);
    free(m->col);
    free(m->val);
    memset(m, 0, sizeof(*m));
}

/* Doubles coo's capacity (256 at first). 0, or -1 when out of memory (coo
 * still valid, its arrays possibly larger). */
static int coo_grow(sp_coo *coo)
{
    size_t cap = coo->cap ? coo->cap * 2 : 256;
    void *p;

    if (!(p = realloc(coo->row, cap * sizeof(*coo->row))))
        return -1;
    coo->row = p;
    if (!(p = realloc(coo->col, cap * sizeof(*coo->col))))
        return -1;
    coo->col = p;
    if (!(p = realloc(coo->val, cap * sizeof(*coo->val))))
        return -1;
    coo->val = p;
    coo->cap = cap;
    return 0;
}

int sp_coo_push(sp_coo *coo, int32_t r, int32_t c, double v)
{
    if (coo->n == coo->cap && coo_grow(coo) != 0)
        return -1;
    coo->row[coo->n] = r;
    coo->col[coo->n] = c;
    coo->val[coo->n] = v;
    coo->n++;
    return 0;
}

/* Sorts col[lo, hi) with val alongside (insertion sort: rows are short,
 * and a long one is sorted by the merge below). */
static void sort_row(int32_t *col, double *val, int64_t lo, int64_t hi)
{
    for (int64_t i = lo + 1; i < hi; i++) {
        int32_t c = col[i];
        double v = val[i];
        int64_t j = i;

        for (; j > lo && col[j - 1] > c; j--) {
            col[j] = col[j - 1];
            val[j] = val[j - 1];
        }
        col[j] = c;
        val[j] = v;
    }
}

/* Sorts one row by column: insertion sort for short rows, else a bottom-up
 * merge through tmp (one row's worth). */
static void sort_row_any(int32_t *col, double *val, int64_t lo, int64_t hi, int32_t *tc, double *tv)
{
    int64_t n = hi - lo;

    if (n <= 32) {
        sort_row(col, val, lo, hi);
        return;
    }
    for (int64_t b = lo; b < hi; b += 32)
        sort_row(col, val, b, b + 32 < hi ? b + 32 : hi);
    for (int64_t w = 32; w < n; w *= 2) {
        for (int64_t a = lo; a < hi; a += 2 * w) {
            int64_t m = a + w < hi ? a + w : hi, e = a + 2 * w < hi ? a + 2 * w : hi;
            int64_t i = a, j = m, k = 0;

            while (i < m || j < e) {
                int take_left = j >= e || (i < m && col[i] <= col[j]);

                tc[k] = take_left ? col[i] : col[j];
                tv[k++] = take_left ? val[i++] : val[j++];
            }
            memcpy(col + a, tc, (size_t)k * sizeof(*tc));
            memcpy(val + a, tv, (size_t)k * sizeof(*tv));
        }
    }
}

/* Sums runs of equal columns within each row in place and rewrites ptr;
 * returns the new entry count. */
static size_t sum_duplicates(sp_csr *m)
{
    size_t w = 0;
    int64_t start = 0;

    for (int32_t r = 0; r < m->rows; r++) {
        int64_t end = m->ptr[r + 1];
        size_t row_start = w;

        for (int64_t k = start; k < end; k++) {
            if (w > row_start && m->col[w - 1] == m->col[k]) {
                m->val[w - 1] += m->val[k];
                continue;
            }
            m->col[w] = m->col[k];
            m->val[w++] = m->val[k];
        }
        start = end;
        m->ptr[r + 1] = (int64_t)w;
    }
    return w;
}

int sp_csr_from_coo(const sp_coo *coo, sp_csr *out)
{
    sp_csr m = {coo->rows, coo->cols, coo->n, NULL, NULL, NULL};
    int64_t *fill = NULL, longest = 0;
    int32_t *tc = NULL;
    double *tv = NULL;

    m.ptr = calloc((size_t)coo->rows + 1, sizeof(*m.ptr));
    m.col = malloc((coo->n ? coo->n : 1) * sizeof(*m.col));
    m.val = malloc((coo->n ? coo->n : 1) * sizeof(*m.val));
    fill = malloc(((size_t)coo->rows + 1) * sizeof(*fill));
    if (!m.ptr || !m.col || !m.val || !fill)
        goto oom;
    for (size_t k = 0; k < coo->n; k++)
        m.ptr[coo->row[k] + 1]++;
    for (int32_t r = 0; r < coo->rows; r++) {
        longest = m.ptr[r + 1] > longest ? m.ptr[r + 1] : longest;
        m.ptr[r + 1] += m.ptr[r];
    }
    memcpy(fill, m.ptr, ((size_t)coo->rows + 1) * sizeof(*fill));
    for (size_t k = 0; k < coo->n; k++) {
        int64_t at = fill[coo->row[k]]++;

        m.col[at] = coo->col[k];
        m.val[at] = coo->val[k];
    }
    tc = malloc((size_t)(longest ? longest : 1) * sizeof(*tc));
    tv = malloc((size_t)(longest ? longest : 1) * sizeof(*tv));
    if (!tc || !tv)
        goto oom;
    for (int32_t r = 0; r < coo->rows; r++)
        sort_row_any(m.col, m.val, m.ptr[r], m.ptr[r + 1], tc, tv);
    m.nnz = sum_duplicates(&m);
    free(fill);
    free(tc);
    free(tv);
    *out = m;
    return 0;
oom:
    free(fill);
    free(tc);
    free(tv);
    sp_csr_free(&m);
    memset(out, 0, sizeof(*out));
    return -1;
}

void sp_spmv_rows(const sp_csr *a, const double *x, double *y, int32_t r0, int32_t r1)
{
    const int64_t *ptr = a->ptr;
    const int32_t *col = a->col;
    const double *val = a->val;

    for (int32_t r = r0; r < r1; r++) {
        double s = 0.0;

        for (int64_t k = ptr[r]; k < ptr[r + 1]; k++)
            s += val[k] * x[col[k]];
        y[r] = s;
    }
}

void sp_spmm_rows(const sp_csr *a, const double *x, double *y, int k, int32_t r0, int32_t r1)
{
    for (int32_t r = r0; r < r1; r++) {
        double *yr = y + (size_t)r * (size_t)k;

        for (int j = 0; j < k; j++)
            yr[j] = 0.0;
        for (int64_t e = a->ptr[r]; e < a->ptr[r + 1]; e++) {
            const double *xr = x + (size_t)a->col[e] * (size_t)k;
            double v = a->val[e];

            for (int j = 0; j < k; j++)
                yr[j] += v * xr[j];
        }
    }
}

double sp_spmv_bytes(const sp_csr *a)
{
    return 12.0 * (double)a->nnz + 8.0 * ((double)a->rows + 1) + 8.0 * (double)a->cols +
           8.0 * (double)a->rows;
}

double sp_spmm_bytes(const sp_csr *a, int k)
{
    return 12.0 * (double)a->nnz + 8.0 * ((double)a->rows + 1) +
           8.0 * (double)k * ((double)a->cols + (double)a->rows);
}
