// SPDX-License-Identifier: MIT
/* The environment and the CPU time of runs in the result document
 * (docs/results-schema.md: runs[].cpu, runs[].environment, the case's
 * cpu_utilisation and environment). */
#ifndef BH_RESULT_ENV_H
#define BH_RESULT_ENV_H

#include "plan.h"

#include <cjson/cJSON.h>

/* Adds "cpu" {user_ns, sys_ns, utilisation: (user + sys) / wall} and,
 * when the run was checked, "environment" {calibration_start_ns,
 * calibration_end_ns, calibration_ref_ns, calibration_noise, slowdown,
 * load1, cpus, governor (null without cpufreq), boost (null unknown),
 * throttle_start, throttle_end (null without counters), flags[]} to the
 * run object o. */
void bh_result_run_env(cJSON *o, const bh_run *r);

/* Adds to the case object o, over its finished runs: "cpu_utilisation"
 * {median, min, max, runs} (absent when no run has a wall time) and
 * "environment" {runs_flagged, loaded, clock_fell, throttled (counts of
 * runs), governor, boost, throttle_counters (bool), messages[]: one per
 * flagged run, "clock fell: calibration 8% slower at the end of run 4"};
 * flagged runs stay in the statistics (env_check.h). */
void bh_result_case_env(cJSON *o, const bh_case *c);

#endif
