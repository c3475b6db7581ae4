// SPDX-License-Identifier: MIT
/* bhost ab's execution: two plans of one config, each planned against one
 * build's plugin folder, matched case by case and run interleaved ABBA in
 * one invocation (the schedule is regress/confirm.h's), so both runs of a
 * pair share the machine's state. */
#ifndef BH_AB_EXEC_H
#define BH_AB_EXEC_H

#include "executor.h"
#include "plan.h"

#include <cjson/cJSON.h>
#include <stddef.h>

/* Points every case of plan at the plugin file of the same name in dir
 * (or one folder below it): a config may name a plugin by path, and the
 * search path finds another build's file when dir lacks one. A backend
 * file dir holds is taken from dir too; others stay as found. Returns 0,
 * or -1 with *missing = the plugin file name dir lacks (a new string). */
int bh_ab_bind_plugins(bh_plan *plan, const char *dir, char **missing);

/* Keeps in a and b only the cases whose ids both have, in b's order (a is
 * reordered to match); the ids only a has are added to only_a, those only
 * b has to only_b (JSON arrays of strings). */
void bh_ab_match(bh_plan *a, bh_plan *b, cJSON *only_a, cJSON *only_b);

/* The pairs case k runs: the smaller runs of its two sides (runs: auto:
 * min_runs, else 10; the design needs a fixed number of pairs), 0 when
 * either side is not runnable. */
uint32_t bh_ab_pairs(const bh_case *a, const bh_case *b);

/* Runs the matched plans: case k's run j of a and of b form pair j, in
 * the ABBA schedule of all cases seeded with xo->seed; a runnable case
 * gets bh_ab_pairs pairs, at least least_pairs, and each side's
 * settings.runs becomes its pairs. Both plans are finished as
 * bh_exec_ordered finishes a plan (a case with no pairs folds to skipped
 * on the side that could run). Honours bh_interrupted. Returns the runs
 * started. */
size_t bh_ab_execute(bh_plan *a, bh_plan *b, uint32_t least_pairs, const bh_exec_opts *xo);

#endif
