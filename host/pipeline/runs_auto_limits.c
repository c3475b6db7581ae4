// SPDX-License-Identifier: MIT
/* The limits of runs: auto cases (runs_auto_limits.h). */
#include "runs_auto_limits.h"

#include "runs_auto.h"

#include <math.h>

/* See runs_auto_limits.h. */
void bh_runs_auto_limits(bh_plan *plan, const bh_regress_config *rc)
{
    size_t m = 0;
    uint32_t min;

    for (size_t i = 0; i < plan->n; i++)
        m += plan->cases[i].pre_status == BH_ST_OK;
    min = bh_runs_auto_least(rc->fdr, m);
    for (size_t i = 0; i < plan->n; i++) {
        bh_case *c = &plan->cases[i];
        bh_case_auto *a = &c->autorun;
        bh_regress_thresholds th;

        if (c->pre_status != BH_ST_OK || !c->settings.runs_auto)
            continue;
        bh_regress_thresholds_for(rc, c->id, &th);
        a->max = c->settings.max_runs;
        a->min = c->settings.min_runs ? c->settings.min_runs : min;
        a->fdr = rc->fdr;
        if (a->min > a->max)
            a->min = a->max;
        a->floor = c->settings.measure == BH_MEASURE_INSTRUCTIONS
                       ? bh_regress_metric_floor(rc, "instructions", 1, &th)
                       : th.noise_floor;
    }
}

/* See runs_auto_limits.h. */
cJSON *bh_runs_auto_json(const bh_case *c)
{
    const bh_case_auto *a = &c->autorun;
    cJSON *o = cJSON_CreateObject();

    cJSON_AddNumberToObject(o, "min", a->min);
    cJSON_AddNumberToObject(o, "max", a->max);
    cJSON_AddNumberToObject(o, "noise_floor", a->floor);
    if (a->stopped)
        cJSON_AddStringToObject(o, "stopped", a->stopped);
    else
        cJSON_AddNullToObject(o, "stopped");
    if (isfinite(a->ci_rel_width))
        cJSON_AddNumberToObject(o, "ci_rel_width", a->ci_rel_width);
    else
        cJSON_AddNullToObject(o, "ci_rel_width");
    return o;
}
