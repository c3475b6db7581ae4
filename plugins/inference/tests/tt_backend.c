// SPDX-License-Identifier: MIT
/*
 * tt_backend.c -- the unit tests' backend: host memory buffers, copies by
 * memcpy, synchronous streams, and bhost.kernel.gemm/1 as a naive
 * column-major triple loop accumulating in double. Plus host ops, the
 * stub host API and small helpers.
 */
#include "tt_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct bhost_buf {
    void *p;
    uint64_t n;
};

static int nomap;
static int dev_token;

void tt_backend_nomap(int on)
{
    nomap = on;
}

bhost_dev *tt_dev(void)
{
    return (bhost_dev *)&dev_token;
}

static bhost_status BHOST_ABI tb_count(uint32_t *n)
{
    *n = 1;
    return BHOST_OK;
}

static bhost_status BHOST_ABI tb_info(uint32_t i, bhost_device_info *o)
{
    (void)i;
    (void)o;
    return BHOST_OK;
}

static bhost_status BHOST_ABI tb_open(uint32_t i, bhost_host *h, bhost_dev **d)
{
    (void)i;
    (void)h;
    *d = tt_dev();
    return BHOST_OK;
}

static void BHOST_ABI tb_close(bhost_dev *d)
{
    (void)d;
}

static bhost_status BHOST_ABI tb_alloc(bhost_dev *d, uint64_t n, uint32_t f,
                                       bhost_buf **out)
{
    bhost_buf *b = malloc(sizeof(*b));

    (void)d;
    (void)f;
    if (b == NULL)
        return BHOST_E_NOMEM;
    b->p = aligned_alloc(64, (size_t)((n + 63) / 64 * 64));
    b->n = n;
    if (b->p == NULL) {
        free(b);
        return BHOST_E_NOMEM;
    }
    memset(b->p, 0xA5, (size_t)n); /* garbage: nothing may rely on zeros */
    *out = b;
    return BHOST_OK;
}

static void BHOST_ABI tb_free(bhost_dev *d, bhost_buf *b)
{
    (void)d;
    if (b != NULL)
        free(b->p);
    free(b);
}

static void *BHOST_ABI tb_map(bhost_dev *d, bhost_buf *b)
{
    (void)d;
    return nomap ? NULL : b->p;
}

static bhost_status BHOST_ABI tb_h2d(bhost_dev *d, bhost_stream *s,
                                     bhost_buf *dst, uint64_t off,
                                     const void *src, uint64_t n)
{
    (void)d;
    (void)s;
    if (off > dst->n || n > dst->n - off)
        return BHOST_E_INVALID;
    memcpy((char *)dst->p + off, src, (size_t)n);
    return BHOST_OK;
}

static bhost_status BHOST_ABI tb_d2h(bhost_dev *d, bhost_stream *s, void *dst,
                                     const bhost_buf *src, uint64_t off,
                                     uint64_t n)
{
    (void)d;
    (void)s;
    if (off > src->n || n > src->n - off)
        return BHOST_E_INVALID;
    memcpy(dst, (const char *)src->p + off, (size_t)n);
    return BHOST_OK;
}

static bhost_status BHOST_ABI tb_sync(bhost_dev *d, bhost_stream *s)
{
    (void)d;
    (void)s;
    return BHOST_OK;
}

/* Naive column-major C = alpha op(A) op(B) + beta C, f32 only. */
static bhost_status BHOST_ABI tb_gemm(bhost_dev *d, bhost_stream *s,
                                      const bhost_gemm_args *g)
{
    const float *A = g->a->p, *B = g->b->p;
    float *C = g->c->p;

    (void)d;
    (void)s;
    if (g->a_type != BHOST_DTYPE_F32 || g->c_type != BHOST_DTYPE_F32)
        return BHOST_E_UNSUPPORTED;
    /* operand spans must lie inside their buffers */
    if ((g->trans_a ? (g->m - 1) * g->lda + g->k : (g->k - 1) * g->lda + g->m) *
                4 > g->a->n ||
        (g->trans_b ? (g->k - 1) * g->ldb + g->n : (g->n - 1) * g->ldb + g->k) *
                4 > g->b->n ||
        ((g->n - 1) * g->ldc + g->m) * 4 > g->c->n)
        return BHOST_E_INVALID;
    for (uint64_t j = 0; j < g->n; j++)
        for (uint64_t i = 0; i < g->m; i++) {
            double acc = 0.0;

            for (uint64_t p = 0; p < g->k; p++) {
                double a = g->trans_a ? A[i * g->lda + p] : A[p * g->lda + i];
                double b = g->trans_b ? B[p * g->ldb + j] : B[j * g->ldb + p];

                acc += a * b;
            }
            C[j * g->ldc + i] = (float)(g->alpha * acc +
                                        (g->beta != 0.0
                                             ? g->beta * C[j * g->ldc + i]
                                             : 0.0));
        }
    return BHOST_OK;
}

static const bhost_kernel_gemm tb_gemm_table = {sizeof(bhost_kernel_gemm), 0,
                                                tb_gemm};

static const void *BHOST_ABI tb_kernel(bhost_dev *d, const char *id)
{
    (void)d;
    return strcmp(id, BHOST_KERNEL_GEMM) == 0 ? &tb_gemm_table : NULL;
}

const bhost_backend tt_backend = {
    sizeof(bhost_backend), 0, "test", tb_count, tb_info, tb_open, tb_close,
    tb_alloc, tb_free, tb_map, tb_h2d, tb_d2h, NULL, NULL, NULL, tb_sync,
    NULL, NULL, NULL, NULL, NULL, tb_kernel,
};

/* ---- host ops ------------------------------------------------------------- */

static void *h_alloc(void *u, size_t n)
{
    (void)u;
    return aligned_alloc(64, (n + 63) / 64 * 64);
}

static void h_free(void *u, void *p)
{
    (void)u;
    free(p);
}

static uint64_t h_now(void *u)
{
    struct timespec ts;

    (void)u;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

const ie_host_ops tt_host = {NULL, h_alloc, h_free, h_now};

/* ---- stub host API (for backend-cpu.so) ------------------------------------ */

char tt_last_error[512];

static void BHOST_ABI a_log(bhost_host *h, bhost_log_level l, const char *m)
{
    (void)h;
    (void)l;
    (void)m;
}

static void BHOST_ABI a_err(bhost_host *h, const char *m)
{
    (void)h;
    snprintf(tt_last_error, sizeof(tt_last_error), "%s", m);
}

static void *BHOST_ABI a_alloc(bhost_host *h, uint64_t n, uint64_t al)
{
    (void)h;
    (void)al;
    return aligned_alloc(64, (size_t)((n + 63) / 64 * 64));
}

static void BHOST_ABI a_free(bhost_host *h, void *p)
{
    (void)h;
    free(p);
}

static uint64_t BHOST_ABI a_now(bhost_host *h)
{
    return h_now(h);
}

static uint64_t BHOST_ABI a_seed(bhost_host *h)
{
    (void)h;
    return 42;
}

const bhost_host_api tt_api = {
    sizeof(bhost_host_api), 0, "test", a_log, a_err, a_alloc, a_free, a_now,
    NULL, NULL, NULL, NULL, NULL, a_seed, NULL, NULL,
};

/* ---- helpers ----------------------------------------------------------------- */

void tt_ctx(ie_ctx *ctx, int threads)
{
    if (ie_ctx_init(ctx, &tt_host, &tt_backend, tt_dev(), NULL, threads) !=
        IE_OK) {
        fprintf(stderr, "ie_ctx_init: %s\n", ctx->err);
        abort();
    }
}

ie_model *tt_model(ie_ctx *ctx, const char *preset, int wtype, int layers,
                   uint64_t seed)
{
    ie_config c;
    ie_source src = {"dummy", seed, 0};
    ie_model *m;

    if (strncmp(preset, "wide-", 5) == 0) { /* a tiny shape, widened so
                                                that the threaded paths run */
        char base[32];

        snprintf(base, sizeof(base), "tiny-%s", preset + 5);
        if (ie_preset(base, &c) != IE_OK)
            return NULL;
        c.d_model = 256;
        c.head_dim = 256 / c.n_heads;
        c.d_ff = 1000;
        c.vocab = 1500;
    } else if (ie_preset(preset, &c) != IE_OK) {
        return NULL;
    }
    if (layers > 0)
        c.n_layers = layers;
    m = ie_model_create(ctx, &c, wtype, &src);
    if (m == NULL)
        fprintf(stderr, "ie_model_create(%s): %s\n", preset, ctx->err);
    return m;
}

double tt_rel_err(const float *a, const double *b, int n)
{
    double diff = 0.0, scale = 1e-30;

    for (int i = 0; i < n; i++) {
        double d = fabs((double)a[i] - b[i]);

        diff = d > diff || d != d ? d : diff;
        scale = fabs(b[i]) > scale ? fabs(b[i]) : scale;
    }
    return diff / scale;
}

void tt_tokens(int32_t *out, int n, int vocab, uint64_t seed)
{
    for (int i = 0; i < n; i++)
        out[i] = (int32_t)(ie_mix64(seed * 7919u + (uint64_t)i) %
                           (uint64_t)vocab);
}
