// SPDX-License-Identifier: MIT
/* Runs that count instructions (setting measure: instructions): the
 * worker is started under Valgrind's callgrind with collection off and a
 * simulated cache of a fixed geometry, the worker switches collection on
 * around its samples only (host/worker/count_loop.h), and after it exits
 * the totals of callgrind's output file (callgrind_out.h) become the run's
 * metrics, per iteration, lower is better: instructions, l1_misses and
 * ll_misses. README "Counting instructions"; docs/statistics.md section 11.7
 * for how the gate compares them. */
#ifndef BH_CALLGRIND_RUN_H
#define BH_CALLGRIND_RUN_H

#include "bh_error.h"
#include "callgrind_out.h"
#include "plan.h"
#include "worker_spawn.h"

#include <cjson/cJSON.h>

/* The metrics a counting run adds (and replaces, should the plugin report
 * metrics of the same names). */
#define BH_CG_INSTRUCTIONS "instructions"
#define BH_CG_L1_MISSES "l1_misses"
#define BH_CG_LL_MISSES "ll_misses"

/* One counting run: its private folder for callgrind's output (or the
 * file a profile keeps) and the command that wraps the worker. */
typedef struct bh_cg_run {
    int on;          /* 0: the run does not count */
    char *dir;       /* the private folder; NULL when keep names the file */
    char *keep;      /* the output file kept (bhost run --profile), or NULL */
    char *out_arg;   /* --callgrind-out-file=DIR/callgrind.out.%p or =KEEP */
    char *argv[12];  /* valgrind and its options, NULL-terminated */
} bh_cg_run;

/* Marks every case of plan that counts instructions and would run
 * unsupported, with the reason, when no valgrind is on PATH or this build
 * cannot run under Valgrind (bh_tool_valgrind_refusal); cases that already
 * have a status or runs are left alone. [main] */
void bh_cg_check_plan(bh_plan *plan);

/* For a case that counts instructions: creates the run's private folder
 * (mode 0700, under $TMPDIR or /tmp), or, with keep (bhost run --profile
 * callgrind), has callgrind write its output file to the path keep
 * instead; sets x->argv to the valgrind command to wrap the worker in
 * (bh_spawn_worker_wrapped). For any other case sets x->argv[0] to NULL
 * and does nothing else. keep is copied. Returns 0, or -1 with e set when
 * the folder cannot be made or valgrind is gone. Finish with bh_cg_end.
 * [main] */
int bh_cg_begin(const bh_case *c, const char *keep, bh_cg_run *x, bh_error *e);

/* After the worker (process pid) of an ok run exited: reads its callgrind
 * output file and adds the metrics per iteration (the totals over the sum
 * of the run's sample iterations) to r->result's "metrics"; a file that is
 * missing or malformed, or a run without samples, makes the run failed
 * with the reason. Then removes the folder and everything in it (also for
 * a run that was not ok; a kept file stays) and frees x. Nothing happens when x counts
 * nothing. [main] */
void bh_cg_end(bh_cg_run *x, int pid, bh_run *r);

/* Adds the metrics of counts c over iters iterations to the result
 * message's "metrics" array (created when missing), replacing any of the
 * same names: instructions always, l1_misses and ll_misses when
 * c->has_cache. Pure apart from result. */
void bh_cg_add_metrics(cJSON *result, const bh_callgrind_counts *c, double iters);

#endif
