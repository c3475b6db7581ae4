// SPDX-License-Identifier: MIT
#define _GNU_SOURCE
#include "outcome.h"

#include "bh_mem.h"
#include "ipc.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *bh_signal_name(int sig, char buf[16])
{
    const char *abbrev = sigabbrev_np(sig);

    if (abbrev)
        snprintf(buf, 16, "SIG%s", abbrev);
    else
        snprintf(buf, 16, "SIG%d", sig);
    return buf;
}

/* The last message of the given type, or NULL. */
static const cJSON *last_of(const cJSON *msgs, const char *type)
{
    const cJSON *found = NULL;
    const cJSON *m;

    cJSON_ArrayForEach(m, msgs) if (strcmp(bh_ipc_type(m), type) == 0)
        found = m;
    return found;
}

void bh_outcome_classify(const bh_worker_outcome *o, const char *final_type,
                         bh_outcome_view *v)
{
    bh_error e = {""};
    const cJSON *err;
    char sig[16];

    memset(v, 0, sizeof(*v));
    v->messages = bh_ipc_decode(o->result, o->result_len, &e);
    if (v->messages) {
        v->final = last_of(v->messages, final_type);
    }
    if (o->oom) {
        v->status = BH_ST_OOM;
        v->message = bh_xasprintf("worker killed: resident memory %.0f MiB "
                                  "went over the memory limit",
                                  (double)o->rss_at_kill / 1048576.0);
        return;
    }
    if (o->timed_out) {
        v->status = BH_ST_TIMEOUT;
        v->message = bh_xasprintf("worker killed after %.1f s timeout",
                                  (double)o->wall_ns / 1e9);
        return;
    }
    if (o->hostile_signal) {
        v->status = BH_ST_FAILED;
        v->message = bh_xasprintf("the plugin sent %s to bhost (from pid %d, in the worker's "
                                  "process group): bhost ignored it and failed this run",
                                  bh_signal_name(o->hostile_signal, sig), o->hostile_pid);
        return;
    }
    if (o->host_stopped_ms) {
        v->status = BH_ST_FAILED;
        v->message = bh_xasprintf("bhost was stopped (SIGSTOP, by the plugin or another "
                                  "process) while this run was going; its watchdog resumed it "
                                  "after about %d ms and failed this run", o->host_stopped_ms);
        return;
    }
    if (o->signaled && !v->final) {
        v->status = BH_ST_CRASHED;
        v->message = bh_xasprintf("killed by %s (%s)",
                                  bh_signal_name(o->signal, sig),
                                  strsignal(o->signal));
        return;
    }
    if (o->result_overflow || !v->messages) {
        v->status = BH_ST_FAILED;
        v->message = bh_xasprintf("protocol error: %s",
                                  o->result_overflow
                                      ? "worker sent too much data"
                                      : e.msg);
        return;
    }
    err = last_of(v->messages, "error");
    if (err && !v->final) {
        v->status = BH_ST_FAILED;
        v->message = bh_xstrdup(bh_json_str(err, "message", "worker error"));
        return;
    }
    if (!v->final && o->exit_code == BH_IPC_EXIT_PIPE_LOST) {
        v->status = BH_ST_FAILED;
        v->message = bh_xasprintf("result pipe lost: the worker's result "
                                  "pipe (fd %d) was closed or replaced "
                                  "during the run (by the plugin?), so no "
                                  "result arrived",
                                  BH_IPC_RESULT_FD);
        return;
    }
    if (!v->final) {
        v->status = BH_ST_FAILED;
        v->message = bh_xasprintf("worker exited with status %d before "
                                  "reporting (plugin called exit?)",
                                  o->exit_code);
        return;
    }
    if (o->signaled)
        v->warning = bh_xasprintf("worker killed by %s (%s) after its final report "
                                  "(exit-time code: an atexit handler or a destructor?)",
                                  bh_signal_name(o->signal, sig), strsignal(o->signal));
    else if (o->exit_code != 0)
        v->warning = bh_xasprintf("worker exited with status %d after its final report "
                                  "(exit-time code: an atexit handler or a destructor?)",
                                  o->exit_code);
    if (strcmp(final_type, "result") == 0) {
        int st = bh_status_parse(bh_json_str(v->final, "status", ""));
        const char *msg = bh_json_str(v->final, "message", NULL);

        v->status = st < 0 ? BH_ST_FAILED : (bh_status)st;
        if (st < 0)
            v->message = bh_xstrdup("protocol error: unknown status");
        else if (msg)
            v->message = bh_xstrdup(msg);
        else if (st != BH_ST_OK)
            v->message = bh_xasprintf("the worker reported status %s "
                                      "without a message",
                                      bh_status_name((bh_status)st));
    } else {
        v->status = BH_ST_OK;
    }
}

void bh_outcome_view_free(bh_outcome_view *v)
{
    cJSON_Delete(v->messages);
    free(v->message);
    free(v->warning);
    memset(v, 0, sizeof(*v));
}

void bh_outcome_name_stage(bh_outcome_view *v)
{
    const cJSON *st = v->messages ? last_of(v->messages, "stage") : NULL;
    char *longer;

    if (!st || !v->message ||
        (v->status != BH_ST_TIMEOUT && v->status != BH_ST_CRASHED &&
         v->status != BH_ST_OOM && (v->status != BH_ST_FAILED || v->final)))
        return;
    longer = bh_xasprintf("%s (during %s)", v->message,
                          bh_json_str(st, "stage", "?"));
    free(v->message);
    v->message = longer;
}
