// SPDX-License-Identifier: MIT
/*
 * sgemm_openblas.c -- the reference of tensor/matmul (f32) in
 * configs/reference.yaml: what a user would write instead of bhost,
 * OpenBLAS's sgemm called directly, as a program that bhost's command
 * plugin times from start to exit.
 *
 *   sgemm_openblas N REPS
 *
 * C = A B for N x N column-major f32 matrices (A, B uniform in [-1, 1)
 * from a fixed xorshift seed; beta 0; OpenBLAS's default thread count,
 * which OPENBLAS_NUM_THREADS sets), REPS times. Then 64 entries of C
 * spread over the matrix are checked against a double-precision dot
 * product (relative error at most 1e-4 of the row-column magnitude), and
 * the program prints one line, "sgemm n=N reps=REPS ok", the same on
 * every machine, so that the config verifies it by checksum. A wrong
 * entry exits 1 naming it; bad arguments exit 2.
 */
#include <cblas.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* Fills v[0..n) uniform in [-1, 1) from the xorshift state *s. */
static void fill(float *v, size_t n, uint64_t *s)
{
    for (size_t i = 0; i < n; i++) {
        *s ^= *s << 13;
        *s ^= *s >> 7;
        *s ^= *s << 17;
        v[i] = (float)((double)(*s >> 40) * 0x1p-23 - 1.0);
    }
}

/* 0 when 64 entries of C = A B (column-major n x n) match a double dot
 * product; else 1 after naming the first wrong one on stderr. */
static int check(const float *a, const float *b, const float *c, int n)
{
    for (int t = 0; t < 64; t++) {
        int i = (int)(((int64_t)t * 7919) % n), j = (int)(((int64_t)t * 104729) % n);
        double want = 0, mag = 0;

        for (int p = 0; p < n; p++) {
            double x = (double)a[(size_t)p * n + i] * (double)b[(size_t)j * n + p];

            want += x;
            mag += fabs(x);
        }
        if (fabs((double)c[(size_t)j * n + i] - want) > 1e-4 * (mag + 1e-30)) {
            fprintf(stderr, "sgemm_openblas: C[%d,%d] = %.9g, expected %.9g\n", i, j,
                    (double)c[(size_t)j * n + i], want);
            return 1;
        }
    }
    return 0;
}

int main(int argc, char **argv)
{
    int n = argc == 3 ? atoi(argv[1]) : 0, reps = argc == 3 ? atoi(argv[2]) : 0;
    uint64_t s = 88172645463325252ull;
    size_t nn;
    float *a, *b, *c;
    int rc;

    if (n < 1 || n > 16384 || reps < 1) {
        fprintf(stderr, "usage: sgemm_openblas N REPS (N in 1..16384, REPS >= 1)\n");
        return 2;
    }
    nn = (size_t)n * (size_t)n;
    a = malloc(nn * sizeof(float));
    b = malloc(nn * sizeof(float));
    c = malloc(nn * sizeof(float));
    if (!a || !b || !c) {
        fprintf(stderr, "sgemm_openblas: out of memory for N=%d\n", n);
        return 1;
    }
    fill(a, nn, &s);
    fill(b, nn, &s);
    for (int r = 0; r < reps; r++)
        cblas_sgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0f, a, n, b, n, 0.0f, c,
                    n);
    rc = check(a, b, c, n);
    if (rc == 0)
        printf("sgemm n=%d reps=%d ok\n", n, reps);
    free(a);
    free(b);
    free(c);
    return rc;
}
