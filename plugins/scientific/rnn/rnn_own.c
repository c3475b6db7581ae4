// SPDX-License-Identifier: MIT
/*
 * rnn_own.c -- the plugin's own gemm-based LSTM and GRU (rnn.h): the input
 * projection of all steps as one OpenBLAS sgemm, the recurrent projection
 * of each step as an sgemm accumulated onto that step's gates, then the
 * nonlinearities and state update fused in one pass over the batch.
 */
#include "rnn.h"

#include <cblas.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

int rnn_own_init(rnn_own *p, const rnn_shape *s)
{
    size_t gh = rnn_gates(s->kind) * s->hidden;

    memset(p, 0, sizeof(*p));
    p->s = *s;
    p->gates = malloc(s->steps * s->batch * gh * sizeof(float));
    p->rh = malloc(s->batch * s->hidden * sizeof(float));
    if (p->gates == NULL || p->rh == NULL) {
        rnn_own_free(p);
        return -1;
    }
    return 0;
}

void rnn_own_free(rnn_own *p)
{
    free(p->gates);
    free(p->rh);
    memset(p, 0, sizeof(*p));
}

static float sigmoidf(float v)
{
    return 1.0f / (1.0f + expf(-v));
}

/* C[m][n] (ldc) += A[m][k] (lda) B[k][n] (ldb), row-major; beta 0 or 1. */
static void sgemm_rm(size_t m, size_t n, size_t k, const float *a, size_t lda, const float *b,
                     size_t ldb, float beta, float *c, size_t ldc)
{
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)m, (int)n, (int)k, 1.0f, a,
                (int)lda, b, (int)ldb, beta, c, (int)ldc);
}

/* LSTM gates g [B][4H] (projections summed) to c (in place) and h. */
static void lstm_pointwise(const rnn_shape *s, const float *g, const float *bias, float *c,
                           float *h)
{
    size_t hd = s->hidden;

    for (size_t b = 0; b < s->batch; b++) {
        const float *gb = g + b * 4 * hd;

        for (size_t j = 0; j < hd; j++) {
            float i = sigmoidf(gb[j] + bias[j]);
            float f = sigmoidf(gb[hd + j] + bias[hd + j]);
            float cc = tanhf(gb[2 * hd + j] + bias[2 * hd + j]);
            float o = sigmoidf(gb[3 * hd + j] + bias[3 * hd + j]);
            float ct = f * c[b * hd + j] + i * cc;

            c[b * hd + j] = ct;
            h[b * hd + j] = o * tanhf(ct);
        }
    }
}

/* GRU: u and r (in place in g [B][3H]) and rh = r h_prev. */
static void gru_reset(const rnn_shape *s, float *g, const float *bias, const float *hp, float *rh)
{
    size_t hd = s->hidden;

    for (size_t b = 0; b < s->batch; b++) {
        float *gb = g + b * 3 * hd;

        for (size_t j = 0; j < hd; j++) {
            gb[j] = sigmoidf(gb[j] + bias[j]);
            gb[hd + j] = sigmoidf(gb[hd + j] + bias[hd + j]);
            rh[b * hd + j] = gb[hd + j] * hp[b * hd + j];
        }
    }
}

/* GRU: h = u h_prev + (1 - u) tanh(o + b_o). */
static void gru_update(const rnn_shape *s, const float *g, const float *bias, const float *hp,
                       float *h)
{
    size_t hd = s->hidden;

    for (size_t b = 0; b < s->batch; b++) {
        const float *gb = g + b * 3 * hd;

        for (size_t j = 0; j < hd; j++) {
            float u = gb[j], o = tanhf(gb[2 * hd + j] + bias[2 * hd + j]);

            h[b * hd + j] = u * hp[b * hd + j] + (1.0f - u) * o;
        }
    }
}

/* One step t: the recurrent sgemm(s) onto gates g, then the pointwise. */
static void own_step(rnn_own *p, const rnn_weights *w, const float *hp, float *g, float *c,
                     float *h)
{
    const rnn_shape *s = &p->s;
    size_t hd = s->hidden, gh = rnn_gates(s->kind) * hd;

    if (s->kind == RNN_LSTM) {
        sgemm_rm(s->batch, gh, hd, hp, hd, w->wh, gh, 1.0f, g, gh);
        lstm_pointwise(s, g, w->bias, c, h);
        return;
    }
    sgemm_rm(s->batch, 2 * hd, hd, hp, hd, w->wh, gh, 1.0f, g, gh);
    gru_reset(s, g, w->bias, hp, p->rh);
    sgemm_rm(s->batch, hd, hd, p->rh, hd, w->wh + 2 * hd, gh, 1.0f, g + 2 * hd, gh);
    gru_update(s, g, w->bias, hp, h);
}

void rnn_own_forward(rnn_own *p, const rnn_weights *w, const rnn_io *io)
{
    const rnn_shape *s = &p->s;
    size_t bh = s->batch * s->hidden, gh = rnn_gates(s->kind) * s->hidden;

    sgemm_rm(s->steps * s->batch, gh, s->input, io->x, s->input, w->wx, gh, 0.0f, p->gates, gh);
    if (s->kind == RNN_LSTM)
        memcpy(io->cT, io->c0, bh * sizeof(float));
    for (size_t t = 0; t < s->steps; t++) {
        const float *hp = t == 0 ? io->h0 : io->hs + (t - 1) * bh;

        own_step(p, w, hp, p->gates + t * s->batch * gh, io->cT, io->hs + t * bh);
    }
}
