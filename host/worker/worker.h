// SPDX-License-Identifier: MIT
/* Worker mode: the only place plugin code runs. A worker is the bhost
 * binary started again by the supervisor ("bhost __worker"); it reads one
 * job from BH_IPC_JOB_FD, answers on BH_IPC_RESULT_FD (see ipc.h) and
 * exits. */
#ifndef BH_WORKER_H
#define BH_WORKER_H

/* Runs the job found on the job pipe. Returns the process exit status:
 * 0 when a result or description was sent (whatever the case status),
 * 2 for a malformed job, 3 when the plugin could not be loaded,
 * BH_IPC_EXIT_PIPE_LOST (see ipc.h). The worker is killed by the
 * kernel when its supervisor dies (PR_SET_PDEATHSIG). */
int bh_worker_main(void);

/* A rank of a multi-rank launch ("bhost-worker __rank"): connects to the
 * rank hub named by the environment (rank_wire.h), then runs the job it
 * receives as bh_worker_main does. Exit status as bh_worker_main's, or 2
 * when started outside a launch or the hub cannot be reached. */
int bh_rank_main(void);

#endif
