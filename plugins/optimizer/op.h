// SPDX-License-Identifier: MIT
/*
 * op.h -- internal interface of the optimizer plugin: a thin adapter from
 * the bhost.benchmarks/1 ABI to liboptim (core/opt.h). Each bench_*.c file
 * serves one benchmark family and exports its descriptors;
 * optimizer_plugin.c lists them; op_common.c, op_params.c, op_state.c and
 * op_check.c hold what they share.
 *
 * Work counting (the roofline fractions the host computes depend on it):
 * items_per_iter is parameters updated per step; bytes_per_iter is the
 * minimum memory traffic of one step as opt_traffic_bytes_per_param()
 * documents it (AdamW f32: 7 streams x 4 B = 28 B per parameter), plus the
 * accumulation passes when accumulation > 1: the first micro-batch reads
 * its gradient and writes the f32 accumulator (g + 4 B), each further one
 * reads both and writes the accumulator (g + 8 B); the step then reads the
 * f32 accumulator as its gradient.
 */
#ifndef BH_OPTIM_OP_H
#define BH_OPTIM_OP_H

#include <bhost/plugin.h>

#include "bh_cmp.h"
#include "bh_plugin.h"
#include "opt.h"

/* Largest integer a double holds exactly: the open upper end of I64
 * parameters (the ABI expresses ranges as min <= max). */
#define BH_OPTIM_I64_MAX 9007199254740992.0

/* The host API from init(); valid until deinit() returns. */
extern const bhost_host_api *bh_optim_api;

extern const bhost_bench_desc bh_optim_step;
extern const bhost_bench_desc bh_optim_zero;
extern const bhost_bench_desc bh_optim_zero_mpi;
extern const bhost_bench_desc bh_optim_dp_step;
extern const bhost_bench_desc bh_optim_schedule;
extern const bhost_bench_desc bh_optim_roof;

/* ---- op_common.c ---------------------------------------------------------- */

/* Formats a message prefixed "optimizer: ", hands it to set_error(h, ...)
 * and returns st. h may be NULL. [any-thread] */
bhost_status bh_optim_fail(bhost_host *h, bhost_status st, const char *fmt,
                           ...) BH_PRINTF(3, 4);

/* The prefix of the optimizer's messages, for plugins/common's parameter
 * readers (bh_plugin_i64, bh_plugin_f64_in, bh_plugin_str). */
#define BH_OPTIM_PREFIX "optimizer: "

/* Reads "threads" (0 = every CPU this process may use, or
 * BHOST_CPU_THREADS) and "isa" (auto or a level name, applied
 * process-wide); reports both as metrics. [instance] */
bhost_status bh_optim_threads_isa(bhost_host *h, unsigned *threads);

/* bytes (>= 1) of accounted memory, 2 MiB aligned when large (no
 * MADV_HUGEPAGE: in this project's VMs huge-page faults took seconds per
 * 400 MB, and an A/B of AdamW on 50M parameters showed no steady-state
 * gain); NULL after set_error on failure. Release with bh_optim_free.
 * [instance] */
void *bh_optim_alloc(bhost_host *h, uint64_t bytes);
void bh_optim_free(bhost_host *h, void *p);

/* Uniform value in [lo, hi) of element i of random stream 'stream' under
 * seed: a counter-based generator, so any thread split fills the same
 * values. [any-thread] */
double bh_optim_uniform(uint64_t seed, uint64_t stream, uint64_t i, double lo,
                        double hi);

/* The roof's record of run() calls (bh_rates_add, bh_rates_median of
 * plugins/common): the median rate is what the roof reports. */
typedef bh_rates bh_optim_rates;

/* ---- op_params.c: what a case asks for ----------------------------------- */

/* The optimizer, precision and step options of a case, from its
 * parameters (see the parameter tables in op_params.c). */
typedef struct bh_optim_cfg {
    opt_hparams hp;
    opt_dtype dtype;        /* F32, or BF16/F16 (mixed precision) */
    opt_dtype grad_dtype;   /* the step's gradients (F32 with accumulation) */
    opt_path path;          /* MULTI, or LOOP for layout per_tensor */
    int flat;               /* layout flat: one buffer, one tensor */
    int interleave;         /* tensor lists: a tensor's streams adjacent */
    int accumulation;       /* micro-batches per step (>= 1) */
    double loss_scale;      /* f16: gradients carry this factor */
    opt_sched_cfg sched;
    char model[32];         /* "none" or a name opt_model_tensors knows */
    uint64_t params;        /* model = none: total parameters */
    uint64_t tensors;       /* model = none: equal tensors to split into */
    double grad_div;        /* the step divides the gradients by this: 1, or
                             * the ranks whose gradients were summed */
    int grad_external;      /* the caller points the group's gradients at
                             * buffers of its own (and clears them before
                             * bh_optim_set_fini): the set allocates none */
} bh_optim_cfg;

/* The parameter descriptors every optimizer-step case declares, as
 * array elements (see op_params.c for their meaning). */
#define BH_OPTIM_P(t, k, s, d, lo, hi, ch)                                     \
    {.struct_size = sizeof(bhost_param_desc), .type = (t), .key = (k),         \
     .summary = (s), .default_value = (d), .choices = (ch), .min = (lo),       \
     .max = (hi)}
extern const char *const bh_optim_kind_choices[];
extern const char *const bh_optim_dtype_choices[];
extern const char *const bh_optim_layout_choices[];
extern const char *const bh_optim_model_choices[];
extern const char *const bh_optim_sched_choices[];
extern const char *const bh_optim_isa_choices[];
#define BH_OPTIM_COMMON_PARAMS                                                 \
    BH_OPTIM_P(BHOST_PARAM_STR, "optimizer", "sgd, adam, adamw, adagrad, "     \
               "rmsprop, lamb or lion", "adamw", 1, 0, bh_optim_kind_choices), \
    BH_OPTIM_P(BHOST_PARAM_STR, "dtype", "f32, or bf16/f16 params and grads "  \
               "with f32 master weights and state", "f32", 1, 0,              \
               bh_optim_dtype_choices),                                        \
    BH_OPTIM_P(BHOST_PARAM_I64, "params", "Parameters (model none)",           \
               "1048576", 1, BH_OPTIM_I64_MAX, NULL),                          \
    BH_OPTIM_P(BHOST_PARAM_STR, "model", "none, or a published model's "      \
               "tensor list", "none", 1, 0, bh_optim_model_choices),           \
    BH_OPTIM_P(BHOST_PARAM_I64, "tensors", "Equal tensors the params are "    \
               "split into (model none)", "1", 1, 100000000, NULL),            \
    BH_OPTIM_P(BHOST_PARAM_STR, "layout", "flat (one buffer), multi_tensor "  \
               "(tensors, one launch) or per_tensor (a launch per tensor)",   \
               "flat", 1, 0, bh_optim_layout_choices),                         \
    BH_OPTIM_P(BHOST_PARAM_BOOL, "interleave", "Tensor lists: allocate each " \
               "tensor's streams together (p, g, m, v of one tensor "          \
               "adjacent) instead of stream by stream", "false", 1, 0, NULL),  \
    BH_OPTIM_P(BHOST_PARAM_F64, "lr", "Learning rate; 0 = the optimizer's "   \
               "default", "0", 0, 100, NULL),                                  \
    BH_OPTIM_P(BHOST_PARAM_F64, "weight_decay", "Weight decay; -1 = the "     \
               "optimizer's default", "-1", -1, 10, NULL),                     \
    BH_OPTIM_P(BHOST_PARAM_F64, "momentum", "SGD/RMSprop momentum", "0", 0,   \
               0.999999, NULL),                                                \
    BH_OPTIM_P(BHOST_PARAM_F64, "dampening", "SGD dampening", "0", 0, 1,      \
               NULL),                                                          \
    BH_OPTIM_P(BHOST_PARAM_BOOL, "nesterov", "SGD Nesterov momentum",         \
               "false", 1, 0, NULL),                                           \
    BH_OPTIM_P(BHOST_PARAM_BOOL, "centered", "RMSprop centered", "false", 1,  \
               0, NULL),                                                       \
    BH_OPTIM_P(BHOST_PARAM_F64, "max_grad_norm", "Clip by global L2 norm; "   \
               "0 = off", "0", 0, 1e30, NULL),                                 \
    BH_OPTIM_P(BHOST_PARAM_I64, "accumulation", "Micro-batches accumulated " \
               "per step", "1", 1, 1024, NULL),                                \
    BH_OPTIM_P(BHOST_PARAM_F64, "loss_scale", "f16: gradients carry this "    \
               "factor (undone in the step, inf/nan skip the step)", "1024",   \
               1, 1e9, NULL),                                                  \
    BH_OPTIM_P(BHOST_PARAM_STR, "schedule", "Learning-rate schedule",         \
               "constant", 1, 0, bh_optim_sched_choices),                      \
    BH_OPTIM_P(BHOST_PARAM_I64, "total_steps", "Schedule horizon", "10000",  \
               16, BH_OPTIM_I64_MAX, NULL),                                    \
    BH_OPTIM_P(BHOST_PARAM_I64, "threads", "Worker threads; 0 = all", "0",    \
               0, 256, NULL),                                                  \
    BH_OPTIM_P(BHOST_PARAM_STR, "isa", "auto, portable, avx2 or avx512",      \
               "auto", 1, 0, bh_optim_isa_choices)
#define BH_OPTIM_COMMON_COUNT 20

/* Reads the BH_OPTIM_COMMON_PARAMS of case h into *cfg. [instance] */
bhost_status bh_optim_cfg_read(bhost_host *h, bh_optim_cfg *cfg);
/* The full tensor list of cfg: the model's, or params split into
 * 'tensors' near-equal tensors; *out is malloc'ed (free it). [instance] */
bhost_status bh_optim_cfg_tensors(bhost_host *h, const bh_optim_cfg *c, size_t **out,
                                  size_t *count);

/* ---- op_state.c: the tensors of one case --------------------------------- */

/* A parameter set: the tensors (sizes), their data, grads, states and
 * accumulation buffers, and the liboptim group over them. */
typedef struct bh_optim_set {
    bhost_host *h;
    const bh_optim_cfg *cfg;
    opt_pool *pool;
    opt_group *g;
    size_t count;
    size_t *sizes;
    uint64_t total;
    double bytes;          /* allocated for data */
    void *block[8];        /* flat layout: one allocation per stream */
    float **acc;           /* accumulation > 1: f32 accumulators (= grads) */
    const void **micro;    /* accumulation > 1: micro-batch gradients */
    int used[3];
    int reserved;
} bh_optim_set;

/* Allocates and fills (seeded, threaded) a set of count tensors of the
 * given sizes (copied) for cfg; p uniform in [-1, 1), grads uniform in
 * [-0.01, 0.01) (x loss_scale for f16), state at its initial value.
 * Cleans up after itself on failure. [instance] */
bhost_status bh_optim_set_init(bh_optim_set *s, bhost_host *h,
                               const bh_optim_cfg *cfg, opt_pool *pool,
                               const size_t *sizes, size_t count);
/* Frees everything the set holds. Safe on a zeroed or failed set. */
void bh_optim_set_fini(bh_optim_set *s);

/* Bytes per parameter the set allocates: master, grads, states, the
 * param copy, micro-batch gradients. */
double bh_optim_set_bytes_per_param(const bh_optim_cfg *cfg);

/* Bytes one iteration moves at minimum for params parameters (see the
 * counting note at the top). */
double bh_optim_iter_bytes(const bh_optim_cfg *cfg, uint64_t params);

/* One iteration: the accumulation passes, then the scheduled step; when
 * snap is not NULL, the sampled state is recorded between the two.
 * [instance] */
typedef struct bh_optim_check bh_optim_check;
bhost_status bh_optim_set_iterate(bh_optim_set *s, opt_sched *sched,
                                  bh_optim_check *snap);

/* ---- op_check.c: verify() of the last step on a sampled subset ----------- */

/* The sampled blocks and their state just before the last step. */
struct bh_optim_check {
    size_t blocks;
    size_t len;              /* elements per block */
    size_t *tensor, *offset; /* per block */
    double *p, *g, *s[3];    /* blocks x len snapshots before the step */
    uint64_t t;              /* 1-based step number of the snapped step */
    double lr, gscale;       /* the step's lr and gradient factor */
    opt_step_info info;      /* what the step reported */
    int valid, skipped;
};

/* Chooses the blocks (seeded) over set s and allocates the snapshot. */
bhost_status bh_optim_check_init(bh_optim_check *c, const bh_optim_set *s,
                                 uint64_t seed);
void bh_optim_check_fini(bh_optim_check *c, bhost_host *h);
/* Records the sampled state of s, about to take step t with lr, gscale. */
void bh_optim_check_snap(bh_optim_check *c, const bh_optim_set *s, uint64_t t,
                         double lr, double gscale);
/* Compares the sampled elements of s with the double reference applied to
 * the snapshot (see op_check.c for the tolerances); the global gradient
 * norm is recomputed in full. LAMB also takes one more, untimed step whose
 * per-tensor trust ratios are checked against double norms over whole
 * tensors. BHOST_E_VERIFY after set_error on a mismatch. [instance] */
bhost_status bh_optim_check_verify(bh_optim_check *c, bh_optim_set *s,
                                   opt_sched *sched);

/* ---- op_rank.c: the multi-rank benchmarks (zero.mpi, dp.step) ------------ */

/* Starts MPI unless it runs (BHOST_E_UNSUPPORTED with the reason in a
 * build without MPI, or for several ranks of bhost's local launcher,
 * which starts them without MPI; BHOST_E_SKIP when the host started
 * another number of processes than 'ranks', as check-plugin's one-process
 * cycle does) and holds the launch to the case: MPI_COMM_WORLD
 * must have 'ranks' processes and agree with the host's rank table when
 * there is one (BHOST_E_INVALID otherwise). Fills *rank, *size.
 * [instance] */
bhost_status bh_optim_rank_start(bhost_host *h, int64_t ranks, int *rank, int *size);
/* Reports the bytes this rank sent per step (measured, as rank/zr.h
 * counts them) next to the ZeRO formula's (expected):
 * comm.bytes_per_step, comm.expected_bytes, comm.bytes_ratio, and
 * |ratio - 1| as the correctness metric comm.volume_error held to
 * allowance (the padding the partition may add). [instance] */
void bh_optim_rank_volume(bhost_host *h, double measured, double expected, double allowance);
/* Hands the digest of this rank's parameters to the host, which compares
 * the ranks (bhost/ranks.h). BHOST_OK on a host without the rank table.
 * [instance] */
bhost_status bh_optim_rank_digest(bhost_host *h, uint64_t digest);

#endif /* BH_OPTIM_OP_H */
