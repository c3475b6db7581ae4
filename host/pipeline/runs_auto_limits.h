// SPDX-License-Identifier: MIT
/* The limits of the runs: auto cases of a plan (host/supervisor/
 * runs_auto.h), from the settings and the regression: section: what the
 * comparison needs sets the least runs, the case's noise floor the width
 * at which its runs stop (docs/statistics.md section 8.3); and how a case
 * records them in the result. */
#ifndef BH_RUNS_AUTO_LIMITS_H
#define BH_RUNS_AUTO_LIMITS_H

#include "plan.h"
#include "regress_config.h"

#include <cjson/cJSON.h>

#include <stddef.h>
#include <stdint.h>

/* Sets autorun.min, max, floor and fdr of every runnable runs: auto case
 * of plan: min the case's min_runs, else bh_runs_auto_least at rc's fdr
 * over the runnable cases of the plan (one test each at least; the
 * executor raises it once the cases' metrics are known), never above
 * max_runs; floor the case's noise floor under rc (its overrides; the
 * counts' floor for measure: instructions). */
void bh_runs_auto_limits(bh_plan *plan, const bh_regress_config *rc);

/* The result's runs_auto member of c (docs/results-schema.md): min, max,
 * noise_floor, stopped ("ci_narrow", "max_runs", "time_budget",
 * "run_not_ok", "interrupted"; null when it never ran) and ci_rel_width
 * (the 95% interval of the run medians over their median when it stopped;
 * null when unbounded or none). */
cJSON *bh_runs_auto_json(const bh_case *c);

#endif
