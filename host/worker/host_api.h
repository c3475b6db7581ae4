// SPDX-License-Identifier: MIT
/* The host API table handed to plugins, and the per-case context behind
 * the opaque bhost_host handle. One context per worker process. */
#ifndef BH_WORKER_HOST_API_H
#define BH_WORKER_HOST_API_H

#include <bhost/plugin.h>
#include <cjson/cJSON.h>
#include <stdint.h>

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
/* The last message a plugin passed to set_error() (any handle), "" if
 * none; cleared by bh_host_api_clear_error(). */
const char *bh_host_api_last_error(void);
void bh_host_api_clear_error(void);
/* Host-API allocation counters: calls, bytes requested, peak live bytes. */
void bh_host_api_alloc_stats(uint64_t *count, uint64_t *bytes,
                             uint64_t *peak);

#endif
