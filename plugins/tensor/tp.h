// SPDX-License-Identifier: MIT
/*
 * tp.h -- internal interface of the tensor plugin: a thin adapter from the
 * bhost.benchmarks/1 ABI to libtensor_kernels. Each bench_*.c file serves
 * one family of ops and exports its descriptors; tensor_plugin.c lists
 * them; tp_common.c holds the helpers they share.
 *
 * Work counting convention (the roofline fractions the host computes
 * depend on it): bytes_per_iter is the minimum memory traffic of one
 * iteration: every input element read once, every output element written
 * once, no write-allocate traffic, no re-reads a cache could absorb
 * (exceptions are documented next to the op). flops_per_iter counts
 * arithmetic operations with an exp, log, tanh, sqrt or division counted as
 * one; comparisons of max/argmax count as one. Each bench file states its
 * own counts.
 *
 * Work profile (ABI 1.1, bh_tensor_profile): each family sets the access
 * kind and compute class of its base; the working set is ws when set, else
 * bytes (each counted byte is a distinct byte touched: the exceptions, a
 * second pass over the same input, set ws); threads is the pool's count
 * (0 for matmul, whose backend owns its threads).
 */
#ifndef BH_TENSOR_TP_H
#define BH_TENSOR_TP_H

#include <bhost/plugin.h>

#include "bh_cmp.h"
#include "bh_plugin.h"
#include "tensor_kernels.h"

/* The host API from init(); valid until deinit() returns. */
extern const bhost_host_api *bh_tensor_api;

/* What every instance starts with: the case, its thread pool and its work
 * per iteration (0 = not counted; see the convention above). */
typedef struct bh_tensor_base {
    bhost_host *h;
    tk_pool *pool;   /* NULL when threads == 1 */
    unsigned threads;
    unsigned reserved;
    double flops, bytes, items;
    double ws;             /* working set when it differs from bytes */
    bhost_access access;   /* BHOST_ACCESS_* of the work */
    bhost_compute compute; /* BHOST_COMPUTE_* of its arithmetic */
} bh_tensor_base;

/* Formats a message prefixed "tensor: ", hands it to set_error(h, ...) and
 * returns st. h may be NULL. [any-thread] */
bhost_status bh_tensor_fail(bhost_host *h, bhost_status st, const char *fmt,
                            ...) BH_PRINTF(3, 4);

/* Reads I64 parameter key into *out and checks it lies in [lo, hi]: the
 * host has checked the declared range, this guards against a host that
 * did not. [instance] */
bhost_status bh_tensor_i64(bhost_host *h, const char *key, int64_t lo,
                           int64_t hi, int64_t *out);

/* Reads F64 parameter key into *out. [instance] */
bhost_status bh_tensor_f64(bhost_host *h, const char *key, double *out);

/* Copies STR parameter key into buf (cap bytes); BHOST_E_INVALID when it
 * does not fit. [instance] */
bhost_status bh_tensor_str(bhost_host *h, const char *key, char *buf,
                           uint32_t cap);

/* The dtype named by STR parameter "dtype". [instance] */
bhost_status bh_tensor_dtype(bhost_host *h, tk_dtype *out);

/* Reads the "threads" parameter (0 = bh_plugin_cpu_threads()) into *out
 * and reports it as the metric "threads". [instance] */
bhost_status bh_tensor_threads(bhost_host *h, unsigned *out);

/* Fills b->h, reads the "threads" parameter (0 = bh_plugin_cpu_threads())
 * and starts the pool; reports the count as the metric "threads".
 * [instance] */
bhost_status bh_tensor_base_init(bh_tensor_base *b, bhost_host *h);

/* Stops the pool (joins its threads). Safe on a partly set base. */
void bh_tensor_base_fini(bh_tensor_base *b);

/* 64-byte aligned accounted memory of bytes (>= 1); NULL after set_error
 * on failure. Release with bh_tensor_free. [instance] */
void *bh_tensor_alloc(bhost_host *h, size_t bytes);
void bh_tensor_free(bhost_host *h, void *p);

/* n elements of dtype (F32, F64, F16, BF16) uniform in [lo, hi), drawn
 * from the case seed mixed with stream (threaded over pool). */
bhost_status bh_tensor_random(bh_tensor_base *b, void *out, tk_dtype dtype,
                              size_t n, double lo, double hi, uint64_t stream);

/* Value of element i of a F32, F64, F16, BF16, I8, I32 or I64 array as
 * double. */
double bh_tensor_get(const void *p, tk_dtype dtype, size_t i);

/* Shape parsed from "AxBxC" (1..TK_MAX_DIMS positive dims); *ndim and
 * dims filled, product in *total. BHOST_E_INVALID after set_error. */
bhost_status bh_tensor_shape(bhost_host *h, const char *text, int *ndim,
                             size_t *dims, size_t *total);

/* The three throughput callbacks over bh_tensor_base. [instance] */
double BHOST_ABI bh_tensor_flops(void *inst);
double BHOST_ABI bh_tensor_bytes(void *inst);
double BHOST_ABI bh_tensor_items(void *inst);

/* The work profile of a bh_tensor_base: its access, compute and threads,
 * and ws (else bytes) as the working set. [instance] */
bhost_status BHOST_ABI bh_tensor_profile(void *inst, bhost_work_profile *out);

/* The roof benchmarks' record of run() calls (bh_rates_add and
 * bh_rates_median of plugins/common), kept to report their figure as a
 * metric; the host's timing stays the authoritative one. */
typedef bh_rates bh_tensor_rates;

/* C = op(A) op(B), column-major, checked by bh_tensor_check_gemm. */
typedef struct bh_tensor_gemm_view {
    const void *a, *b, *c;
    tk_dtype ab_type, c_type; /* F32, F64, F16, BF16 / F32, F64, I32 */
    size_t m, n, k, lda, ldb, ldc;
    int trans_a, trans_b;
    double unit;   /* unit roundoff of the accumulation */
    uint64_t seed; /* of the random test vector */
} bh_tensor_gemm_view;

/* Freivalds' check: C r against op(A) (op(B) r) in double, for a random r,
 * within (2k + 8) unit sum |op(A)| |op(B)| |r| per row (the worst-case
 * bound of k-term dot products). BHOST_E_VERIFY after set_error naming
 * the first bad row. O(mn + mk + kn). */
bhost_status bh_tensor_check_gemm(bhost_host *h, const bh_tensor_gemm_view *g);

/* Common parameter descriptors. */
#define BH_TENSOR_PARAM_THREADS                                                \
    BH_PARAM_I64("threads",                                                    \
                 "Worker threads; 0 = all (BHOST_CPU_THREADS or every CPU)",   \
                 "0", 0, 256)

/* The benchmark families (each file's descriptors, in listing order). */
extern const bhost_bench_desc bh_tensor_roof_bandwidth;
extern const bhost_bench_desc bh_tensor_roof_compute;
extern const bhost_bench_desc *const bh_tensor_create_benches[];
extern const bhost_bench_desc *const bh_tensor_ew_benches[];
extern const bhost_bench_desc bh_tensor_matmul;
extern const bhost_bench_desc bh_tensor_matmul_int8;
extern const bhost_bench_desc bh_tensor_qmatmul;
extern const bhost_bench_desc *const bh_tensor_reduce_benches[];
extern const bhost_bench_desc *const bh_tensor_norm_benches[];
extern const bhost_bench_desc *const bh_tensor_manip_benches[];
extern const bhost_bench_desc *const bh_tensor_quant_benches[];
extern const bhost_bench_desc *const bh_tensor_stream_benches[];

#endif /* BH_TENSOR_TP_H */
