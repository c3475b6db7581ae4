// SPDX-License-Identifier: MIT
/*
 * layer_adapt.h -- what the conv, pool and norm benchmarks (bench_conv.c,
 * bench_pool.c, bench_norm.c) share in their adapters to the ABI: the
 * layout and threads parameters, the worker pool, seeded inputs and the
 * sampled check of outputs against a double-precision reference.
 */
#ifndef LAYER_ADAPT_H
#define LAYER_ADAPT_H

#include "scientific.h"

#include "bh_pool.h"
#include "cv_layer.h"
#ifdef BH_SCI_CONV_DNNL
#include "cv_dnnl.h"
#endif

/* Outputs up to this count are all checked; above, LY_SAMPLES seeded ones
 * and the first and last. */
#define LY_FULL_CHECK 65536
#define LY_SAMPLES    4096

/* The layout and threads parameters every layer benchmark has. */
#define LY_PARAMS                                                                                  \
    BH_PARAM_STR("layout", "nchw or nhwc", "nchw", ly_layouts),                                    \
        BH_PARAM_I64("threads", "Threads (0 = every CPU of the process)", "1", 0, 256)
extern const char *const ly_layouts[];

/* The first member of every layer benchmark's instance. */
typedef struct ly_base {
    bhost_host *h;
    const char *prefix; /* "conv: " */
    cv_layout layout;
    unsigned threads;
    int own_threads; /* the plugin's loops (not a library's) do the work */
    bh_pool *pool;   /* NULL for one thread or a library's case */
    cv_shape sh;     /* the layer's shape */
} ly_base;

/* Allocates a zeroed instance of size bytes (a ly_base first), calls
 * read (which reads the benchmark's parameters into it and sets
 * own_threads), then reads layout and threads, starts the plugin's pool
 * for own_threads and threads > 1, and reports the threads metric. On
 * failure destroy(inst) and the status. [instance] */
bhost_status ly_create(bhost_host *h, size_t size, const char *prefix,
                       bhost_status (*read)(void *inst), void(BHOST_ABI *destroy)(void *inst),
                       void **out);
void ly_fini(ly_base *b);

/* n floats from the host, or NULL. */
float *ly_alloc(const ly_base *b, size_t n);

/* iterations of once(inst), each followed by a memory clobber; stops at
 * the first failure. */
bhost_status ly_run(void *inst, uint64_t iterations, bhost_status (*once)(void *inst));

/* Images: the items of every layer benchmark. [instance] */
double BHOST_ABI ly_items(void *inst);

/* x[0..n) uniform in [lo, hi) from the run's seed and salt. */
void ly_fill(bhost_host *h, float *x, size_t n, uint64_t salt, float lo, float hi);

/* fn(arg, u0, u1) over [0, units) in contiguous ranges across the pool. */
typedef void (*ly_range_fn)(void *arg, size_t u0, size_t u1);
void ly_parallel(ly_base *b, size_t units, ly_range_fn fn, void *arg);

/* (n, c, y, x) of flat offset i of an n x c x h x w tensor in layout l. */
void ly_unflat(cv_layout l, int c, int h, int w, size_t i, int *n, int *ci, int *y, int *x);

/* The reference of output i and its bound. */
typedef double (*ly_ref_fn)(void *arg, size_t i, double *bound);

/* Checks out[0..n) (or a seeded sample, see LY_FULL_CHECK) against ref:
 * BHOST_E_VERIFY naming the first output off by more than its bound (or
 * for out NULL, before setup), else the metrics error.to_bound (the
 * largest error over bound, limit 1) and verify.checked. */
bhost_status ly_verify(ly_base *b, const float *out, size_t n, ly_ref_fn ref, void *arg);

/* A work profile of f32 read-write traffic on b's threads. */
bhost_status ly_profile(const ly_base *b, bhost_work_profile *out, double bytes);

#ifdef BH_SCI_CONV_DNNL
/* oneDNN's primitive of op over sh in b's layout and threads; a failure
 * reported with b's prefix. Its implementation and source layout are
 * logged; the activation reorders a run makes and the source's block of
 * channels (1: plain NCHW or NHWC) are metrics. [instance] */
bhost_status ly_dnnl_create(ly_base *b, cv_dnnl **d, cv_dnnl_op op, const cv_shape *sh, float eps,
                            const cv_dnnl_bufs *bufs);

/* One run of d on b's threads. [instance] */
bhost_status ly_dnnl_run(ly_base *b, cv_dnnl *d);
#endif

#endif /* LAYER_ADAPT_H */
