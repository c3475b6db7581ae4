// SPDX-License-Identifier: MIT
/*
 * cv_blas.c -- the im2col convolution's gemm by OpenBLAS (built only when
 * OpenBLAS is found): cv_sgemm_fn over cblas_sgemm, row-major.
 */
#include "cv_layer.h"

#include <cblas.h>

void cv_sgemm_blas(int tb, int m, int n, int k, const float *a, int lda, const float *b, int ldb,
                   float *c, int ldc)
{
    cblas_sgemm(CblasRowMajor, CblasNoTrans, tb ? CblasTrans : CblasNoTrans, m, n, k, 1.0f, a, lda,
                b, ldb, 0.0f, c, ldc);
}

void cv_blas_set_threads(int threads)
{
    openblas_set_num_threads(threads);
}
