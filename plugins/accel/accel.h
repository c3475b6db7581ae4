// SPDX-License-Identifier: MIT
/*
 * accel.h -- internal interface of the accelerator suite (accel.so).
 *
 * Device benchmarks that run on any backend (bhost.backend/1):
 *   copy.h2d, copy.d2h, copy.d2d  transfer bandwidth over sizes, from
 *                                  pageable or pinned host memory (bench_copy.c)
 *   kernel.axpy, kernel.reduce,    the backend's kernels, verified against a
 *   kernel.gemm                    double-precision host reference with
 *                                  dtype-aware tolerances (bench_axpy.c,
 *                                  bench_reduce.c, bench_gemm.c)
 *   launch.latency                 a tiny kernel per iteration (bench_launch.c)
 *   alloc.latency                  alloc + free (bench_alloc.c)
 *   build.kernels                  kernel/pipeline build, cold and cached,
 *                                  through bhost.backend.build_stats/1
 *                                  (bench_build.c)
 *   device.open, device.query      open+close, device_info (bench_device.c)
 *   multi.axpy                     axpy on every device at once vs one
 *                                  (bench_multi.c)
 * Benchmarks whose work is host-side (alloc, open, build, query) or spans
 * several devices time themselves with the host clock
 * (BHOST_BENCH_MANUAL_TIMING), as do the transfers (wall time from enqueue
 * to completion: what a program waiting for its data sees).
 *
 * Work profiles (ABI 1.1): every benchmark has one (bh_accel_profile),
 * threads unknown (the device's), so device cases are held against their
 * own device's ceilings. Two are ceilings (BHOST_BENCH_CEILING): copy.d2d,
 * the device's copy bandwidth, and launch.latency, which declares no bytes
 * or FLOPs and so is the device's per-call latency floor (the host takes
 * its median time).
 */
#ifndef BH_ACCEL_H
#define BH_ACCEL_H

#include <bhost/plugin.h>

#include <bhost/accel.h>

#include "bh_plugin.h"
#include "bh_rng.h"

extern const bhost_host_api *bh_accel_api;

/* What every instance starts with. */
typedef struct bh_accel_base {
    bhost_host *h;
    const bhost_backend *be;
    bhost_dev *dev;
    double flops, bytes, items; /* work per iteration, 0 = not counted */
    double ws;                  /* working set when it is not bytes */
    bhost_access access;        /* of the work (0: no stream) */
    bhost_compute compute;      /* of its arithmetic (0: none) */
} bh_accel_base;

/* Formats "accel: " + message, set_error(h) and returns st. */
bhost_status bh_accel_fail(bhost_host *h, bhost_status st, const char *fmt,
                           ...) BH_PRINTF(3, 4);

/* Fills b after checking that a device and a 1.0 backend table are there.
 * [instance] */
bhost_status bh_accel_base_init(bh_accel_base *b, bhost_host *h,
                                const bhost_backend *be, bhost_dev *dev,
                                const char *bench);

/* The prefix of accel's messages, for plugins/common's parameter readers
 * (bh_plugin_i64, bh_plugin_str). */
#define ACCEL_PREFIX "accel: "

/* The dtype of STR parameter "dtype" ("f32" or "f64"): its bhost dtype,
 * element size and unit roundoff (2^-24, 2^-53). */
bhost_status bh_accel_dtype(bhost_host *h, bhost_dtype *t, uint64_t *es,
                            double *unit);

/* Accounted host memory (64-byte aligned), NULL after set_error. */
void *bh_accel_alloc(bhost_host *h, uint64_t bytes);
void bh_accel_free(bhost_host *h, void *p);

/* n values uniform in [lo, hi) of dtype t (F32 or F64) from the case
 * seed mixed with stream. */
void bh_accel_random(bhost_host *h, void *out, bhost_dtype t, uint64_t n,
                     double lo, double hi, uint64_t stream);
/* Element i of a F32 or F64 array as double. */
double bh_accel_get(const void *p, bhost_dtype t, uint64_t i);

/* The kernel table id of be/dev with a run member, or NULL after
 * set_error (BHOST_E_UNSUPPORTED in *st). */
const void *bh_accel_kernel(bh_accel_base *b, const char *id,
                            bhost_status *st);

/* Agreement of a result with its reference: the largest |got - ref|, the
 * largest |got - ref| / tol (bh_plugin_err of plugins/common), reported as
 * metrics verify.max_abs_err and verify.err_to_tol (<= 1 passes). */
typedef bh_plugin_err bh_accel_err;
void bh_accel_err_add(bh_accel_err *e, uint64_t i, double got, double ref,
                      double tol);
/* Reports the metrics; BHOST_E_VERIFY after set_error naming the worst
 * element when a ratio exceeds 1 or is not a number. */
bhost_status bh_accel_err_report(bhost_host *h, const bh_accel_err *e,
                                 const char *what);

/* Wall time of the last run() for manual-timing benchmarks. */
bhost_status bh_accel_manual(bhost_host *h, uint64_t t0);

/* Throughput callbacks over bh_accel_base. */
double BHOST_ABI bh_accel_flops(void *inst);
double BHOST_ABI bh_accel_bytes(void *inst);
double BHOST_ABI bh_accel_items(void *inst);
/* The work profile over bh_accel_base: its access and compute, threads
 * unknown (the device's), ws (else the counted bytes) as the working set.
 * [instance] */
bhost_status BHOST_ABI bh_accel_profile(void *inst, bhost_work_profile *out);
/* BHOST_COMPUTE_F64 for 8-byte elements, else BHOST_COMPUTE_F32. */
bhost_compute bh_accel_compute(uint64_t es);

/* Parameter descriptors: BH_PARAM_I64 and BH_PARAM_STR of bh_plugin.h. */
extern const char *const bh_accel_dtypes[]; /* "f32", "f64", NULL */

/* The benchmarks, in listing order. */
extern const bhost_bench_desc *const bh_accel_copy_benches[];  /* 3 */
extern const bhost_bench_desc bh_accel_axpy;
extern const bhost_bench_desc bh_accel_reduce;
extern const bhost_bench_desc bh_accel_gemm;
extern const bhost_bench_desc bh_accel_launch;
extern const bhost_bench_desc bh_accel_alloc_bench;
extern const bhost_bench_desc bh_accel_build;
extern const bhost_bench_desc bh_accel_open;
extern const bhost_bench_desc bh_accel_query;
extern const bhost_bench_desc bh_accel_multi;

#endif /* BH_ACCEL_H */
