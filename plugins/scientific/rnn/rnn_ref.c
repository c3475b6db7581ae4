// SPDX-License-Identifier: MIT
/*
 * rnn_ref.c -- the naive double-precision reference LSTM and GRU for one
 * batch row (rnn.h), the data the cases run on, the error bound that
 * verifies an f32 implementation against the reference, and the counts
 * (gates, element-wise FLOP). Needs neither OpenBLAS nor oneDNN.
 */
#include "rnn.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

size_t rnn_gates(rnn_kind kind)
{
    return kind == RNN_LSTM ? 4 : 3;
}

double rnn_elementwise_flops(rnn_kind kind)
{
    return kind == RNN_LSTM ? 13.0 : 11.0;
}

static double sigmoid(double v)
{
    return 1.0 / (1.0 + exp(-v));
}

/* pre[g*H + j] = bias + sum_k x_k wx[k][g][j] + sum_k hin_k wh[k][g][j],
 * for the gates g in [g0, g1). */
static void ref_project(const rnn_shape *s, const rnn_weights *w, const float *x, const double *hin,
                        size_t g0, size_t g1, double *pre)
{
    size_t hd = s->hidden, gh = rnn_gates(s->kind) * hd;

    for (size_t c = g0 * hd; c < g1 * hd; c++) {
        double acc = w->bias[c];

        for (size_t k = 0; k < s->input; k++)
            acc += (double)x[k] * w->wx[k * gh + c];
        for (size_t k = 0; k < hd; k++)
            acc += hin[k] * w->wh[k * gh + c];
        pre[c] = acc;
    }
}

/* One LSTM step of one row: h and c updated in place. */
static void ref_lstm_step(const rnn_shape *s, const rnn_weights *w, const float *x, double *h,
                          double *c, double *pre)
{
    size_t hd = s->hidden;

    ref_project(s, w, x, h, 0, 4, pre);
    for (size_t j = 0; j < hd; j++) {
        c[j] = sigmoid(pre[hd + j]) * c[j] + sigmoid(pre[j]) * tanh(pre[2 * hd + j]);
        h[j] = sigmoid(pre[3 * hd + j]) * tanh(c[j]);
    }
}

/* One GRU step of one row: h updated in place; rh is scratch [H]. */
static void ref_gru_step(const rnn_shape *s, const rnn_weights *w, const float *x, double *h,
                         double *pre, double *rh)
{
    size_t hd = s->hidden, gh = 3 * hd;

    ref_project(s, w, x, h, 0, 2, pre);
    for (size_t j = 0; j < hd; j++)
        rh[j] = sigmoid(pre[hd + j]) * h[j];
    for (size_t j = 0; j < hd; j++) {
        double acc = w->bias[2 * hd + j];

        for (size_t k = 0; k < s->input; k++)
            acc += (double)x[k] * w->wx[k * gh + 2 * hd + j];
        for (size_t k = 0; k < hd; k++)
            acc += rh[k] * w->wh[k * gh + 2 * hd + j];
        pre[2 * hd + j] = acc;
    }
    for (size_t j = 0; j < hd; j++) {
        double u = sigmoid(pre[j]);

        h[j] = u * h[j] + (1.0 - u) * tanh(pre[2 * hd + j]);
    }
}

int rnn_ref_row(const rnn_shape *s, const rnn_weights *w, const rnn_io *io, size_t b,
                double *hs_ref, double *c_ref)
{
    size_t hd = s->hidden;
    double *h = malloc(hd * sizeof(double)), *c = malloc(hd * sizeof(double));
    double *pre = malloc(4 * hd * sizeof(double)), *rh = malloc(hd * sizeof(double));

    if (!h || !c || !pre || !rh) {
        free(h), free(c), free(pre), free(rh);
        return -1;
    }
    for (size_t j = 0; j < hd; j++) {
        h[j] = io->h0[b * hd + j];
        c[j] = s->kind == RNN_LSTM ? io->c0[b * hd + j] : 0.0;
    }
    for (size_t t = 0; t < s->steps; t++) {
        const float *x = io->x + (t * s->batch + b) * s->input;

        if (s->kind == RNN_LSTM)
            ref_lstm_step(s, w, x, h, c, pre);
        else
            ref_gru_step(s, w, x, h, pre, rh);
        memcpy(hs_ref + t * hd, h, hd * sizeof(double));
    }
    if (c_ref != NULL && s->kind == RNN_LSTM)
        memcpy(c_ref, c, hd * sizeof(double));
    free(h), free(c), free(pre), free(rh);
    return 0;
}

/*
 * The bound. With weights uniform in +-a, a = 1/(I+H), bias within 0.1 and
 * every input, h and c_0 within 1 (|h| <= 1 always; |c_t| <= 1 + t),
 * each pre-activation sums K = I+H products with sum |w||in| <= 1, so the
 * f32 sgemm (any order of summation) errs by at most gamma_K <= K eps
 * (Higham, Thm 3.5), plus a few eps for the bias and the sum of the two
 * projections. The nonlinearities have slopes at most 1 (sigmoid 1/4) and
 * add their own few ulps (libm's expf/tanhf, or oneDNN's polynomial
 * approximations, documented within a few ulps): local error per step
 * e = (K + 16) eps. The recurrent product passes an error in h on scaled
 * by at most H a < 1, an error in c is passed on times |f| <= 1, and the
 * gate errors enter c_t times |c_{t-1}| <= t, so step t adds at most
 * (t + 2) e and after T steps the error is at most e T (T + 5) / 2 <=
 * e T (T + 3). The GRU's h_t = u h + (1 - u) o is a convex mix of values
 * within 1 and stays within the same bound. The bound is loose (observed
 * errors are ~1e-6) but holds for any summation order the libraries pick.
 */
double rnn_error_bound(const rnn_shape *s)
{
    double k = (double)(s->input + s->hidden), t = (double)s->steps;

    return (k + 16.0) * FLT_EPSILON * t * (t + 3.0);
}

/* splitmix64: the next value of the stream at *st, uniform in [-1, 1). */
static double next_unit(unsigned long long *st)
{
    unsigned long long z = (*st += 0x9E3779B97F4A7C15ULL);

    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    z ^= z >> 31;
    return 2.0 * ((double)(z >> 11) * 0x1.0p-53) - 1.0;
}

/* n values uniform in +-scale. */
static void fill_uniform(float *p, size_t n, double scale, unsigned long long *st)
{
    for (size_t i = 0; i < n; i++)
        p[i] = (float)(scale * next_unit(st));
}

void rnn_fill(const rnn_shape *s, unsigned long long seed, float *wx, float *wh, float *bias,
              float *x, float *h0, float *c0)
{
    size_t gh = rnn_gates(s->kind) * s->hidden, bh = s->batch * s->hidden;
    double a = 1.0 / (double)(s->input + s->hidden);
    unsigned long long st = seed;

    fill_uniform(wx, s->input * gh, a, &st);
    fill_uniform(wh, s->hidden * gh, a, &st);
    fill_uniform(bias, gh, 0.1, &st);
    fill_uniform(x, s->steps * s->batch * s->input, 1.0, &st);
    fill_uniform(h0, bh, 1.0, &st);
    if (c0 != NULL)
        fill_uniform(c0, bh, 1.0, &st);
}
