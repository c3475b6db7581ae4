// SPDX-License-Identifier: MIT
/*
 * ie_dev.c -- the engine context and its use of the backend: device
 * buffers with host views, and the two gemm shapes the engine calls
 * through "bhost.kernel.gemm/1".
 */
#include "ie_internal.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* Mapped buffers from this size on are advised to use huge pages. */
#define HUGE_MIN (4u << 20)
#define HUGE_PAGE ((uintptr_t)2 << 20)

int ie_fail(ie_ctx *ctx, int code, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(ctx->err, sizeof(ctx->err), fmt, ap);
    va_end(ap);
    return code;
}

void *ie_alloc(ie_ctx *ctx, size_t bytes)
{
    void *p = ctx->host.alloc(ctx->host.user, bytes ? bytes : 1);

    if (p == NULL)
        ie_fail(ctx, IE_ENOMEM, "out of host memory (%zu bytes)", bytes);
    return p;
}

void ie_free(ie_ctx *ctx, void *p)
{
    if (p != NULL)
        ctx->host.free(ctx->host.user, p);
}

int ie_ctx_init(ie_ctx *ctx, const ie_host_ops *host, const bhost_backend *be,
                bhost_dev *dev, bhost_stream *stream, int threads)
{
    const bhost_kernel_gemm *g;

    memset(ctx, 0, sizeof(*ctx));
    ctx->host = *host;
    ctx->be = be;
    ctx->dev = dev;
    ctx->stream = stream;
    ctx->threads = threads < 1 ? 1 : threads;
    ctx->matvec = IE_MATVEC_BACKEND;
    ctx->matvec_max_rows = IE_MV_MAXB;
    if (be == NULL || dev == NULL || !BHOST_HAS(bhost_backend, be, get_kernel))
        return ie_fail(ctx, IE_EINVAL, "needs a backend device (1.0 table)");
    g = be->get_kernel(dev, BHOST_KERNEL_GEMM);
    if (g == NULL || g->struct_size < sizeof(bhost_kernel_gemm) || !g->run)
        return ie_fail(ctx, IE_EUNSUP,
                       "backend '%s' has no " BHOST_KERNEL_GEMM " kernel",
                       be->id ? be->id : "?");
    ctx->gemm = g;
    if (ctx->threads > 1) {
        ctx->pool = ie_pool_create(ctx->threads);
        if (ctx->pool == NULL)
            return ie_fail(ctx, IE_ENOMEM, "cannot start %d threads",
                           ctx->threads);
    }
    return IE_OK;
}

void ie_ctx_fini(ie_ctx *ctx)
{
    ie_pool_destroy(ctx->pool);
    ctx->pool = NULL;
}

/* Asks the kernel to back the whole 2 MiB pages inside [p, p+n) with
 * huge pages (a hint: decode streams every weight byte once per token,
 * and 4 KiB pages cost a TLB miss every 4 KiB). Before the first touch,
 * so the pages are huge from the start; IE_NO_HUGEPAGE=1 disables it. */
static void advise_huge(void *p, uint64_t n)
{
#if defined(MADV_HUGEPAGE)
    uintptr_t a = ((uintptr_t)p + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
    uintptr_t e = ((uintptr_t)p + (uintptr_t)n) & ~(HUGE_PAGE - 1);
    const char *off = getenv("IE_NO_HUGEPAGE");

    if (e > a && (off == NULL || strcmp(off, "1") != 0))
        (void)madvise((void *)a, (size_t)(e - a), MADV_HUGEPAGE);
#else
    (void)p;
    (void)n;
#endif
}

int ie_dbuf_alloc(ie_ctx *ctx, ie_dbuf *d, uint64_t bytes)
{
    bhost_status st;

    memset(d, 0, sizeof(*d));
    if (bytes == 0)
        bytes = 64;
    st = ctx->be->alloc(ctx->dev, bytes, BHOST_MEM_DEVICE, &d->b);
    if (st != BHOST_OK || d->b == NULL)
        return ie_fail(ctx, st == BHOST_E_NOMEM ? IE_ENOMEM : IE_EDEV,
                       "backend alloc of %llu bytes failed (status %d)",
                       (unsigned long long)bytes, (int)st);
    d->bytes = bytes;
    d->host = ctx->be->map(ctx->dev, d->b);
    if (d->host != NULL && bytes >= HUGE_MIN)
        advise_huge(d->host, bytes);
    if (d->host == NULL) {
        d->host = ie_alloc(ctx, (size_t)bytes);
        if (d->host == NULL) {
            ctx->be->free(ctx->dev, d->b);
            d->b = NULL;
            return IE_ENOMEM;
        }
        memset(d->host, 0, (size_t)bytes);
        d->shadow = 1;
    }
    return IE_OK;
}

void ie_dbuf_free(ie_ctx *ctx, ie_dbuf *d)
{
    if (d->shadow)
        ie_free(ctx, d->host);
    if (d->b != NULL)
        ctx->be->free(ctx->dev, d->b);
    memset(d, 0, sizeof(*d));
}

int ie_dbuf_push(ie_ctx *ctx, ie_dbuf *d, uint64_t off, uint64_t n)
{
    bhost_status st;

    if (!d->shadow || n == 0)
        return IE_OK;
    st = ctx->be->copy_h2d(ctx->dev, ctx->stream, d->b, off,
                           (const char *)d->host + off, n);
    if (st != BHOST_OK)
        return ie_fail(ctx, IE_EDEV, "backend copy_h2d failed (status %d)",
                       (int)st);
    return IE_OK;
}

int ie_dbuf_pull(ie_ctx *ctx, ie_dbuf *d, uint64_t off, uint64_t n)
{
    bhost_status st = BHOST_OK;

    if (d->shadow && n > 0)
        st = ctx->be->copy_d2h(ctx->dev, ctx->stream,
                               (char *)d->host + off, d->b, off, n);
    if (st == BHOST_OK)
        st = ctx->be->stream_sync(ctx->dev, ctx->stream);
    if (ctx->gemm_t0 != 0) {
        ctx->stats.gemm_ns += ctx->host.now_ns(ctx->host.user) - ctx->gemm_t0;
        ctx->gemm_t0 = 0;
    }
    if (st != BHOST_OK)
        return ie_fail(ctx, IE_EDEV, "backend copy_d2h/sync failed (status %d)",
                       (int)st);
    return IE_OK;
}

/* Queues one f32 gemm with the given column-major arguments; its time
 * counts from here to the next ie_dbuf_pull (stats.gemm_ns). */
static int gemm(ie_ctx *ctx, uint32_t ta, uint32_t tb, uint64_t m,
                uint64_t n, uint64_t k, const ie_dbuf *a, uint64_t lda,
                const ie_dbuf *b, uint64_t ldb, ie_dbuf *c, uint64_t ldc,
                double beta)
{
    bhost_gemm_args g;
    uint64_t t0 = ctx->host.now_ns(ctx->host.user);
    bhost_status st;

    memset(&g, 0, sizeof(g));
    g.struct_size = sizeof(g);
    g.a_type = g.b_type = g.c_type = g.compute_type = BHOST_DTYPE_F32;
    g.trans_a = ta;
    g.trans_b = tb;
    g.m = m;
    g.n = n;
    g.k = k;
    g.lda = lda;
    g.ldb = ldb;
    g.ldc = ldc;
    g.alpha = 1.0;
    g.beta = beta;
    g.a = a->b;
    g.b = b->b;
    g.c = c->b;
    st = ctx->gemm->run(ctx->dev, ctx->stream, &g);
    /* an asynchronous backend returns once the gemm is queued: it counts
     * until the pull that every gemm is followed by has waited for it */
    if (ctx->gemm_t0 == 0)
        ctx->gemm_t0 = t0;
    ctx->stats.gemm_calls++;
    if (st != BHOST_OK)
        return ie_fail(ctx, st == BHOST_E_UNSUPPORTED ? IE_EUNSUP : IE_EDEV,
                       "backend gemm m=%llu n=%llu k=%llu failed (status %d)",
                       (unsigned long long)m, (unsigned long long)n,
                       (unsigned long long)k, (int)st);
    return IE_OK;
}

int ie_gemm_xwt(ie_ctx *ctx, const ie_dbuf *x, const ie_dbuf *w,
                ie_dbuf *c, uint64_t n, uint64_t m, uint64_t k, double beta)
{
    /* row-major C[n,m] = X W^T  <=>  col-major C'[m,n] = W'^T X' where W'
     * is [k,m] (ld k) and X' is [k,n] (ld k). */
    return gemm(ctx, 1, 0, m, n, k, w, k, x, k, c, m, beta);
}

int ie_gemm_xy(ie_ctx *ctx, const ie_dbuf *x, const ie_dbuf *y, ie_dbuf *c,
               uint64_t n, uint64_t m, uint64_t k)
{
    /* row-major C[n,m] = X Y  <=>  col-major C'[m,n] = Y'[m,k] X'[k,n] */
    return gemm(ctx, 0, 0, m, n, k, y, m, x, k, c, m, 0.0);
}
