/* Running a plan: every run of every case in a fresh worker, runs of all
 * cases interleaved in a seeded random order, then statuses folded and
 * summaries computed. */
#ifndef BH_EXECUTOR_H
#define BH_EXECUTOR_H

#include "plan.h"
#include "worker_spawn.h"

#include <signal.h>
#include <stdint.h>

typedef struct bh_exec_opts {
    uint64_t seed;       /* shuffles the run order and seeds each case */
    int progress;        /* print a progress line on stderr */
    size_t log_limit;    /* bytes of plugin output kept per run */
} bh_exec_opts;

/* Executes every runnable case of plan. Returns the number of runs that
 * were started. */
size_t bh_exec_plan(bh_plan *plan, const bh_exec_opts *o);

/* The seed a case's workers receive: mixes the run seed with the id. */
uint64_t bh_case_seed(uint64_t seed, const char *case_id);

/* Folds run statuses into the case status and computes its summary over
 * the samples of its ok runs. */
void bh_case_finish(bh_case *c, uint64_t seed);

#endif
