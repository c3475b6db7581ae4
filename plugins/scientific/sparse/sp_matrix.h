// SPDX-License-Identifier: MIT
/*
 * sp_matrix.h -- sparse matrices of the scientific suite: a coordinate
 * list (COO) as read or generated, the compressed sparse row (CSR) form
 * the kernels run on, the generators (banded, power-law, random) and the
 * Matrix Market reader. No bhost dependency: unit-tested and fuzzed alone.
 *
 * Indices are 32-bit (rows and columns below 2^31), values double; the
 * CSR of a matrix holds its entries sorted by column within each row,
 * duplicates summed.
 */
#ifndef SP_MATRIX_H
#define SP_MATRIX_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* The largest row or column count a matrix may have. */
#define SP_MAX_DIM INT32_MAX

/* A coordinate list: n entries (row[k], col[k], val[k]), 0-based. */
typedef struct sp_coo {
    int32_t rows, cols;
    size_t n, cap;
    int32_t *row, *col;
    double *val;
} sp_coo;

/* Compressed sparse row: ptr[rows + 1], col[nnz] and val[nnz]. */
typedef struct sp_csr {
    int32_t rows, cols;
    size_t nnz;
    int64_t *ptr;
    int32_t *col;
    double *val;
} sp_csr;

/* Generated matrix families. */
typedef enum sp_kind {
    SP_BANDED,   /* entries within a band around the diagonal */
    SP_POWERLAW, /* row lengths of a Zipf law (exponent 1), columns uniform */
    SP_RANDOM    /* about density x cols entries per row, columns uniform */
} sp_kind;

/* Frees what c holds and zeroes it (a zeroed c is fine). */
void sp_coo_free(sp_coo *c);

/* Frees what m holds and zeroes it (a zeroed m is fine). */
void sp_csr_free(sp_csr *m);

/* Appends (r, c, v) to coo, growing it. 0, or -1 when out of memory. */
int sp_coo_push(sp_coo *coo, int32_t r, int32_t c, double v);

/* Builds out (CSR) from coo: rows sorted, columns sorted within each row,
 * duplicates summed. 0, or -1 when out of memory (out left zeroed). */
int sp_csr_from_coo(const sp_coo *coo, sp_csr *out);

/* A rows x rows matrix of kind with about density x rows^2 entries (at
 * least one per row), values uniform in [-1, 1), columns and values drawn
 * from seed. 0, or -1 when out of memory or the arguments are out of range
 * (rows < 1, density not in (0, 1]). */
int sp_generate(sp_kind kind, int32_t rows, double density, uint64_t seed, sp_coo *out);

/* Reads a Matrix Market file ("coordinate" format; real, integer or
 * pattern values; general, symmetric or skew-symmetric) from f into out,
 * 0-based, the mirrored entries of a symmetric matrix added. name is the
 * file's name in messages. At most max_entries entries are accepted
 * (counting mirrored ones). 0, or -1 with err = "NAME:LINE: what was
 * expected" (one line) and out zeroed. */
int sp_mm_read(FILE *f, const char *name, size_t max_entries, sp_coo *out, char *err,
               size_t errcap);

/* y = A x with y of A->rows and x of A->cols entries, for rows [r0, r1). */
void sp_spmv_rows(const sp_csr *a, const double *x, double *y, int32_t r0, int32_t r1);

/* Y = A X with X of A->cols x k and Y of A->rows x k, both row-major, for
 * rows [r0, r1). */
void sp_spmm_rows(const sp_csr *a, const double *x, double *y, int k, int32_t r0, int32_t r1);

/* Bytes a y = A x must move at the least: every value (8) and column
 * index (4), the row pointers (8 each), x read once and y written once. */
double sp_spmv_bytes(const sp_csr *a);

/* The same for Y = A X with k columns. */
double sp_spmm_bytes(const sp_csr *a, int k);

#endif /* SP_MATRIX_H */
