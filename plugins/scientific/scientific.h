// SPDX-License-Identifier: MIT
/*
 * scientific.h -- the scientific-kernels plugin: its host API pointer and
 * its benchmark descriptors, one family per file (bench_sparse.c, ...).
 */
#ifndef BH_SCIENTIFIC_H
#define BH_SCIENTIFIC_H

#include "bh_plugin.h"
#include "bh_rng.h"

#include <bhost/plugin.h>

/* The host API, valid between init and deinit. */
extern const bhost_host_api *bh_sci_api;

/* Sparse: CSR SpMV and SpMM (bench_sparse.c). */
extern const bhost_bench_desc bh_sci_spmv, bh_sci_spmm;

/* FFT: FFTW3 plans and the plugin's radix-2 (bench_fft.c). */
extern const bhost_bench_desc bh_sci_fft;

/* RNN: LSTM and GRU, own sgemm cell or oneDNN (bench_rnn.c). */
extern const bhost_bench_desc bh_sci_rnn_lstm, bh_sci_rnn_gru;

/* Autotuning: own blocked sgemm, FFTW planner levels (bench_autotune.c). */
extern const bhost_bench_desc bh_sci_autotune;

/* BHOST_E_SKIP after "<what> needs <package>, not found at build time":
 * a case whose library was missing when the plugin was built. [instance] */
bhost_status bh_sci_not_built(bhost_host *h, const char *what, const char *package);

/* Layers: convolution (direct, im2col + OpenBLAS, oneDNN), pooling and
 * normalisation, f32 NCHW / NHWC (bench_conv.c, bench_pool.c,
 * bench_norm.c). */
extern const bhost_bench_desc bh_sci_conv, bh_sci_pool, bh_sci_norm;

/* Device cases through the backend's scientific kernel extension
 * (bhost/sci_kernels.h; device/). */
extern const bhost_bench_desc bh_sci_dev_spmv, bh_sci_dev_fft, bh_sci_dev_conv2d;

#endif /* BH_SCIENTIFIC_H */
