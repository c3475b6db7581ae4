// SPDX-License-Identifier: MIT
/* The environment around each run (README "The environment of a run"):
 * before and after every worker the supervisor reads the load average,
 * the governor, turbo and the thermal throttle counters
 * (host/sysinfo/sysinfo_env.h) and times a short fixed calibration loop,
 * a dependent chain of 2^20 integer multiply-adds (about 1 ms), taking
 * the fastest of 3 repetitions. A run is flagged
 *   loaded      when the 1-minute load average at its start exceeds the
 *               number of online CPUs (something else competes for them);
 *   clock_fell  when its calibration at the start or the end is slower
 *               than the first calibration of this bhost process by more
 *               than BH_ENV_SLOWDOWN plus that first calibration's own
 *               noise (the fastest repetition against the second fastest);
 *   throttled   when the thermal throttle counters rose during the run.
 * Flagged runs are kept in the statistics (a flag is evidence to read,
 * not a reason to drop a run: dropping would bias the median towards the
 * quiet runs and hide the disturbance from the comparison's spread). */
#ifndef BH_ENV_CHECK_H
#define BH_ENV_CHECK_H

#include <stdint.h>

/* The slowdown of the calibration, beyond its own noise, that flags a
 * run: frequency steps (turbo bins, throttling) are 5-10% or more, while
 * the fastest of 3 repetitions repeats within about 2% on a loaded 2-core
 * VM (docs/budgets.md section 3). */
#define BH_ENV_SLOWDOWN 0.05

enum { BH_ENV_LOADED = 1u << 0, BH_ENV_CLOCK_FELL = 1u << 1, BH_ENV_THROTTLED = 1u << 2 };

/* What one run saw. */
typedef struct bh_env_run {
    int have;                /* begin was called */
    uint64_t calib_start_ns; /* the calibration at the start, fastest of 3 */
    uint64_t calib_end_ns;   /* at the end; 0 before bh_env_end */
    uint64_t calib_ref_ns;   /* the first calibration of this process */
    double calib_ref_noise;  /* its noise, a fraction */
    double slowdown;         /* the larger of start and end against the
                                reference, a fraction (negative: faster) */
    double load1;            /* NAN when unreadable */
    int ncpu;
    char governor[32];                      /* "" when there is no cpufreq */
    int boost;                              /* 1, 0, -1 unknown */
    long long throttle_start, throttle_end; /* -1 when there are none */
    unsigned flags;                         /* BH_ENV_* */
} bh_env_run;

/* Times the calibration loop: the fastest of 3 repetitions in ns; *noise
 * (may be NULL) gets the second fastest over the fastest minus 1. */
uint64_t bh_env_calibrate(double *noise);

/* Reads the machine and calibrates before a run (the first call in a
 * process sets the reference). */
void bh_env_begin(bh_env_run *r);

/* Reads and calibrates after the run, then sets r->slowdown and
 * r->flags with bh_env_decide. */
void bh_env_end(bh_env_run *r);

/* The flags of a run from recorded values: ref_ns and ref_noise the
 * reference calibration, start_ns and end_ns the run's (0: not taken),
 * load1 at the start (NAN: unknown) against ncpu, the throttle counters at
 * the start and end (-1: none). *slowdown gets the larger slowdown of
 * start and end against the reference (NAN when none is known). Pure. */
unsigned bh_env_decide(double ref_ns, double ref_noise, double start_ns, double end_ns,
                       double load1, int ncpu, long long thr_start, long long thr_end,
                       double *slowdown);

/* The name of one flag bit ("loaded", "clock_fell", "throttled"); NULL
 * for another bit (static). */
const char *bh_env_flag_name(unsigned bit);

#endif
