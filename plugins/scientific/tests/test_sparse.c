// SPDX-License-Identifier: MIT
/*
 * test_sparse.c -- the sparse library of the scientific plugin: the Matrix
 * Market reader (accepted forms, mirrored entries, every refusal with its
 * file and line), CSR building (order, duplicates), the kernels against a
 * dense product, and the generators' shapes.
 */
#define _GNU_SOURCE
#include "sp_matrix.h"

#include "sci_check.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Reads text as the Matrix Market file "t.mtx"; err receives the message. */
static int read_text(const char *text, size_t max, sp_coo *out, char *err, size_t cap)
{
    FILE *f = fmemopen((void *)text, strlen(text), "r");
    int rc;

    err[0] = '\0';
    rc = sp_mm_read(f, "t.mtx", max, out, err, cap);
    fclose(f);
    return rc;
}

/* The reader takes each accepted form, with the mirrored entries. */
static void test_mm_accepts(void)
{
    sp_coo c;
    char err[256];
    const char *general = "%%MatrixMarket matrix coordinate real general\n"
                          "% a comment\n\n3 4 3\n1 1 2.5\n3 4 -1e-3\n2 2 7\n";
    const char *sym = "%%MatrixMarket matrix coordinate integer symmetric\n2 2 2\n1 1 3\n2 1 5\n";
    const char *skew = "%%MatrixMarket matrix coordinate real skew-symmetric\n2 2 1\n2 1 4\n";
    const char *pattern = "%%MatrixMarket matrix coordinate pattern general\r\n2 3 1\r\n2 3\r\n";

    CHECK(read_text(general, 100, &c, err, sizeof(err)) == 0, "general: %s", err);
    CHECK(c.rows == 3 && c.cols == 4 && c.n == 3, "general: %dx%d n=%zu", c.rows, c.cols, c.n);
    CHECK(c.n == 3 && c.row[1] == 2 && c.col[1] == 3 && c.val[1] == -1e-3, "general entry 2");
    sp_coo_free(&c);
    CHECK(read_text(sym, 100, &c, err, sizeof(err)) == 0, "symmetric: %s", err);
    CHECK(c.n == 3 && c.row[2] == 0 && c.col[2] == 1 && c.val[2] == 5, "symmetric mirror");
    sp_coo_free(&c);
    CHECK(read_text(skew, 100, &c, err, sizeof(err)) == 0, "skew: %s", err);
    CHECK(c.n == 2 && c.val[0] == 4 && c.val[1] == -4, "skew mirror negated");
    sp_coo_free(&c);
    CHECK(read_text(pattern, 100, &c, err, sizeof(err)) == 0, "pattern: %s", err);
    CHECK(c.n == 1 && c.row[0] == 1 && c.col[0] == 2 && c.val[0] == 1.0, "pattern value 1");
    sp_coo_free(&c);
}

/* Each refusal names the file and the line, and says what was expected. */
static void test_mm_refuses(void)
{
    static const struct {
        const char *text, *line_and_words;
        size_t max;
    } bad[] = {
        {"", "t.mtx:1: expected a %%MatrixMarket banner", 100},
        {"%%MatrixMarket matrix array real general\n2 2\n", "t.mtx:1: expected the \"coordinate\"",
         100},
        {"%%MatrixMarket matrix coordinate complex general\n", "t.mtx:1: expected the field", 100},
        {"hello\n", "t.mtx:1: expected \"%%MatrixMarket", 100},
        {"%%MatrixMarket matrix coordinate real general\n2 2\n", "t.mtx:2: expected the size", 100},
        {"%%MatrixMarket matrix coordinate real general\n2 2 3\n1 1 1\n2 2 2\n",
         "t.mtx:4: expected 3 entries, found 2 (the file ends early)", 100},
        {"%%MatrixMarket matrix coordinate real general\n2 2 1\n3 1 1\n",
         "t.mtx:3: expected ROW in", 100},
        {"%%MatrixMarket matrix coordinate real general\n2 2 1\n1 1 nan\n",
         "t.mtx:3: expected a finite real", 100},
        {"%%MatrixMarket matrix coordinate real general\n2 2 1\n1 1 1 9\n",
         "t.mtx:3: expected the end of the entry", 100},
        {"%%MatrixMarket matrix coordinate real general\n2 2 1\n1 1 1\n2 2 2\n",
         "t.mtx:4: expected the end of the file", 100},
        {"%%MatrixMarket matrix coordinate real general\n4 4 5\n",
         "t.mtx:2: 5 entries is too large", 4},
        {"%%MatrixMarket matrix coordinate real symmetric\n3 3 2\n2 1 1\n3 1 1\n",
         "t.mtx:4: too large", 3},
        {"%%MatrixMarket matrix coordinate real general\n9999999999 2 1\n",
         "t.mtx:2: expected ROWS and COLS", 100},
        {"%%MatrixMarket matrix coordinate real skew-symmetric\n2 2 1\n1 1 1\n",
         "t.mtx:3: expected no diagonal entry", 100},
    };
    sp_coo c;
    char err[256];

    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        CHECK(read_text(bad[i].text, bad[i].max, &c, err, sizeof(err)) == -1, "case %zu accepted",
              i);
        CHECK(strstr(err, bad[i].line_and_words) == err, "case %zu: \"%s\" lacks \"%s\"", i, err,
              bad[i].line_and_words);
        CHECK(strchr(err, '\n') == NULL, "case %zu: more than one line", i);
        CHECK(c.n == 0 && c.row == NULL, "case %zu: coo not cleared", i);
    }
}

/* CSR: rows and columns sorted, duplicates summed, empty rows kept. */
static void test_csr_build(void)
{
    sp_coo c = {0};
    sp_csr m;

    c.rows = 3;
    c.cols = 3;
    sp_coo_push(&c, 2, 2, 1.0);
    sp_coo_push(&c, 0, 2, 2.0);
    sp_coo_push(&c, 0, 0, 3.0);
    sp_coo_push(&c, 2, 2, 4.0);
    CHECK(sp_csr_from_coo(&c, &m) == 0, "csr");
    CHECK(m.nnz == 3, "nnz %zu, expected 3", m.nnz);
    CHECK(m.ptr[0] == 0 && m.ptr[1] == 2 && m.ptr[2] == 2 && m.ptr[3] == 3, "row pointers");
    CHECK(m.col[0] == 0 && m.col[1] == 2 && m.val[0] == 3.0 && m.val[1] == 2.0, "row 0 sorted");
    CHECK(m.col[2] == 2 && m.val[2] == 5.0, "duplicate summed: %g", m.val[2]);
    sp_csr_free(&m);
    sp_coo_free(&c);
}

/* SpMV and SpMM of a generated matrix equal the dense product. */
static void test_kernels(void)
{
    const int n = 70, k = 3;
    sp_coo c;
    sp_csr m;
    double *dense = calloc((size_t)n * n, sizeof(double)), x[70 * 3], y[70 * 3], yv[70];

    CHECK(sp_generate(SP_POWERLAW, n, 0.2, 7, &c) == 0, "generate");
    for (size_t e = 0; e < c.n; e++)
        dense[(size_t)c.row[e] * n + c.col[e]] += c.val[e];
    CHECK(sp_csr_from_coo(&c, &m) == 0, "csr");
    for (int i = 0; i < n * k; i++)
        x[i] = sin(i + 1.0);
    sp_spmm_rows(&m, x, y, k, 0, n);
    for (int j = 0; j < k; j++) {
        double xv[70];

        for (int i = 0; i < n; i++)
            xv[i] = x[i * k + j];
        sp_spmv_rows(&m, xv, yv, 0, n);
        for (int r = 0; r < n; r++) {
            double want = 0.0;

            for (int q = 0; q < n; q++)
                want += dense[(size_t)r * n + q] * xv[q];
            CHECK(fabs(yv[r] - want) < 1e-12, "spmv row %d: %g vs %g", r, yv[r], want);
            CHECK(fabs(y[r * k + j] - want) < 1e-12, "spmm row %d col %d", r, j);
        }
    }
    CHECK(sp_spmv_bytes(&m) == 12.0 * m.nnz + 8.0 * (n + 1) + 16.0 * n, "spmv bytes");
    free(dense);
    sp_csr_free(&m);
    sp_coo_free(&c);
}

/* Generators: the band's width, every row non-empty, the density near its
 * goal, and a power-law matrix's longest row far above its mean. */
static void test_generators(void)
{
    const int32_t n = 2000;
    sp_coo c;
    sp_csr m;
    int64_t longest = 0, empty = 0;

    CHECK(sp_generate(SP_BANDED, n, 5.0 / n, 1, &c) == 0 && sp_csr_from_coo(&c, &m) == 0, "band");
    CHECK(m.ptr[1001] - m.ptr[1000] == 5 && m.ptr[1] - m.ptr[0] == 3, "band widths 5 and 3");
    sp_csr_free(&m);
    sp_coo_free(&c);
    CHECK(sp_generate(SP_RANDOM, n, 0.01, 2, &c) == 0 && sp_csr_from_coo(&c, &m) == 0, "random");
    CHECK(m.nnz > 0.95 * 0.01 * n * n && m.nnz <= 0.01 * n * n, "random nnz %zu", m.nnz);
    sp_csr_free(&m);
    sp_coo_free(&c);
    CHECK(sp_generate(SP_POWERLAW, n, 0.01, 3, &c) == 0 && sp_csr_from_coo(&c, &m) == 0, "zipf");
    for (int32_t r = 0; r < n; r++) {
        int64_t len = m.ptr[r + 1] - m.ptr[r];

        longest = len > longest ? len : longest;
        empty += len == 0;
    }
    CHECK(empty == 0, "%lld empty rows", (long long)empty);
    CHECK(longest > 20 * (int64_t)(m.nnz / (size_t)n), "longest row %lld, mean %zu",
          (long long)longest, m.nnz / (size_t)n);
    sp_csr_free(&m);
    sp_coo_free(&c);
    CHECK(sp_generate(SP_RANDOM, 0, 0.5, 1, &c) == -1, "rows 0 refused");
    CHECK(sp_generate(SP_RANDOM, 5, 1.5, 1, &c) == -1, "density 1.5 refused");
}

int main(void)
{
    test_mm_accepts();
    test_mm_refuses();
    test_csr_build();
    test_kernels();
    test_generators();
    return check_summary("sparse library");
}
