// SPDX-License-Identifier: MIT
/*
 * cv_dnnl.c -- oneDNN primitives for the layers of cv_layer.h (see
 * cv_dnnl.h): one engine and in-order stream per instance, the primitive,
 * and the reorders between the caller's layout and the one oneDNN chose.
 */
#include "cv_dnnl.h"

#include <oneapi/dnnl/dnnl.h>
#include <oneapi/dnnl/dnnl_debug.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct cv_dnnl {
    dnnl_engine_t eng;
    dnnl_stream_t strm;
    dnnl_primitive_t prim, src_re, dst_re;
    dnnl_memory_t mem[10];
    int nmem;
    dnnl_exec_arg_t args[8];
    int nargs;
    dnnl_exec_arg_t src_re_args[2], dst_re_args[2];
    char impl[64], layout[40];
    int block;
};

#define CK(call, what)                                                                             \
    do {                                                                                           \
        dnnl_status_t st_ = (call);                                                                \
        if (st_ != dnnl_success) {                                                                 \
            snprintf(err, errlen, "oneDNN: %s: %s", what, dnnl_status2str(st_));                   \
            return -1;                                                                             \
        }                                                                                          \
    } while (0)

void cv_dnnl_set_threads(int threads)
{
    omp_set_num_threads(threads);
}

/* A memory object of md over handle (DNNL_MEMORY_ALLOCATE: its own),
 * kept for destroy. */
static dnnl_memory_t new_mem(cv_dnnl *d, const dnnl_memory_desc_t *md, void *handle)
{
    dnnl_memory_t m = NULL;

    if (d->nmem == (int)(sizeof(d->mem) / sizeof(d->mem[0])) ||
        dnnl_memory_create(&m, md, d->eng, handle) != dnnl_success)
        return NULL;
    d->mem[d->nmem++] = m;
    return m;
}

/* The layout of md in oneDNN's notation: dims by falling stride, blocked
 * ones in upper case, then the inner blocks. */
static void layout_str(const dnnl_memory_desc_t *md, char *out, size_t len)
{
    const dnnl_blocking_desc_t *b = &md->format_desc.blocking;
    int order[DNNL_MAX_NDIMS], n = md->ndims, at = 0;

    for (int i = 0; i < n; i++)
        order[i] = i;
    for (int i = 1; i < n; i++) /* insertion sort, stable, by stride down */
        for (int j = i; j > 0 && b->strides[order[j]] > b->strides[order[j - 1]]; j--) {
            int t = order[j];

            order[j] = order[j - 1];
            order[j - 1] = t;
        }
    for (int i = 0; i < n && at + 1 < (int)len; i++) {
        int blocked = 0;

        for (int k = 0; k < b->inner_nblks; k++)
            blocked |= b->inner_idxs[k] == order[i];
        out[at++] = (char)((blocked ? 'A' : 'a') + order[i]);
    }
    out[at] = '\0';
    for (int k = 0; k < b->inner_nblks; k++)
        snprintf(out + strlen(out), len - strlen(out), "%lld%c", (long long)b->inner_blks[k],
                 (char)('a' + b->inner_idxs[k]));
}

/* A memory of the chosen md and, when it differs from user's, a reorder
 * from (to_user 0) or to (to_user 1) the user's memory. The chosen
 * memory, or NULL with err set. */
static dnnl_memory_t chosen_mem(cv_dnnl *d, dnnl_memory_t user, const dnnl_memory_desc_t *want,
                                int to_user, dnnl_primitive_t *re, dnnl_exec_arg_t *re_args,
                                char *err, size_t errlen)
{
    const dnnl_memory_desc_t *have;
    dnnl_primitive_desc_t rpd;
    dnnl_memory_t m;
    dnnl_status_t st;

    dnnl_memory_get_memory_desc(user, &have);
    if (dnnl_memory_desc_equal(have, want))
        return user;
    m = new_mem(d, want, DNNL_MEMORY_ALLOCATE);
    st = m ? dnnl_reorder_primitive_desc_create(&rpd, to_user ? want : have, d->eng,
                                                to_user ? have : want, d->eng, NULL)
           : dnnl_out_of_memory;
    if (st == dnnl_success) {
        st = dnnl_primitive_create(re, rpd);
        dnnl_primitive_desc_destroy(rpd);
    }
    if (st != dnnl_success) {
        snprintf(err, errlen, "oneDNN: reorder: %s", dnnl_status2str(st));
        return NULL;
    }
    re_args[0] = (dnnl_exec_arg_t){DNNL_ARG_FROM, to_user ? m : user};
    re_args[1] = (dnnl_exec_arg_t){DNNL_ARG_TO, to_user ? user : m};
    return m;
}

static void add_arg(cv_dnnl *d, int arg, dnnl_memory_t m)
{
    d->args[d->nargs++] = (dnnl_exec_arg_t){arg, m};
}

/* The primitive of pd, its implementation name, source layout and block
 * of channels. */
static int finish(cv_dnnl *d, dnnl_primitive_desc_t pd, char *err, size_t errlen)
{
    const char *impl = NULL;
    const dnnl_memory_desc_t *src = dnnl_primitive_desc_query_md(pd, dnnl_query_src_md, 0);
    dnnl_status_t st;

    dnnl_primitive_desc_query(pd, dnnl_query_impl_info_str, 0, &impl);
    snprintf(d->impl, sizeof(d->impl), "%s", impl ? impl : "?");
    layout_str(src, d->layout, sizeof(d->layout));
    d->block = 1;
    for (int k = 0; k < src->format_desc.blocking.inner_nblks; k++)
        if (src->format_desc.blocking.inner_idxs[k] == 1)
            d->block *= (int)src->format_desc.blocking.inner_blks[k];
    st = dnnl_primitive_create(&d->prim, pd);
    dnnl_primitive_desc_destroy(pd);
    CK(st, "primitive");
    return 0;
}

/* Dims of sh's input and output; tag of layout l. */
static void act_dims(const cv_shape *sh, dnnl_dims_t in, dnnl_dims_t out)
{
    in[0] = sh->n, in[1] = sh->c, in[2] = sh->h, in[3] = sh->w;
    out[0] = sh->n, out[1] = sh->k, out[2] = sh->p, out[3] = sh->q;
}

static dnnl_format_tag_t act_tag(cv_layout l)
{
    return l == CV_NCHW ? dnnl_nchw : dnnl_nhwc;
}

/* The user's memory descriptors of the convolution's source, weights
 * (oihw / ohwi, with a leading group dimension when grouped) and
 * destination, and its primitive descriptor over layouts "any". */
static int conv_descs(cv_dnnl *d, const cv_shape *sh, cv_layout l, dnnl_memory_desc_t *ud,
                      dnnl_primitive_desc_t *pd, char *err, size_t errlen)
{
    dnnl_dims_t di, dd, dw = {sh->groups, sh->k / sh->groups, sh->c / sh->groups, sh->r, sh->s};
    dnnl_dims_t str = {sh->stride, sh->stride}, pad = {sh->pad, sh->pad};
    dnnl_memory_desc_t any[3];
    dnnl_convolution_desc_t cd;
    int g = sh->groups > 1;
    dnnl_format_tag_t wtag =
        l == CV_NCHW ? (g ? dnnl_goihw : dnnl_oihw) : (g ? dnnl_gohwi : dnnl_ohwi);

    act_dims(sh, di, dd);
    CK(dnnl_memory_desc_init_by_tag(&ud[0], 4, di, dnnl_f32, act_tag(l)), "source");
    CK(dnnl_memory_desc_init_by_tag(&ud[1], g ? 5 : 4, g ? dw : dw + 1, dnnl_f32, wtag), "weights");
    CK(dnnl_memory_desc_init_by_tag(&ud[2], 4, dd, dnnl_f32, act_tag(l)), "destination");
    CK(dnnl_memory_desc_init_by_tag(&any[0], 4, di, dnnl_f32, dnnl_format_tag_any), "source");
    CK(dnnl_memory_desc_init_by_tag(&any[1], g ? 5 : 4, g ? dw : dw + 1, dnnl_f32,
                                    dnnl_format_tag_any),
       "weights");
    CK(dnnl_memory_desc_init_by_tag(&any[2], 4, dd, dnnl_f32, dnnl_format_tag_any), "dest");
    CK(dnnl_convolution_forward_desc_init(&cd, dnnl_forward_inference, dnnl_convolution_direct,
                                          &any[0], &any[1], NULL, &any[2], str, pad, pad),
       "convolution descriptor");
    CK(dnnl_primitive_desc_create(pd, &cd, NULL, d->eng, NULL), "convolution");
    return 0;
}

/* The weights, reordered once into the chosen layout when it differs. */
static dnnl_memory_t conv_weights(cv_dnnl *d, dnnl_memory_t user, const dnnl_memory_desc_t *want,
                                  char *err, size_t errlen)
{
    dnnl_primitive_t wre = NULL;
    dnnl_exec_arg_t wargs[2];
    dnnl_memory_t m = chosen_mem(d, user, want, 0, &wre, wargs, err, errlen);
    dnnl_status_t st;

    if (m == NULL || wre == NULL)
        return m;
    st = dnnl_primitive_execute(wre, d->strm, 2, wargs);
    if (st == dnnl_success)
        st = dnnl_stream_wait(d->strm);
    dnnl_primitive_destroy(wre);
    if (st != dnnl_success) {
        snprintf(err, errlen, "oneDNN: weights reorder: %s", dnnl_status2str(st));
        return NULL;
    }
    return m;
}

/* The convolution: activations reordered on each run, weights once. */
static int conv_create(cv_dnnl *d, const cv_shape *sh, cv_layout l, const cv_dnnl_bufs *b,
                       char *err, size_t errlen)
{
    dnnl_memory_desc_t ud[3];
    dnnl_primitive_desc_t pd;
    dnnl_memory_t mi, mo, mw;

    if (conv_descs(d, sh, l, ud, &pd, err, errlen))
        return -1;
    mi = new_mem(d, &ud[0], b->in);
    mw = new_mem(d, &ud[1], b->w);
    mo = new_mem(d, &ud[2], b->out);
    if (!mi || !mw || !mo)
        snprintf(err, errlen, "oneDNN: out of memory");
    if (mi)
        mi = chosen_mem(d, mi, dnnl_primitive_desc_query_md(pd, dnnl_query_src_md, 0), 0,
                        &d->src_re, d->src_re_args, err, errlen);
    if (mi && mo)
        mo = chosen_mem(d, mo, dnnl_primitive_desc_query_md(pd, dnnl_query_dst_md, 0), 1,
                        &d->dst_re, d->dst_re_args, err, errlen);
    if (mi && mo && mw)
        mw = conv_weights(d, mw, dnnl_primitive_desc_query_md(pd, dnnl_query_weights_md, 0), err,
                          errlen);
    if (!mi || !mo || !mw) {
        dnnl_primitive_desc_destroy(pd);
        return -1;
    }
    add_arg(d, DNNL_ARG_SRC, mi);
    add_arg(d, DNNL_ARG_WEIGHTS, mw);
    add_arg(d, DNNL_ARG_DST, mo);
    return finish(d, pd, err, errlen);
}

/* Max or average pooling on the caller's layout. */
static int pool_create(cv_dnnl *d, cv_dnnl_op op, const cv_shape *sh, cv_layout l,
                       const cv_dnnl_bufs *b, char *err, size_t errlen)
{
    dnnl_dims_t di, dd, str = {sh->stride, sh->stride}, ker = {sh->r, sh->s};
    dnnl_dims_t pad = {sh->pad, sh->pad};
    dnnl_memory_desc_t ui, uo;
    dnnl_pooling_desc_t pdsc;
    dnnl_primitive_desc_t pd;
    dnnl_memory_t mi, mo;

    act_dims(sh, di, dd);
    CK(dnnl_memory_desc_init_by_tag(&ui, 4, di, dnnl_f32, act_tag(l)), "source");
    CK(dnnl_memory_desc_init_by_tag(&uo, 4, dd, dnnl_f32, act_tag(l)), "destination");
    CK(dnnl_pooling_forward_desc_init(&pdsc, dnnl_forward_inference,
                                      op == CV_DNNL_POOL_MAX ? dnnl_pooling_max
                                                             : dnnl_pooling_avg_exclude_padding,
                                      &ui, &uo, str, ker, pad, pad),
       "pooling descriptor");
    CK(dnnl_primitive_desc_create(&pd, &pdsc, NULL, d->eng, NULL), "pooling");
    if (!(mi = new_mem(d, &ui, b->in)) || !(mo = new_mem(d, &uo, b->out))) {
        dnnl_primitive_desc_destroy(pd);
        CK(dnnl_out_of_memory, "memory");
    }
    add_arg(d, DNNL_ARG_SRC, mi);
    add_arg(d, DNNL_ARG_DST, mo);
    return finish(d, pd, err, errlen);
}

/* Batch normalisation, inference (global statistics) or training. */
static int bn_create(cv_dnnl *d, cv_dnnl_op op, const cv_shape *sh, cv_layout l, float eps,
                     const cv_dnnl_bufs *b, char *err, size_t errlen)
{
    dnnl_dims_t di, dd, dc = {sh->c};
    dnnl_memory_desc_t ud, uc;
    dnnl_batch_normalization_desc_t bd;
    dnnl_primitive_desc_t pd;
    float *per_c[4] = {b->mean, b->var, b->gamma, b->beta};
    const int arg[4] = {DNNL_ARG_MEAN, DNNL_ARG_VARIANCE, DNNL_ARG_SCALE, DNNL_ARG_SHIFT};
    int train = op == CV_DNNL_BN_TRAIN;
    dnnl_memory_t m;

    act_dims(sh, di, dd);
    CK(dnnl_memory_desc_init_by_tag(&ud, 4, di, dnnl_f32, act_tag(l)), "data");
    CK(dnnl_memory_desc_init_by_tag(&uc, 1, dc, dnnl_f32, dnnl_a), "channels");
    CK(dnnl_batch_normalization_forward_desc_init(
           &bd, train ? dnnl_forward_training : dnnl_forward_inference, &ud, eps,
           dnnl_use_scale | dnnl_use_shift | (train ? 0u : (unsigned)dnnl_use_global_stats)),
       "batch normalization descriptor");
    CK(dnnl_primitive_desc_create(&pd, &bd, NULL, d->eng, NULL), "batch normalization");
    for (int i = 0; i < 6; i++) {
        m = new_mem(d, i < 4 ? &uc : &ud, i < 4 ? per_c[i] : i == 4 ? b->in : b->out);
        if (!m) {
            dnnl_primitive_desc_destroy(pd);
            CK(dnnl_out_of_memory, "memory");
        }
        add_arg(d, i < 4 ? arg[i] : i == 4 ? DNNL_ARG_SRC : DNNL_ARG_DST, m);
    }
    return finish(d, pd, err, errlen);
}

int cv_dnnl_create(cv_dnnl **out, cv_dnnl_op op, const cv_shape *sh, cv_layout l, float eps,
                   const cv_dnnl_bufs *b, char *err, size_t errlen)
{
    cv_dnnl *d = calloc(1, sizeof(*d));
    int rc;

    *out = d;
    if (d == NULL) {
        snprintf(err, errlen, "oneDNN: out of memory");
        return -1;
    }
    CK(dnnl_engine_create(&d->eng, dnnl_cpu, 0), "CPU engine");
    CK(dnnl_stream_create(&d->strm, d->eng, dnnl_stream_default_flags), "stream");
    if (op == CV_DNNL_CONV)
        rc = conv_create(d, sh, l, b, err, errlen);
    else if (op == CV_DNNL_POOL_MAX || op == CV_DNNL_POOL_AVG)
        rc = pool_create(d, op, sh, l, b, err, errlen);
    else
        rc = bn_create(d, op, sh, l, eps, b, err, errlen);
    return rc;
}

int cv_dnnl_run(cv_dnnl *d, char *err, size_t errlen)
{
    if (d->src_re)
        CK(dnnl_primitive_execute(d->src_re, d->strm, 2, d->src_re_args), "source reorder");
    CK(dnnl_primitive_execute(d->prim, d->strm, d->nargs, d->args), "execute");
    if (d->dst_re)
        CK(dnnl_primitive_execute(d->dst_re, d->strm, 2, d->dst_re_args), "destination reorder");
    CK(dnnl_stream_wait(d->strm), "wait");
    return 0;
}

const char *cv_dnnl_impl(const cv_dnnl *d)
{
    return d->impl;
}

const char *cv_dnnl_src_layout(const cv_dnnl *d)
{
    return d->layout;
}

int cv_dnnl_src_block(const cv_dnnl *d)
{
    return d->block;
}

int cv_dnnl_reorders(const cv_dnnl *d)
{
    return (d->src_re != NULL) + (d->dst_re != NULL);
}

void cv_dnnl_destroy(cv_dnnl *d)
{
    if (d == NULL)
        return;
    if (d->prim)
        dnnl_primitive_destroy(d->prim);
    if (d->src_re)
        dnnl_primitive_destroy(d->src_re);
    if (d->dst_re)
        dnnl_primitive_destroy(d->dst_re);
    for (int i = 0; i < d->nmem; i++)
        dnnl_memory_destroy(d->mem[i]);
    if (d->strm)
        dnnl_stream_destroy(d->strm);
    if (d->eng)
        dnnl_engine_destroy(d->eng);
    free(d);
}
