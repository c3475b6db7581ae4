// SPDX-License-Identifier: MIT
/* Running a plan: every run of every case in a fresh worker, runs of all
 * cases interleaved in a seeded random order (or in an order the caller
 * gives, as confirm-before-fail does to interleave two builds of a
 * plugin), then statuses folded and summaries computed. A case runs the
 * plugin file named by its plugin_path (and backend_path): two cases that
 * differ only in those run two builds of the same benchmark. */
#ifndef BH_EXECUTOR_H
#define BH_EXECUTOR_H

#include "plan.h"
#include "worker_spawn.h"

#include <signal.h>
#include <stdint.h>

/* How bh_exec_opts.progress shows progress on stderr. */
enum {
    BH_PROGRESS_NONE = 0,
    BH_PROGRESS_LIVE = 1, /* a terminal: one line redrawn after each run */
    BH_PROGRESS_LOG = 2   /* a log: a line per finished suite and at least
                             every 30 s (progress_log.h) */
};

typedef struct bh_exec_opts {
    uint64_t seed;       /* shuffles the run order and seeds each case */
    int progress;        /* BH_PROGRESS_*: progress lines on stderr */
    size_t log_limit;    /* bytes of plugin output kept per run */
    const struct bh_prof_request *profile; /* bhost run --profile
                                              (profile_run.h), or NULL */
} bh_exec_opts;

/* Executes every runnable case of plan. Returns the number of runs that
 * were started. */
size_t bh_exec_plan(bh_plan *plan, const bh_exec_opts *o);

/* One run of one case. */
typedef struct bh_exec_slot {
    uint32_t case_index; /* into plan->cases */
    uint32_t run_index;  /* < that case's settings.runs */
} bh_exec_slot;

/* Executes exactly the n slots in the given order (no shuffling), each in
 * a fresh worker; runnable cases get settings.runs run records, runs no
 * slot names stay not done (the case then folds to skipped). Slots naming
 * a case that is not runnable or a run index out of range are ignored.
 * Stops early when bh_interrupted is set. Then finishes every case as
 * bh_exec_plan does. Returns the number of runs started. */
size_t bh_exec_ordered(bh_plan *plan, const bh_exec_slot *order, size_t n,
                       const bh_exec_opts *o);

/* The seed a case's workers receive: mixes the run seed with the id. */
uint64_t bh_case_seed(uint64_t seed, const char *case_id);

/* Folds run statuses into the case status and computes its summary over
 * the samples of its ok runs. */
void bh_case_finish(bh_case *c, uint64_t seed);

#endif
