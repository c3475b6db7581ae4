// SPDX-License-Identifier: MIT
/* Per-iteration figures derived from the counters of a run's timed
 * samples (perf_counters.h): pure arithmetic, no system calls. */
#ifndef BH_PERF_METRICS_H
#define BH_PERF_METRICS_H

#include "perf_counters.h"

/* The derived figures; NaN where an input was not counted. */
typedef struct bh_pc_derived {
    double cycles;            /* per iteration */
    double instructions;      /* per iteration */
    double branches;          /* per iteration */
    double l1d_misses;        /* L1d read misses per iteration */
    double llc_misses;        /* LLC read misses per iteration */
    double ipc;               /* instructions / cycles */
    double branch_miss_ratio; /* branch misses / branches */
    double l1d_hit_ratio;     /* 1 - L1d read misses / L1d reads, in [0, 1] */
    double llc_hit_ratio;     /* 1 - LLC read misses / LLC reads, in [0, 1] */
    double task_clock_ns;     /* CPU time of the counted threads per iteration */
    double context_switches;  /* per iteration */
    double page_faults;       /* per iteration */
    int multiplexed;          /* a group ran less than it was enabled: its
                                 counts are scaled estimates */
} bh_pc_derived;

/* Derives d from the totals t of iterations timed iterations (> 0).
 * Ratios use counts of the same group, so scaling does not change them. */
void bh_pc_derive(const bh_pc_totals *t, double iterations, bh_pc_derived *d);

/* num / den, NaN when either is NaN or den is not > 0. */
double bh_pc_ratio(double num, double den);

/* 1 - misses / accesses clamped to [0, 1] (a PMU's miss event may count
 * what its access event does not), NaN when accesses is not > 0. */
double bh_pc_hit_ratio(double misses, double accesses);

#endif
