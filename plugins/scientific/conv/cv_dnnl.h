// SPDX-License-Identifier: MIT
/*
 * cv_dnnl.h -- convolution, pooling and batch normalisation by oneDNN
 * (Debian's libdnnl 2.6, its C API), over the caller's buffers in NCHW or
 * NHWC. The convolution lets oneDNN choose its layouts (format_tag any):
 * the weights are reordered once at creation, the activations on every
 * run (to the chosen source layout and back from the chosen destination
 * layout), which a caller holding NCHW or NHWC tensors pays. Pooling and
 * batch normalisation run on the caller's layout. oneDNN 2.6 has no
 * group normalisation.
 */
#ifndef CV_DNNL_H
#define CV_DNNL_H

#include "cv_layer.h"

typedef enum {
    CV_DNNL_CONV,
    CV_DNNL_POOL_MAX,
    CV_DNNL_POOL_AVG, /* padding excluded */
    CV_DNNL_BN_INFER, /* given mean, var; scale and shift are gamma, beta */
    CV_DNNL_BN_TRAIN, /* the batch's mean and var written to mean, var */
} cv_dnnl_op;

/* The caller's buffers (NULL where the op has none). */
typedef struct cv_dnnl_bufs {
    float *in, *w, *out;
    float *mean, *var, *gamma, *beta;
} cv_dnnl_bufs;

typedef struct cv_dnnl cv_dnnl;

/* Creates the primitive of op over sh in layout l (pooling: r, s, stride,
 * pad as the window; sh->k == sh->c). 0, or -1 with a one-line reason in
 * err. */
int cv_dnnl_create(cv_dnnl **out, cv_dnnl_op op, const cv_shape *sh, cv_layout l, float eps,
                   const cv_dnnl_bufs *b, char *err, size_t errlen);

/* One forward pass, activation reorders included, waited for. 0 or -1
 * with the reason in err. */
int cv_dnnl_run(cv_dnnl *d, char *err, size_t errlen);

/* The implementation oneDNN chose (e.g. "jit:avx2"). */
const char *cv_dnnl_impl(const cv_dnnl *d);

/* The layout of the source the primitive reads, in oneDNN's notation
 * ("acdb" is NHWC, "aBcd8b" NCHW with channels blocked by 8), and the
 * activation reorders each run makes (0 to 2). */
const char *cv_dnnl_src_layout(const cv_dnnl *d);
int cv_dnnl_reorders(const cv_dnnl *d);

/* The block of channels of that layout: 8 for aBcd8b, 1 when plain. */
int cv_dnnl_src_block(const cv_dnnl *d);

/* Frees everything (NULL is fine). */
void cv_dnnl_destroy(cv_dnnl *d);

/* Threads oneDNN's OpenMP runtime uses for calls from this thread. */
void cv_dnnl_set_threads(int threads);

#endif /* CV_DNNL_H */
