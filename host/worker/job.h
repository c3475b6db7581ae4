// SPDX-License-Identifier: MIT
/* The job a worker reads from its job pipe (see ipc.h): parsed and checked
 * before anything acts on it, so that every member the worker later reads
 * with bh_json_str/bh_json_num has the type and range it assumes. */
#ifndef BH_WORKER_JOB_H
#define BH_WORKER_JOB_H

#include "bh_error.h"

#include <cjson/cJSON.h>
#include <stddef.h>

/* A job text larger than this is refused. */
#define BH_JOB_MAX_BYTES (16u << 20)

/* Parses n bytes of job text (need not be NUL-terminated) into a JSON
 * object (caller deletes) and checks it: "mode" one of run, describe,
 * check; "plugin" a string; the optional strings bench, backend, part,
 * seed, pin; measure "time" or "instructions"; "params" an object of
 * {type, value} records (i64 as a decimal string, f64 a finite number, str
 * a string, bool a boolean); device and run_index integers in [0, 2^32);
 * samples and iterations integers in [1, 2^32); warmup_ns, sample_time_ns, budget_ns and memory_limit finite
 * numbers in [0, 2^63). Unknown members are ignored. Returns NULL with e
 * naming the first problem. [any-thread] */
cJSON *bh_job_parse(const char *text, size_t n, bh_error *e);

#endif
