// SPDX-License-Identifier: MIT
/*
 * test_rnn.c -- unit tests of libsci_rnn: the double reference against
 * closed forms (zero weights: i = f = o = u = r = 1/2), then the own
 * sgemm cell (when built with OpenBLAS) and oneDNN's primitives (when built) against the reference
 * on every batch row, for LSTM and GRU, one step and several, I = H and not: within rnn_error_bound
 * and, much tighter, within 1e-5 (what a wrong gate order or GRU variant would never meet).
 */
#include "rnn.h"
#include "sci_check.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct tensors {
    float *wx, *wh, *bias, *x, *h0, *c0, *hs, *cT;
} tensors;

static int alloc_tensors(const rnn_shape *s, tensors *t)
{
    size_t gh = rnn_gates(s->kind) * s->hidden, bh = s->batch * s->hidden;

    t->wx = calloc(s->input * gh, sizeof(float));
    t->wh = calloc(s->hidden * gh, sizeof(float));
    t->bias = calloc(gh, sizeof(float));
    t->x = calloc(s->steps * s->batch * s->input, sizeof(float));
    t->h0 = calloc(bh, sizeof(float));
    t->c0 = calloc(bh, sizeof(float));
    t->hs = calloc(s->steps * bh, sizeof(float));
    t->cT = calloc(bh, sizeof(float));
    return t->wx && t->wh && t->bias && t->x && t->h0 && t->c0 && t->hs && t->cT ? 0 : -1;
}

static void free_tensors(tensors *t)
{
    free(t->wx), free(t->wh), free(t->bias), free(t->x);
    free(t->h0), free(t->c0), free(t->hs), free(t->cT);
}

/* Zero weights and bias: LSTM c1 = c0 / 2, h1 = tanh(c1) / 2; GRU h1 =
 * h0 / 2 (u = 1/2, o = tanh(0) = 0). */
static void test_reference_closed_form(rnn_kind kind)
{
    rnn_shape s = {kind, 2, 3, 4, 1};
    tensors t;
    rnn_weights w;
    rnn_io io;
    double h[4], c[4];

    CHECK(alloc_tensors(&s, &t) == 0, "allocation");
    for (size_t i = 0; i < 8; i++) {
        t.h0[i] = (float)i / 8.0f - 0.5f;
        t.c0[i] = 0.25f * (float)i - 1.0f;
    }
    w = (rnn_weights){t.wx, t.wh, t.bias};
    io = (rnn_io){t.x, t.h0, t.c0, t.hs, t.cT};
    CHECK(rnn_ref_row(&s, &w, &io, 1, h, c) == 0, "reference");
    for (size_t j = 0; j < 4; j++) {
        double c0 = t.c0[4 + j], h0 = t.h0[4 + j];

        if (kind == RNN_LSTM)
            CHECK(fabs(c[j] - c0 / 2) < 1e-15 && fabs(h[j] - tanh(c0 / 2) / 2) < 1e-15,
                  "LSTM unit %zu: h %g c %g", j, h[j], c[j]);
        else
            CHECK(fabs(h[j] - h0 / 2) < 1e-15, "GRU unit %zu: h %g, expected %g", j, h[j], h0 / 2);
    }
    free_tensors(&t);
}

/* The largest |out - ref| over every row, step and (LSTM) last c. */
static double error_vs_reference(const rnn_shape *s, const rnn_weights *w, const tensors *t)
{
    rnn_io io = {t->x, t->h0, t->c0, t->hs, t->cT};
    size_t hd = s->hidden;
    double *h = malloc(s->steps * hd * sizeof(double)), *c = malloc(hd * sizeof(double));
    double worst = 0.0;

    for (size_t b = 0; h && c && b < s->batch; b++) {
        CHECK(rnn_ref_row(s, w, &io, b, h, c) == 0, "reference");
        for (size_t q = 0; q < s->steps; q++)
            for (size_t j = 0; j < hd; j++)
                worst = fmax(worst, fabs(t->hs[(q * s->batch + b) * hd + j] - h[q * hd + j]));
        for (size_t j = 0; s->kind == RNN_LSTM && j < hd; j++)
            worst = fmax(worst, fabs(t->cT[b * hd + j] - c[j]));
    }
    free(h), free(c);
    return worst;
}

/* Runs one implementation over io: 0, or -1 when it could not. */
typedef int (*impl_fn)(const rnn_shape *s, const rnn_weights *w, const rnn_io *io);

#ifdef SCI_RNN_HAVE_BLAS
static int run_own(const rnn_shape *s, const rnn_weights *w, const rnn_io *io)
{
    rnn_own own;

    if (rnn_own_init(&own, s) != 0)
        return -1;
    rnn_own_forward(&own, w, io);
    rnn_own_free(&own);
    return 0;
}
#endif

#ifdef SCI_RNN_HAVE_DNNL
static int run_dnnl(const rnn_shape *s, const rnn_weights *w, const rnn_io *io)
{
    char err[256] = "";
    rnn_dnnl *d = rnn_dnnl_create(s, w, err, sizeof(err));
    int rc = d != NULL ? rnn_dnnl_forward(d, io, err, sizeof(err)) : -1;

    if (rc != 0)
        fprintf(stderr, "oneDNN: %s\n", err);
    rnn_dnnl_free(d);
    return rc;
}
#endif

/* Implementation run against the reference on one shape. */
static void test_impl(const char *name, impl_fn run, rnn_kind kind, size_t batch, size_t input,
                      size_t hidden, size_t steps)
{
    rnn_shape s = {kind, batch, input, hidden, steps};
    tensors t;
    rnn_weights w;
    rnn_io io;
    double e;

    CHECK(alloc_tensors(&s, &t) == 0, "allocation");
    rnn_fill(&s, 99 + steps, t.wx, t.wh, t.bias, t.x, t.h0, kind == RNN_LSTM ? t.c0 : NULL);
    memset(t.hs, 0xFF, steps * batch * hidden * sizeof(float));
    w = (rnn_weights){t.wx, t.wh, t.bias};
    io = (rnn_io){t.x, t.h0, kind == RNN_LSTM ? t.c0 : NULL, t.hs, t.cT};
    CHECK(run(&s, &w, &io) == 0, "%s did not run", name);
    e = error_vs_reference(&s, &w, &t);
    CHECK(e <= rnn_error_bound(&s) && e < 1e-5, "%s %s B%zu I%zu H%zu T%zu: error %g", name,
          kind == RNN_LSTM ? "LSTM" : "GRU", batch, input, hidden, steps, e);
    free_tensors(&t);
}

/* Every implementation built in, on one shape. */
static void test_shape(rnn_kind kind, size_t batch, size_t input, size_t hidden, size_t steps)
{
#ifdef SCI_RNN_HAVE_BLAS
    test_impl("own", run_own, kind, batch, input, hidden, steps);
#endif
#ifdef SCI_RNN_HAVE_DNNL
    test_impl("oneDNN", run_dnnl, kind, batch, input, hidden, steps);
#endif
    (void)test_impl;
    (void)kind, (void)batch, (void)input, (void)hidden, (void)steps;
}

int main(void)
{
    for (int k = 0; k < 2; k++) {
        rnn_kind kind = k ? RNN_GRU : RNN_LSTM;

        test_reference_closed_form(kind);
        test_shape(kind, 3, 7, 7, 1);
        test_shape(kind, 3, 5, 7, 4);
        test_shape(kind, 1, 64, 64, 1);
        test_shape(kind, 4, 40, 64, 5);
    }
    return check_summary("sci_rnn");
}
