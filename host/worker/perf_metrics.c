// SPDX-License-Identifier: MIT
/* Derived counter figures (perf_metrics.h). */
#include "perf_metrics.h"

#include <math.h>

/* See perf_metrics.h. */
double bh_pc_ratio(double num, double den)
{
    if (isnan(num) || !(den > 0))
        return NAN;
    return num / den;
}

/* See perf_metrics.h. */
double bh_pc_hit_ratio(double misses, double accesses)
{
    double r = 1.0 - bh_pc_ratio(misses, accesses);

    if (isnan(r))
        return NAN;
    return r < 0 ? 0 : r > 1 ? 1 : r;
}

/* See perf_metrics.h. */
void bh_pc_derive(const bh_pc_totals *t, double iterations, bh_pc_derived *d)
{
    const double *v = t->value;

    d->cycles = bh_pc_ratio(v[BH_PC_CYCLES], iterations);
    d->instructions = bh_pc_ratio(v[BH_PC_INSTRUCTIONS], iterations);
    d->branches = bh_pc_ratio(v[BH_PC_BRANCHES], iterations);
    d->l1d_misses = bh_pc_ratio(v[BH_PC_L1D_READ_MISSES], iterations);
    d->llc_misses = bh_pc_ratio(v[BH_PC_LLC_READ_MISSES], iterations);
    d->ipc = bh_pc_ratio(v[BH_PC_INSTRUCTIONS], v[BH_PC_CYCLES]);
    d->branch_miss_ratio = bh_pc_ratio(v[BH_PC_BRANCH_MISSES], v[BH_PC_BRANCHES]);
    d->l1d_hit_ratio = bh_pc_hit_ratio(v[BH_PC_L1D_READ_MISSES], v[BH_PC_L1D_READS]);
    d->llc_hit_ratio = bh_pc_hit_ratio(v[BH_PC_LLC_READ_MISSES], v[BH_PC_LLC_READS]);
    d->task_clock_ns = bh_pc_ratio(v[BH_PC_TASK_CLOCK], iterations);
    d->context_switches = bh_pc_ratio(v[BH_PC_CONTEXT_SWITCHES], iterations);
    d->page_faults = bh_pc_ratio(v[BH_PC_PAGE_FAULTS], iterations);
    d->multiplexed = 0;
    for (int g = 0; g < BH_PC_GROUPS; g++)
        if (t->read[g] && t->running[g] < t->enabled[g])
            d->multiplexed = 1;
}
