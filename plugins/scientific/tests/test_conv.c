// SPDX-License-Identifier: MIT
/*
 * test_conv.c -- unit tests of the layer kernels (conv/): hand-checked
 * convolution, pooling and normalisation values; the direct convolution
 * against im2col (the plain gemm and, when built, OpenBLAS) and the
 * double-precision reference on small shapes with stride, padding, groups
 * and depthwise; NCHW against NHWC; oneDNN against the references when
 * built.
 */
#include "cv_layer.h"
#include "sci_check.h"

#ifdef BH_SCI_CONV_BLAS
#include <cblas.h>
#endif
#ifdef BH_SCI_CONV_DNNL
#include "cv_dnnl.h"
#endif
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Values in [-1, 1) from a fixed xorshift sequence. */
static void fill(float *x, size_t n, uint64_t s)
{
    for (size_t i = 0; i < n; i++) {
        s ^= s << 13, s ^= s >> 7, s ^= s << 17;
        x[i] = (float)((double)(s >> 11) / 9007199254740992.0 * 2.0 - 1.0);
    }
}

/* Every output within the reference's bound; the largest error/bound. */
static double conv_error(const cv_shape *sh, cv_layout l, const float *in, const float *w,
                         const float *out)
{
    double worst = 0.0;

    for (int n = 0; n < sh->n; n++)
        for (int k = 0; k < sh->k; k++)
            for (int p = 0; p < sh->p; p++)
                for (int q = 0; q < sh->q; q++) {
                    double b, r = cv_ref_conv(sh, l, in, w, n, k, p, q, &b);
                    double e = fabs(out[cv_at(l, sh->k, sh->p, sh->q, n, k, p, q)] - r) / b;

                    worst = e > worst || e != e ? e : worst;
                }
    return worst;
}

/* 3x3 input 1..9, a 2x2 kernel of ones: the sums of the four windows. */
static void test_conv_hand(void)
{
    cv_shape sh = {1, 1, 3, 3, 1, 2, 2, 1, 0, 1, 0, 0};
    float in[9] = {1, 2, 3, 4, 5, 6, 7, 8, 9}, w[4] = {1, 1, 1, 1}, out[4], col[16];
    const float want[4] = {12, 16, 24, 28};

    CHECK(cv_shape_finish(&sh) == 0 && sh.p == 2 && sh.q == 2, "shape %dx%d", sh.p, sh.q);
    cv_conv_direct(&sh, CV_NCHW, in, w, out, 0, cv_direct_units(&sh, CV_NCHW));
    for (int i = 0; i < 4; i++)
        CHECK(out[i] == want[i], "direct out[%d] = %g, want %g", i, out[i], want[i]);
    cv_conv_im2col(&sh, CV_NHWC, in, w, out, col, cv_sgemm_naive, 0, 1);
    for (int i = 0; i < 4; i++)
        CHECK(out[i] == want[i], "im2col out[%d] = %g, want %g", i, out[i], want[i]);
    sh = (cv_shape){1, 1, 3, 3, 1, 3, 3, 2, 1, 1, 0, 0}; /* 3x3/2, pad 1: 2x2 out */
    CHECK(cv_shape_finish(&sh) == 0 && sh.p == 2 && sh.q == 2, "padded shape %dx%d", sh.p, sh.q);
    sh.r = 6; /* pad < r holds, but 6 > 3 + 2 */
    CHECK(cv_shape_finish(&sh) != 0, "a 6x6 window over a padded 3x3 is refused");
}

#ifdef BH_SCI_CONV_BLAS
static void blas_gemm(int tb, int m, int n, int k, const float *a, int lda, const float *b, int ldb,
                      float *c, int ldc)
{
    cblas_sgemm(CblasRowMajor, CblasNoTrans, tb ? CblasTrans : CblasNoTrans, m, n, k, 1.0f, a, lda,
                b, ldb, 0.0f, c, ldc);
}
#endif

/* The weights of sh from oihw to ohwi and the input from NCHW to NHWC. */
static void to_nhwc(const cv_shape *sh, const float *in, const float *w, float *in2, float *w2)
{
    int cg = sh->c / sh->groups;

    for (int n = 0; n < sh->n; n++)
        for (int c = 0; c < sh->c; c++)
            for (int y = 0; y < sh->h; y++)
                for (int x = 0; x < sh->w; x++)
                    in2[cv_at(CV_NHWC, sh->c, sh->h, sh->w, n, c, y, x)] =
                        in[cv_at(CV_NCHW, sh->c, sh->h, sh->w, n, c, y, x)];
    for (int k = 0; k < sh->k; k++)
        for (int c = 0; c < cg; c++)
            for (int r = 0; r < sh->r; r++)
                for (int s = 0; s < sh->s; s++)
                    w2[cv_weight_at(sh, CV_NHWC, k, c, r, s)] =
                        w[cv_weight_at(sh, CV_NCHW, k, c, r, s)];
}

/* direct, im2col (plain gemm and OpenBLAS) in both layouts against the
 * reference, and NHWC's outputs equal to NCHW's within the bound. */
static void test_conv_shape(cv_shape sh)
{
    size_t ni, nw, no;
    float *in, *w, *in2, *w2, *out, *col;

    CHECK(cv_shape_finish(&sh) == 0, "shape c%d k%d g%d", sh.c, sh.k, sh.groups);
    ni = cv_in_elems(&sh), nw = cv_weight_elems(&sh), no = cv_out_elems(&sh);
    in = malloc(ni * 4), w = malloc(nw * 4), in2 = malloc(ni * 4), w2 = malloc(nw * 4);
    out = malloc(no * 4), col = malloc(cv_col_elems(&sh) * 4);
    fill(in, ni, 11), fill(w, nw, 12);
    to_nhwc(&sh, in, w, in2, w2);
    for (int l = 0; l < 2; l++) {
        const float *li = l ? in2 : in, *lw = l ? w2 : w;
        cv_layout lay = l ? CV_NHWC : CV_NCHW;
        double e;

        memset(out, 0xFF, no * 4);
        cv_conv_direct(&sh, lay, li, lw, out, 0, cv_direct_units(&sh, lay));
        e = conv_error(&sh, lay, li, lw, out);
        CHECK(e <= 1.0, "direct %s c%d k%d g%d s%d: error/bound %g", l ? "nhwc" : "nchw", sh.c,
              sh.k, sh.groups, sh.stride, e);
        memset(out, 0xFF, no * 4);
        cv_conv_im2col(&sh, lay, li, lw, out, col, cv_sgemm_naive, 0, sh.n);
        e = conv_error(&sh, lay, li, lw, out);
        CHECK(e <= 1.0, "im2col %s c%d g%d: error/bound %g", l ? "nhwc" : "nchw", sh.c, sh.groups,
              e);
#ifdef BH_SCI_CONV_BLAS
        memset(out, 0xFF, no * 4);
        cv_conv_im2col(&sh, lay, li, lw, out, col, blas_gemm, 0, sh.n);
        e = conv_error(&sh, lay, li, lw, out);
        CHECK(e <= 1.0, "im2col+OpenBLAS %s c%d g%d: error/bound %g", l ? "nhwc" : "nchw", sh.c,
              sh.groups, e);
#endif
    }
    free(in), free(w), free(in2), free(w2), free(out), free(col);
}

/* 4x4 input 0..15: max and average 2x2/2, adaptive 4 -> 3, and a padded
 * average that excludes the padding. */
static void test_pool_hand(void)
{
    float in[16], out[16];
    cv_shape sh = {1, 1, 4, 4, 1, 2, 2, 2, 0, 1, 0, 0};
    const float max_want[4] = {5, 7, 13, 15}, avg_want[4] = {2.5f, 4.5f, 10.5f, 12.5f};

    for (int i = 0; i < 16; i++)
        in[i] = (float)i;
    cv_shape_finish(&sh);
    cv_pool(&sh, CV_NCHW, CV_POOL_MAX, in, out, 0, 1);
    for (int i = 0; i < 4; i++)
        CHECK(out[i] == max_want[i], "max out[%d] = %g, want %g", i, out[i], max_want[i]);
    cv_pool(&sh, CV_NHWC, CV_POOL_AVG, in, out, 0, cv_pool_units(&sh, CV_NHWC));
    for (int i = 0; i < 4; i++)
        CHECK(out[i] == avg_want[i], "avg out[%d] = %g, want %g", i, out[i], avg_want[i]);
    sh.p = sh.q = 3; /* adaptive: windows [0,2) [1,3) [2,4) on each axis */
    cv_pool(&sh, CV_NCHW, CV_POOL_ADAPTIVE, in, out, 0, 1);
    CHECK(out[0] == 2.5f && out[4] == 7.5f && out[8] == 12.5f, "adaptive %g %g %g", out[0], out[4],
          out[8]);
    sh = (cv_shape){1, 1, 2, 2, 1, 3, 3, 1, 1, 1, 0, 0}; /* 3x3/1 pad 1 over 2x2: 2x2 out */
    cv_shape_finish(&sh);
    in[0] = 1, in[1] = 2, in[2] = 3, in[3] = -4;
    cv_pool(&sh, CV_NCHW, CV_POOL_AVG, in, out, 0, 1);
    CHECK(out[0] == 0.5f && out[3] == 0.5f, "padded avg %g %g, want 0.5 (padding excluded)", out[0],
          out[3]);
    cv_pool(&sh, CV_NCHW, CV_POOL_MAX, in, out, 0, 1);
    CHECK(out[0] == 3.0f && out[3] == 3.0f, "padded max %g %g, want 3", out[0], out[3]);
}

/* BatchNorm in inference and training and GroupNorm on values whose
 * statistics are exact, in both layouts. */
static void test_norm_hand(void)
{
    cv_shape sh = {1, 2, 1, 2, 2, 1, 1, 1, 0, 1, 0, 0}; /* 2 channels of 2 pixels */
    float in[4] = {1, 3, 5, 9}, out[4], scale[2], shift[2];
    const float gamma[2] = {2, 1}, beta[2] = {1, 0}, mean[2] = {1, 5}, var[2] = {4, 16};
    double stats[8];

    cv_shape_finish(&sh);
    cv_bn_fold(2, gamma, beta, mean, var, 0.0f, scale, shift);
    cv_bn_apply(&sh, CV_NCHW, in, out, scale, shift); /* 2 (x - 1) / 2 + 1; (x - 5) / 4 */
    CHECK(out[0] == 1 && out[1] == 3 && out[2] == 0 && out[3] == 1, "bn infer %g %g %g %g", out[0],
          out[1], out[2], out[3]);
    cv_bn_train(&sh, CV_NCHW, in, out, gamma, beta, 0.0f, stats, 0,
                2); /* {1,3}: 2, 1; {5,9}: 7, 4 */
    CHECK(out[0] == -1 && out[1] == 3 && out[2] == -1 && out[3] == 1, "bn train %g %g %g %g",
          out[0], out[1], out[2], out[3]);
    CHECK(stats[0] == 2 && stats[1] == 7 && stats[2] == 1 && stats[3] == 4, "bn stats");
    cv_bn_train(&sh, CV_NHWC, in, out, gamma, beta, 0.0f, stats, 0,
                2); /* {1,5}: 3, 4; {3,9}: 6, 9 */
    CHECK(out[0] == -1 && out[2] == 3 && out[1] == -1 && out[3] == 1, "bn train nhwc %g %g %g %g",
          out[0], out[1], out[2], out[3]);
    sh = (cv_shape){1, 4, 1, 1, 4, 1, 1, 1, 0, 1, 0, 0}; /* 4 channels, 2 groups, 1 pixel */
    cv_shape_finish(&sh);
    cv_group_norm(&sh, CV_NHWC, 2, in, out, (const float[]){1, 1, 1, 1},
                  (const float[]){0, 0, 0, 0}, 0.0f, stats);
    CHECK(out[0] == -1 && out[1] == 1 && out[2] == -1 && out[3] == 1, "groupnorm %g %g %g %g",
          out[0], out[1], out[2], out[3]);
}

/* BatchNorm training and GroupNorm of a random 2 x 6 x 5 x 4 tensor: NHWC
 * equal to NCHW, and the channels split in two ranges equal to one. */
static void test_norm_layouts(void)
{
    cv_shape sh = {2, 6, 5, 4, 6, 1, 1, 1, 0, 1, 0, 0};
    float in[240], in2[240], out[240], out2[240], g[6], be[6], w[36] = {0}, w2[36];
    double st[48], st2[48];

    cv_shape_finish(&sh);
    fill(in, 240, 41), fill(g, 6, 42), fill(be, 6, 43);
    to_nhwc(&sh, in, w, in2, w2); /* the weights (6 x 6 x 1 x 1) are unused */
    for (int kind = 0; kind < 2; kind++) {
        if (kind == 0) {
            cv_bn_train(&sh, CV_NCHW, in, out, g, be, 1e-5f, st, 0, 6);
            cv_bn_train(&sh, CV_NHWC, in2, out2, g, be, 1e-5f, st2, 0, 4);
            cv_bn_train(&sh, CV_NHWC, in2, out2, g, be, 1e-5f, st2, 4, 6);
        } else {
            cv_group_norm(&sh, CV_NCHW, 3, in, out, g, be, 1e-5f, st);
            cv_group_norm(&sh, CV_NHWC, 3, in2, out2, g, be, 1e-5f, st2);
        }
        for (int n = 0; n < 2; n++)
            for (int c = 0; c < 6; c++)
                for (int i = 0; i < 20; i++) {
                    float a = out[cv_at(CV_NCHW, 6, 5, 4, n, c, i / 4, i % 4)];
                    float b = out2[cv_at(CV_NHWC, 6, 5, 4, n, c, i / 4, i % 4)];

                    CHECK(fabsf(a - b) <= 1e-6f * (1.0f + fabsf(a)), "%s n%d c%d i%d: %g %g",
                          kind ? "groupnorm" : "bn train", n, c, i, a, b);
                }
    }
}

#ifdef BH_SCI_CONV_DNNL
/* oneDNN's convolution of sh in both layouts within the reference bound. */
static void test_dnnl_conv(cv_shape sh)
{
    size_t ni, nw, no;
    float *in, *w, *out;
    char err[256];

    cv_shape_finish(&sh);
    ni = cv_in_elems(&sh), nw = cv_weight_elems(&sh), no = cv_out_elems(&sh);
    in = malloc(ni * 4), w = malloc(nw * 4), out = malloc(no * 4);
    fill(in, ni, 21), fill(w, nw, 22);
    for (int l = 0; l < 2; l++) {
        cv_dnnl_bufs b = {.in = in, .w = w, .out = out};
        cv_dnnl *d = NULL;
        int rc = cv_dnnl_create(&d, CV_DNNL_CONV, &sh, l ? CV_NHWC : CV_NCHW, 0.0f, &b, err,
                                sizeof(err));

        memset(out, 0xFF, no * 4);
        CHECK(rc == 0 && cv_dnnl_run(d, err, sizeof(err)) == 0, "oneDNN conv: %s", err);
        if (rc == 0) {
            double e = conv_error(&sh, l ? CV_NHWC : CV_NCHW, in, w, out);

            CHECK(e <= 1.0, "oneDNN conv %s g%d (%s, %s): error/bound %g", l ? "nhwc" : "nchw",
                  sh.groups, cv_dnnl_impl(d), cv_dnnl_src_layout(d), e);
            CHECK(strlen(cv_dnnl_src_layout(d)) >= 4, "layout '%s'", cv_dnnl_src_layout(d));
        }
        cv_dnnl_destroy(d);
    }
    free(in), free(w), free(out);
}

/* oneDNN's pooling and batch normalisation equal to the plugin's within
 * the references' bounds (pooling) or a few ulps (BatchNorm). */
static void test_dnnl_pool_bn(void)
{
    cv_shape sh = {2, 8, 9, 9, 8, 3, 3, 2, 1, 8, 0, 0};
    size_t ni = 2 * 8 * 81, no;
    float in[2 * 8 * 81], out[2 * 8 * 81], own[2 * 8 * 81], mean[8], var[8], g[8], be[8];
    double stats[32];
    char err[256];

    cv_shape_finish(&sh);
    no = cv_out_elems(&sh);
    fill(in, ni, 31), fill(g, 8, 32), fill(be, 8, 33), fill(mean, 8, 34), fill(var, 8, 35);
    for (int i = 0; i < 8; i++)
        var[i] = var[i] + 1.5f;
    for (int op = 0; op < 3; op++) {
        cv_dnnl_bufs b = {.in = in, .out = out, .mean = mean, .var = var, .gamma = g, .beta = be};
        cv_dnnl *d = NULL;
        cv_dnnl_op ops[3] = {CV_DNNL_POOL_MAX, CV_DNNL_POOL_AVG, CV_DNNL_BN_TRAIN};
        cv_shape s2 = sh;

        if (op == 2)
            s2.p = s2.h, s2.q = s2.w;
        CHECK(cv_dnnl_create(&d, ops[op], &s2, CV_NHWC, 1e-5f, &b, err, sizeof(err)) == 0 &&
                  cv_dnnl_run(d, err, sizeof(err)) == 0,
              "oneDNN op %d: %s", op, err);
        cv_dnnl_destroy(d);
        if (op < 2)
            cv_pool(&sh, CV_NHWC, op ? CV_POOL_AVG : CV_POOL_MAX, in, own, 0,
                    cv_pool_units(&sh, CV_NHWC));
        else
            cv_bn_train(&s2, CV_NHWC, in, own, g, be, 1e-5f, stats, 0, 8);
        for (size_t i = 0; i < (op < 2 ? no : ni); i++)
            CHECK(fabsf(out[i] - own[i]) <= 1e-5f * (1.0f + fabsf(own[i])),
                  "oneDNN op %d out[%zu] = %g, own %g", op, i, out[i], own[i]);
    }
}
#endif

int main(void)
{
    test_conv_hand();
    /* n c h w k r s stride pad groups: plain, strided, 1x1, grouped,
     * depthwise, a 7x7/2 */
    test_conv_shape((cv_shape){2, 3, 7, 6, 4, 3, 3, 1, 1, 1, 0, 0});
    test_conv_shape((cv_shape){1, 4, 9, 9, 6, 3, 3, 2, 1, 1, 0, 0});
    test_conv_shape((cv_shape){2, 8, 5, 5, 4, 1, 1, 1, 0, 1, 0, 0});
    test_conv_shape((cv_shape){1, 6, 6, 6, 4, 3, 3, 1, 1, 2, 0, 0});
    test_conv_shape((cv_shape){2, 5, 8, 7, 5, 3, 3, 2, 1, 5, 0, 0});
    test_conv_shape((cv_shape){1, 3, 15, 15, 4, 7, 7, 2, 3, 1, 0, 0});
    test_pool_hand();
    test_norm_hand();
    test_norm_layouts();
#ifdef BH_SCI_CONV_DNNL
    test_dnnl_conv((cv_shape){2, 3, 7, 6, 4, 3, 3, 1, 1, 1, 0, 0});
    test_dnnl_conv((cv_shape){1, 16, 9, 9, 16, 3, 3, 2, 1, 16, 0, 0});
    test_dnnl_conv((cv_shape){1, 3, 15, 15, 8, 7, 7, 2, 3, 1, 0, 0});
    test_dnnl_pool_bn();
#endif
    return check_summary("conv, pool, norm kernels");
}
