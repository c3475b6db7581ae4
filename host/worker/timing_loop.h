// SPDX-License-Identifier: MIT
/* The measurement loop of one run: calibration, warm-up, samples. */
#ifndef BH_TIMING_LOOP_H
#define BH_TIMING_LOOP_H

#include <bhost/plugin.h>
#include <stdint.h>

typedef struct bh_timing_target {
    const bhost_bench_desc *desc;
    void *inst;
    bhost_host *h;
    /* device timing when be/dev are set and the device has event timing */
    const bhost_backend *be;
    bhost_dev *dev;
    bhost_stream *stream;
    int manual;                 /* BHOST_BENCH_MANUAL_TIMING */
} bh_timing_target;

typedef struct bh_timing_plan {
    uint64_t warmup_ns;
    uint64_t sample_time_ns;    /* 0 = max(1 ms, 1000 x resolution) */
    uint32_t samples;
    uint64_t budget_ns;         /* wall budget for this run; 0 = none */
    int result_fd;              /* where calib/sample messages go */
    /* called just before and after each timed sample (not calibration or
       warm-up), outside its timed region: the run's meters (run_meters.h);
       NULL for none */
    void (*sample_begin)(void *arg);
    void (*sample_end)(void *arg);
    void *sample_arg;
} bh_timing_plan;

typedef struct bh_timing_outcome {
    bhost_status status;        /* first failing plugin status, or OK */
    const char *where;          /* "run" when status != OK */
    uint64_t iters_per_sample;
    uint32_t samples_taken;
    uint32_t warmup_samples;
    int budget_exhausted;
    double resolution_ns;
    double overhead_ns;
    const char *timing;         /* "host", "device" or "manual" */
    char reason[512];           /* the host's reason for status, when a
                                   timing rule (rules.h) was broken:
                                   BHOST_E_VERIFY for an impossible time,
                                   BHOST_E_INTERNAL for a manual time
                                   never set; else "" */
    int peer_failed;            /* a multi-rank run stopped because
                                   another rank failed (reason says which) */
} bh_timing_outcome;

/* Measures the host clock's resolution (smallest positive step) and the
 * cost of one reading, in nanoseconds. */
void bh_timing_measure_clock(double *resolution_ns, double *overhead_ns);

/* Runs calibration, warm-up and plan->samples timed samples, sending one
 * "sample" message per sample to plan->result_fd. Never calls verify.
 * On a rank of a multi-rank launch (rank_ext.h) every timed call ends at
 * an agreement of all ranks: the time taken is the maximum over ranks
 * (the rank's own goes out as the sample's "local_ns"), every decision
 * (iterations, warm-up end, budget) is taken on agreed values so that the
 * ranks make the same calls, and a rank's failure stops them all. */
void bh_timing_run(const bh_timing_target *t, const bh_timing_plan *plan,
                   bh_timing_outcome *out);

#endif
