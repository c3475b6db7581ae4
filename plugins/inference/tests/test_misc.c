// SPDX-License-Identifier: MIT
/*
 * test_misc.c -- sampling (greedy, seeded top-k and top-p: deterministic
 * for a seed, never outside the allowed set, distribution roughly right),
 * generation determinism through the engine, Poisson arrival schedules,
 * percentiles (type 7 known answers), and the kernels of every
 * instruction set the CPU has against each other.
 */
#include "tt_util.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

static void test_sampling(void **st)
{
    enum { V = 1000 };
    float logits[V];
    void *scratch = malloc(ie_sampler_scratch_bytes(V));
    ie_sampler a, b;
    int hits[V];

    (void)st;
    for (int i = 0; i < V; i++)
        logits[i] = (float)((i * 37) % 101) * 0.05f;
    /* the top values: (i*37)%101 == 100 for i = 30 (+101k) */
    ie_sampler_init(&a, IE_SAMPLE_GREEDY, 0, 1.0f, 1.0f, 1);
    assert_int_equal(ie_sample(&a, logits, V, scratch), 30);
    /* same seed, same sequence; another seed, another sequence */
    ie_sampler_init(&a, IE_SAMPLE_TOPP, 0, 0.9f, 1.0f, 7);
    ie_sampler_init(&b, IE_SAMPLE_TOPP, 0, 0.9f, 1.0f, 7);
    {
        int same = 1, diff = 0;
        ie_sampler c;

        ie_sampler_init(&c, IE_SAMPLE_TOPP, 0, 0.9f, 1.0f, 8);
        for (int i = 0; i < 200; i++) {
            int32_t x = ie_sample(&a, logits, V, scratch);

            same &= x == ie_sample(&b, logits, V, scratch);
            diff |= x != ie_sample(&c, logits, V, scratch);
        }
        assert_true(same);
        assert_true(diff);
    }
    /* top-k = 3 never leaves the three best (all with value 100 -> ties
     * broken by index: 30, 131, 232) */
    ie_sampler_init(&a, IE_SAMPLE_TOPK, 3, 1.0f, 1.0f, 3);
    memset(hits, 0, sizeof(hits));
    for (int i = 0; i < 3000; i++)
        hits[ie_sample(&a, logits, V, scratch)]++;
    assert_int_equal(hits[30] + hits[131] + hits[232], 3000);
    for (int k = 0; k < 3; k++) /* equal logits: about 1000 each */
        assert_true(hits[30 + 101 * k] > 850 && hits[30 + 101 * k] < 1150);
    /* a tiny top-p keeps only the best (one of the tied maxima) */
    ie_sampler_init(&a, IE_SAMPLE_TOPP, 0, 1e-6f, 1.0f, 3);
    for (int i = 0; i < 50; i++) {
        int32_t x = ie_sample(&a, logits, V, scratch);

        assert_true((x * 37) % 101 == 100);
    }
    /* top-p with a sharp distribution: p(best) = 1/(1 + e^-10 * ...) */
    for (int i = 0; i < V; i++)
        logits[i] = i == 5 ? 20.0f : 0.0f;
    ie_sampler_init(&a, IE_SAMPLE_TOPP, 0, 0.5f, 1.0f, 3);
    assert_int_equal(ie_sample(&a, logits, V, scratch), 5);
    free(scratch);
}

/* Generates n tokens with sampling from a fixed prompt. */
static void generate(ie_ctx *ctx, ie_model *m, uint64_t seed, int32_t *out,
                     int n)
{
    ie_state *s = ie_state_create(m, 1, 64, 16);
    ie_sampler sp;
    void *scratch = malloc(ie_sampler_scratch_bytes(m->cfg.vocab));
    int32_t prompt[8], t;
    int slot = 0;

    (void)ctx;
    tt_tokens(prompt, 8, m->cfg.vocab, 1);
    ie_sampler_init(&sp, IE_SAMPLE_TOPK, 20, 1.0f, 0.8f, seed);
    assert_int_equal(ie_forward(s, &slot, 1, prompt, 8), IE_OK);
    for (int i = 0; i < n; i++) {
        t = ie_sample(&sp, ie_logits(s, 0), m->cfg.vocab, scratch);
        out[i] = t;
        assert_int_equal(ie_forward(s, &slot, 1, &t, 1), IE_OK);
    }
    free(scratch);
    ie_state_destroy(s);
}

static void test_generation(void **st)
{
    ie_ctx ctx;
    ie_model *m;
    int32_t a[24], b[24], c[24];

    (void)st;
    tt_ctx(&ctx, 2);
    m = tt_model(&ctx, "tiny-llama", IE_W_BF16, 0, 11);
    generate(&ctx, m, 5, a, 24);
    generate(&ctx, m, 5, b, 24);
    generate(&ctx, m, 6, c, 24);
    assert_memory_equal(a, b, sizeof(a));
    assert_memory_not_equal(a, c, sizeof(a));
    ie_model_destroy(m);
    ie_ctx_fini(&ctx);
}

static void test_arrivals(void **st)
{
    enum { N = 20000 };
    uint64_t *t = malloc(N * sizeof(uint64_t)), *u = malloc(N * sizeof(uint64_t));
    double mean;

    (void)st;
    ie_poisson_arrivals(9, 50.0, N, t);
    ie_poisson_arrivals(9, 50.0, N, u);
    assert_memory_equal(t, u, N * sizeof(uint64_t));
    for (int i = 1; i < N; i++)
        assert_true(t[i] >= t[i - 1]);
    mean = (double)t[N - 1] / N / 1e9; /* mean gap: 1/50 s */
    assert_true(fabs(mean - 0.02) < 0.02 * 0.03);
    ie_poisson_arrivals(10, 50.0, N, u);
    assert_memory_not_equal(t, u, N * sizeof(uint64_t));
    free(t);
    free(u);
}

static void test_percentile(void **st)
{
    double v[] = {15, 20, 35, 40, 50};
    double w[] = {3, 1, 2};

    (void)st;
    /* R type 7: quantile(c(15,20,35,40,50), .4) = 29; .9 = 46; .5 = 35 */
    assert_true(fabs(ie_percentile(v, 5, 40) - 29.0) < 1e-12);
    assert_true(fabs(ie_percentile(v, 5, 90) - 46.0) < 1e-12);
    assert_true(fabs(ie_percentile(v, 5, 50) - 35.0) < 1e-12);
    assert_true(fabs(ie_percentile(v, 5, 100) - 50.0) < 1e-12);
    assert_true(fabs(ie_percentile(w, 3, 0) - 1.0) < 1e-12);
    assert_true(isnan(ie_percentile(w, 0, 50)));
}

/* Every kernel table the CPU runs agrees with the portable one. */
static void test_kernels(void **st)
{
    const ie_kern *ks[3] = {&ie_kern_portable, NULL, NULL};
    enum { R = 37, C = 203, B = 7 };
    float *w = malloc(R * C * 4), *x = malloc(B * C * 4), *y0 = malloc(B * R * 4);
    float *y1 = malloc(B * R * 4), *a = malloc(C * 4), *b = malloc(C * 4);
    uint16_t *wb = malloc(R * C * 2);
    int8_t *wi = malloc(R * C);
    float sc[R];

    (void)st;
#if defined(IE_HAVE_X86)
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
        ks[1] = &ie_kern_avx2;
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
        __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl"))
        ks[2] = &ie_kern_avx512;
#endif
    for (int i = 0; i < R * C; i++) {
        w[i] = (float)((i * 7919) % 1000) / 500.0f - 1.0f;
        wb[i] = ie_f32_to_bf16(w[i]);
        wi[i] = (int8_t)((i * 31) % 255 - 127);
    }
    for (int i = 0; i < B * C; i++)
        x[i] = (float)((i * 104729) % 1000) / 500.0f - 1.0f;
    for (int r = 0; r < R; r++)
        sc[r] = 0.01f * (float)(r + 1);
    for (int k = 1; k < 3; k++) {
        const ie_kern *K = ks[k], *P = ks[0];

        if (K == NULL)
            continue;
        for (int nb = 1; nb <= B; nb++) {
            P->mv_f32(w, C, 0, R, x, C, nb, y0, R);
            K->mv_f32(w, C, 0, R, x, C, nb, y1, R);
            for (int i = 0; i < nb * R; i++)
                assert_true(fabsf(y0[i] - y1[i]) < 1e-4f);
            P->mv_bf16(wb, C, 3, R, x, C, nb, y0, R);
            K->mv_bf16(wb, C, 3, R, x, C, nb, y1, R);
            for (int i = 0; i < nb; i++)
                for (int r = 3; r < R; r++)
                    assert_true(fabsf(y0[i * R + r] - y1[i * R + r]) < 1e-4f);
            P->mv_i8(wi, sc, C, 0, R, x, C, nb, y0, R);
            K->mv_i8(wi, sc, C, 0, R, x, C, nb, y1, R);
            for (int i = 0; i < nb * R; i++)
                assert_true(fabsf(y0[i] - y1[i]) < 1e-3f * (1 + fabsf(y0[i])));
        }
        for (int n = 1; n < C; n += 17) {
            memcpy(a, x, C * 4);
            memcpy(b, x, C * 4);
            for (int i = 0; i < n; i++)
                a[i] = b[i] = (float)(i % 23) - 11.0f;
            P->softmax(a, n, C);
            K->softmax(b, n, C);
            for (int i = 0; i < C; i++)
                assert_true(fabsf(a[i] - b[i]) < 1e-6f);
            P->gelu_erf(a, (size_t)n);
            K->gelu_erf(b, (size_t)n);
            P->gelu_tanh(a, (size_t)n);
            K->gelu_tanh(b, (size_t)n);
            for (int i = 0; i < n; i++)
                assert_true(fabsf(a[i] - b[i]) < 1e-5f);
        }
    }
    /* the vector GELUs against libm */
    for (int i = -400; i <= 400; i++) {
        float v = (float)i * 0.025f, g = v;
        double e = 0.5 * v * (1.0 + erf(v / sqrt(2.0)));

        ie_kern_get()->gelu_erf(&g, 1);
        assert_true(fabs(g - e) < 1e-6 * (1 + fabs(e)));
        g = v;
        e = 0.5 * v * (1 + tanh(sqrt(2 / M_PI) * (v + 0.044715 * v * v * v)));
        ie_kern_get()->gelu_tanh(&g, 1);
        assert_true(fabs(g - e) < 1e-6 * (1 + fabs(e)));
    }
    free(w);
    free(x);
    free(y0);
    free(y1);
    free(a);
    free(b);
    free(wb);
    free(wi);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sampling),   cmocka_unit_test(test_generation),
        cmocka_unit_test(test_arrivals),   cmocka_unit_test(test_percentile),
        cmocka_unit_test(test_kernels),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
