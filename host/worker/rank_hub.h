// SPDX-License-Identifier: MIT
/* The rank hub: the worker of a multi-rank case (job mode "ranks"). It
 * starts the ranks through the launcher, hands each its job, serves the
 * host's barrier and allgather between them, watches every rank, and
 * answers the supervisor on its result pipe as one worker would: rank
 * 0's messages, whose samples are already the maximum over ranks, and one
 * result that names the first rank that failed, crashed or hung (then
 * every rank is killed). Job mode "probe" starts one rank per node that
 * only connects: the check that the launcher and the nodes work. */
#ifndef BH_WORKER_RANK_HUB_H
#define BH_WORKER_RANK_HUB_H

#include <cjson/cJSON.h>

/* Runs the hub for job; the process exit status (0 when a result was
 * sent, whatever the case status). [main] */
int bh_rank_hub(const cJSON *job, int result_fd);

#endif
