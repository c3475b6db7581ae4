// SPDX-License-Identifier: MIT
/*
 * ie_sample.c -- token sampling (greedy, seeded top-k, seeded top-p with
 * temperature) on xoshiro256**, and the load-scenario helpers: seeded
 * Poisson arrival schedules and percentiles.
 */
#include "ie_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* 64-bit rotate left. */
static uint64_t rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

/* xoshiro256** next value. */
static uint64_t next(uint64_t *s)
{
    uint64_t r = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;

    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return r;
}

/* Uniform in [0, 1). */
static double uniform(uint64_t *s)
{
    return (double)(next(s) >> 11) * (1.0 / 9007199254740992.0);
}

/* xoshiro256** state from a seed (splitmix64). */
static void seed_state(uint64_t *s, uint64_t seed)
{
    for (int i = 0; i < 4; i++)
        s[i] = ie_mix64(seed + (uint64_t)i * UINT64_C(0x632BE59BD9B4E019));
}

void ie_sampler_init(ie_sampler *sp, int mode, int top_k, float top_p,
                     float temperature, uint64_t seed)
{
    memset(sp, 0, sizeof(*sp));
    sp->mode = mode;
    sp->top_k = top_k;
    sp->top_p = top_p;
    sp->temperature = temperature > 0.0f ? temperature : 1.0f;
    seed_state(sp->rng, seed);
}

size_t ie_sampler_scratch_bytes(int vocab)
{
    return (size_t)vocab * (sizeof(float) + sizeof(int32_t)) + 64;
}

/* Index of the largest logit (the first on ties). */
static int32_t argmax(const float *x, int n)
{
    int32_t best = 0;

    for (int i = 1; i < n; i++)
        if (x[i] > x[best])
            best = i;
    return best;
}

/* Heap "a is worse than b": smaller logit, or equal and larger index. */
static int worse(const float *x, int32_t a, int32_t b)
{
    return x[a] < x[b] || (x[a] == x[b] && a > b);
}

/* Restores the heap (worst index on top) below i. */
static void sift_down(const float *x, int32_t *h, int n, int i)
{
    for (;;) {
        int l = 2 * i + 1, r = l + 1, m = i;
        int32_t t;

        if (l < n && worse(x, h[l], h[m]))
            m = l;
        if (r < n && worse(x, h[r], h[m]))
            m = r;
        if (m == i)
            return;
        t = h[i];
        h[i] = h[m];
        h[m] = t;
        i = m;
    }
}

/* The m best indices of x[0..n) into idx, best first (heap select). */
static void top_m(const float *x, int n, int m, int32_t *idx)
{
    for (int i = 0; i < m; i++)
        idx[i] = i;
    for (int i = m / 2 - 1; i >= 0; i--)
        sift_down(x, idx, m, i);
    for (int i = m; i < n; i++)
        if (worse(x, idx[0], i)) {
            idx[0] = i;
            sift_down(x, idx, m, 0);
        }
    for (int end = m - 1; end > 0; end--) { /* heap sort: worst to the end */
        int32_t t = idx[0];

        idx[0] = idx[end];
        idx[end] = t;
        sift_down(x, idx, end, 0);
    }
}

int32_t ie_sample(ie_sampler *sp, const float *logits, int vocab,
                  void *scratch)
{
    float *p = scratch;
    int32_t *idx = (int32_t *)(p + vocab);
    double inv_t = 1.0 / sp->temperature, mx, total = 0.0, r, acc = 0.0;
    int m, cap;

    if (sp->mode == IE_SAMPLE_GREEDY || vocab < 2)
        return argmax(logits, vocab);
    cap = sp->top_k > 0 && sp->top_k < vocab ? sp->top_k : vocab;
    mx = logits[argmax(logits, vocab)];
    if (sp->mode == IE_SAMPLE_TOPK) {
        m = cap;
    } else { /* TOPP: grow the candidate set until it holds top_p */
        for (int i = 0; i < vocab; i++)
            total += exp((logits[i] - mx) * inv_t);
        for (m = cap < 64 ? cap : 64;; m = m * 4 < cap ? m * 4 : cap) {
            double mass = 0.0;

            top_m(logits, vocab, m, idx);
            for (int i = 0; i < m; i++)
                mass += exp((logits[idx[i]] - mx) * inv_t);
            if (mass >= sp->top_p * total || m == cap)
                break;
        }
        acc = 0.0;
        for (int i = 0; i < m; i++) { /* smallest prefix reaching top_p */
            acc += exp((logits[idx[i]] - mx) * inv_t);
            if (acc >= sp->top_p * total) {
                m = i + 1;
                break;
            }
        }
    }
    if (sp->mode == IE_SAMPLE_TOPK)
        top_m(logits, vocab, m, idx);
    total = 0.0;
    for (int i = 0; i < m; i++) {
        p[i] = (float)exp((logits[idx[i]] - mx) * inv_t);
        total += p[i];
    }
    r = uniform(sp->rng) * total;
    acc = 0.0;
    for (int i = 0; i < m; i++) {
        acc += p[i];
        if (r < acc)
            return idx[i];
    }
    return idx[m - 1];
}

void ie_poisson_arrivals(uint64_t seed, double qps, int n, uint64_t *out)
{
    uint64_t s[4];
    double t = 0.0;

    seed_state(s, seed ^ UINT64_C(0xA2217A15));
    for (int i = 0; i < n; i++) {
        t += -log(1.0 - uniform(s)) / qps;
        out[i] = (uint64_t)(t * 1e9);
    }
}

/* qsort order of doubles. */
static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;

    return (x > y) - (x < y);
}

double ie_percentile(double *v, int n, double q)
{
    double h;
    int lo;

    if (n <= 0)
        return NAN;
    qsort(v, (size_t)n, sizeof(double), cmp_double);
    h = (n - 1) * q / 100.0;
    lo = (int)floor(h);
    if (lo >= n - 1)
        return v[n - 1];
    return v[lo] + (h - lo) * (v[lo + 1] - v[lo]);
}
