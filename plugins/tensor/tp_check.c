// SPDX-License-Identifier: MIT
/*
 * tp_check.c -- verification of matrix products without recomputing them:
 * Freivalds' check in double precision with a rigorous tolerance.
 */
#include "tp.h"

#include <math.h>
#include <stdlib.h>

/* A column-major matrix operand: element (i, j) of op(M) for op = identity
 * or transpose. */
typedef struct mat {
    const void *p;
    tk_dtype t;
    size_t ld;
    int trans;
} mat;

/* op(M)(i, j) as double. */
static double el(const mat *m, size_t i, size_t j)
{
    return bh_tensor_get(m->p, m->t, m->trans ? j + i * m->ld : i + j * m->ld);
}

/* y[i] += op(M)(i, j) * x[j] and ya[i] += |op(M)(i, j)| * xa[j] over an
 * rows x cols op(M), walking M in storage order. */
static void matvec(const mat *m, size_t rows, size_t cols, const double *x,
                   const double *xa, double *y, double *ya)
{
    if (!m->trans) {
        for (size_t j = 0; j < cols; j++)
            for (size_t i = 0; i < rows; i++) {
                double v = el(m, i, j);

                y[i] += v * x[j];
                ya[i] += fabs(v) * xa[j];
            }
    } else {
        for (size_t i = 0; i < rows; i++)
            for (size_t j = 0; j < cols; j++) {
                double v = el(m, i, j);

                y[i] += v * x[j];
                ya[i] += fabs(v) * xa[j];
            }
    }
}

bhost_status bh_tensor_check_gemm(bhost_host *h, const bh_tensor_gemm_view *g)
{
    mat a = {g->a, g->ab_type, g->lda, g->trans_a};
    mat b = {g->b, g->ab_type, g->ldb, g->trans_b};
    mat c = {g->c, g->c_type, g->ldc, 0};
    size_t m = g->m, n = g->n, k = g->k;
    double *r = calloc(n, sizeof(double)), *ra = calloc(n, sizeof(double));
    double *t = calloc(k, sizeof(double)), *ta = calloc(k, sizeof(double));
    double *y1 = calloc(m, sizeof(double)), *y1a = calloc(m, sizeof(double));
    double *y2 = calloc(m, sizeof(double)), *y2a = calloc(m, sizeof(double));
    uint64_t s = g->seed | 1;
    bhost_status st = BHOST_OK;

    if (!r || !ra || !t || !ta || !y1 || !y1a || !y2 || !y2a) {
        st = bh_tensor_fail(h, BHOST_E_NOMEM, "verify: out of memory");
        goto done;
    }
    for (size_t j = 0; j < n; j++) { /* r in +-[0.5, 1) */
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        r[j] = (0.5 + (double)(s >> 11) * 0x1p-54) * (s & 1 ? -1.0 : 1.0);
        ra[j] = fabs(r[j]);
    }
    matvec(&b, k, n, r, ra, t, ta);    /* t = op(B) r */
    matvec(&a, m, k, t, ta, y2, y2a);  /* y2 = op(A) (op(B) r) */
    matvec(&c, m, n, r, ra, y1, y1a);  /* y1 = C r */
    for (size_t i = 0; i < m; i++) {
        double tol = (2.0 * (double)k + 8.0) * g->unit * y2a[i] + 1e-300;

        if (!(fabs(y1[i] - y2[i]) <= tol)) {
            st = bh_tensor_fail(h, BHOST_E_VERIFY,
                                "verify: row %zu of C r is %.9g, A (B r) gives "
                                "%.9g (tolerance %.3g)", i, y1[i], y2[i], tol);
            goto done;
        }
    }
done:
    free(r);
    free(ra);
    free(t);
    free(ta);
    free(y1);
    free(y1a);
    free(y2);
    free(y2a);
    return st;
}
