// SPDX-License-Identifier: MIT
/*
 * vk_gemm.c -- bhost.kernel.gemm/1 on Vulkan: C = alpha op(A) op(B) +
 * beta C through the 16 x 16 tiled shader (shaders/gemm.comp), or, for a
 * piece of C with at most GEMV_MAX columns (or rows), the matrix-vector
 * shader (shaders/gemv.comp): with n = 1 the tiled shader would idle 15 of
 * its 16 columns of invocations and walk each k serially.
 *
 * One binding may cover at most dev->bind_max bytes (maxStorageBufferRange,
 * or less by BHOST_VK_MAX_RANGE), so a gemm whose operand spans more is
 * split into pieces: sub-blocks [i0, i0 + bm) x [j0, j0 + bn) of C over
 * [l0, l0 + bk) of k, each binding only the ranges of A, B and C it reads
 * or writes (offsets rounded down to minStorageBufferOffsetAlignment, the
 * rest passed to the shader as an element offset). The plan shrinks first
 * the outer dimension of the operand that is too large (its columns as
 * stored), so that its pieces are contiguous: splitting m for A stored
 * transposed (the engine's X W^T), n for B or C, k for A as stored or B
 * transposed; its inner dimension only when one column alone is too long.
 * The pieces of one (i0, j0) run in k order, the first with beta and the
 * others adding to C (beta 1), each after a barrier. Each piece picks its
 * shader by its own shape.
 */
#include "vk_internal.h"

#include <inttypes.h>
#include <string.h>

/* Block sizes of the pieces (the last ones along a dimension smaller). */
typedef struct gemm_plan {
    uint64_t bm, bn, bk;
} gemm_plan;

/* Elements a rows x cols column-major block at leading dimension ld
 * spans (0 for an empty block). */
static uint64_t span(uint64_t rows, uint64_t cols, uint64_t ld)
{
    return rows == 0 || cols == 0 ? 0 : ld * (cols - 1) + rows;
}

/* Shrinks *cols, and *rows when one column alone exceeds lim, until a
 * *rows x *cols block at ld (ld >= *rows) spans at most lim >= 1
 * elements. */
static void fit(uint64_t *rows, uint64_t *cols, uint64_t ld, uint64_t lim)
{
    if (span(*rows, *cols, ld) <= lim)
        return;
    if (*rows > lim) {
        *rows = lim;
        *cols = 1;
        return;
    }
    *cols = (lim - *rows) / ld + 1;
}

/* The block sizes for g: every piece's A, B and C spans fit lim elements
 * and its workgroup counts the device limits. Shrinking only ever shrinks
 * the other operands' spans, so one pass over A, B, C suffices. */
static gemm_plan plan_of(const bhost_dev *dev, const bhost_gemm_args *g,
                         uint64_t lim)
{
    const uint32_t *wg = dev->phys->props.limits.maxComputeWorkGroupCount;
    gemm_plan p = {g->m, g->n, g->k};

    if (g->trans_a)
        fit(&p.bk, &p.bm, g->lda, lim);
    else
        fit(&p.bm, &p.bk, g->lda, lim);
    if (g->trans_b)
        fit(&p.bn, &p.bk, g->ldb, lim);
    else
        fit(&p.bk, &p.bn, g->ldb, lim);
    fit(&p.bm, &p.bn, g->ldc, lim);
    if (p.bm > 16 * (uint64_t)wg[0])
        p.bm = 16 * (uint64_t)wg[0];
    if (p.bn > 16 * (uint64_t)wg[1])
        p.bn = 16 * (uint64_t)wg[1];
    return p;
}

/* Checks one operand: ld >= rows and below 2^32, inside its buffer. */
static bhost_status check_matrix(const bhost_dev *dev, const bhost_buf *buf,
                                 uint64_t rows, uint64_t cols, uint64_t ld,
                                 uint64_t es, const char *what)
{
    uint64_t n;

    if (ld < (rows > 1 ? rows : 1) || ld > UINT32_MAX)
        return bh_vk_fail(dev->h, BHOST_E_INVALID,
                          "gemm: ld%s=%" PRIu64 " invalid for %" PRIu64 " rows",
                          what, ld, rows);
    n = span(rows, cols, ld);
    if (n > UINT64_MAX / es)
        return bh_vk_fail(dev->h, BHOST_E_INVALID,
                          "gemm: matrix %s spans 2^64 bytes or more", what);
    return bh_vk_check_range(dev, buf, 0, n * es, "gemm", what);
}

/* C pieces with at most this many columns (or rows) take gemv.comp; its
 * VMAX is the same. */
#define GEMV_MAX 8u

/* Workgroups for a grid-stride pass of `groups` over dimension x. */
static uint32_t grid_x(const bhost_dev *dev, uint64_t groups)
{
    uint64_t cap = dev->phys->props.limits.maxComputeWorkGroupCount[0];

    return (uint32_t)(groups < cap ? groups : cap);
}

/* Records a pm x pn x pk piece on the tiled shader; b and push[8..10]
 * hold A, B, C. */
static bhost_status tiled(bhost_stream *t, const bhost_gemm_args *g, int f,
                          uint64_t pm, uint64_t pn, uint64_t pk,
                          const bh_vk_bind b[3], uint32_t push[16])
{
    push[0] = (uint32_t)pm;
    push[1] = (uint32_t)pn;
    push[2] = (uint32_t)pk;
    push[3] = (uint32_t)g->lda;
    push[4] = (uint32_t)g->ldb;
    push[5] = (uint32_t)g->ldc;
    push[6] = g->trans_a;
    push[7] = g->trans_b;
    push[11] = 0;
    return bh_vk_dispatch(t, t->dev->pipes.p[f][BH_VK_P_GEMM], b, push,
                          16 * sizeof(uint32_t), (uint32_t)((pm + 15) / 16),
                          (uint32_t)((pn + 15) / 16));
}

/* Records a pm x pn x pk piece with pn <= GEMV_MAX or pm <= GEMV_MAX on
 * gemv.comp: rows of op(A) times the columns of op(B), or (pn larger)
 * rows of op(B)^T times the columns of op(A)^T, writing C transposed; b
 * and push[8..10] hold A, B, C and are swapped here for the latter. */
static bhost_status gemv(bhost_stream *t, const bhost_gemm_args *g, int f,
                         uint64_t pm, uint64_t pn, uint64_t pk,
                         const bh_vk_bind b[3], uint32_t push[16])
{
    uint32_t lda = (uint32_t)g->lda, ldb = (uint32_t)g->ldb;
    bh_vk_bind sb[3];
    uint64_t rows;

    if (pn <= GEMV_MAX) { /* M = op(A), X = op(B) */
        sb[0] = b[0];
        sb[1] = b[1];
        rows = pm;
        push[1] = (uint32_t)pn;
        push[3] = g->trans_a ? lda : 1; /* mr, ml */
        push[4] = g->trans_a ? 1 : lda;
        push[5] = g->trans_b ? ldb : 1; /* xl, xv */
        push[6] = g->trans_b ? 1 : ldb;
        push[7] = 1; /* cr, cv */
        push[11] = (uint32_t)g->ldc;
    } else { /* M = op(B)^T, X = op(A)^T, C^T */
        uint32_t ao = push[8];

        sb[0] = b[1];
        sb[1] = b[0];
        push[8] = push[9];
        push[9] = ao;
        rows = pn;
        push[1] = (uint32_t)pm;
        push[3] = g->trans_b ? 1 : ldb;
        push[4] = g->trans_b ? ldb : 1;
        push[5] = g->trans_a ? 1 : lda;
        push[6] = g->trans_a ? lda : 1;
        push[7] = (uint32_t)g->ldc;
        push[11] = 1;
    }
    sb[2] = b[2];
    push[0] = (uint32_t)rows;
    push[2] = (uint32_t)pk;
    return bh_vk_dispatch(t, t->dev->pipes.p[f][BH_VK_P_GEMV], sb, push,
                          16 * sizeof(uint32_t),
                          grid_x(t->dev, push[4] == 1
                                             ? (rows + t->dev->gemv_rows - 1) /
                                                   t->dev->gemv_rows
                                             : (rows + 63) / 64),
                          1);
}

/* Records the piece of g at (i0, j0, l0) of at most p's block sizes;
 * push holds alpha at word 12 and beta after it (f: F64). */
static bhost_status piece(bhost_stream *t, const bhost_gemm_args *g,
                          const gemm_plan *p, uint64_t es, int f,
                          uint64_t i0, uint64_t j0, uint64_t l0,
                          uint32_t push[16])
{
    const bhost_dev *dev = t->dev;
    uint64_t pm = g->m - i0 < p->bm ? g->m - i0 : p->bm;
    uint64_t pn = g->n - j0 < p->bn ? g->n - j0 : p->bn;
    uint64_t pk = g->k - l0 < p->bk ? g->k - l0 : p->bk;
    bh_vk_bind b[3];
    bhost_status st;

    st = bh_vk_bind_elems(dev, g->a,
                          g->trans_a ? l0 + i0 * g->lda : i0 + l0 * g->lda,
                          g->trans_a ? span(pk, pm, g->lda)
                                     : span(pm, pk, g->lda),
                          es, "gemm", "a", &b[0], &push[8]);
    if (st == BHOST_OK)
        st = bh_vk_bind_elems(dev, g->b,
                              g->trans_b ? j0 + l0 * g->ldb : l0 + j0 * g->ldb,
                              g->trans_b ? span(pn, pk, g->ldb)
                                         : span(pk, pn, g->ldb),
                              es, "gemm", "b", &b[1], &push[9]);
    if (st == BHOST_OK)
        st = bh_vk_bind_elems(dev, g->c, i0 + j0 * g->ldc,
                              span(pm, pn, g->ldc), es, "gemm", "c", &b[2],
                              &push[10]);
    if (st != BHOST_OK)
        return st;
    if (l0 != 0) { /* a later piece of k adds to what the first wrote */
        if (f) {
            double one = 1.0;

            memcpy(&push[14], &one, 8);
        } else {
            float one = 1.0f;

            memcpy(&push[13], &one, 4);
        }
    }
    if (pn <= GEMV_MAX || pm <= GEMV_MAX)
        return gemv(t, g, f, pm, pn, pk, b, push);
    return tiled(t, g, f, pm, pn, pk, b, push);
}

/* Sets alpha and beta (words 12.., f: F64) and zeroes the rest. */
static void push_common(const bhost_gemm_args *g, int f, uint32_t push[16])
{
    memset(push, 0, 16 * sizeof(uint32_t));
    if (f) {
        memcpy(&push[12], &g->alpha, 8);
        memcpy(&push[14], &g->beta, 8);
    } else {
        float al = (float)g->alpha, be = (float)g->beta;

        memcpy(&push[12], &al, 4);
        memcpy(&push[13], &be, 4);
    }
}

/* C = alpha op(A) op(B) + beta C, all F32 or all F64. [instance] */
bhost_status BHOST_ABI bh_vk_gemm_run(bhost_dev *dev, bhost_stream *s,
                                      const bhost_gemm_args *g)
{
    bhost_stream *t;
    uint32_t push[16];
    gemm_plan p;
    uint64_t es;
    int f;
    bhost_status st = bh_vk_kernel_call(dev, s, g, "gemm", &t);

    if (st != BHOST_OK)
        return st;
    if (!BHOST_HAS(bhost_gemm_args, g, c) || g->reserved != 0)
        return bh_vk_fail(dev->h, BHOST_E_INVALID,
                          "gemm: struct too small or reserved != 0");
    es = bh_vk_elem(dev, g->c_type, &f);
    if (es == 0 || g->a_type != g->c_type || g->b_type != g->c_type ||
        g->compute_type != g->c_type)
        return bh_vk_fail(dev->h, BHOST_E_UNSUPPORTED,
                          "gemm: dtypes a=%" PRId32 " b=%" PRId32 " c=%" PRId32
                          " compute=%" PRId32 " unsupported (all F32, or all "
                          "F64 with shaderFloat64)",
                          g->a_type, g->b_type, g->c_type, g->compute_type);
    if (g->trans_a > 1 || g->trans_b > 1)
        return bh_vk_fail(dev->h, BHOST_E_INVALID,
                          "gemm: trans flags must be 0 or 1");
    if (g->m > UINT32_MAX || g->n > UINT32_MAX || g->k > UINT32_MAX)
        return bh_vk_fail(dev->h, BHOST_E_UNSUPPORTED,
                          "gemm: dimensions of 2^32 or more");
    st = bh_be_check_gemm_operands(&bh_vk_be, dev, g, es, es, check_matrix);
    if (st != BHOST_OK || g->m == 0 || g->n == 0)
        return st;
    /* a piece's binding starts up to bind_align - es bytes before it */
    p = plan_of(dev, g, (dev->bind_max - dev->bind_align) / es);
    for (uint64_t i0 = 0; i0 < g->m && st == BHOST_OK; i0 += p.bm)
        for (uint64_t j0 = 0; j0 < g->n && st == BHOST_OK; j0 += p.bn) {
            uint64_t l0 = 0;

            push_common(g, f, push); /* beta again for the first of k */
            do {
                st = piece(t, g, &p, es, f, i0, j0, l0, push);
                l0 += p.bk;
            } while (st == BHOST_OK && l0 < g->k);
        }
    return st;
}
