// SPDX-License-Identifier: MIT
/* The command line and environment that start the ranks of a multi-rank
 * case through its launcher (the job's "launcher" object, written by the
 * supervisor from a config's launcher: map; docs/multi-rank.md). */
#ifndef BH_WORKER_RANK_LAUNCH_H
#define BH_WORKER_RANK_LAUNCH_H

#include "bh_error.h"

#include <cjson/cJSON.h>
#include <stddef.h>
#include <stdint.h>

typedef struct bh_rank_cmd {
    char **argv;  /* NULL-terminated; NULL for launcher: local */
    char **envp;  /* NULL-terminated: this process's environment plus the
                     rank variables and the launcher's env: */
    char kind[16];
} bh_rank_cmd;

/* Builds the command that starts ranks copies of "exe __rank" (or, with
 * per_node, one per node of the launch: a probe) through launcher, with
 * the hub's address and token in every rank's environment. -1 with e
 * set for a launcher object that is not one the supervisor writes. */
int bh_rank_cmd_build(const cJSON *launcher, uint32_t ranks, int per_node, const char *exe,
                      const char *addr, const char *token, bh_rank_cmd *out, bh_error *e);
void bh_rank_cmd_free(bh_rank_cmd *c);

/* The nodes a launcher names: its hosts, or the host lines of its
 * hostfile (0 when it names none, or the file cannot be read). */
uint32_t bh_rank_cmd_nodes(const cJSON *launcher);

#endif
