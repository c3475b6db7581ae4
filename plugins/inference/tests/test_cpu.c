/*
 * test_cpu.c -- the engine through the real backend-cpu.so (OpenBLAS
 * sgemm behind bhost.kernel.gemm/1, loaded with dlopen as the host would,
 * on a stub host API): the three tiny architectures against the
 * double-precision reference, both matvec paths. IE_BACKEND_CPU names the
 * plugin file.
 */
#include "tt_util.h"

#include <dlfcn.h>
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
    ie_source src = {"dummy", 17};
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_openblas),
    };

    return cmocka_run_group_tests(tests, load_backend, NULL);
}
