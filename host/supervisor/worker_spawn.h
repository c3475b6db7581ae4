// SPDX-License-Identifier: MIT
/* Starting one worker process and supervising it to the end. */
#ifndef BH_WORKER_SPAWN_H
#define BH_WORKER_SPAWN_H

#include "bh_error.h"

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

/* Set from a SIGINT/SIGTERM handler (host_signals.h): a running worker's
 * group is killed and no new run should start. */
extern volatile sig_atomic_t bh_interrupted;

typedef struct bh_worker_outcome {
    int exited;           /* normal exit: exit_code is valid */
    int exit_code;
    int signaled;         /* killed by signal 'signal' (not by us) */
    int signal;
    int timed_out;        /* we killed it at the deadline */
    int interrupted;      /* we killed it because bh_interrupted was set */
    int oom;              /* we killed it: resident memory over the limit */
    int hostile_signal;   /* a signal it (or its group) sent to this
                             process, 0 when none */
    int hostile_pid;      /* the sender of hostile_signal */
    int host_stopped_ms;  /* > 0: this process was stopped (SIGSTOP) while
                             the worker lived, and the watchdog resumed it
                             after that many ms */
    uint64_t rss_at_kill; /* resident bytes seen when it was killed */
    char *result;         /* bytes from the result pipe (NUL-terminated) */
    size_t result_len;
    int result_overflow;  /* more than BH_IPC_MAX_STREAM bytes were sent */
    char *log;            /* stdout and stderr, interleaved, bounded */
    size_t log_len;
    int log_truncated;
    uint64_t wall_ns;
    uint64_t user_ns, sys_ns; /* CPU time of the worker and its waited-for
                                 children (wait4's rusage) */
    long maxrss_kb;
    int pid;              /* the worker's process id */
} bh_worker_outcome;

typedef struct bh_spawn_opts {
    const char *exe;      /* the worker program (bh_self_exe), run as
                             EXE __worker */
    const char *job;      /* JSON job text written to the job pipe */
    uint64_t timeout_ns;  /* 0 = none */
    size_t log_limit;     /* bytes of stdout/stderr kept */
    uint64_t memory_limit; /* resident bytes; 0 = none. Polled every 20 ms:
                              above it the group is killed (oom) */
} bh_spawn_opts;

/* Spawns "exe __worker" in its own process group with the job pipe on fd
 * 3 and the result pipe on fd 4, collects its output until it exits or
 * the deadline passes (then the whole group is killed with SIGKILL), and
 * reaps it. Any process the worker left behind in its group is killed.
 * Returns 0 with *out filled (free with bh_worker_outcome_free), or -1
 * with e set when the worker could not be started. */
int bh_spawn_worker(const bh_spawn_opts *o, bh_worker_outcome *out,
                    bh_error *e);

/* bh_spawn_worker with the worker run under a command: wrap (NULL for
 * none) is NULL-terminated, at most 16 words, wrap[0] the program's path,
 * and the process started is "WRAP... EXE __worker". */
int bh_spawn_worker_wrapped(const bh_spawn_opts *o, char *const *wrap,
                            bh_worker_outcome *out, bh_error *e);
void bh_worker_outcome_free(bh_worker_outcome *out);

/* The worker program to spawn (free() it): bhost-worker beside the
 * running executable when it is there and executable (the lean worker),
 * else the running executable itself (its "__worker" command). */
char *bh_self_exe(void);

#endif
