// SPDX-License-Identifier: MIT
/* The sampling loop of a run that counts instructions (setting measure:
 * instructions): the worker runs under Valgrind's callgrind, started by
 * the supervisor with collection off (--collect-atstart=no), and switches
 * collection on only around each sample's run() call, so the loader,
 * create, setup, the warm-up, the protocol messages, verify and destroy
 * are never counted. The supervisor reads the counts from callgrind's
 * output file after the worker exits (host/supervisor/callgrind_out.h). */
#ifndef BH_COUNT_LOOP_H
#define BH_COUNT_LOOP_H

#include "timing_loop.h"

#include <stdint.h>

/* True when this worker was built with <valgrind/callgrind.h>, so that it
 * can switch collection on and off; without it a counting run is
 * unsupported. Pure. */
int bh_count_available(void);

/* No calibration (a time under Valgrind means nothing): one warm-up call
 * of run(iterations), not collected, so that lazy set-up and the simulated
 * caches are warm; then plan->samples samples of run(iterations), each
 * collected (with the stream sync of a device benchmark) and sent as a
 * "sample" message with its wall time under Valgrind. out->timing is
 * "instructions"; plan->warmup_ns, sample_time_ns and budget_ns are not
 * used. A manual time the plugin sets is ignored. Never calls verify. */
void bh_count_run(const bh_timing_target *t, const bh_timing_plan *plan, uint64_t iterations,
                  bh_timing_outcome *out);

#endif
