// SPDX-License-Identifier: MIT
/*
 * test_cpu.c -- the engine through the real backend-cpu.so (OpenBLAS
 * sgemm behind bhost.kernel.gemm/1, loaded with dlopen as the host would,
 * on a stub host API): the three tiny architectures against the
 * double-precision reference, both matvec paths. IE_BACKEND_CPU names the
 * plugin file.
 */
#include "tt_util.h"

#include <dlfcn.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

static const bhost_backend *be;
static bhost_dev *dev;

static int load_backend(void **st)
{
    const char *path = getenv("IE_BACKEND_CPU");
    void *so;
    const bhost_entry *e;
    uint32_t n = 0;

    (void)st;
    if (path == NULL || (so = dlopen(path, RTLD_NOW | RTLD_LOCAL)) == NULL) {
        fprintf(stderr, "cannot load IE_BACKEND_CPU=%s: %s\n",
                path ? path : "(unset)", dlerror());
        return -1;
    }
    e = dlsym(so, BHOST_ENTRY_SYMBOL);
    if (e == NULL || e->init(&tt_api) != BHOST_OK)
        return -1;
    be = e->get_interface(BHOST_IFACE_BACKEND);
    if (be == NULL || be->device_count(&n) != BHOST_OK || n == 0 ||
        be->open(0, NULL, &dev) != BHOST_OK) {
        fprintf(stderr, "backend-cpu: no device: %s\n", tt_last_error);
        return -1;
    }
    return 0;
}

static void check_model(const char *preset, int wtype, int matvec)
{
    ie_ctx ctx;
    ie_model *m;
    ie_state *s;
    ie_config c;
    ie_source src = {"dummy", 17, 0};
    int slot = 0, T = 40, n;
    int32_t tok[44];
    double *ref;

    assert_int_equal(ie_ctx_init(&ctx, &tt_host, be, dev, NULL, 2), IE_OK);
    ctx.matvec = matvec;
    assert_int_equal(ie_preset(preset, &c), IE_OK);
    m = ie_model_create(&ctx, &c, wtype, &src);
    assert_non_null(m);
    s = ie_state_create(m, 1, 48, 48);
    assert_non_null(s);
    n = c.arch == IE_ARCH_BERT ? c.d_model : c.vocab;
    ref = malloc((size_t)(T + 4) * (size_t)n * sizeof(double));
    tt_tokens(tok, T + 4, c.vocab, 2);
    if (c.arch == IE_ARCH_BERT) {
        assert_int_equal(ie_encode(s, &slot, 1, tok, T), IE_OK);
        assert_int_equal(ie_ref_forward(m, tok, T, ref), IE_OK);
        for (int t = 0; t < T; t++)
            assert_true(tt_rel_err(ie_hidden(s, t), ref + (size_t)t * n, n) < 1e-4);
    } else {
        assert_int_equal(ie_forward(s, &slot, 1, tok, T), IE_OK);
        assert_int_equal(ie_ref_forward(m, tok, T + 4, ref), IE_OK);
        assert_true(tt_rel_err(ie_logits(s, 0), ref + (size_t)(T - 1) * n, n) < 1e-4);
        for (int k = 0; k < 4; k++) {
            assert_int_equal(ie_forward(s, &slot, 1, tok + T + k, 1), IE_OK);
            assert_true(tt_rel_err(ie_logits(s, 0), ref + (size_t)(T + k) * n,
                                   n) < 1e-4);
        }
    }
    free(ref);
    ie_state_destroy(s);
    ie_model_destroy(m);
    ie_ctx_fini(&ctx);
}

static void test_openblas(void **st)
{
    (void)st;
    check_model("tiny-gpt2", IE_W_F32, IE_MATVEC_BACKEND);
    check_model("tiny-gpt2", IE_W_BF16, IE_MATVEC_HOST);
    check_model("tiny-llama", IE_W_F32, IE_MATVEC_BACKEND);
    check_model("tiny-llama", IE_W_I8, IE_MATVEC_BACKEND);
    check_model("tiny-bert", IE_W_F32, IE_MATVEC_BACKEND);
}

/* A host-visible backend buffer of n elements of size es, filled with a
 * seeded pattern (or zeros); *view is its mapped host pointer. */
static bhost_buf *vec_buf(size_t n, size_t es, int seed, void **view)
{
    bhost_buf *b = NULL;

    assert_int_equal(be->alloc(dev, n * es, BHOST_MEM_HOST_VISIBLE, &b), BHOST_OK);
    *view = be->map(dev, b);
    assert_non_null(*view);
    for (size_t i = 0; i < n; i++) {
        double v = seed ? (double)((i * 7919u + (size_t)seed * 31u) % 97u) / 48.0 - 1.0 : 0.0;

        if (es == sizeof(float))
            ((float *)*view)[i] = (float)v;
        else
            ((double *)*view)[i] = v;
    }
    return b;
}

/* Element (r, c) of a column-major matrix stored with leading dimension
 * ld, seen through op() (transposed when t). */
static double at(const void *p, size_t es, int t, uint64_t ld, uint64_t r, uint64_t c)
{
    size_t i = t ? (size_t)(c + r * ld) : (size_t)(r + c * ld);

    return es == sizeof(float) ? ((const float *)p)[i] : ((const double *)p)[i];
}

/* One gemm of shape m x n x k with every transpose pair and padded
 * leading dimensions, checked against a double-precision loop: the
 * vector shapes (m or n of 1) take the gemv route in backend-cpu. */
static void check_gemm_shape(bhost_dtype dt, uint64_t m, uint64_t n, uint64_t k)
{
    const bhost_kernel_gemm *kg = be->get_kernel(dev, BHOST_KERNEL_GEMM);
    size_t es = dt == BHOST_DTYPE_F32 ? sizeof(float) : sizeof(double);
    double tol = dt == BHOST_DTYPE_F32 ? 1e-4 : 1e-12;

    assert_non_null(kg);
    for (int ta = 0; ta < 2; ta++)
        for (int tb = 0; tb < 2; tb++) {
            uint64_t lda = (ta ? k : m) + 3, ldb = (tb ? n : k) + 2, ldc = m + 5;
            void *pa, *pb, *pc, *c0 = malloc((size_t)(ldc * n) * es);
            bhost_buf *a = vec_buf((size_t)(lda * (ta ? m : k)), es, 1, &pa);
            bhost_buf *b = vec_buf((size_t)(ldb * (tb ? k : n)), es, 2, &pb);
            bhost_buf *c = vec_buf((size_t)(ldc * n), es, 3, &pc);
            bhost_gemm_args g = {sizeof g, dt, dt, dt, dt, (uint32_t)ta,
                                 (uint32_t)tb, 0, m, n, k, lda, ldb, ldc,
                                 1.5, 0.25, a, b, c};

            memcpy(c0, pc, (size_t)(ldc * n) * es);
            assert_int_equal(kg->run(dev, NULL, &g), BHOST_OK);
            assert_int_equal(be->device_sync(dev), BHOST_OK);
            for (uint64_t i = 0; i < m; i++)
                for (uint64_t j = 0; j < n; j++) {
                    double want = 0.25 * at(c0, es, 0, ldc, i, j);

                    for (uint64_t l = 0; l < k; l++)
                        want += 1.5 * at(pa, es, ta, lda, i, l) * at(pb, es, tb, ldb, l, j);
                    if (fabs(at(pc, es, 0, ldc, i, j) - want) > tol * (1.0 + fabs(want)))
                        fail_msg("gemm m=%d n=%d k=%d ta=%d tb=%d: C(%d,%d) = %g, want %g",
                                 (int)m, (int)n, (int)k, ta, tb, (int)i, (int)j,
                                 at(pc, es, 0, ldc, i, j), want);
                }
            be->free(dev, a);
            be->free(dev, b);
            be->free(dev, c);
            free(c0);
        }
}

static void test_gemm_vector_shapes(void **st)
{
    (void)st;
    for (int d = 0; d < 2; d++) {
        bhost_dtype dt = d ? BHOST_DTYPE_F64 : BHOST_DTYPE_F32;

        check_gemm_shape(dt, 1, 37, 53);  /* a row: y' = a' op(B) */
        check_gemm_shape(dt, 41, 1, 29);  /* a column: y = op(A) x */
        check_gemm_shape(dt, 1, 1, 17);   /* a dot product */
        check_gemm_shape(dt, 9, 7, 5);    /* the gemm route */
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_openblas),
        cmocka_unit_test(test_gemm_vector_shapes),
    };

    return cmocka_run_group_tests(tests, load_backend, NULL);
}
