// SPDX-License-Identifier: MIT
/* The meters of one run (counters and energy) and what the run reports
 * from them: docs/measurement.md. The worker opens them before it loads
 * the plugin, the timing loop calls the sample hooks just outside the
 * timed region of each timed sample (not calibration or warm-up), and the
 * run's result gets informational metrics per iteration plus the records
 * "counters" and "energy" (docs/results-schema.md). */
#ifndef BH_RUN_METERS_H
#define BH_RUN_METERS_H

#include "energy.h"
#include "perf_counters.h"

#include <bhost/plugin.h>
#include <cjson/cJSON.h>

typedef struct bh_run_meters {
    int on; /* counters: on */
    bh_perf_counters pc;
    bh_energy en;
    uint32_t samples; /* timed samples seen */
} bh_run_meters;

/* Opens the counters and energy meters when on (gpu: the case's device
 * index, -1 for a host case); with on == 0 opens nothing. Never fails:
 * what is missing is said in the records. */
void bh_run_meters_open(bh_run_meters *m, int on, int gpu);

/* Hooks of one timed sample (m is a bh_run_meters): begin reads the
 * energy meters and then enables the counters; end disables the counters
 * and then reads the energy meters. */
void bh_run_meters_begin(void *m);
void bh_run_meters_end(void *m);

/* Adds to res the records "counters" and "energy", and reports through
 * h the informational metrics of iterations timed iterations (perf.*,
 * energy.*). */
void bh_run_meters_report(bh_run_meters *m, double iterations, bhost_host *h, cJSON *res);

/* Closes everything m opened. */
void bh_run_meters_close(bh_run_meters *m);

#endif
