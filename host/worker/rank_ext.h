// SPDX-License-Identifier: MIT
/* This worker's place in a multi-rank launch and the host extension
 * "bhost.host.ranks/1" (bhost/ranks.h) that serves it to plugins. A
 * worker outside a launch is rank 0 of 1: allgather copies, no barrier. */
#ifndef BH_WORKER_RANK_EXT_H
#define BH_WORKER_RANK_EXT_H

#include <bhost/ranks.h>
#include <cjson/cJSON.h>
#include <stddef.h>
#include <stdint.h>

/* The extension table. */
const bhost_host_ranks *bh_rank_ext(void);

/* The sync connection of a rank (rank_client.c); -1: none. */
void bh_rank_set_sync_fd(int fd);

/* Takes the job's "rank_info" object (set by the hub) as this process's
 * place; absent: rank 0 of 1 on this host, launcher "local". */
void bh_rank_apply_job(const cJSON *job);

/* 1 when this worker is one of several ranks with a sync connection. */
int bh_rank_multi(void);
/* This worker's rank (0 outside a launch). */
uint32_t bh_rank_self(void);

/* allgather through the hub (bhost/ranks.h); outside a launch a copy.
 * why (cap bytes) says what failed. */
bhost_status bh_rank_allgather(const void *in, uint32_t bytes, void *out, char *why,
                               size_t cap);

/* Replaces v[0..n) by their maximum over the ranks (n <= 16): the
 * agreement every rank's timing loop reaches before each decision. */
bhost_status bh_rank_max_u64(uint64_t *v, size_t n);

/* The digest the plugin reported with report_digest(): 1 and *d, or 0. */
int bh_rank_digest(uint64_t *d);

#endif
