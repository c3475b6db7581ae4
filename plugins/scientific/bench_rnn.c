// SPDX-License-Identifier: MIT
/*
 * bench_rnn.c -- rnn.lstm and rnn.gru: one-layer forward LSTM and GRU in
 * f32 over `steps` time steps (1 = one cell step), by the plugin's own
 * gemm-based cell (OpenBLAS sgemm + fused nonlinearities) or by oneDNN's
 * vanilla primitives; gate order and GRU variant as in rnn/rnn.h (oneDNN's).
 *
 * Counting, per forward pass of T steps, batch B, input I, hidden H, G
 * gates (4 LSTM, 3 GRU):
 *   FLOP  = T (2 B (I+H) G H + e B H), e the element-wise FLOP per unit
 *           (13 LSTM, 11 GRU: rnn_elementwise_flops; sigmoid, tanh = 1);
 *   bytes = the compulsory traffic in f32: Wx and the bias read once (the
 *           input projection of all steps is one gemm), Wh read once per
 *           step (each step waits for the last; at batch 1 this stream is
 *           the whole cost and the case is held against the memory roof),
 *           x read, every h written, h0 (and c0, cT) once;
 *   items = T B (one cell step of one sequence).
 * Work profile: a read stream of f32 on the case's threads (OpenBLAS
 * threads for own, OpenMP threads for oneDNN).
 *
 * Verified after every run against the double-precision reference
 * (rnn_ref_row) on batch rows 0, B-1 and one seeded row: every h of every
 * step and the last c within rnn_error_bound (derived in rnn/rnn_ref.c);
 * the largest error over the bound is the metric error.to_bound (limit 1).
 */
#include "scientific.h"

#include "rnn.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef SCI_RNN_HAVE_BLAS
#include <cblas.h>
#endif
#ifdef SCI_RNN_HAVE_DNNL
#include <omp.h>
#endif

#define CHECK_ROWS 3

typedef struct rn_inst {
    bhost_host *h;
    rnn_shape s;
    int dnnl;
    unsigned threads;
    float *wx, *wh, *bias, *x, *h0, *c0, *hs, *cT;
    rnn_own own;
    rnn_dnnl *dn;
    size_t rows[CHECK_ROWS], nrows;
    double *ref_h, *ref_c; /* [nrows][T][H], [nrows][H]: made at first verify */
} rn_inst;

static const char *const rn_impls[] = {"own", "onednn", NULL};

static const bhost_param_desc rn_params[] = {
    BH_PARAM_STR("impl", "own (OpenBLAS sgemm + fused gates) or onednn", "own", rn_impls),
    BH_PARAM_I64("batch", "Batch size B", "1", 1, 4096),
    BH_PARAM_I64("hidden", "Hidden size H", "256", 1, 8192),
    BH_PARAM_I64("input", "Input size I (0 = the hidden size)", "0", 0, 8192),
    BH_PARAM_I64("steps", "Time steps T (1 = one cell step)", "1", 1, 4096),
    BH_PARAM_I64("threads", "Threads (0 = every CPU of the process)", "1", 0, 256),
};

static void BHOST_ABI rn_destroy(void *inst);

/* Reads the integer parameters into d. [instance] */
static bhost_status read_sizes(rn_inst *d)
{
    int64_t b, hd, in, t, th;
    bhost_status st = bh_plugin_i64(d->h, "rnn: ", "batch", 1, 4096, &b);

    if (st == BHOST_OK)
        st = bh_plugin_i64(d->h, "rnn: ", "hidden", 1, 8192, &hd);
    if (st == BHOST_OK)
        st = bh_plugin_i64(d->h, "rnn: ", "input", 0, 8192, &in);
    if (st == BHOST_OK)
        st = bh_plugin_i64(d->h, "rnn: ", "steps", 1, 4096, &t);
    if (st == BHOST_OK)
        st = bh_plugin_i64(d->h, "rnn: ", "threads", 0, 256, &th);
    if (st != BHOST_OK)
        return st;
    d->s.batch = (size_t)b;
    d->s.hidden = (size_t)hd;
    d->s.input = in == 0 ? (size_t)hd : (size_t)in;
    d->s.steps = (size_t)t;
    d->threads = th == 0 ? bh_plugin_cpu_threads() : (unsigned)th;
    return BHOST_OK;
}

/* Reads the parameters; oneDNN cases skipped when it is not built in. */
static bhost_status rn_create(bhost_host *h, rnn_kind kind, void **out)
{
    rn_inst *d = bh_sci_api->alloc(h, sizeof(*d), 0);
    int impl = 0;
    bhost_status st;

    if (d == NULL)
        return bh_plugin_fail(h, BHOST_E_NOMEM, "rnn: out of memory");
    memset(d, 0, sizeof(*d));
    d->h = h;
    d->s.kind = kind;
    st = bh_plugin_choice(h, "rnn: ", "impl", rn_impls, &impl);
    if (st == BHOST_OK)
        st = read_sizes(d);
    d->dnnl = impl == 1;
#ifndef SCI_RNN_HAVE_DNNL
    if (st == BHOST_OK && d->dnnl)
        st = bh_sci_not_built(h, "rnn: impl onednn", "oneDNN (Debian's libdnnl-dev)");
#endif
#ifndef SCI_RNN_HAVE_BLAS
    if (st == BHOST_OK && !d->dnnl)
        st = bh_sci_not_built(h, "rnn: impl own", "OpenBLAS (Debian's libopenblas-dev)");
#endif
    if (st != BHOST_OK) {
        rn_destroy(d);
        return st;
    }
    *out = d;
    return BHOST_OK;
}

/* [instance] */
static bhost_status BHOST_ABI rn_create_lstm(bhost_host *h, const bhost_backend *be, bhost_dev *dev,
                                             void **out)
{
    (void)be;
    (void)dev;
    return rn_create(h, RNN_LSTM, out);
}

/* [instance] */
static bhost_status BHOST_ABI rn_create_gru(bhost_host *h, const bhost_backend *be, bhost_dev *dev,
                                            void **out)
{
    (void)be;
    (void)dev;
    return rn_create(h, RNN_GRU, out);
}

/* Sets the thread count of the implementation's runtime. [instance] */
static void set_threads(const rn_inst *d)
{
#ifdef SCI_RNN_HAVE_BLAS
    openblas_set_num_threads((int)d->threads);
#endif
#ifdef SCI_RNN_HAVE_DNNL
    omp_set_num_threads((int)d->threads);
#endif
}

/* The implementation of d over the weights w: 0, or -1 with the reason in
 * err. Only an implementation built in is ever asked for (create skips
 * the others). [instance] */
static int impl_init(rn_inst *d, const rnn_weights *w, char *err, size_t cap)
{
    (void)w;
#ifdef SCI_RNN_HAVE_DNNL
    if (d->dnnl)
        return (d->dn = rnn_dnnl_create(&d->s, w, err, cap)) != NULL ? 0 : -1;
#endif
#ifdef SCI_RNN_HAVE_BLAS
    if (!d->dnnl && rnn_own_init(&d->own, &d->s) == 0)
        return 0;
#endif
    snprintf(err, cap, "out of memory for the gates");
    return -1;
}

/* One forward pass: 0, or -1 with the reason in err. [instance] */
static int impl_forward(rn_inst *d, const rnn_weights *w, const rnn_io *io, char *err, size_t cap)
{
    (void)w;
#ifdef SCI_RNN_HAVE_DNNL
    if (d->dnnl)
        return rnn_dnnl_forward(d->dn, io, err, cap);
#endif
#ifdef SCI_RNN_HAVE_BLAS
    rnn_own_forward(&d->own, w, io);
#endif
    (void)d, (void)io, (void)err, (void)cap;
    return 0;
}

/* Frees what impl_init made (fine when it made nothing). [instance] */
static void impl_free(rn_inst *d)
{
#ifdef SCI_RNN_HAVE_DNNL
    rnn_dnnl_free(d->dn);
#endif
#ifdef SCI_RNN_HAVE_BLAS
    rnn_own_free(&d->own);
#endif
    (void)d;
}

/* An f32 buffer of n values, NULL when short of memory. [instance] */
static float *floats(rn_inst *d, size_t n)
{
    return bh_sci_api->alloc(d->h, n * sizeof(float), 64);
}

/* The tensors, filled from the run's seed. [instance] */
static bhost_status alloc_tensors(rn_inst *d)
{
    const rnn_shape *s = &d->s;
    size_t gh = rnn_gates(s->kind) * s->hidden, bh = s->batch * s->hidden;

    d->wx = floats(d, s->input * gh);
    d->wh = floats(d, s->hidden * gh);
    d->bias = floats(d, gh);
    d->x = floats(d, s->steps * s->batch * s->input);
    d->h0 = floats(d, bh);
    d->c0 = floats(d, bh);
    d->hs = floats(d, s->steps * bh);
    d->cT = floats(d, bh);
    if (!d->wx || !d->wh || !d->bias || !d->x || !d->h0 || !d->c0 || !d->hs || !d->cT)
        return bh_plugin_fail(d->h, BHOST_E_NOMEM, "rnn: out of memory for the tensors");
    rnn_fill(s, bh_sci_api->seed(d->h), d->wx, d->wh, d->bias, d->x, d->h0,
             s->kind == RNN_LSTM ? d->c0 : NULL);
    return BHOST_OK;
}

/* Tensors and the implementation (first call), the outputs set to NaN so
 * that verify sees a value never written. [instance] */
static bhost_status BHOST_ABI rn_setup(void *inst, bhost_stream *strm)
{
    rn_inst *d = inst;
    bhost_status st;

    (void)strm;
    set_threads(d);
    if (d->wx == NULL) {
        rnn_weights w;
        char err[256] = "";

        if ((st = alloc_tensors(d)) != BHOST_OK)
            return st;
        w = (rnn_weights){d->wx, d->wh, d->bias};
        if (impl_init(d, &w, err, sizeof(err)) != 0)
            return bh_plugin_fail(d->h, BHOST_E_INTERNAL, "rnn: %s", err);
        bh_plugin_metric_info(d->h, "threads", "", (double)d->threads);
    }
    memset(d->hs, 0xFF, d->s.steps * d->s.batch * d->s.hidden * sizeof(float));
    memset(d->cT, 0xFF, d->s.batch * d->s.hidden * sizeof(float));
    return BHOST_OK;
}

/* iterations forward passes. [instance] */
static bhost_status BHOST_ABI rn_run(void *inst, bhost_stream *strm, uint64_t iterations)
{
    rn_inst *d = inst;
    rnn_weights w = {d->wx, d->wh, d->bias};
    rnn_io io = {d->x, d->h0, d->s.kind == RNN_LSTM ? d->c0 : NULL, d->hs, d->cT};
    char err[256];

    (void)strm;
    set_threads(d);
    for (uint64_t i = 0; i < iterations; i++) {
        if (impl_forward(d, &w, &io, err, sizeof(err)) != 0)
            return bh_plugin_fail(d->h, BHOST_E_INTERNAL, "rnn: %s", err);
        bhost_clobber_memory();
    }
    return BHOST_OK;
}

/* The batch rows to check (0, B-1, one seeded) and their reference, made
 * once. [instance] */
static bhost_status make_reference(rn_inst *d)
{
    const rnn_shape *s = &d->s;
    rnn_weights w = {d->wx, d->wh, d->bias};
    rnn_io io = {d->x, d->h0, d->c0, NULL, NULL};
    uint64_t seed = bh_sci_api->seed(d->h) ^ UINT64_C(0x9E3779B97F4A7C15);
    size_t cand[CHECK_ROWS] = {0, s->batch - 1, bh_rng_next(&seed) % s->batch};

    for (size_t i = 0; i < CHECK_ROWS; i++) {
        int dup = 0;

        for (size_t j = 0; j < d->nrows; j++)
            dup |= d->rows[j] == cand[i];
        if (!dup)
            d->rows[d->nrows++] = cand[i];
    }
    d->ref_h = bh_sci_api->alloc(d->h, d->nrows * s->steps * s->hidden * sizeof(double), 64);
    d->ref_c = bh_sci_api->alloc(d->h, d->nrows * s->hidden * sizeof(double), 64);
    if (d->ref_h == NULL || d->ref_c == NULL)
        return bh_plugin_fail(d->h, BHOST_E_NOMEM, "rnn: out of memory for the reference");
    for (size_t r = 0; r < d->nrows; r++)
        if (rnn_ref_row(s, &w, &io, d->rows[r], d->ref_h + r * s->steps * s->hidden,
                        d->ref_c + r * s->hidden) != 0)
            return bh_plugin_fail(d->h, BHOST_E_NOMEM, "rnn: out of memory for the reference");
    return BHOST_OK;
}

/* The largest |out - ref| over the checked rows: every step's h and, for
 * an LSTM, the last c. NaN when an output was never written. [instance] */
static double worst_error(const rn_inst *d)
{
    const rnn_shape *s = &d->s;
    size_t hd = s->hidden;
    double worst = 0.0;

    for (size_t r = 0; r < d->nrows; r++) {
        size_t b = d->rows[r];

        for (size_t t = 0; t < s->steps; t++)
            for (size_t j = 0; j < hd; j++) {
                double e = fabs(d->hs[(t * s->batch + b) * hd + j] -
                                d->ref_h[(r * s->steps + t) * hd + j]);

                worst = e > worst || isnan(e) ? e : worst;
            }
        for (size_t j = 0; s->kind == RNN_LSTM && j < hd; j++) {
            double e = fabs(d->cT[b * hd + j] - d->ref_c[r * hd + j]);

            worst = e > worst || isnan(e) ? e : worst;
        }
    }
    return worst;
}

/* Checks the last run against the reference. [instance] */
static bhost_status BHOST_ABI rn_verify(void *inst)
{
    rn_inst *d = inst;
    double bound = rnn_error_bound(&d->s), worst;
    bhost_status st;

    if (d->hs == NULL)
        return bh_plugin_fail(d->h, BHOST_E_VERIFY, "rnn: verify before setup");
    if (d->ref_h == NULL && (st = make_reference(d)) != BHOST_OK)
        return st;
    worst = worst_error(d);
    if (!(worst <= bound))
        return bh_plugin_fail(d->h, BHOST_E_VERIFY,
                              "rnn: output off the double-precision reference by %.3g, more "
                              "than the bound %.3g",
                              worst, bound);
    bh_plugin_metric_error(d->h, "error.to_bound", "", worst / bound, 1.0);
    return BHOST_OK;
}

/* Frees everything; fine half-built. [instance] */
static void BHOST_ABI rn_destroy(void *inst)
{
    rn_inst *d = inst;
    void *bufs[] = {d->wx, d->wh, d->bias, d->x, d->h0, d->c0, d->hs, d->cT, d->ref_h, d->ref_c};

    impl_free(d);
    for (size_t i = 0; i < sizeof(bufs) / sizeof(bufs[0]); i++)
        bh_sci_api->free(d->h, bufs[i]);
    bh_sci_api->free(d->h, d);
}

/* T (2 B (I+H) G H + e B H). [instance] */
static double BHOST_ABI rn_flops(void *inst)
{
    const rnn_shape *s = &((const rn_inst *)inst)->s;
    double b = (double)s->batch, h = (double)s->hidden, g = (double)rnn_gates(s->kind);

    return (double)s->steps * (2.0 * b * (double)(s->input + s->hidden) * g * h +
                               rnn_elementwise_flops(s->kind) * b * h);
}

/* The compulsory f32 traffic of one pass (file comment). [instance] */
static double BHOST_ABI rn_bytes(void *inst)
{
    const rnn_shape *s = &((const rn_inst *)inst)->s;
    double t = (double)s->steps, b = (double)s->batch, h = (double)s->hidden;
    double gh = (double)rnn_gates(s->kind) * h, i = (double)s->input;
    double states = s->kind == RNN_LSTM ? 3.0 * b * h : b * h;

    return 4.0 * (i * gh + gh + t * h * gh + t * b * i + t * b * h + states);
}

/* T B cell steps. [instance] */
static double BHOST_ABI rn_items(void *inst)
{
    const rnn_shape *s = &((const rn_inst *)inst)->s;

    return (double)(s->steps * s->batch);
}

/* A read stream of f32 over the counted bytes, on the case's threads.
 * [instance] */
static bhost_status BHOST_ABI rn_profile(void *inst, bhost_work_profile *out)
{
    return bh_plugin_profile(out, BHOST_ACCESS_READ, BHOST_COMPUTE_F32,
                             ((const rn_inst *)inst)->threads, rn_bytes(inst));
}

#define RNN_DESC(ident, summ, create_fn)                                                           \
    {                                                                                              \
        .struct_size = sizeof(bhost_bench_desc), .id = (ident), .summary = (summ),                 \
        .params = rn_params, .param_count = BH_PLUGIN_COUNT(rn_params), .create = (create_fn),     \
        .setup = rn_setup, .run = rn_run, .verify = rn_verify, .destroy = rn_destroy,              \
        .flops_per_iter = rn_flops, .bytes_per_iter = rn_bytes, .items_per_iter = rn_items,        \
        .work_profile = rn_profile,                                                                \
    }

const bhost_bench_desc bh_sci_rnn_lstm =
    RNN_DESC("rnn.lstm", "LSTM forward, f32, T steps of one layer: own sgemm cell or oneDNN",
             rn_create_lstm);
const bhost_bench_desc bh_sci_rnn_gru = RNN_DESC(
    "rnn.gru", "GRU forward, f32, T steps of one layer: own sgemm cell or oneDNN", rn_create_gru);
