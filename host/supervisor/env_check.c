// SPDX-License-Identifier: MIT
/* The environment around each run (env_check.h). */
#include "env_check.h"

#include "bh_clock.h"
#include "sysinfo_env.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define CALIB_STEPS (1u << 20)
#define CALIB_REPS  3

/* The first calibration of this process: every run is held against it.
 * One process runs one plan, so the reference is that plan's first run;
 * the supervisor runs workers one at a time from one thread. */
static uint64_t first_ns;
static double first_noise;

/* Keeps the chain's result alive. */
static volatile uint64_t calib_sink;

/* The dependent chain: each step needs the previous one's result, so its
 * time is the latency of a multiply-add times the steps, whatever the
 * out-of-order core could overlap. The empty asm keeps the compiler from
 * folding or vectorising it. */
static uint64_t chain(void)
{
    uint64_t x = 1;

    for (uint32_t i = 0; i < CALIB_STEPS; i++) {
        x = x * UINT64_C(6364136223846793005) + UINT64_C(1442695040888963407);
        __asm__ volatile("" : "+r"(x));
    }
    return x;
}

uint64_t bh_env_calibrate(double *noise)
{
    uint64_t t[CALIB_REPS];

    for (int i = 0; i < CALIB_REPS; i++) {
        uint64_t t0 = bh_now_ns();

        calib_sink = chain();
        t[i] = bh_now_ns() - t0;
    }
    /* sort the three: fastest first */
    for (int i = 0; i < CALIB_REPS; i++)
        for (int j = i + 1; j < CALIB_REPS; j++)
            if (t[j] < t[i]) {
                uint64_t x = t[i];

                t[i] = t[j];
                t[j] = x;
            }
    if (noise)
        *noise = t[0] ? (double)t[1] / (double)t[0] - 1 : 0;
    return t[0];
}

void bh_env_begin(bh_env_run *r)
{
    bh_sysinfo_env s;
    double noise = 0;

    memset(r, 0, sizeof(*r));
    bh_sysinfo_env_read(&s);
    r->have = 1;
    r->load1 = s.load1;
    r->ncpu = s.ncpu;
    snprintf(r->governor, sizeof(r->governor), "%s", s.governor);
    r->boost = s.boost;
    r->throttle_start = r->throttle_end = s.throttle;
    r->calib_start_ns = bh_env_calibrate(&noise);
    if (first_ns == 0) {
        first_ns = r->calib_start_ns;
        first_noise = noise;
    }
    r->calib_ref_ns = first_ns;
    r->calib_ref_noise = first_noise;
    r->slowdown = NAN;
}

void bh_env_end(bh_env_run *r)
{
    bh_sysinfo_env s;

    if (!r->have)
        return;
    r->calib_end_ns = bh_env_calibrate(NULL);
    bh_sysinfo_env_read(&s);
    r->throttle_end = s.throttle;
    r->flags = bh_env_decide((double)r->calib_ref_ns, r->calib_ref_noise, (double)r->calib_start_ns,
                             (double)r->calib_end_ns, r->load1, r->ncpu, r->throttle_start,
                             r->throttle_end, &r->slowdown);
}

unsigned bh_env_decide(double ref, double ref_noise, double start, double end, double load1,
                       int ncpu, long long thr_start, long long thr_end, double *slowdown)
{
    unsigned f = 0;
    double worst = NAN;

    if (ref > 0) {
        if (start > 0)
            worst = start / ref - 1;
        if (end > 0 && !(end / ref - 1 <= worst))
            worst = end / ref - 1;
    }
    *slowdown = worst;
    if (isfinite(worst) && worst > BH_ENV_SLOWDOWN + (ref_noise > 0 ? ref_noise : 0))
        f |= BH_ENV_CLOCK_FELL;
    if (isfinite(load1) && ncpu > 0 && load1 > (double)ncpu)
        f |= BH_ENV_LOADED;
    if (thr_start >= 0 && thr_end > thr_start)
        f |= BH_ENV_THROTTLED;
    return f;
}

const char *bh_env_flag_name(unsigned bit)
{
    switch (bit) {
    case BH_ENV_LOADED:
        return "loaded";
    case BH_ENV_CLOCK_FELL:
        return "clock_fell";
    case BH_ENV_THROTTLED:
        return "throttled";
    default:
        return NULL;
    }
}
