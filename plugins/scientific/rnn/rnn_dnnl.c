// SPDX-License-Identifier: MIT
/*
 * rnn_dnnl.c -- LSTM and GRU by oneDNN's vanilla primitives (rnn.h), C API
 * of oneDNN 2.x (dnnl_lstm_forward_desc_init, dnnl_gru_forward_desc_init),
 * forward inference, one layer, left-to-right. The user tensors are in
 * the plain layouts of rnn.h (tnc, ldnc, ldigo, ldgo); the weights are
 * reordered once, at create, into the layout the primitive asks for
 * (format any), as an application would, so each forward pass times the
 * primitive alone. dst_iter (the last h, also the last step of hs) goes to
 * a buffer of the primitive's own. Threads: oneDNN's OpenMP runtime, omp_set_num_threads
 * by the caller.
 */
#include "rnn.h"

#include <oneapi/dnnl/dnnl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { M_SRC, M_H0, M_C0, M_WX, M_WH, M_BIAS, M_DST, M_HT, M_CT, M_COUNT };

struct rnn_dnnl {
    rnn_shape s;
    dnnl_engine_t eng;
    dnnl_stream_t strm;
    dnnl_primitive_t prim;
    dnnl_memory_t mem[M_COUNT];
};

/* The user's memory descriptors, in the plain layouts. */
static void user_mds(const rnn_shape *s, dnnl_memory_desc_t *md)
{
    dnnl_dims_t src = {(dnnl_dim_t)s->steps, (dnnl_dim_t)s->batch, (dnnl_dim_t)s->input};
    dnnl_dims_t st = {1, 1, (dnnl_dim_t)s->batch, (dnnl_dim_t)s->hidden};
    dnnl_dims_t wx = {1, 1, (dnnl_dim_t)s->input, (dnnl_dim_t)rnn_gates(s->kind),
                      (dnnl_dim_t)s->hidden};
    dnnl_dims_t wh = {1, 1, (dnnl_dim_t)s->hidden, (dnnl_dim_t)rnn_gates(s->kind),
                      (dnnl_dim_t)s->hidden};
    dnnl_dims_t bias = {1, 1, (dnnl_dim_t)rnn_gates(s->kind), (dnnl_dim_t)s->hidden};
    dnnl_dims_t dst = {(dnnl_dim_t)s->steps, (dnnl_dim_t)s->batch, (dnnl_dim_t)s->hidden};

    dnnl_memory_desc_init_by_tag(&md[M_SRC], 3, src, dnnl_f32, dnnl_tnc);
    dnnl_memory_desc_init_by_tag(&md[M_H0], 4, st, dnnl_f32, dnnl_ldnc);
    dnnl_memory_desc_init_by_tag(&md[M_C0], 4, st, dnnl_f32, dnnl_ldnc);
    dnnl_memory_desc_init_by_tag(&md[M_WX], 5, wx, dnnl_f32, dnnl_ldigo);
    dnnl_memory_desc_init_by_tag(&md[M_WH], 5, wh, dnnl_f32, dnnl_ldigo);
    dnnl_memory_desc_init_by_tag(&md[M_BIAS], 4, bias, dnnl_f32, dnnl_ldgo);
    dnnl_memory_desc_init_by_tag(&md[M_DST], 3, dst, dnnl_f32, dnnl_tnc);
    md[M_HT] = md[M_H0];
    md[M_CT] = md[M_C0];
}

/* The primitive descriptor for s, weights in format any. */
static dnnl_status_t make_pd(const rnn_shape *s, dnnl_engine_t eng, const dnnl_memory_desc_t *md,
                             dnnl_primitive_desc_t *pd)
{
    dnnl_memory_desc_t wx_any = md[M_WX], wh_any = md[M_WH];
    dnnl_rnn_desc_t rd;
    dnnl_status_t st;

    dnnl_memory_desc_init_by_tag(&wx_any, 5, md[M_WX].dims, dnnl_f32, dnnl_format_tag_any);
    dnnl_memory_desc_init_by_tag(&wh_any, 5, md[M_WH].dims, dnnl_f32, dnnl_format_tag_any);
    if (s->kind == RNN_LSTM)
        st = dnnl_lstm_forward_desc_init(
            &rd, dnnl_forward_inference, dnnl_unidirectional_left2right, &md[M_SRC], &md[M_H0],
            &md[M_C0], &wx_any, &wh_any, &md[M_BIAS], &md[M_DST], &md[M_HT], &md[M_CT], 0);
    else
        st = dnnl_gru_forward_desc_init(&rd, dnnl_forward_inference, dnnl_unidirectional_left2right,
                                        &md[M_SRC], &md[M_H0], &wx_any, &wh_any, &md[M_BIAS],
                                        &md[M_DST], &md[M_HT], 0);
    if (st != dnnl_success)
        return st;
    return dnnl_primitive_desc_create(pd, &rd, NULL, eng, NULL);
}

/* A memory of layout want holding user's data (reordered when the
 * layouts differ) into *out. */
static dnnl_status_t weights_mem(rnn_dnnl *d, const dnnl_memory_desc_t *user, const float *data,
                                 const dnnl_memory_desc_t *want, dnnl_memory_t *out)
{
    dnnl_memory_t src = NULL;
    dnnl_primitive_desc_t rpd = NULL;
    dnnl_primitive_t rp = NULL;
    dnnl_status_t st;

    if (dnnl_memory_desc_equal(user, want))
        return dnnl_memory_create(out, user, d->eng, (void *)data);
    st = dnnl_memory_create(out, want, d->eng, DNNL_MEMORY_ALLOCATE);
    if (st == dnnl_success)
        st = dnnl_memory_create(&src, user, d->eng, (void *)data);
    if (st == dnnl_success)
        st = dnnl_reorder_primitive_desc_create(&rpd, user, d->eng, want, d->eng, NULL);
    if (st == dnnl_success)
        st = dnnl_primitive_create(&rp, rpd);
    if (st == dnnl_success) {
        dnnl_exec_arg_t args[2] = {{DNNL_ARG_FROM, src}, {DNNL_ARG_TO, *out}};

        st = dnnl_primitive_execute(rp, d->strm, 2, args);
        if (st == dnnl_success)
            st = dnnl_stream_wait(d->strm);
    }
    dnnl_primitive_destroy(rp);
    dnnl_primitive_desc_destroy(rpd);
    dnnl_memory_destroy(src);
    return st;
}

/* The primitive and the memories of d (weights reordered). */
static dnnl_status_t build(rnn_dnnl *d, const rnn_weights *w)
{
    dnnl_memory_desc_t md[M_COUNT];
    dnnl_primitive_desc_t pd = NULL;
    dnnl_status_t st;

    user_mds(&d->s, md);
    st = make_pd(&d->s, d->eng, md, &pd);
    if (st == dnnl_success)
        st = dnnl_primitive_create(&d->prim, pd);
    if (st == dnnl_success)
        st = weights_mem(d, &md[M_WX], w->wx,
                         dnnl_primitive_desc_query_md(pd, dnnl_query_weights_md, 0), &d->mem[M_WX]);
    if (st == dnnl_success)
        st = weights_mem(d, &md[M_WH], w->wh,
                         dnnl_primitive_desc_query_md(pd, dnnl_query_weights_md, 1), &d->mem[M_WH]);
    if (st == dnnl_success)
        st = dnnl_memory_create(&d->mem[M_BIAS], &md[M_BIAS], d->eng, (void *)w->bias);
    for (int i = 0; i < M_COUNT && st == dnnl_success; i++)
        if (d->mem[i] == NULL && (d->s.kind == RNN_LSTM || (i != M_C0 && i != M_CT)))
            st = dnnl_memory_create(&d->mem[i], &md[i], d->eng,
                                    i == M_HT ? DNNL_MEMORY_ALLOCATE : DNNL_MEMORY_NONE);
    dnnl_primitive_desc_destroy(pd);
    return st;
}

rnn_dnnl *rnn_dnnl_create(const rnn_shape *s, const rnn_weights *w, char *err, size_t cap)
{
    rnn_dnnl *d = calloc(1, sizeof(*d));
    dnnl_status_t st;

    if (d == NULL) {
        snprintf(err, cap, "out of memory");
        return NULL;
    }
    d->s = *s;
    st = dnnl_engine_create(&d->eng, dnnl_cpu, 0);
    if (st == dnnl_success)
        st = dnnl_stream_create(&d->strm, d->eng, dnnl_stream_default_flags);
    if (st == dnnl_success)
        st = build(d, w);
    if (st != dnnl_success) {
        snprintf(err, cap, "oneDNN %s primitive: status %d", s->kind == RNN_LSTM ? "LSTM" : "GRU",
                 (int)st);
        rnn_dnnl_free(d);
        return NULL;
    }
    return d;
}

int rnn_dnnl_forward(rnn_dnnl *d, const rnn_io *io, char *err, size_t cap)
{
    static const int arg_of[M_COUNT] = {
        DNNL_ARG_SRC_LAYER,     DNNL_ARG_SRC_ITER,     DNNL_ARG_SRC_ITER_C,
        DNNL_ARG_WEIGHTS_LAYER, DNNL_ARG_WEIGHTS_ITER, DNNL_ARG_BIAS,
        DNNL_ARG_DST_LAYER,     DNNL_ARG_DST_ITER,     DNNL_ARG_DST_ITER_C};
    void *ptr[M_COUNT] = {(void *)io->x, (void *)io->h0, (void *)io->c0, NULL,  NULL,
                          NULL,          io->hs,         NULL,           io->cT};
    dnnl_exec_arg_t args[M_COUNT];
    int n = 0;
    dnnl_status_t st = dnnl_success;

    for (int i = 0; i < M_COUNT && st == dnnl_success; i++) {
        if (d->mem[i] == NULL)
            continue;
        if (ptr[i] != NULL)
            st = dnnl_memory_set_data_handle(d->mem[i], ptr[i]);
        args[n].arg = arg_of[i];
        args[n++].memory = d->mem[i];
    }
    if (st == dnnl_success)
        st = dnnl_primitive_execute(d->prim, d->strm, n, args);
    if (st == dnnl_success)
        st = dnnl_stream_wait(d->strm);
    if (st != dnnl_success) {
        snprintf(err, cap, "oneDNN forward pass: status %d", (int)st);
        return -1;
    }
    return 0;
}

void rnn_dnnl_free(rnn_dnnl *d)
{
    if (d == NULL)
        return;
    for (int i = 0; i < M_COUNT; i++)
        dnnl_memory_destroy(d->mem[i]);
    dnnl_primitive_destroy(d->prim);
    dnnl_stream_destroy(d->strm);
    dnnl_engine_destroy(d->eng);
    free(d);
}
