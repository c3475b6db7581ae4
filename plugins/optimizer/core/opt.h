// SPDX-License-Identifier: MIT
/*
 * opt.h -- liboptim, the optimizer core of the optimizer plugin: fused
 * single-pass optimizer steps over groups of f32 parameter tensors (with
 * optional bf16/f16 parameter copies and gradients), gradient clipping by
 * global norm, gradient accumulation, a double-precision reference, the
 * learning-rate schedulers, published model layouts and the ZeRO
 * partitioning model. No bhost dependency: the plugin and the MPI tool link
 * it, and tests/ unit-test it alone.
 *
 * Conventions: actions return 0 (OPT_OK) or a negative OPT_E_*;
 * constructors return NULL on failure. Memory handed in stays owned by the
 * caller. Nothing here is thread-safe on one object unless stated.
 */
#ifndef OPT_H
#define OPT_H

#include <stddef.h>
#include <stdint.h>

enum {
    OPT_OK = 0,
    OPT_E_INVALID = -1,
    OPT_E_NOMEM = -2,
    OPT_SKIPPED = 1 /* opt_step: non-finite gradients, nothing changed */
};

/* ---- Optimizers and precisions ------------------------------------------ */

typedef enum opt_kind {
    OPT_SGD = 0,
    OPT_ADAM,
    OPT_ADAMW,
    OPT_ADAGRAD,
    OPT_RMSPROP,
    OPT_LAMB,
    OPT_LION,
    OPT_KIND_COUNT
} opt_kind;

typedef enum opt_dtype { OPT_F32 = 1, OPT_BF16 = 2, OPT_F16 = 3 } opt_dtype;

/* Hyperparameters, PyTorch's names and meanings (torch.optim; LAMB as in
 * You et al. 2019 with bias correction; Lion as in Chen et al. 2023). */
typedef struct opt_hparams {
    opt_kind kind;
    int nesterov;          /* SGD */
    int centered;          /* RMSprop */
    int reserved;
    double lr;             /* base learning rate (schedulers scale it) */
    double beta1, beta2;   /* Adam, AdamW, LAMB, Lion */
    double eps;            /* Adam, AdamW, Adagrad, RMSprop, LAMB */
    double weight_decay;   /* L2 for SGD/Adam/Adagrad/RMSprop, decoupled
                              for AdamW/Lion, in the update for LAMB */
    double momentum;       /* SGD, RMSprop */
    double dampening;      /* SGD */
    double alpha;          /* RMSprop smoothing */
    double lr_decay;       /* Adagrad */
    double initial_accumulator; /* Adagrad */
    double max_grad_norm;  /* > 0: clip by global L2 norm */
    int skip_nonfinite;    /* compute the norm and skip non-finite steps */
    int reserved2;
} opt_hparams;

/* PyTorch's defaults for kind (lr 1e-3; Adagrad and RMSprop 1e-2; AdamW
 * weight_decay 1e-2; LAMB eps 1e-6, weight_decay 1e-2 as timm; Lion lr
 * 1e-4, betas 0.9/0.99). No clipping. */
void opt_hparams_default(opt_kind kind, opt_hparams *hp);

/* "sgd", "adam", "adamw", "adagrad", "rmsprop", "lamb", "lion". */
const char *opt_kind_name(opt_kind kind);
/* The kind named s; -1 when unknown. */
int opt_kind_from_name(const char *s);
/* "f32", "bf16", "f16"; 0 for an unknown name. */
opt_dtype opt_dtype_from_name(const char *s);
size_t opt_dtype_size(opt_dtype t);

/* Number of f32 state slots and which are used (used[i] != 0), in slot
 * order: SGD {momentum buffer if momentum != 0}; Adam, AdamW, LAMB {m, v};
 * Adagrad {sum}; RMSprop {square_avg, momentum buffer if momentum > 0,
 * grad_avg if centered}; Lion {m}. */
int opt_state_slots(const opt_hparams *hp, int used[3]);
/* Initial value of state slot i (Adagrad: initial_accumulator; else 0). */
double opt_state_init(const opt_hparams *hp, int slot);

/* Optimizer-state bytes per parameter: used slots x 4, plus the f32 master
 * copy (4) when param_dtype is not F32. */
double opt_state_bytes_per_param(const opt_hparams *hp, opt_dtype param_dtype);

/* Minimum memory traffic of one steady-state step per parameter: each
 * stream read once and written once, no write-allocate.
 *   grad read (2 or 4) + master read and write (8) + 8 per used state slot
 *   + 2 for the bf16/f16 parameter copy written in mixed precision
 *   + one more grad read when a norm pass runs (clipping / skip_nonfinite).
 * LAMB needs a full reduction (trust ratio) before any write of p, so its
 * second pass re-reads p, m and v: +12 (f32: 40 B = 10 streams).
 * f32 totals: SGD 12 (momentum 20), Adam/AdamW 28, Adagrad 20, RMSprop 20
 * (+8 momentum, +8 centered), LAMB 40, Lion 20. */
double opt_traffic_bytes_per_param(const opt_hparams *hp, opt_dtype param_dtype,
                                   opt_dtype grad_dtype);

/* ---- Instruction sets --------------------------------------------------- */

enum { OPT_ISA_PORTABLE = 0, OPT_ISA_AVX2 = 1, OPT_ISA_AVX512 = 2 };

/* The best level this CPU supports (probed once with
 * __builtin_cpu_supports). [any-thread] */
int opt_isa_detected(void);
/* The level in use: min(detected, limit). [any-thread] */
int opt_isa(void);
/* Caps the level (tests, the "isa" parameter); -1 removes the cap.
 * Process-wide. */
void opt_isa_limit(int limit);
/* "portable", "avx2", "avx512"; NULL for another value. */
const char *opt_isa_name(int level);
/* The level named s; -1 when unknown. */
int opt_isa_from_name(const char *s);

/* ---- Thread pool --------------------------------------------------------- */

#include "bh_pool.h" /* plugins/common: the pool, bh_split */

typedef bh_pool opt_pool;
typedef void (*opt_task_fn)(void *arg, unsigned tid, unsigned nthreads);

/* A pool of nthreads (1..256) threads including the caller; NULL on
 * failure. */
opt_pool *opt_pool_create(unsigned nthreads);
/* Joins the workers and frees the pool; NULL is ignored. */
void opt_pool_destroy(opt_pool *p);
/* Threads of the pool (1 for NULL). */
unsigned opt_pool_threads(const opt_pool *p);
/* Runs fn(arg, tid, n) for every share tid of n (one per thread; a share
 * whose thread has not started runs on the caller) and returns when all
 * are done.
 * Work below OPT_POOL_MIN_ELEMS elements per thread runs as fn(arg, 0, 1)
 * on the caller alone (no wake-up). p may be NULL. Not reentrant. */
#define OPT_POOL_MIN_ELEMS ((size_t)16384)
void opt_pool_run(opt_pool *p, size_t elems, opt_task_fn fn, void *arg);

/* STREAM triad a = b + s c over n doubles on the pool's threads (each
 * thread streams a contiguous share). The bandwidth roof. */
void opt_triad(double *a, const double *b, const double *c, double s,
               size_t n, opt_pool *pool);

/* ---- Groups of tensors and the fused step -------------------------------- */

/* count tensors updated together. The caller fills the pointer arrays
 * (one entry per tensor, each array sizes[k] elements, 64-byte alignment
 * recommended); opt_group_create allocates the tables, not the data. */
typedef struct opt_group {
    size_t count;
    size_t total;          /* sum of sizes */
    size_t *offset;        /* count + 1 prefix sums */
    opt_dtype param_dtype; /* F32: master only; BF16/F16: + param copy */
    opt_dtype grad_dtype;
    float **master;        /* f32 parameters (the master copy) */
    void **param;          /* param_dtype copies written by each step */
    const void **grad;     /* grad_dtype gradients */
    float **state[3];      /* the used state slots (opt_state_slots) */
    double *lamb_norm;     /* LAMB: per tensor ||p||^2, ||u||^2 of the last
                              step (2 x count) */
    uint64_t step;         /* steps taken (bias corrections use step + 1) */
    void *scratch;         /* the passes' context; owned by the group */
    unsigned checked;      /* 1 + the slot mask whose pointers opt_step
                              checked (once, not every step); set to 0
                              after changing pointers */
    unsigned reserved;
} opt_group;

/* A group of count >= 1 tensors of the given sizes (each >= 1); NULL on
 * failure. Pointers start NULL, step at 0. */
opt_group *opt_group_create(size_t count, const size_t *sizes,
                            opt_dtype param_dtype, opt_dtype grad_dtype);
void opt_group_destroy(opt_group *g);

/* How a step reaches the tensors: MULTI = one parallel pass over all
 * tensors, split by element count (the multi-tensor apply); LOOP = one
 * parallel pass per tensor (a launch per tensor). */
typedef enum opt_path { OPT_PATH_MULTI = 0, OPT_PATH_LOOP = 1 } opt_path;

typedef struct opt_step_info {
    double grad_norm;  /* global L2 norm of the scaled grads; -1 if not run */
    double clip_coef;  /* factor the clipping applied (1 = none) */
    double gscale;     /* the gradient factor the kernels used */
} opt_step_info;

/* One optimizer step of every tensor in g with learning rate lr (the
 * scheduler's value) and gradients scaled by gscale (1/accumulation steps,
 * 1/loss scale): clipping first when hp->max_grad_norm > 0. Returns
 * OPT_OK, OPT_SKIPPED when the gradient norm is not finite (hp has
 * max_grad_norm or skip_nonfinite; nothing changed), or OPT_E_INVALID.
 * info may be NULL. Threads: pool (may be NULL). */
int opt_step(opt_group *g, const opt_hparams *hp, double lr, double gscale,
             opt_pool *pool, opt_path path, opt_step_info *info);

/* Sum of squares of every gradient in g (in double over f32 partials). */
double opt_grad_sumsq(const opt_group *g, opt_pool *pool, opt_path path);

/* acc[k] = micro[k] (first) or acc[k] += micro[k], for every tensor of g's
 * layout; micro in micro_dtype. The accumulation of micro-batch gradients
 * before a step whose grads are acc (grad_dtype F32, gscale 1/steps). */
void opt_accumulate(const opt_group *g, float *const *acc,
                    const void *const *micro, opt_dtype micro_dtype, int first,
                    opt_pool *pool, opt_path path);

/* ---- Conversions (scalar, round to nearest even) ------------------------- */

float opt_bf16_to_f32(uint16_t h);
uint16_t opt_f32_to_bf16(float f);
float opt_f16_to_f32(uint16_t h);
uint16_t opt_f32_to_f16(float f);
/* Element i of an array of dtype t as double. */
double opt_load(const void *p, opt_dtype t, size_t i);
/* Stores x rounded to dtype t into element i. */
void opt_store(void *p, opt_dtype t, size_t i, double x);

/* ---- Double-precision reference ------------------------------------------ */

/* One step t (1-based) of hp over n elements in double, the textbook
 * formulas (bias-corrected moments, decoupled decay, ...): p, s0..s2 are
 * updated in place, g holds the already scaled gradients. LAMB: the trust
 * ratio ||p|| / ||u|| over these n elements (1 when either is 0), unless
 * lamb_ratio >= 0 is given; returns the ratio used (1 for the others). */
double opt_ref_step(const opt_hparams *hp, uint64_t t, double lr, size_t n,
                    double *p, const double *g, double *s0, double *s1,
                    double *s2, double lamb_ratio);

/* PyTorch's clip_grad_norm_ factor: min(1, max_norm / (norm + 1e-6)). */
double opt_ref_clip_coef(double max_norm, double norm);

/* ---- Schedulers ----------------------------------------------------------- */

typedef enum opt_sched_kind {
    OPT_SCHED_CONSTANT = 0,
    OPT_SCHED_STEP,           /* StepLR(step_size, gamma) */
    OPT_SCHED_MULTISTEP,      /* MultiStepLR(milestones, gamma) */
    OPT_SCHED_EXPONENTIAL,    /* ExponentialLR(gamma) */
    OPT_SCHED_COSINE_RESTARTS,/* CosineAnnealingWarmRestarts(T_0, T_mult,
                                 eta_min) */
    OPT_SCHED_WARMUP_COSINE,  /* linear warmup, cosine decay to min_lr */
    OPT_SCHED_WARMUP_LINEAR,  /* linear warmup, linear decay to min_lr */
    OPT_SCHED_ONECYCLE,       /* OneCycleLR(max_lr, total, pct_start,
                                 div_factor, final_div_factor), cos anneal */
    OPT_SCHED_POLYNOMIAL,     /* PolynomialLR(total_iters, power) */
    OPT_SCHED_KIND_COUNT
} opt_sched_kind;

#define OPT_SCHED_MAX_MILESTONES 16

typedef struct opt_sched_cfg {
    opt_sched_kind kind;
    unsigned milestone_count;
    double base_lr;     /* max_lr for ONECYCLE */
    double gamma;
    double eta_min;     /* COSINE_RESTARTS; min_lr of the warmup decays */
    double t_mult;      /* COSINE_RESTARTS, integer >= 1 */
    double pct_start, div_factor, final_div_factor; /* ONECYCLE */
    double power;       /* POLYNOMIAL */
    uint64_t step_size; /* STEP */
    uint64_t t0;        /* COSINE_RESTARTS */
    uint64_t warmup;    /* WARMUP_* */
    uint64_t total;     /* WARMUP_*, ONECYCLE, POLYNOMIAL */
    uint64_t milestones[OPT_SCHED_MAX_MILESTONES]; /* ascending */
} opt_sched_cfg;

/* A running scheduler: lr is the rate of step t (t = 0 before the first
 * optimizer step). Chainable kinds update lr recursively as PyTorch's
 * get_lr() does; the others evaluate their formula at t. */
typedef struct opt_sched {
    opt_sched_cfg cfg;
    uint64_t t;
    double lr;
    uint64_t t_cur, t_i; /* COSINE_RESTARTS */
} opt_sched;

/* Sensible defaults for kind around base_lr and total steps. */
void opt_sched_default(opt_sched_kind kind, double base_lr, uint64_t total,
                       opt_sched_cfg *cfg);
/* "constant", "step", "multistep", "exponential", "cosine_restarts",
 * "warmup_cosine", "warmup_linear", "onecycle", "polynomial". */
const char *opt_sched_name(opt_sched_kind kind);
int opt_sched_from_name(const char *s);
/* OPT_E_INVALID for inconsistent settings (step_size 0, unsorted
 * milestones, warmup > total, ...). */
int opt_sched_check(const opt_sched_cfg *cfg);
/* Starts s at t = 0. cfg must pass opt_sched_check. */
void opt_sched_init(opt_sched *s, const opt_sched_cfg *cfg);
/* Advances to step t + 1 and returns its lr. */
double opt_sched_step(opt_sched *s);
/* The closed form of the rate at step t. */
double opt_sched_closed(const opt_sched_cfg *cfg, uint64_t t);

/* ---- Model layouts -------------------------------------------------------- */

/* The parameter tensors of a published model, in module order: "bert-base"
 * (bert-base-uncased with pooler, 109,482,240), "gpt2" (124,439,808, tied
 * lm_head), "llama-7b" (6,738,415,616, untied lm_head). Returns the tensor
 * count, or 0 for an unknown name; sizes (when not NULL) receives up to
 * cap sizes. */
size_t opt_model_tensors(const char *name, size_t *sizes, size_t cap);
/* Sum of the sizes of opt_model_tensors; 0 when unknown. */
uint64_t opt_model_params(const char *name);

/* ---- ZeRO partitioning --------------------------------------------------- */

typedef struct opt_zero_plan {
    unsigned stage;        /* 0 (plain data parallel) .. 3 */
    unsigned ranks;
    uint64_t params;       /* total parameters Psi */
    uint64_t shard;        /* parameters per rank (padded partition) */
    double param_bytes, grad_bytes, state_bytes; /* per parameter */
    /* per-rank memory in bytes */
    double mem_params, mem_grads, mem_state, mem_total;
    /* bytes one rank sends per step, ring algorithms: all-reduce
     * 2 (N-1)/N V, reduce-scatter and all-gather (N-1)/N V each */
    double all_reduce_bytes, reduce_scatter_bytes, all_gather_bytes;
    double comm_bytes;
} opt_zero_plan;

/* The plan of stage over ranks for params parameters; shards are padded to
 * a multiple of align (>= 1) elements. OPT_E_INVALID for stage > 3 or
 * ranks 0. Per stage (Psi params, N ranks, P/G/K bytes per param):
 *   0: memory (P + G + K) Psi, all-reduce of grads
 *   1: (P + G) Psi + K Psi/N, reduce-scatter grads + all-gather params
 *   2: P Psi + (G + K) Psi/N, the same traffic
 *   3: (P + G + K) Psi/N, reduce-scatter + two all-gathers (fwd, bwd) */
int opt_zero_plan_make(unsigned stage, unsigned ranks, uint64_t params,
                       double param_bytes, double grad_bytes,
                       double state_bytes, uint64_t align, opt_zero_plan *z);
/* [begin, end) of rank's partition, clipped to params. */
void opt_zero_range(const opt_zero_plan *z, unsigned rank, uint64_t *begin,
                    uint64_t *end);
/* The sizes of the model tensors (count, sizes) that fall in [begin, end),
 * cut at the partition edges, into out (cap entries); returns the count. */
size_t opt_zero_cut(const size_t *sizes, size_t count, uint64_t begin,
                    uint64_t end, size_t *out, size_t cap);

#endif /* OPT_H */
