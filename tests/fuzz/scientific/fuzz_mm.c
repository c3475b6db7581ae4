// SPDX-License-Identifier: MIT
/*
 * fuzz_mm.c -- libFuzzer target of the scientific plugin's Matrix Market
 * reader: any input is read (at most 65536 entries); an accepted one must
 * build a CSR whose row pointers rise and whose columns lie in range, and
 * a SpMV over it must run; a refused one must leave a one-line message
 * naming the file.
 */
#define _GNU_SOURCE
#include "sp_matrix.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Checks the CSR of an accepted matrix and multiplies by a vector of ones
 * (no more than 2^20 columns, so the vectors stay small). */
static void check_accepted(const sp_coo *coo)
{
    sp_csr m;
    double *x, *y;

    if (coo->cols > (1 << 20) || coo->rows > (1 << 20) || sp_csr_from_coo(coo, &m) != 0)
        return;
    for (int32_t r = 0; r < m.rows; r++) {
        if (m.ptr[r + 1] < m.ptr[r])
            abort();
        for (int64_t k = m.ptr[r]; k < m.ptr[r + 1]; k++)
            if (m.col[k] < 0 || m.col[k] >= m.cols || (k > m.ptr[r] && m.col[k] <= m.col[k - 1]))
                abort();
    }
    x = malloc((size_t)m.cols * sizeof(*x));
    y = malloc((size_t)m.rows * sizeof(*y));
    if (x && y) {
        for (int32_t j = 0; j < m.cols; j++)
            x[j] = 1.0;
        sp_spmv_rows(&m, x, y, 0, m.rows);
    }
    free(x);
    free(y);
    sp_csr_free(&m);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FILE *f = fmemopen((void *)data, size, "r");
    sp_coo coo;
    char err[512];

    if (f == NULL)
        return 0;
    if (sp_mm_read(f, "in.mtx", 65536, &coo, err, sizeof(err)) == 0) {
        check_accepted(&coo);
        sp_coo_free(&coo);
    } else if (strncmp(err, "in.mtx:", 7) != 0 || strchr(err, '\n') != NULL) {
        abort();
    }
    fclose(f);
    return 0;
}
