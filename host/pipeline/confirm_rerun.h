// SPDX-License-Identifier: MIT
/* The run pipeline's half of confirm-before-fail: it asks the regression
 * engine which cases are suspect, reruns them (clones of the candidate's
 * cases, and of the baseline build's when there is one) in the schedule
 * the engine draws, and hands the rerun values back for the engine to
 * decide (host/regress/confirm.h). */
#ifndef BH_CONFIRM_RERUN_H
#define BH_CONFIRM_RERUN_H

#include "confirm.h"
#include "plan.h"

#include <cjson/cJSON.h>
#include <stddef.h>
#include <stdint.h>

/* How to rerun. */
typedef struct bh_confirm_opts {
    const char *baseline_plugins; /* directory with the baseline build's
                                     plugin files (also searched one level
                                     down), or NULL */
    uint32_t runs;                /* pairs (or runs) per suspect case */
    uint64_t seed;                /* schedule and worker seeds */
    int progress;                 /* progress line on stderr */
    size_t log_limit;             /* plugin output kept per run */
} bh_confirm_opts;

/* Reruns the cases of r's suspect items (found by id in plan, the
 * candidate's executed plan), then has the engine decide
 * (bh_regress_confirm_decide). base_doc is the baseline document (for the
 * unpaired mode). Cases that cannot be rerun (not in plan, no plugin file
 * of that name in baseline_plugins) get conf.error and keep their first
 * verdict. Spawns worker processes; honours bh_interrupted: an
 * interrupted confirmation decides nothing (every suspect gets conf.error
 * and keeps its first verdict). Returns the number of cases rerun. */
size_t bh_confirm_rerun(bh_regress_report *r, const bh_plan *plan, const cJSON *base_doc,
                        const bh_regress_config *cfg, const bh_confirm_opts *o);

#endif
