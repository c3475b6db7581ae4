// SPDX-License-Identifier: MIT
/* Turning what a worker left behind into a status and its messages. */
#ifndef BH_OUTCOME_H
#define BH_OUTCOME_H

#include "bh_status.h"
#include "worker_spawn.h"

#include <cjson/cJSON.h>

typedef struct bh_outcome_view {
    bh_status status;
    char *message;       /* one line (free() it); NULL when ok */
    cJSON *messages;     /* decoded protocol messages (delete), or NULL */
    const cJSON *final;  /* the "result"/"describe" message, or NULL */
    char *warning;       /* one line (free() it) when the worker died of a
                            signal or exited non-zero after a complete final
                            message; NULL otherwise */
} bh_outcome_view;

/* Decodes o->result and classifies the worker's end:
 * over the memory limit -> BH_ST_OOM; timeout -> BH_ST_TIMEOUT; a signal -> BH_ST_CRASHED "killed by SIGSEGV
 * (Segmentation fault)"; an
 * "error" message -> BH_ST_FAILED with its text; a garbled stream ->
 * BH_ST_FAILED "protocol error: ..."; an exit with BH_IPC_EXIT_PIPE_LOST
 * and no final message -> BH_ST_FAILED "result pipe lost: ..."; another
 * exit without a final message ->
 * BH_ST_FAILED "worker exited with status N before reporting"; otherwise
 * the status carried by the final message (a status other than ok always
 * comes with a message). A report that completed counts: a signal or a
 * non-zero exit after the final message (exit-time code of the plugin: an
 * atexit handler, a destructor) keeps the final message's status and sets
 * v->warning. final_type is "result", "describe" or "check_done". */
void bh_outcome_classify(const bh_worker_outcome *o, const char *final_type,
                         bh_outcome_view *v);
void bh_outcome_view_free(bh_outcome_view *v);

/* When the worker died, hung, ran out of memory or failed without a
 * final message, appends the stage it was in to v->message: " (during
 * setup)", from its last {t: "stage"} message (none: unchanged). */
void bh_outcome_name_stage(bh_outcome_view *v);

/* "SIGSEGV" for 11 etc.; "SIG<n>" for unknown numbers. */
const char *bh_signal_name(int sig, char buf[16]);

#endif
