// SPDX-License-Identifier: MIT
/*
 * cuda_dnn.c -- conv2d of the CUDA backend's scientific kernel extension
 * (bhost/sci_kernels.h) by cuDNN (built only with cudnn.h,
 * BH_CU_HAVE_CUDNN): libcudnn.so.9 is dlopen'ed on the first
 * get_kernel("bhost.kernel.conv2d/1"); each call describes the NCHW
 * tensors, the KCRS filter and the convolution (groups, cross-
 * correlation, CUDNN_FMA_MATH: true f32, no TF32), takes the
 * heuristics' first algorithm (cudnnGetConvolutionForwardAlgorithm_v7)
 * and runs cudnnConvolutionForward on the call's stream, with the
 * device's shared workspace (cuda_sci.c).
 */
#include "cuda_internal.h"

#include <bhost/backend_helper.h>

#ifdef BH_CU_HAVE_CUDNN
#include <cudnn.h>

#include <stdio.h>
#include <string.h>

#define DNN_FNS(X)                                                                                 \
    X(cudnnCreate)                                                                                 \
    X(cudnnDestroy)                                                                                \
    X(cudnnSetStream)                                                                              \
    X(cudnnCreateTensorDescriptor)                                                                 \
    X(cudnnDestroyTensorDescriptor)                                                                \
    X(cudnnSetTensor4dDescriptor)                                                                  \
    X(cudnnCreateFilterDescriptor)                                                                 \
    X(cudnnDestroyFilterDescriptor)                                                                \
    X(cudnnSetFilter4dDescriptor)                                                                  \
    X(cudnnCreateConvolutionDescriptor)                                                            \
    X(cudnnDestroyConvolutionDescriptor)                                                           \
    X(cudnnSetConvolution2dDescriptor)                                                             \
    X(cudnnSetConvolutionGroupCount)                                                               \
    X(cudnnSetConvolutionMathType)                                                                 \
    X(cudnnGetConvolutionForwardAlgorithm_v7)                                                      \
    X(cudnnGetConvolutionForwardWorkspaceSize)                                                     \
    X(cudnnConvolutionForward)

#define DNN_DECLARE(name) __typeof__(&name) name;
#define DNN_RESOLVE(name) ok = ok && bh_be_sym(lib, #name, &D.name);
static struct {
    DNN_FNS(DNN_DECLARE)
} D;

static struct {
    int tried;
    int ok;
    char why[200];
} L;

const char *bh_cu_dnn_load(void)
{
    static const char *const names[] = {"libcudnn.so.9", "libcudnn.so"};
    const char *err = NULL;
    char name[64];
    void *lib;
    int ok = 1;

    if (L.tried)
        return L.ok ? NULL : L.why;
    L.tried = 1;
    lib = bh_be_dlopen("BHOST_CUDNN_LIB", names, 2, name, sizeof(name), &err);
    if (lib == NULL) {
        snprintf(L.why, sizeof(L.why), "libcudnn.so.9 not loadable: %s", err ? err : "?");
        return L.why;
    }
    DNN_FNS(DNN_RESOLVE)
    if (!ok) {
        snprintf(L.why, sizeof(L.why), "%s lacks a needed function", name);
        return L.why;
    }
    L.ok = 1;
    return NULL;
}

void bh_cu_dnn_release(void *handle)
{
    if (handle != NULL && L.ok)
        D.cudnnDestroy(handle);
}

/* The descriptors of one convolution. */
typedef struct dnn_call {
    cudnnTensorDescriptor_t x, y;
    cudnnFilterDescriptor_t w;
    cudnnConvolutionDescriptor_t c;
} dnn_call;

/* Creates and sets the descriptors of a (output p x q); 0 on success. */
static int describe(const bhost_conv2d_args *a, uint64_t p, uint64_t q, dnn_call *d)
{
    int ok;

    memset(d, 0, sizeof(*d));
    ok = D.cudnnCreateTensorDescriptor(&d->x) == CUDNN_STATUS_SUCCESS &&
         D.cudnnCreateTensorDescriptor(&d->y) == CUDNN_STATUS_SUCCESS &&
         D.cudnnCreateFilterDescriptor(&d->w) == CUDNN_STATUS_SUCCESS &&
         D.cudnnCreateConvolutionDescriptor(&d->c) == CUDNN_STATUS_SUCCESS;
    ok =
        ok && D.cudnnSetTensor4dDescriptor(d->x, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, (int)a->n,
                                           (int)a->c, (int)a->h, (int)a->w) == CUDNN_STATUS_SUCCESS;
    ok = ok && D.cudnnSetTensor4dDescriptor(d->y, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, (int)a->n,
                                            (int)a->k, (int)p, (int)q) == CUDNN_STATUS_SUCCESS;
    ok = ok && D.cudnnSetFilter4dDescriptor(d->w, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, (int)a->k,
                                            (int)(a->c / a->groups), (int)a->r,
                                            (int)a->s) == CUDNN_STATUS_SUCCESS;
    ok = ok && D.cudnnSetConvolution2dDescriptor(
                   d->c, (int)a->pad_h, (int)a->pad_w, (int)a->stride_h, (int)a->stride_w, 1, 1,
                   CUDNN_CROSS_CORRELATION, CUDNN_DATA_FLOAT) == CUDNN_STATUS_SUCCESS;
    ok = ok && D.cudnnSetConvolutionGroupCount(d->c, (int)a->groups) == CUDNN_STATUS_SUCCESS;
    ok = ok && D.cudnnSetConvolutionMathType(d->c, CUDNN_FMA_MATH) == CUDNN_STATUS_SUCCESS;
    return ok ? 0 : -1;
}

static void undescribe(dnn_call *d)
{
    if (d->x != NULL)
        D.cudnnDestroyTensorDescriptor(d->x);
    if (d->y != NULL)
        D.cudnnDestroyTensorDescriptor(d->y);
    if (d->w != NULL)
        D.cudnnDestroyFilterDescriptor(d->w);
    if (d->c != NULL)
        D.cudnnDestroyConvolutionDescriptor(d->c);
}

/* The forward convolution of a with described d on handle h. */
static bhost_status forward(bhost_dev *dev, void *h, const bhost_conv2d_args *a, dnn_call *d)
{
    cudnnConvolutionFwdAlgoPerf_t perf;
    int found = 0;
    size_t bytes = 0;
    void *ws = NULL;
    const float one = 1.0f, zero = 0.0f;

    memset(&perf, 0, sizeof(perf));
    if (D.cudnnGetConvolutionForwardAlgorithm_v7(h, d->x, d->w, d->c, d->y, 1, &found, &perf) !=
            CUDNN_STATUS_SUCCESS ||
        found < 1)
        return bh_gpu_fail(dev->h, BHOST_E_UNSUPPORTED, "conv2d: cuDNN has no algorithm");
    if (D.cudnnGetConvolutionForwardWorkspaceSize(h, d->x, d->w, d->c, d->y, perf.algo, &bytes) !=
        CUDNN_STATUS_SUCCESS)
        return bh_gpu_fail(dev->h, BHOST_E_DEVICE, "conv2d: cuDNN workspace size failed");
    if (bytes > 0 && bh_cu_sci_workspace(dev, bytes, &ws) != BHOST_OK)
        return BHOST_E_NOMEM;
    if (D.cudnnConvolutionForward(h, &one, d->x, a->in->ptr, d->w, a->filter->ptr, d->c, perf.algo,
                                  ws, bytes, &zero, d->y, a->out->ptr) != CUDNN_STATUS_SUCCESS)
        return bh_gpu_fail(dev->h, BHOST_E_DEVICE, "conv2d: cudnnConvolutionForward failed");
    return BHOST_OK;
}

/* Direct f32 NCHW convolution by cuDNN. [instance] */
static bhost_status BHOST_ABI conv2d_run(bhost_dev *dev, bhost_stream *s,
                                         const bhost_conv2d_args *a)
{
    bhost_stream *t;
    uint64_t p = 0, q = 0;
    void **h;
    dnn_call d;
    bhost_status st = bh_cu_check_call(dev, s, a, "conv2d", &t);

    if (st == BHOST_OK)
        st = bh_be_check_conv2d(&bh_cu_be, dev, a, a->type == BHOST_DTYPE_F32 ? 4 : 0, " (F32)", &p,
                                &q);
    if (st != BHOST_OK)
        return st;
    h = bh_cu_sci_dnn(dev);
    if (h == NULL)
        return BHOST_E_NOMEM;
    if (*h == NULL && D.cudnnCreate((cudnnHandle_t *)h) != CUDNN_STATUS_SUCCESS)
        return bh_gpu_fail(dev->h, BHOST_E_DEVICE, "conv2d: cudnnCreate failed");
    D.cudnnSetStream(*h, t->s);
    if (describe(a, p, q, &d) != 0)
        st = bh_gpu_fail(dev->h, BHOST_E_UNSUPPORTED, "conv2d: cuDNN refused the shape");
    else
        st = forward(dev, *h, a, &d);
    undescribe(&d);
    return st;
}

const bhost_kernel_conv2d bh_cu_conv2d_table = {sizeof(bhost_kernel_conv2d), 0, conv2d_run};
#endif /* BH_CU_HAVE_CUDNN */
