// SPDX-License-Identifier: MIT
/* The --profile step of bhost run (host/supervisor/profile_run.h does the
 * profiling): the tool named on the command line, the one case it
 * profiles, the folder next to the result the profiles go to, the case's
 * "profile" record in the result, and the paths printed at the end.
 * A profiled run's timings are not comparable (the worker ran under a
 * profiler), so the run marks itself: run.profile names the tool, each
 * profiled case has "profile", and the gate never compares such a case
 * (bh_regress_compare_docs: "not compared: profiled"), nor stored, nor a
 * point of bhost history. */
#ifndef BH_RUN_PROFILE_H
#define BH_RUN_PROFILE_H

#include "config.h"
#include "plan.h"
#include "profile_run.h"

#include <cjson/cJSON.h>
#include <stdio.h>

typedef struct bh_run_profile {
    int on;              /* --profile was given */
    bh_prof_request req; /* the tool, the folder, the records */
} bh_run_profile;

/* Reads the value of --profile. 0, or -1 after printing "run: --profile
 * 'X': expected one of perf, callgrind, ...". */
int bh_run_profile_set(bh_run_profile *p, const char *value);

/* A profile is one worker: every suite gets runs 1 (not auto), and measure
 * instructions for callgrind (its collection around the samples), time
 * for the other tools (whatever the config or --measure say). */
void bh_run_profile_settings(const bh_run_profile *p, bh_config *cfg);

/* Checks the selection and the tool before anything runs: plan must hold
 * exactly one case, the tool's program must be on PATH. Then names the
 * folder: <folder of result_path>/<stamp>-profiles (with --out FILE:
 * FILE without .json, "-profiles"; "-2", "-3", ... when taken) and marks
 * the case unsupported where this build cannot run the tool
 * (bh_prof_check_plan). Returns 0, or BH_EXIT_USAGE after printing one
 * line (several cases: their count and the first two ids). */
int bh_run_profile_prepare(bh_run_profile *p, bh_plan *plan, const char *result_path,
                           const char *stamp, int out_given);

/* The request for the executor (bh_exec_opts.profile), NULL when not
 * profiling. */
const bh_prof_request *bh_run_profile_request(const bh_run_profile *p);

/* Adds run.profile (the tool) and each profiled case's "profile" record
 * to the result document doc. */
void bh_run_profile_record(const bh_run_profile *p, cJSON *doc);

/* Prints "profile: PATH" and "flame graph: PATH" of each profiled case on
 * out (paths as this process reaches them). */
void bh_run_profile_print(const bh_run_profile *p, FILE *out);

void bh_run_profile_free(bh_run_profile *p);

#endif
