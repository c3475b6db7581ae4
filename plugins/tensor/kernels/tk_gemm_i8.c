// SPDX-License-Identifier: MIT
/*
 * tk_gemm_i8.c -- the blocked int8 x int8 -> int32 matmul and the
 * quantized f32 matmul on top of it. B is packed once (weights); A is
 * packed per call into 8-row panels biased to unsigned (a + 128), which is
 * what vpdpbusd multiplies; the bias is undone with B's column sums.
 * Loop order per thread: its 32-column B panels, then k blocks of
 * TK_I8_KC (a 16 KiB B block stays in L1), then the 8-row A panels (the
 * A block stays in L2).
 */
#include "tk_gemm_i8.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static size_t round_up(size_t v, size_t m)
{
    return (v + m - 1) / m * m;
}

int tk_i8_pack(const int8_t *b, size_t k, size_t n, size_t ldb, int trans,
               tk_i8_packed *out)
{
    size_t kp = round_up(k, 4), np = round_up(n, TK_I8_NR), bytes;

    if (out == NULL)
        return TK_EINVAL;
    memset(out, 0, sizeof(*out));
    if (b == NULL || k == 0 || n == 0 || k >= ((size_t)1 << 17) ||
        ldb < (trans ? k : n) || tk_mul_overflow(kp, np, &bytes))
        return TK_EINVAL;
    out->data = aligned_alloc(64, round_up(bytes, 64));
    out->colsum = calloc(n, sizeof(int32_t));
    if (out->data == NULL || out->colsum == NULL) {
        tk_i8_packed_free(out);
        return TK_ENOMEM;
    }
    memset(out->data, 0, bytes);
    for (size_t kk = 0; kk < k; kk++)
        for (size_t j = 0; j < n; j++) {
            int8_t v = trans ? b[j * ldb + kk] : b[kk * ldb + j];
            size_t panel = j / TK_I8_NR, col = j % TK_I8_NR;

            out->data[panel * kp * TK_I8_NR + (kk / 4) * 4 * TK_I8_NR +
                      col * 4 + kk % 4] = v;
            out->colsum[j] += v;
        }
    out->k = k;
    out->n = n;
    out->kp = kp;
    out->np = np;
    return TK_OK;
}

void tk_i8_packed_free(tk_i8_packed *p)
{
    if (p == NULL)
        return;
    free(p->data);
    free(p->colsum);
    memset(p, 0, sizeof(*p));
}

size_t tk_matmul_i8_work(size_t m, size_t k)
{
    return round_up(m, TK_I8_MR) * round_up(k, 4) + 64;
}

/* The portable microkernel: the contract of tk_i8_ukernel_vnni in plain C
 * (unsigned arithmetic wraps like vpdpbusd). */
static void ukernel_portable(const uint8_t *a, const int8_t *b, size_t kg,
                             int32_t *c, size_t ldc, const int32_t *corr,
                             int acc)
{
    uint32_t t[TK_I8_MR][TK_I8_NR];

    memset(t, 0, sizeof(t));
    for (size_t g = 0; g < kg; g++, a += 4 * TK_I8_MR, b += 4 * TK_I8_NR)
        for (int r = 0; r < TK_I8_MR; r++)
            for (int col = 0; col < TK_I8_NR; col++)
                for (int q = 0; q < 4; q++)
                    t[r][col] += (uint32_t)a[r * 4 + q] *
                                 (uint32_t)(int32_t)b[col * 4 + q];
    for (int r = 0; r < TK_I8_MR; r++)
        for (int col = 0; col < TK_I8_NR; col++) {
            uint32_t base = acc ? (uint32_t)c[r * ldc + col] : (uint32_t)corr[col];

            c[r * ldc + col] = (int32_t)(base + t[r][col]);
        }
}

typedef struct i8_job {
    const int8_t *a;
    size_t lda, m;
    int trans_a;
    const tk_i8_packed *b;
    int32_t *c;
    size_t ldc;
    uint8_t *ap; /* packed A: round_up(m, 8) / 8 panels of 8 * kp bytes */
    int vnni;
} i8_job;

/* Packs the A panels of thread tid: u8 = a + 128, padding rows and k
 * entries at 0x80 (signed 0). */
static void pack_a_task(void *arg, unsigned tid, unsigned nthr)
{
    const i8_job *j = arg;
    size_t kp = j->b->kp, k = j->b->k, panels = round_up(j->m, TK_I8_MR) / TK_I8_MR;
    size_t b, e;

    bh_split(panels, 1, tid, nthr, &b, &e);
    for (size_t p = b; p < e; p++) {
        uint8_t *dst = j->ap + p * TK_I8_MR * kp;

        memset(dst, 0x80, TK_I8_MR * kp);
        for (size_t r = 0; r < TK_I8_MR && p * TK_I8_MR + r < j->m; r++) {
            size_t row = p * TK_I8_MR + r;
            size_t kk = 0;

            /* Rows of A: whole groups of 4 as one word. */
            for (; !j->trans_a && kk + 4 <= k; kk += 4) {
                uint32_t w;

                memcpy(&w, j->a + row * j->lda + kk, 4);
                w ^= UINT32_C(0x80808080);
                memcpy(dst + kk * TK_I8_MR + r * 4, &w, 4);
            }
            for (; kk < k; kk++) {
                int8_t v = j->trans_a ? j->a[kk * j->lda + row]
                                      : j->a[row * j->lda + kk];

                dst[(kk / 4) * 4 * TK_I8_MR + r * 4 + kk % 4] =
                    (uint8_t)((uint8_t)v ^ 0x80u);
            }
        }
    }
}

/* One C tile at (row i, panel p) for the k block starting at group g0. */
static void tile(const i8_job *j, size_t i, size_t p, size_t g0, size_t kg,
                 const int32_t *corr)
{
    const tk_i8_packed *b = j->b;
    const uint8_t *a = j->ap + i * b->kp + g0 * 4 * TK_I8_MR;
    const int8_t *bp = b->data + p * TK_I8_NR * b->kp + g0 * 4 * TK_I8_NR;
    size_t col0 = p * TK_I8_NR;
    size_t rows = j->m - i < TK_I8_MR ? j->m - i : TK_I8_MR;
    size_t cols = b->n - col0 < TK_I8_NR ? b->n - col0 : TK_I8_NR;
    int acc = g0 != 0;
    int32_t tmp[TK_I8_MR * TK_I8_NR];
    int32_t *c = j->c + i * j->ldc + col0;

    if (rows == TK_I8_MR && cols == TK_I8_NR) {
#if defined(TK_HAVE_X86)
        if (j->vnni)
            tk_i8_ukernel_vnni(a, bp, kg, c, j->ldc, corr, acc);
        else
#endif
            ukernel_portable(a, bp, kg, c, j->ldc, corr, acc);
        return;
    }
    memset(tmp, 0, sizeof(tmp));
    for (size_t r = 0; acc && r < rows; r++)
        memcpy(tmp + r * TK_I8_NR, c + r * j->ldc, cols * sizeof(int32_t));
#if defined(TK_HAVE_X86)
    if (j->vnni)
        tk_i8_ukernel_vnni(a, bp, kg, tmp, TK_I8_NR, corr, acc);
    else
#endif
        ukernel_portable(a, bp, kg, tmp, TK_I8_NR, corr, acc);
    for (size_t r = 0; r < rows; r++)
        memcpy(c + r * j->ldc, tmp + r * TK_I8_NR, cols * sizeof(int32_t));
}

/* Thread tid's B panels: every k block, every A panel. */
static void gemm_task(void *arg, unsigned tid, unsigned nthr)
{
    const i8_job *j = arg;
    const tk_i8_packed *b = j->b;
    size_t pb, pe;

    bh_split(b->np / TK_I8_NR, 1, tid, nthr, &pb, &pe);
    for (size_t p = pb; p < pe; p++) {
        int32_t corr[TK_I8_NR];

        for (size_t col = 0; col < TK_I8_NR; col++) {
            size_t jj = p * TK_I8_NR + col;

            corr[col] = jj < b->n ? -128 * b->colsum[jj] : 0;
        }
        for (size_t k0 = 0; k0 < b->kp; k0 += TK_I8_KC) {
            size_t kg = (b->kp - k0 < TK_I8_KC ? b->kp - k0 : TK_I8_KC) / 4;

            for (size_t i = 0; i < j->m; i += TK_I8_MR)
                tile(j, i, p, k0 / 4, kg, corr);
        }
    }
}

int tk_matmul_i8(const int8_t *a, size_t lda, int trans_a, size_t m,
                 const tk_i8_packed *b, int32_t *c, size_t ldc, void *work,
                 tk_pool *pool)
{
    i8_job j;
    size_t ops;

    if (a == NULL || b == NULL || b->data == NULL || c == NULL ||
        work == NULL || m == 0 || ldc < b->n || lda < (trans_a ? m : b->k) ||
        tk_mul_overflow(m, b->kp, &ops) || tk_mul_overflow(ops, b->np, &ops))
        return TK_EINVAL;
    j.a = a;
    j.lda = lda;
    j.m = m;
    j.trans_a = trans_a != 0;
    j.b = b;
    j.c = c;
    j.ldc = ldc;
    j.ap = (uint8_t *)work + ((64 - ((uintptr_t)work & 63)) & 63);
    j.vnni = tk_has_vnni();
    tk_pool_run(pool, m * b->kp, pack_a_task, &j);
    tk_pool_run(pool, ops, gemm_task, &j);
    return TK_OK;
}

typedef struct qmm_job {
    const int32_t *acc;
    const float *xscale, *wscale;
    float *y;
    size_t m, n;
} qmm_job;

/* y = acc * xscale[row] * wscale[col] over thread tid's rows. */
static void qmm_scale_task(void *arg, unsigned tid, unsigned nthr)
{
    const qmm_job *j = arg;
    size_t b, e;

    bh_split(j->m, 1, tid, nthr, &b, &e);
    for (size_t i = b; i < e; i++)
        for (size_t c = 0; c < j->n; c++)
            j->y[i * j->n + c] = (float)j->acc[i * j->n + c] *
                                 (j->xscale[i] * j->wscale[c]);
}

int tk_qmatmul(const float *x, size_t m, const tk_i8_packed *w,
               const float *wscale, int8_t *xq, float *xscale, int32_t *acc,
               float *y, void *work, tk_pool *pool)
{
    qmm_job j;
    int st;

    if (x == NULL || w == NULL || wscale == NULL || xq == NULL ||
        xscale == NULL || acc == NULL || y == NULL)
        return TK_EINVAL;
    st = tk_quantize_i8(x, xq, xscale, m, w->k, 1, pool);
    if (st == TK_OK)
        st = tk_matmul_i8(xq, w->k, 0, m, w, acc, w->n, work, pool);
    if (st != TK_OK)
        return st;
    j.acc = acc;
    j.xscale = xscale;
    j.wscale = wscale;
    j.y = y;
    j.m = m;
    j.n = w->n;
    tk_pool_run(pool, m * w->n * 8, qmm_scale_task, &j);
    return TK_OK;
}
