// SPDX-License-Identifier: MIT
/* The worker's side of bhost run --profile (host/supervisor/profile_run.h):
 * marking the run stage (calibration, warm-up and the samples) for a
 * profiler that wraps the worker. perf: events are switched on and off
 * through perf record's control FIFO ("enable"/"disable", each
 * acknowledged); massif, which has no start/stop requests: a detailed
 * snapshot is written at each end of the stage (Valgrind's monitor
 * command "detailed_snapshot FILE"). callgrind needs nothing here: its
 * run counts instructions (count_loop.h). Any other profile: nothing. */
#ifndef BH_PROFILE_REGION_H
#define BH_PROFILE_REGION_H

#include <cjson/cJSON.h>

typedef struct bh_prof_region {
    int ctl_fd;        /* perf's control FIFO, write end; -1: none */
    int ack_fd;        /* perf's acknowledgement FIFO, read end; -1: none */
    const char *begin; /* massif: snapshot files (borrowed from the job) */
    const char *end;
} bh_prof_region;

/* Reads the job's "profile_ctl"/"profile_ack" (opening the FIFOs) and
 * "profile_begin"/"profile_end"; a job without them marks nothing. A
 * FIFO that cannot be opened is left out (the profile then covers
 * nothing, which the host reports). Close with bh_prof_region_close. */
void bh_prof_region_open(const cJSON *job, bh_prof_region *r);

/* The run stage starts, or ends: perf's events on (off), waiting up to
 * 5 s for perf's acknowledgement; massif's snapshot written. */
void bh_prof_region_enter(bh_prof_region *r);
void bh_prof_region_leave(bh_prof_region *r);

void bh_prof_region_close(bh_prof_region *r);

#endif
