// SPDX-License-Identifier: MIT
/*
 * test_forward.c -- the engine against the double-precision reference on
 * the tiny shapes of all three architectures: prefill (gemm attention
 * path, several query blocks), batched decode steps (host attention path)
 * over sequences of different lengths, f32/bf16/int8 weights, the host
 * matvec path, unmappable device buffers, 1 and 2 threads. Logits (final
 * hidden states for BERT) must agree to 1e-4 relative (max |diff| over
 * max |ref| per row). The host matvec split over 7 threads must give
 * bit-identical logits to 1 thread.
 */
#include "tt_util.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#define TOL 1e-4
#define SLOTS 3

typedef struct variant {
    const char *preset;
    int wtype, threads, matvec, nomap, prompt, steps;
} variant;

/* Greedy next token of a logits row. */
static int32_t argmax(const float *x, int n)
{
    int32_t b = 0;

    for (int i = 1; i < n; i++)
        if (x[i] > x[b])
            b = i;
    return b;
}

/* Prefill three sequences (lengths P, P/2+1, P/2+1), then decode steps
 * for all of them at once; every logits row checked against the
 * reference of its sequence. */
static void decoder(const variant *v)
{
    ie_ctx ctx;
    ie_model *m;
    ie_state *s;
    int P = v->prompt, P1 = v->prompt / 2 + 1;
    int maxlen = P + v->steps + 1, V;
    float *rec;   /* [slot][pos][vocab]: engine logits at pos */
    int32_t *tok;
    int slots[SLOTS] = {0, 1, 2};

    tt_backend_nomap(v->nomap);
    tt_ctx(&ctx, v->threads);
    ctx.matvec = v->matvec;
    m = tt_model(&ctx, v->preset, v->wtype, 0, 1234);
    assert_non_null(m);
    V = m->cfg.vocab;
    s = ie_state_create(m, SLOTS, maxlen + 1, SLOTS * P);
    assert_non_null(s);
    rec = calloc((size_t)SLOTS * (size_t)maxlen * (size_t)V, sizeof(float));
    tok = malloc((size_t)(SLOTS * P) * sizeof(int32_t));
    tt_tokens(tok, SLOTS * P, V, 99);
    assert_int_equal(ie_forward(s, slots, 1, tok, P), IE_OK);
    memcpy(rec + (size_t)(P - 1) * V, ie_logits(s, 0), (size_t)V * 4);
    assert_int_equal(ie_forward(s, slots + 1, 2, tok + P, P1), IE_OK);
    for (int i = 0; i < 2; i++)
        memcpy(rec + ((size_t)(i + 1) * maxlen + (size_t)(P1 - 1)) * V,
               ie_logits(s, i), (size_t)V * 4);
    for (int st = 0; st < v->steps; st++) {
        int32_t next[SLOTS];

        for (int i = 0; i < SLOTS; i++) {
            int len = ie_state_len(s, i);

            next[i] = argmax(rec + ((size_t)i * maxlen + (size_t)(len - 1)) * V, V);
        }
        assert_int_equal(ie_forward(s, slots, SLOTS, next, 1), IE_OK);
        for (int i = 0; i < SLOTS; i++) {
            int len = ie_state_len(s, i);

            memcpy(rec + ((size_t)i * maxlen + (size_t)(len - 1)) * V,
                   ie_logits(s, i), (size_t)V * 4);
        }
    }
    for (int i = 0; i < SLOTS; i++) {
        int len = ie_state_len(s, i);
        double *ref = malloc((size_t)len * (size_t)V * sizeof(double));
        int first = i == 0 ? P - 1 : P1 - 1;

        assert_int_equal(ie_ref_forward(m, ie_state_tokens(s, i), len, ref),
                         IE_OK);
        for (int p = first; p < len; p++) {
            double e = tt_rel_err(rec + ((size_t)i * maxlen + (size_t)p) * V,
                                  ref + (size_t)p * V, V);

            if (e > TOL)
                fail_msg("%s w%d t%d mv%d nomap%d: slot %d pos %d rel err %g",
                         v->preset, v->wtype, v->threads, v->matvec, v->nomap,
                         i, p, e);
        }
        free(ref);
    }
    free(rec);
    free(tok);
    ie_state_destroy(s);
    ie_model_destroy(m);
    ie_ctx_fini(&ctx);
    tt_backend_nomap(0);
}

static void test_gpt2(void **st)
{
    static const variant vs[] = {
        {"tiny-gpt2", IE_W_F32, 1, IE_MATVEC_BACKEND, 0, 24, 5},
        {"tiny-gpt2", IE_W_F32, 2, IE_MATVEC_HOST, 1, 24, 5},
        {"tiny-gpt2", IE_W_BF16, 2, IE_MATVEC_BACKEND, 0, 20, 4},
        {"tiny-gpt2", IE_W_I8, 1, IE_MATVEC_HOST, 0, 20, 4},
        {"tiny-gpt2", IE_W_I8, 2, IE_MATVEC_BACKEND, 1, 9, 3},
        {"wide-gpt2", IE_W_F32, 2, IE_MATVEC_HOST, 0, 12, 3},
        {"wide-gpt2", IE_W_BF16, 2, IE_MATVEC_HOST, 1, 10, 2},
    };

    (void)st;
    for (size_t i = 0; i < sizeof(vs) / sizeof(vs[0]); i++)
        decoder(&vs[i]);
}

static void test_llama(void **st)
{
    static const variant vs[] = {
        {"tiny-llama", IE_W_F32, 2, IE_MATVEC_BACKEND, 0, 150, 3},
        {"tiny-llama", IE_W_F32, 1, IE_MATVEC_HOST, 1, 24, 5},
        {"tiny-llama", IE_W_BF16, 2, IE_MATVEC_HOST, 0, 20, 4},
        {"tiny-llama", IE_W_I8, 2, IE_MATVEC_BACKEND, 0, 20, 4},
        {"wide-llama", IE_W_I8, 2, IE_MATVEC_HOST, 0, 12, 3},
    };

    (void)st;
    for (size_t i = 0; i < sizeof(vs) / sizeof(vs[0]); i++)
        decoder(&vs[i]);
}

/* BERT: two sequences of T tokens encoded at once, every hidden row
 * checked. T >= 8 runs the gemm attention path, T < 8 the host path;
 * matvec IE_MATVEC_HOST with 2T <= 8 rows, the host matvec (its erf GELU
 * epilogue). */
static void encoder(int wtype, int threads, int nomap, int T, int matvec)
{
    ie_ctx ctx;
    ie_model *m;
    ie_state *s;
    int slots[2] = {1, 0};
    int32_t *tok = malloc((size_t)(2 * T) * sizeof(int32_t));
    int d;

    tt_backend_nomap(nomap);
    tt_ctx(&ctx, threads);
    ctx.matvec = matvec;
    m = tt_model(&ctx, "tiny-bert", wtype, 0, 77);
    assert_non_null(m);
    d = m->cfg.d_model;
    s = ie_state_create(m, 2, T, 2 * T);
    assert_non_null(s);
    tt_tokens(tok, 2 * T, m->cfg.vocab, 5);
    assert_int_equal(ie_encode(s, slots, 2, tok, T), IE_OK);
    for (int i = 0; i < 2; i++) {
        double *ref = malloc((size_t)T * (size_t)d * sizeof(double));

        assert_int_equal(ie_ref_forward(m, tok + i * T, T, ref), IE_OK);
        for (int t = 0; t < T; t++) {
            double e = tt_rel_err(ie_hidden(s, i * T + t), ref + (size_t)t * d, d);

            if (e > TOL)
                fail_msg("bert w%d T%d mv%d: seq %d pos %d rel err %g", wtype,
                         T, matvec, i, t, e);
        }
        free(ref);
    }
    free(tok);
    ie_state_destroy(s);
    ie_model_destroy(m);
    ie_ctx_fini(&ctx);
    tt_backend_nomap(0);
}

static void test_bert(void **st)
{
    (void)st;
    encoder(IE_W_F32, 1, 0, 20, IE_MATVEC_BACKEND);
    encoder(IE_W_F32, 2, 1, 140, IE_MATVEC_BACKEND);
    encoder(IE_W_BF16, 2, 0, 5, IE_MATVEC_BACKEND);
    encoder(IE_W_I8, 1, 0, 12, IE_MATVEC_BACKEND);
    encoder(IE_W_F32, 2, 0, 3, IE_MATVEC_HOST); /* 6 rows: host matvec, erf GELU */
}

/* The verify path: ie_ref_check accepts a correct state and catches a
 * corrupted cache row and a wrong output. */
static void test_check(void **st)
{
    ie_ctx ctx;
    ie_model *m;
    ie_state *s;
    ie_check res;
    int slot = 0;
    int32_t tok[16];
    float *bad;
    ie_dbuf *K;
    int V;

    (void)st;
    tt_ctx(&ctx, 2);
    m = tt_model(&ctx, "tiny-llama", IE_W_F32, 0, 3);
    s = ie_state_create(m, 1, 32, 16);
    V = m->cfg.vocab;
    tt_tokens(tok, 16, V, 8);
    assert_int_equal(ie_forward(s, &slot, 1, tok, 12), IE_OK);
    assert_int_equal(ie_forward(s, &slot, 1, tok + 12, 1), IE_OK);
    assert_int_equal(ie_ref_check(s, 0, 12, ie_logits(s, 0), 1, &res), IE_OK);
    assert_true(res.out_err < TOL && res.kv_err < TOL);
    assert_int_equal(res.outputs, V);
    bad = malloc((size_t)V * sizeof(float));
    memcpy(bad, ie_logits(s, 0), (size_t)V * sizeof(float));
    bad[7] += 0.5f;
    assert_int_equal(ie_ref_check(s, 0, 12, bad, 1, &res), IE_OK);
    assert_true(res.out_err > 1e-3);
    K = ie_state_kvbuf(s, 1, 0, 1, 0); /* layer 1, kv head 1, K */
    ((float *)K->host)[12 * m->cfg.head_dim + 3] += 0.25f;
    assert_int_equal(ie_ref_check(s, 0, 12, ie_logits(s, 0), 1, &res), IE_OK);
    assert_true(res.kv_err > 1e-3);
    free(bad);
    ie_state_destroy(s);
    ie_model_destroy(m);
    ie_ctx_fini(&ctx);
}

/* Logits of a prefill and `steps` decode steps with the host matvec path
 * on `threads` threads (wide-gpt2, f32): [steps + 1][*vocab], malloc'ed. */
static float *host_mv_logits(int threads, int steps, int *vocab)
{
    ie_ctx ctx;
    ie_model *m;
    ie_state *s;
    int slot = 0, V;
    int32_t tok[24];
    float *out;

    tt_ctx(&ctx, threads);
    ctx.matvec = IE_MATVEC_HOST;
    m = tt_model(&ctx, "wide-gpt2", IE_W_F32, 0, 77);
    assert_non_null(m);
    V = *vocab = m->cfg.vocab;
    s = ie_state_create(m, 1, 32, 16);
    assert_non_null(s);
    out = malloc((size_t)(steps + 1) * (size_t)V * sizeof(float));
    assert_non_null(out);
    tt_tokens(tok, 16 + steps, V, 5);
    assert_int_equal(ie_forward(s, &slot, 1, tok, 16), IE_OK);
    memcpy(out, ie_logits(s, 0), (size_t)V * sizeof(float));
    for (int k = 0; k < steps; k++) {
        assert_int_equal(ie_forward(s, &slot, 1, tok + 16 + k, 1), IE_OK);
        memcpy(out + (size_t)(k + 1) * V, ie_logits(s, 0),
               (size_t)V * sizeof(float));
    }
    ie_state_destroy(s);
    ie_model_destroy(m);
    ie_ctx_fini(&ctx);
    return out;
}

/* The host matvec gives each thread one share of the output rows and
 * lets a thread done early take rows from the back of the others' shares:
 * whoever computes a row, the logits are bit-identical to one thread's
 * (7 threads on a small machine: workers start late and take rows from
 * each other often). */
static void test_matvec_threads(void **st)
{
    enum { STEPS = 6 };
    int V, V7;
    float *one = host_mv_logits(1, STEPS, &V);

    (void)st;
    for (int rep = 0; rep < 3; rep++) {
        float *many = host_mv_logits(7, STEPS, &V7);

        assert_int_equal(V, V7);
        assert_memory_equal(one, many,
                            (size_t)(STEPS + 1) * (size_t)V * sizeof(float));
        free(many);
    }
    free(one);
}

/* Bad calls are refused with a message, never a crash. */
static void test_errors(void **st)
{
    ie_ctx ctx;
    ie_model *m;
    ie_state *s;
    int slots[2] = {0, 0};
    int32_t tok[4] = {1, 2, 3, 1000};
    ie_config c;

    (void)st;
    tt_ctx(&ctx, 1);
    m = tt_model(&ctx, "tiny-gpt2", IE_W_F32, 1, 3);
    s = ie_state_create(m, 2, 8, 8);
    assert_int_equal(ie_forward(s, slots, 2, tok, 1), IE_EINVAL);
    assert_non_null(strstr(ctx.err, "twice"));
    assert_int_equal(ie_forward(s, slots, 1, tok, 4), IE_EINVAL);
    assert_non_null(strstr(ctx.err, "vocabulary"));
    assert_int_equal(ie_forward(s, slots, 1, tok, 3), IE_OK);
    assert_int_equal(ie_forward(s, slots, 1, tok, 3), IE_OK);
    assert_int_equal(ie_forward(s, slots, 1, tok, 3), IE_EINVAL);
    assert_non_null(strstr(ctx.err, "context"));
    assert_int_equal(ie_encode(s, slots, 1, tok, 2), IE_EINVAL);
    assert_null(ie_state_create(m, 1, 100000, 8));
    ie_state_destroy(s);
    ie_model_destroy(m);
    assert_int_equal(ie_preset("gpt5", &c), IE_EINVAL);
    assert_int_equal(ie_preset("gpt2", &c), IE_OK);
    c.n_heads = 7;
    assert_null(ie_model_create(&ctx, &c, IE_W_F32, NULL));
    assert_non_null(strstr(ctx.err, "multiple of heads"));
    ie_ctx_fini(&ctx);
}

/* Presets carry the published shapes and parameter counts. */
static void test_presets(void **st)
{
    ie_config c;
    ie_counts n;

    (void)st;
    assert_int_equal(ie_preset("gpt2", &c), IE_OK);
    ie_config_counts(&c, &n);
    assert_true(n.params_total > 124.0e6 && n.params_total < 124.6e6);
    assert_int_equal(ie_preset("llama-7b", &c), IE_OK);
    ie_config_counts(&c, &n);
    assert_true(n.params_total > 6.7e9 && n.params_total < 6.8e9);
    assert_int_equal(ie_preset("llama-13b", &c), IE_OK);
    ie_config_counts(&c, &n);
    assert_true(n.params_total > 13.0e9 && n.params_total < 13.1e9);
    assert_int_equal(ie_preset("bert-base", &c), IE_OK);
    ie_config_counts(&c, &n);
    assert_true(n.params_total > 108.0e6 && n.params_total < 110.0e6);
    assert_int_equal(ie_preset("bert-large", &c), IE_OK);
    assert_int_equal(ie_preset("gpt2-medium", &c), IE_OK);
    ie_config_counts(&c, &n);
    assert_true(n.params_total > 354.0e6 && n.params_total < 356.0e6);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_presets), cmocka_unit_test(test_gpt2),
        cmocka_unit_test(test_llama),   cmocka_unit_test(test_bert),
        cmocka_unit_test(test_check),   cmocka_unit_test(test_errors),
        cmocka_unit_test(test_matvec_threads),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
