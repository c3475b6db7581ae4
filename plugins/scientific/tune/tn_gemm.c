// SPDX-License-Identifier: MIT
/*
 * tn_gemm.c -- the plugin's own blocked f32 gemm (tn_tune.h), in the
 * Goto/BLIS form: B packed in KC x NC panels of NR columns, A in MC x KC
 * blocks of MR rows (zero-padded at the edges), and an MR x NR micro-kernel
 * in plain C with constant bounds, which the compiler keeps in vector
 * registers. Its search space: MC 32-256, NC 256-4096, KC 64-512, and four
 * micro-tiles.
 */
#include "tn_tune.h"

#include <stdlib.h>
#include <string.h>

static const int mcs[] = {32, 64, 128, 256};
static const int ncs[] = {256, 1024, 4096};
static const int kcs[] = {64, 128, 256, 512};
static const int tiles[][2] = {{4, 8}, {8, 8}, {4, 16}, {6, 16}};

#define N_OF(a) (sizeof(a) / sizeof((a)[0]))
#define MAX_MC  256
#define MAX_NC  4096
#define MAX_KC  512
#define MAX_MR  8
#define MAX_NR  16

typedef void (*ukernel)(size_t kc, const float *a, const float *b, float *c, size_t ldc, size_t m,
                        size_t n);

/* An MR x NR micro-kernel: C[0..m)[0..n) += the packed panels' product. */
#define UKERNEL(MR, NR)                                                                            \
    static void ukernel_##MR##x##NR(size_t kc, const float *a, const float *b, float *c,           \
                                    size_t ldc, size_t m, size_t n)                                \
    {                                                                                              \
        float acc[MR][NR] = {{0}};                                                                 \
                                                                                                   \
        for (size_t p = 0; p < kc; p++)                                                            \
            for (int i = 0; i < MR; i++)                                                           \
                for (int j = 0; j < NR; j++)                                                       \
                    acc[i][j] += a[p * MR + i] * b[p * NR + j];                                    \
        for (size_t i = 0; i < m; i++)                                                             \
            for (size_t j = 0; j < n; j++)                                                         \
                c[i * ldc + j] += acc[i][j];                                                       \
    }
UKERNEL(4, 8)
UKERNEL(8, 8)
UKERNEL(4, 16)
UKERNEL(6, 16)

static ukernel kernel_for(int mr, int nr)
{
    if (mr == 8)
        return ukernel_8x8;
    if (mr == 6)
        return ukernel_6x16;
    return nr == 16 ? ukernel_4x16 : ukernel_4x8;
}

size_t tn_gemm_space_size(void)
{
    return N_OF(mcs) * N_OF(ncs) * N_OF(kcs) * N_OF(tiles);
}

tn_gemm_cfg tn_gemm_space_point(size_t i)
{
    tn_gemm_cfg c;

    c.mr = tiles[i % N_OF(tiles)][0];
    c.nr = tiles[i % N_OF(tiles)][1];
    i /= N_OF(tiles);
    c.kc = kcs[i % N_OF(kcs)];
    i /= N_OF(kcs);
    c.nc = ncs[i % N_OF(ncs)];
    i /= N_OF(ncs);
    c.mc = mcs[i % N_OF(mcs)];
    return c;
}

size_t tn_gemm_default_index(void)
{
    /* mc 64 (1), nc 1024 (1), kc 256 (2), tile 4x8 (0) */
    return ((1 * N_OF(ncs) + 1) * N_OF(kcs) + 2) * N_OF(tiles) + 0;
}

int tn_gemm_ws_init(tn_gemm_ws *ws)
{
    ws->pa = malloc((size_t)(MAX_MC + MAX_MR) * MAX_KC * sizeof(float));
    ws->pb = malloc((size_t)MAX_KC * (MAX_NC + MAX_NR) * sizeof(float));
    if (ws->pa == NULL || ws->pb == NULL) {
        tn_gemm_ws_free(ws);
        return -1;
    }
    return 0;
}

void tn_gemm_ws_free(tn_gemm_ws *ws)
{
    free(ws->pa);
    free(ws->pb);
    ws->pa = ws->pb = NULL;
}

/* Packs A[0..mc)[0..kc) (lda) into panels of mr rows, zero-padded. */
static void pack_a(const float *a, size_t lda, size_t mc, size_t kc, int mr, float *pa)
{
    for (size_t i0 = 0; i0 < mc; i0 += (size_t)mr, pa += kc * (size_t)mr)
        for (size_t p = 0; p < kc; p++)
            for (int i = 0; i < mr; i++)
                pa[p * (size_t)mr + (size_t)i] =
                    i0 + (size_t)i < mc ? a[(i0 + (size_t)i) * lda + p] : 0.0f;
}

/* Packs B[0..kc)[0..nc) (ldb) into panels of nr columns, zero-padded. */
static void pack_b(const float *b, size_t ldb, size_t kc, size_t nc, int nr, float *pb)
{
    for (size_t j0 = 0; j0 < nc; j0 += (size_t)nr, pb += kc * (size_t)nr)
        for (size_t p = 0; p < kc; p++)
            for (int j = 0; j < nr; j++)
                pb[p * (size_t)nr + (size_t)j] =
                    j0 + (size_t)j < nc ? b[p * ldb + j0 + (size_t)j] : 0.0f;
}

/* The micro-kernel sweep over one packed MC x KC block and KC x NC panel. */
static void macro_kernel(const tn_gemm_cfg *cfg, const tn_gemm_ws *ws, size_t mc, size_t nc,
                         size_t kc, float *c, size_t ldc)
{
    size_t mr = (size_t)cfg->mr, nr = (size_t)cfg->nr;
    ukernel uk = kernel_for(cfg->mr, cfg->nr);

    for (size_t j = 0; j < nc; j += nr)
        for (size_t i = 0; i < mc; i += mr)
            uk(kc, ws->pa + i * kc, ws->pb + j * kc, c + i * ldc + j, ldc,
               mc - i < mr ? mc - i : mr, nc - j < nr ? nc - j : nr);
}

void tn_sgemm(const tn_gemm_cfg *cfg, tn_gemm_ws *ws, size_t m, size_t n, size_t k, const float *a,
              size_t lda, const float *b, size_t ldb, float *c, size_t ldc)
{
    size_t mcb = (size_t)cfg->mc, ncb = (size_t)cfg->nc, kcb = (size_t)cfg->kc;

    for (size_t i = 0; i < m; i++)
        memset(c + i * ldc, 0, n * sizeof(float));
    for (size_t jc = 0; jc < n; jc += ncb) {
        size_t nc = n - jc < ncb ? n - jc : ncb;

        for (size_t pc = 0; pc < k; pc += kcb) {
            size_t kc = k - pc < kcb ? k - pc : kcb;

            pack_b(b + pc * ldb + jc, ldb, kc, nc, cfg->nr, ws->pb);
            for (size_t ic = 0; ic < m; ic += mcb) {
                size_t mc = m - ic < mcb ? m - ic : mcb;

                pack_a(a + ic * lda + pc, lda, mc, kc, cfg->mr, ws->pa);
                macro_kernel(cfg, ws, mc, nc, kc, c + ic * ldc + jc, ldc);
            }
        }
    }
}
