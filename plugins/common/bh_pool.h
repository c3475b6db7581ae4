// SPDX-License-Identifier: MIT
/*
 * bh_pool.h -- the fork-join thread pool the in-tree plugins share
 * (tensor, inference). A call is split into tasks; the caller and the
 * workers claim them from one atomic word holding the call's generation
 * and the next unclaimed task, so a worker that is not running when a call
 * starts (another process holds its CPU) delays nothing: the caller runs
 * the tasks it would have taken. Workers spin briefly after a call, then
 * sleep on a condition variable, so back-to-back calls start in well under
 * a microsecond.
 *
 * Thread context: one caller at a time per pool (the plugin instance's
 * thread); fn runs on the caller and on the workers.
 */
#ifndef BH_POOL_H
#define BH_POOL_H

#include <stddef.h>
#include <stdint.h>

typedef struct bh_pool bh_pool;

/* Runs task `task` of `tasks`; `thread` is the running thread's index in
 * [0, threads) (0 = the caller), for per-thread scratch. */
typedef void (*bh_pool_fn)(void *arg, uint32_t task, uint32_t tasks,
                           uint32_t thread);

/* A pool of nthreads threads including the caller (1 to 1024: 1 starts no
 * worker). After a call a worker spins `spin` pause instructions for the
 * next one before it sleeps (0: BH_POOL_SPIN_DEFAULT): long enough to
 * catch back-to-back calls, short enough not to take the CPU from other
 * threads of the process (a BLAS library's) between them. NULL when a
 * thread or memory could not be had. */
#define BH_POOL_SPIN_DEFAULT (1u << 16)
bh_pool *bh_pool_create(uint32_t nthreads, uint32_t spin);

/* Stops and joins the workers and frees p (NULL is fine). No call may be
 * running. */
void bh_pool_destroy(bh_pool *p);

/* Threads including the caller (1 for NULL). */
uint32_t bh_pool_threads(const bh_pool *p);

/* Runs fn(arg, t, tasks, thread) once for every t in [0, tasks) across
 * the pool and returns when all have returned. NULL p, one thread or one
 * task: all on the caller. */
void bh_pool_run(bh_pool *p, uint32_t tasks, bh_pool_fn fn, void *arg);

/* [*begin, *end) of share `share` of `shares` over [0, n): contiguous,
 * boundaries multiples of align (a power of two) except the last. */
void bh_split(size_t n, size_t align, unsigned share, unsigned shares,
              size_t *begin, size_t *end);

#endif
