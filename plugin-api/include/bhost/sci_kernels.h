// SPDX-License-Identifier: MIT
/*
 * bhost/sci_kernels.h -- optional kernel extension of the backend ABI for
 * scientific kernels: CSR sparse matrix-vector product, complex FFT and
 * direct 2D convolution (the scientific plugin's device.* cases use them).
 *
 * Served like the kernel tables of bhost/plugin.h:
 * bhost_backend.get_kernel(dev, id) returns the table, or NULL when the
 * backend or this device lacks the operation (the case needing it is then
 * "unsupported"). A backend MAY offer any subset; a run() MAY refuse
 * arguments it cannot handle with BHOST_E_UNSUPPORTED and a set_error()
 * reason (a dtype, a size that is not a power of two, a binding limit).
 * There are no capability bits for these ids: a table is found only by
 * get_kernel(). Added in 1.x without touching bhost/plugin.h; the same
 * rules hold: fixed-width integers, struct_size first (set by the caller
 * for *_args, by the backend for tables), growth only at the end, -Wpadded
 * clean, reserved fields 0. Every run() is [instance], enqueues on stream
 * s (NULL: the device's default) in order with copies and events, and
 * checks each buffer range like a copy does (BHOST_E_INVALID).
 */
#ifndef BHOST_SCI_KERNELS_H
#define BHOST_SCI_KERNELS_H

#include <bhost/plugin.h>

/* ---- "bhost.kernel.spmv/1": y = alpha A x + beta y, A in CSR ----------- */
#define BHOST_KERNEL_SPMV "bhost.kernel.spmv/1"

typedef struct bhost_spmv_args {
    uint32_t struct_size;
    bhost_dtype type;       /* of values, x and y: F32 or F64 */
    bhost_dtype index_type; /* of row_ptr and col_idx: I32 */
    uint32_t reserved;
    uint64_t rows, cols, nnz;
    double alpha, beta;       /* beta == 0 never reads y */
    const bhost_buf *row_ptr; /* rows + 1 offsets, row_ptr[rows] == nnz */
    const bhost_buf *col_idx; /* nnz column indices, each < cols */
    const bhost_buf *values;  /* nnz values */
    const bhost_buf *x;       /* cols elements */
    bhost_buf *y;             /* rows elements; no alias with the others */
} bhost_spmv_args;

typedef struct bhost_kernel_spmv {
    uint32_t struct_size;
    uint32_t reserved;
    bhost_status(BHOST_ABI *run)(bhost_dev *dev, bhost_stream *s, const bhost_spmv_args *args);
} bhost_kernel_spmv;

/* ---- "bhost.kernel.fft/1": batched 1D complex FFT ---------------------- */
#define BHOST_KERNEL_FFT "bhost.kernel.fft/1"

/* Directions: out[k] = sum_j in[j] e^(sign 2 pi i j k / n), unnormalised. */
#define BHOST_FFT_FORWARD (-1)
#define BHOST_FFT_INVERSE 1

typedef struct bhost_fft_args {
    uint32_t struct_size;
    bhost_dtype type;  /* of each real and imaginary part: F32 or F64 */
    uint64_t n;        /* points per transform (a power of two is always
                          accepted by an offering backend; others MAY be) */
    uint64_t batch;    /* transforms, each n complex values after the last */
    int32_t direction; /* BHOST_FFT_FORWARD or BHOST_FFT_INVERSE */
    uint32_t reserved;
    const bhost_buf *in; /* batch x n interleaved (re, im); left unchanged */
    bhost_buf *out;      /* the same size; not in */
} bhost_fft_args;

typedef struct bhost_kernel_fft {
    uint32_t struct_size;
    uint32_t reserved;
    bhost_status(BHOST_ABI *run)(bhost_dev *dev, bhost_stream *s, const bhost_fft_args *args);
} bhost_kernel_fft;

/* ---- "bhost.kernel.conv2d/1": direct 2D convolution, NCHW -------------- */
#define BHOST_KERNEL_CONV2D "bhost.kernel.conv2d/1"

/* out[n][k][p][q] = sum over c in group(k), r, s of
 *   in[n][c][p stride_h + r - pad_h][q stride_w + s - pad_w]
 *   x filter[k][c - first channel of group(k)][r][s]
 * (cross-correlation, as every DNN library computes; input outside the
 * image reads 0), P = (h + 2 pad_h - r) / stride_h + 1 and Q likewise. */
typedef struct bhost_conv2d_args {
    uint32_t struct_size;
    bhost_dtype type;            /* of in, filter, out: F32 */
    uint64_t n, c, h, w;         /* input batch, channels, height, width */
    uint64_t k, r, s;            /* filters and their height, width */
    uint64_t stride_h, stride_w; /* >= 1 */
    uint64_t pad_h, pad_w;
    uint64_t groups;         /* >= 1, divides c and k; filters hold
                                c / groups channels each */
    const bhost_buf *in;     /* n x c x h x w */
    const bhost_buf *filter; /* k x (c / groups) x r x s */
    bhost_buf *out;          /* n x k x P x Q */
} bhost_conv2d_args;

typedef struct bhost_kernel_conv2d {
    uint32_t struct_size;
    uint32_t reserved;
    bhost_status(BHOST_ABI *run)(bhost_dev *dev, bhost_stream *s, const bhost_conv2d_args *args);
} bhost_kernel_conv2d;

#endif /* BHOST_SCI_KERNELS_H */
