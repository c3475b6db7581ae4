// SPDX-License-Identifier: MIT
/*
 * bench_norm.c -- row-wise normalizations norm.<op>: softmax,
 * log_softmax, layernorm (with gamma and beta), rmsnorm (with gamma) over
 * an f32 rows x cols matrix, eps 1e-5.
 *
 * Counting: bytes = 8 * rows * cols (x read once, y written once) plus
 * gamma/beta (4 * cols each) read once; FLOP per element: softmax 5 (max
 * compare, subtract, exp, sum, scale), log_softmax 5 (compare, subtract,
 * exp, sum, subtract), layernorm 8 (sum, subtract, square-add 2, subtract,
 * scale, gamma, beta), rmsnorm 4 (square-add 2, scale, gamma); items =
 * rows * cols. Work profile: read-write, f32, the counted bytes.
 */
#include "tp_bench.h"

#include <math.h>
#include <string.h>

enum { K_SOFTMAX, K_LOGSOFTMAX, K_LAYERNORM, K_RMSNORM };

#define EPS 1e-5f

typedef struct norm_inst {
    bh_tensor_base base;
    int kind;
    size_t rows, cols;
    float *x, *y, *g, *b;
} norm_inst;

static const bhost_param_desc norm_params[] = {
    BH_PARAM_I64("rows", "Rows (normalized independently)", "256", 1,
                 BH_PLUGIN_I64_MAX),
    BH_PARAM_I64("cols", "Row length", "4096", 1, BH_PLUGIN_I64_MAX),
    BH_TENSOR_PARAM_THREADS,
};

static void BHOST_ABI norm_destroy(void *inst);

/* Reads rows, cols, threads; nothing left allocated on failure. */
static bhost_status norm_create(bhost_host *h, int kind, void **out)
{
    static const double flops[] = {5, 5, 8, 4};
    norm_inst *d = bh_tensor_alloc(h, sizeof(*d));
    int64_t rows, cols;
    bhost_status st;

    if (d == NULL)
        return BHOST_E_NOMEM;
    memset(d, 0, sizeof(*d));
    d->base.h = h;
    d->kind = kind;
    st = bh_tensor_base_init(&d->base, h);
    if (st == BHOST_OK)
        st = bh_tensor_i64(h, "rows", 1, (int64_t)1 << 40, &rows);
    if (st == BHOST_OK)
        st = bh_tensor_i64(h, "cols", 1, (int64_t)1 << 40, &cols);
    if (st == BHOST_OK && (double)rows * (double)cols > 0x1p40)
        st = bh_tensor_fail(h, BHOST_E_INVALID, "norm: rows * cols exceeds 2^40");
    if (st != BHOST_OK) {
        norm_destroy(d);
        return st;
    }
    d->rows = (size_t)rows;
    d->cols = (size_t)cols;
    d->base.items = (double)rows * (double)cols;
    d->base.flops = d->base.items * flops[kind];
    d->base.access = BHOST_ACCESS_READ_WRITE;
    d->base.compute = BHOST_COMPUTE_F32;
    d->base.bytes = 8.0 * d->base.items +
                    4.0 * (double)cols * (kind == K_LAYERNORM ? 2 : kind == K_RMSNORM);
    *out = d;
    return BHOST_OK;
}

/* x uniform in [-4, 4), gamma in [0.5, 1.5), beta in [-1, 1); y zeroed
 * from the pool's threads. [instance] */
static bhost_status BHOST_ABI norm_setup(void *inst, bhost_stream *s)
{
    norm_inst *d = inst;
    size_t n = d->rows * d->cols;
    bhost_status st;

    (void)s;
    if (d->x == NULL)
        d->x = bh_tensor_alloc(d->base.h, n * 4);
    if (d->y == NULL)
        d->y = bh_tensor_alloc(d->base.h, n * 4);
    if (d->g == NULL)
        d->g = bh_tensor_alloc(d->base.h, d->cols * 4);
    if (d->b == NULL)
        d->b = bh_tensor_alloc(d->base.h, d->cols * 4);
    if (d->x == NULL || d->y == NULL || d->g == NULL || d->b == NULL)
        return BHOST_E_NOMEM;
    st = bh_tensor_random(&d->base, d->x, TK_F32, n, -4, 4, 1);
    if (st == BHOST_OK)
        st = bh_tensor_random(&d->base, d->g, TK_F32, d->cols, 0.5, 1.5, 2);
    if (st == BHOST_OK)
        st = bh_tensor_random(&d->base, d->b, TK_F32, d->cols, -1, 1, 3);
    if (st == BHOST_OK && tk_fill(d->y, TK_F32, n, 0.0, d->base.pool) != TK_OK)
        st = bh_tensor_fail(d->base.h, BHOST_E_INTERNAL, "norm: fill failed");
    return st;
}

/* One call of the kernel. */
static int norm_once(norm_inst *d)
{
    switch (d->kind) {
    case K_SOFTMAX:
    case K_LOGSOFTMAX:
        return tk_softmax(d->x, d->y, d->rows, d->cols, d->cols, d->cols,
                          d->kind == K_LOGSOFTMAX, d->base.pool);
    case K_LAYERNORM:
        return tk_layernorm(d->x, d->y, d->g, d->b, d->rows, d->cols, d->cols,
                            d->cols, EPS, d->base.pool);
    default:
        return tk_rmsnorm(d->x, d->y, d->g, d->rows, d->cols, d->cols, d->cols,
                          EPS, d->base.pool);
    }
}

/* iterations of the normalization. [instance] */
static bhost_status BHOST_ABI norm_run(void *inst, bhost_stream *s,
                                       uint64_t iterations)
{
    norm_inst *d = inst;

    (void)s;
    for (uint64_t i = 0; i < iterations; i++) {
        int st = norm_once(d);

        if (st != TK_OK)
            return bh_tensor_fail(d->base.h, BHOST_E_INTERNAL,
                                  "norm: kernel refused (%d)", st);
        bhost_clobber_memory();
    }
    return BHOST_OK;
}

/* Every element against a double reference of its row: softmax within
 * 5e-6 relative, the others within 1e-5 (1 + |ref|). [instance] */
static bhost_status BHOST_ABI norm_verify(void *inst)
{
    norm_inst *d = inst;

    if (d->y == NULL)
        return bh_tensor_fail(d->base.h, BHOST_E_VERIFY, "norm: verify before setup");
    for (size_t r = 0; r < d->rows; r++) {
        const float *x = d->x + r * d->cols;
        const float *y = d->y + r * d->cols;
        double m = -INFINITY, s = 0, mean = 0, var = 0, ms = 0;

        for (size_t i = 0; i < d->cols; i++) {
            m = x[i] > m ? x[i] : m;
            mean += x[i];
            ms += (double)x[i] * x[i];
        }
        mean /= (double)d->cols;
        ms /= (double)d->cols;
        for (size_t i = 0; i < d->cols; i++) {
            s += exp(x[i] - m);
            var += (x[i] - mean) * (x[i] - mean);
        }
        var /= (double)d->cols;
        for (size_t i = 0; i < d->cols; i++) {
            double ref, tol;

            switch (d->kind) {
            case K_SOFTMAX:
                ref = exp(x[i] - m) / s;
                break;
            case K_LOGSOFTMAX:
                ref = x[i] - m - log(s);
                break;
            case K_LAYERNORM:
                ref = (x[i] - mean) / sqrt(var + EPS) * d->g[i] + d->b[i];
                break;
            default:
                ref = x[i] / sqrt(ms + EPS) * d->g[i];
                break;
            }
            tol = d->kind == K_SOFTMAX ? 5e-6 * ref + 1e-30 : 1e-5 * (1 + fabs(ref));
            if (!(fabs(y[i] - ref) <= tol))
                return bh_tensor_fail(d->base.h, BHOST_E_VERIFY,
                                      "norm: row %zu col %zu is %.9g, reference "
                                      "%.9g", r, i, (double)y[i], ref);
        }
    }
    return BHOST_OK;
}

/* Frees the buffers and the pool. */
static void BHOST_ABI norm_destroy(void *inst)
{
    norm_inst *d = inst;
    bhost_host *h = d->base.h;

    bh_tensor_base_fini(&d->base);
    bh_tensor_free(h, d->x);
    bh_tensor_free(h, d->y);
    bh_tensor_free(h, d->g);
    bh_tensor_free(h, d->b);
    bh_tensor_free(h, d);
}

#define NORM_BENCH(name, KIND, sum)                                                                \
    TP_BENCH("norm", name, norm_create, KIND, norm_params, norm, bh_tensor_flops, sum)

NORM_BENCH(softmax, K_SOFTMAX, "Softmax along rows (f32)")
NORM_BENCH(log_softmax, K_LOGSOFTMAX, "Log-softmax along rows (f32)")
NORM_BENCH(layernorm, K_LAYERNORM, "LayerNorm along rows with gamma, beta (f32)")
NORM_BENCH(rmsnorm, K_RMSNORM, "RMSNorm along rows with gamma (f32)")

const bhost_bench_desc *const bh_tensor_norm_benches[] = {
    &softmax_desc, &log_softmax_desc, &layernorm_desc, &rmsnorm_desc, NULL,
};
