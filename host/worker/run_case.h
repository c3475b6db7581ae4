// SPDX-License-Identifier: MIT
/* One run of one case inside a worker. */
#ifndef BH_RUN_CASE_H
#define BH_RUN_CASE_H

#include <cjson/cJSON.h>

/* Executes the run job (see ipc.h): loads the plugin and, for device
 * benchmarks, the backend; runs create, setup, the timing loop, verify and
 * destroy; sends exactly one "result" message (or an "error" message when
 * a plugin cannot be loaded). Returns the worker exit status. */
int bh_run_case(const cJSON *job, int result_fd);

#endif
