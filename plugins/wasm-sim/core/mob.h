// SPDX-License-Identifier: MIT
/*
 * mob.h -- the mobile simulation of libwsim_core: device profiles that cap
 * threads, working set and bandwidth; a deterministic thermal model; the
 * matmul of one layer at the three optimization levels (f32, f16 weights,
 * int8); the adaptation rule. Knows nothing of bhost.
 */
#ifndef WSIM_MOB_H
#define WSIM_MOB_H

#include <stddef.h>
#include <stdint.h>

/* ---- Profiles (mob_profile.c) ------------------------------------------ */

typedef struct mob_profile {
    const char *name;
    uint32_t threads;     /* cores the app may use */
    uint32_t reserved;
    uint64_t working_set; /* bytes the app may keep resident */
    double bandwidth;     /* sustained memory bandwidth, bytes/s */
    double speed;         /* per-core speed relative to a host core, <= 1 */
    /* Thermal model (mob_thermal.c). */
    double power_w;       /* heat input at full duty for f32 work, W */
    double cool_per_s;    /* share of the stored heat shed per second */
    double budget_j;      /* stored heat at which the governor acts, J */
} mob_profile;

/* The profile called name ("phone-big", "phone-little", "tablet"), or
 * NULL. */
const mob_profile *mob_profile_find(const char *name);

/* NULL-terminated list of the profile names (for parameter choices). */
extern const char *const mob_profile_names[];

/* Time a piece of work that took real_ns on the host and moved bytes takes
 * on the profile's device: max(real_ns / speed, bytes / bandwidth). */
double mob_paced_ns(const mob_profile *p, double real_ns, double bytes);

/* Sleeps until the CLOCK_MONOTONIC time t_ns (no-op when past). */
void mob_sleep_until(uint64_t t_ns);

/* CLOCK_MONOTONIC now, in ns. */
uint64_t mob_now_ns(void);

/* ---- Thermal model (mob_thermal.c) -------------------------------------
 * Simulated time in 10 ms steps; nothing reads a clock, so a timeline
 * depends only on (profile, level energy, seed, horizon). Each step the
 * workload asks for a utilization in [0.92, 1) drawn from the seed; the
 * device runs min(demand, duty); stored heat H gains power_w * energy *
 * utilization * dt and sheds cool_per_s * H * dt. Every 100 ms the governor
 * (step-wise, like Linux's step_wise) lowers the duty one level when H >=
 * budget_j and H rose since the last poll (at most once a second), and
 * raises it one level when H < 0.9 budget_j and the duty has held for 2 s.
 * Duty levels: 1.0, 0.85, 0.7, 0.55, 0.4, 0.3. */

#define MOB_DUTY_LEVELS 6
#define MOB_MAX_EVENTS 512

typedef struct mob_event {
    uint32_t step;      /* 10 ms steps since the start */
    uint16_t from, to;  /* duty level indices */
} mob_event;

typedef struct mob_thermal {
    /* inputs */
    double energy;      /* heat per unit of work relative to f32 (<= 1) */
    double horizon_s;
    uint64_t seed;
    /* timeline */
    mob_event events[MOB_MAX_EVENTS];
    uint32_t n_events;  /* governor changes (may exceed MOB_MAX_EVENTS; the
                           first ones are kept) */
    uint32_t steps;
    uint64_t hash;      /* FNV-1a over every event, 53 bits */
    /* summary */
    double time_to_throttle_s; /* first lowering; < 0 when none */
    double sustained;   /* work done / work asked over the second half */
    double throttled;   /* work done / work asked once throttled (1 if never) */
    double min_duty;
    double peak_heat_j;
    double work;        /* burst-seconds of work done over the horizon */
} mob_thermal;

/* Runs the model for t->horizon_s with t->energy and t->seed set; fills
 * the rest. -1 for a horizon outside (0, 86400] or energy outside (0, 4]. */
int mob_thermal_run(const mob_profile *p, mob_thermal *t);

/* Duty of level index i. */
double mob_duty(unsigned i);

/* ---- Thread pool (mob_pool.c) ------------------------------------------ */

typedef struct bh_pool mob_pool; /* plugins/common/bh_pool.h */
typedef void (*mob_task)(void *arg, unsigned tid, unsigned nthreads);

/* A pool of threads (the caller counts as one; threads - 1 are started),
 * or NULL when out of resources. */
mob_pool *mob_pool_new(unsigned threads);
/* Joins the threads. NULL is ignored. */
void mob_pool_free(mob_pool *p);
/* Runs fn(arg, tid, n) for every share tid of n (one per thread; a share
 * whose thread has not started runs on the caller) and waits. A NULL pool
 * runs fn(arg, 0, 1). */
void mob_pool_run(mob_pool *p, mob_task fn, void *arg);
unsigned mob_pool_size(const mob_pool *p);

/* ---- One layer at an optimization level (mob_level.c) ------------------ */

enum { MOB_F32 = 0, MOB_F16 = 1, MOB_INT8 = 2, MOB_LEVELS = 3 };

/* y (m x n) = x (m x k) W (k x n) with W stored per level: f32; IEEE half;
 * int8 per output column with an f32 scale (x quantized per row to int8
 * in every run). */
typedef struct mob_layer {
    int level;
    uint32_t m, n, k;
    float *x, *y;        /* m x k, m x n */
    float *w;            /* f32: k x n */
    uint16_t *wh;        /* f16: k x n */
    int8_t *wq, *xq;     /* int8: n x k (W transposed), m x k */
    float *ws, *xs;      /* int8: n, m scales */
} mob_layer;

/* Name of a level ("f32", "f16", "int8"); level index of a name or -1. */
const char *mob_level_name(int level);
int mob_level_find(const char *name);

/* Bytes the layer keeps resident at level (inputs, weights, outputs and
 * scratch). */
uint64_t mob_layer_bytes(int level, uint32_t m, uint32_t n, uint32_t k);
/* Minimum memory traffic of one run: weights once, x, y. */
double mob_layer_traffic(int level, uint32_t m, uint32_t n, uint32_t k);
/* Heat per unit of work relative to f32 (thermal model input). */
double mob_level_energy(int level);

/* Allocates the layer with malloc, copies x and converts w (k x n f32) to
 * the level's storage. -1 when out of memory (nothing left allocated). */
int mob_layer_init(mob_layer *l, int level, uint32_t m, uint32_t n,
                   uint32_t k, const float *x, const float *w);
void mob_layer_free(mob_layer *l);
/* One run on the pool's threads (rows split evenly). */
void mob_layer_run(mob_layer *l, mob_pool *pool);

/* ---- Adaptation (mob_level.c) ------------------------------------------ */

/* The most accurate level (f32, then f16, then int8) that fits
 * (fits[level] != 0) and whose latency_ms[level] <= budget_ms; *met = 1.
 * When none meets the budget: the fastest level that fits, *met = 0.
 * -1 when no level fits. */
int mob_adapt_pick(const double latency_ms[MOB_LEVELS],
                   const int fits[MOB_LEVELS], double budget_ms, int *met);

#endif /* WSIM_MOB_H */
