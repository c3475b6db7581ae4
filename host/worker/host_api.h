// SPDX-License-Identifier: MIT
/* The host API table handed to plugins, and the per-case context behind
 * the opaque bhost_host handle. One context per worker process. */
#ifndef BH_WORKER_HOST_API_H
#define BH_WORKER_HOST_API_H

#include <bhost/plugin.h>
#include <cjson/cJSON.h>
#include <stdint.h>

/* Caps on the text a plugin passes through the host API: each log()
 * message keeps its first BH_HOST_LOG_MSG_MAX bytes (marked as cut), a
 * run forwards at most BH_HOST_LOG_TOTAL_MAX bytes of log text (then one
 * host line, the rest dropped; the run is flagged log_truncated);
 * set_error() keeps 1023 bytes; a metric unit is at most BH_HOST_UNIT_MAX
 * bytes and a run at most BH_HOST_METRICS_MAX distinct metrics (more is
 * BHOST_E_INVALID with a host warning in the log). */
#define BH_HOST_LOG_MSG_MAX 4096u
#define BH_HOST_LOG_TOTAL_MAX 61440u
#define BH_HOST_UNIT_MAX 64u
#define BH_HOST_METRICS_MAX 256
#define BH_HOST_METRICS_MAX_TEXT "256"

struct bhost_host {
    const cJSON *params;      /* borrowed: key -> {type, value} */
    uint64_t seed;
    cJSON *metrics;           /* owned: array of {name, unit, direction, value} */
    int manual_time_set;
    uint64_t manual_time_ns;
};

/* The table, with the context it serves. The result fd receives log
 * lines as protocol messages. */
const bhost_host_api *bh_host_api_get(void);
/* The case context (a process-wide singleton). */
bhost_host *bh_host_context(void);
/* Sets where log() and set_error() lines are forwarded (a protocol fd). */
void bh_host_api_set_log_fd(int fd);
/* 1 when some log() text of this worker was cut or dropped. */
int bh_host_api_log_truncated(void);
/* Sends a {t: "stage", stage} message on the log fd: the plugin call the
 * worker is about to make ("load", "describe", "create", "setup", "run",
 * "verify", "destroy", "exit"), so that the supervisor can name it when
 * the worker dies or hangs there. */
void bh_host_api_stage(const char *stage);
/* The last message a plugin passed to set_error() (any handle), "" if
 * none; cleared by bh_host_api_clear_error(). */
const char *bh_host_api_last_error(void);
void bh_host_api_clear_error(void);
/* Host-API allocation counters: calls, bytes requested, peak live bytes. */
void bh_host_api_alloc_stats(uint64_t *count, uint64_t *bytes,
                             uint64_t *peak);
/* Host-API allocations not freed yet: their bytes and blocks. Read after
 * the plugin's destroy (and the backend's close), they are what the run
 * leaked (docs/results-schema.md, alloc.leaked_bytes). */
void bh_host_api_alloc_live(uint64_t *bytes, uint64_t *blocks);

/* Frees every host-API block still live (what the plugin leaked), once
 * the run's leaks are reported and the plugin is released, so the worker
 * exits with no memory of the plugin's left (LeakSanitizer stays quiet). */
void bh_host_api_reclaim(void);

#endif
