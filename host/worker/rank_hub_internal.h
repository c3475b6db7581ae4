// SPDX-License-Identifier: MIT
/* The rank hub's state, shared by its files: rank_hub.c (set-up, launch,
 * ending), rank_serve.c (the connections), rank_merge.c (the answer). */
#ifndef BH_WORKER_RANK_HUB_INTERNAL_H
#define BH_WORKER_RANK_HUB_INTERNAL_H

#include "rank_launch.h"
#include "rank_wire.h"

#include <cjson/cJSON.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* A connection that has not said its hello yet. */
typedef struct bh_hub_pending {
    int fd;
    char line[4096];
    size_t len;
} bh_hub_pending;

/* What the hub knows of one rank. */
typedef struct bh_hub_peer {
    int data_fd, sync_fd;      /* -1 before the hello, and after EOF */
    int hello_data, hello_sync;
    int data_eof, sync_eof;
    char host[256];
    int pid;
    char cpus[BH_RANK_MAX_CPUS]; /* the CPUs it may run on ("0", "0-3"), or "" */
    pid_t local_pid;           /* launcher: local: the child */
    int local_status, local_reaped;
    char *stream;              /* the rank's protocol messages */
    size_t len, cap;
    unsigned char *req;        /* the sync frame being received */
    size_t req_len, req_cap;
    int req_ready;             /* a whole frame waits for the round */
    uint32_t rounds;           /* exchanges it took part in */
    cJSON *msgs;               /* decoded at EOF (NULL: garbled) */
    const cJSON *result;       /* its "result" message, or NULL */
} bh_hub_peer;

typedef struct bh_hub {
    const cJSON *job;
    const cJSON *launcher;
    uint32_t n;
    int probe;
    bh_hub_peer *peers;
    int listen_fd;
    bh_hub_pending pending[64];
    size_t n_pending;
    char token[40];
    char addr[1024];
    bh_rank_cmd cmd;
    pid_t launcher_pid;        /* mpirun or srun; 0 for local */
    int launcher_out;          /* its stdout + stderr, -1 at EOF */
    int launcher_status, launcher_exited;
    char tail[2048];           /* the launcher's last output */
    char first[512];           /* its first block of words (up to a
                                  rule of dashes): usually the cause */
    int first_done;            /* that block has ended */
    size_t tail_len;
    uint64_t t_spawn, t_connected, connect_deadline, deadline;
    uint64_t ended_ns;         /* when the launcher (or every local rank) ended */
    int jobs_sent;
    uint32_t round;            /* exchanges completed */
    int failed;
    char status[16];
    char *message;
    double launch_ns;
} bh_hub;

/* rank_serve.c: serves connections until every rank has finished, one
 * failed, the launcher ended early or a deadline passed (then h->failed
 * is set with status and message). */
void bh_hub_serve(bh_hub *h);
/* rank_watch.c: judges the launch at time now: 1 when every rank has
 * finished; otherwise fails it (bh_hub_fail) when the launcher or a rank
 * ended early, a rank cannot join an exchange, or a deadline passed. */
int bh_hub_watch(bh_hub *h, uint64_t now);
/* rank_hub.c: records the first failure (later ones are ignored). */
void bh_hub_fail(bh_hub *h, const char *status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* rank_hub.c: reaps the launcher (or the local ranks) without waiting. */
void bh_hub_reap(bh_hub *h);
/* rank_merge.c: writes the answer to the supervisor on fd. */
void bh_hub_answer(bh_hub *h, int fd);
/* rank_merge.c: the last stage a rank's stream names ("run", ...), or
 * "start" when none. */
const char *bh_hub_stage(const bh_hub_peer *p);

#endif
