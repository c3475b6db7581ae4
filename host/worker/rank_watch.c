// SPDX-License-Identifier: MIT
/* The rank hub's watch over a launch: finished, or failed because the
 * launcher or a rank ended early, an exchange cannot complete, or a
 * deadline passed (rank_hub_internal.h). */
#define _GNU_SOURCE
#include "rank_hub_internal.h"

#include "bh_strbuf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#define SEC 1000000000ull

/* "status 1" or "signal 9 (Killed)" for a wait status. */
static void describe_exit(int st, char *buf, size_t cap)
{
    if (WIFEXITED(st))
        snprintf(buf, cap, "status %d", WEXITSTATUS(st));
    else if (WIFSIGNALED(st))
        snprintf(buf, cap, "signal %d (%s)", WTERMSIG(st), strsignal(WTERMSIG(st)));
    else
        snprintf(buf, cap, "wait status %d", st);
}

/* What the launcher said first (usually the cause: "ssh: Could not
 * resolve hostname ..."), else its last non-empty line, or "". */
static const char *last_line(bh_hub *h, char *buf, size_t cap)
{
    if (h->first[0]) {
        snprintf(buf, cap, "%s", h->first);
        return buf;
    }
    char *end = h->tail + h->tail_len;
    char *start;

    while (end > h->tail && (end[-1] == '\n' || end[-1] == '\r' || end[-1] == ' '))
        end--;
    start = end;
    while (start > h->tail && start[-1] != '\n')
        start--;
    snprintf(buf, cap, "%.*s", (int)(end - start), start);
    return buf;
}

/* The ranks that have not finished, with where each stands: "rank 1
 * (host) in run, waiting in exchange 3; ...", at most 4. */
static char *missing(const bh_hub *h)
{
    bh_strbuf b = BH_STRBUF_INIT;
    uint32_t shown = 0, left = 0;

    for (uint32_t r = 0; r < h->n; r++) {
        const bh_hub_peer *p = &h->peers[r];

        if (p->data_eof)
            continue;
        if (shown == 4) {
            left++;
            continue;
        }
        shown++;
        if (!p->hello_data || !p->hello_sync)
            bh_strbuf_printf(&b, "%srank %u never reached bhost", b.len ? "; " : "", r);
        else
            bh_strbuf_printf(&b, "%srank %u (%s, pid %d) in %s%s", b.len ? "; " : "", r,
                             p->host, p->pid, bh_hub_stage(p),
                             p->req_ready ? ", waiting in an exchange" : "");
    }
    if (left)
        bh_strbuf_printf(&b, "; %u more", left);
    return bh_strbuf_detach(&b);
}

/* A rank started by the hub itself that ended before reaching it. */
static int local_lost(bh_hub *h)
{
    char how[96];

    for (uint32_t r = 0; r < h->n; r++) {
        bh_hub_peer *p = &h->peers[r];

        if (p->local_pid > 0 && p->local_reaped && !p->data_eof && !p->hello_data) {
            describe_exit(p->local_status, how, sizeof(how));
            bh_hub_fail(h, "crashed", "rank %u (pid %d) ended with %s before reaching bhost", r,
                        (int)p->local_pid, how);
            return 1;
        }
    }
    return 0;
}

/* True when the launcher has ended (every local rank, for local). */
static int launcher_ended(const bh_hub *h)
{
    if (h->launcher_pid > 0)
        return h->launcher_exited;
    for (uint32_t r = 0; r < h->n; r++)
        if (!h->peers[r].local_reaped)
            return 0;
    return 1;
}

/* An exchange that can never complete: a rank waits in it while another
 * has closed its sync channel without joining. */
static int stuck_exchange(bh_hub *h)
{
    int waiting = -1;

    for (uint32_t r = 0; r < h->n && waiting < 0; r++)
        if (h->peers[r].req_ready)
            waiting = (int)r;
    for (uint32_t r = 0; waiting >= 0 && r < h->n; r++) {
        const bh_hub_peer *p = &h->peers[r];

        if (p->sync_eof && !p->req_ready && p->data_eof && p->result) {
            bh_hub_fail(h, "failed", "rank %u (%s) finished without joining exchange %u, in "
                                     "which rank %d waits (every rank must make the same "
                                     "allgather calls)",
                        r, p->host, h->round + 1, waiting);
            return 1;
        }
    }
    return 0;
}

int bh_hub_watch(bh_hub *h, uint64_t now)
{
    uint32_t done = 0;
    char how[96], line[512];
    char *who;

    for (uint32_t r = 0; r < h->n; r++)
        done += h->peers[r].data_eof && (h->peers[r].result || h->probe);
    if (done == h->n)
        return 1;
    if (local_lost(h) || stuck_exchange(h))
        return 0;
    if (launcher_ended(h) && !h->ended_ns)
        h->ended_ns = now;
    if (h->ended_ns && now - h->ended_ns > 2 * SEC) { /* its last data has had time */
        who = missing(h);
        describe_exit(h->launcher_status, how, sizeof(how));
        bh_hub_fail(h, "failed", "%s%s%s before every rank reported (%s)%s%s",
                    h->launcher_pid > 0 ? h->cmd.argv[0] : "the local ranks ended",
                    h->launcher_pid > 0 ? " exited with " : "", h->launcher_pid > 0 ? how : "",
                    who,
                    *last_line(h, line, sizeof(line)) ? "; it said: " : "", line);
        free(who);
    } else if (!h->jobs_sent && now > h->connect_deadline) {
        who = missing(h);
        bh_hub_fail(h, "failed", "not every rank reached bhost at %s within %.0f s (%s)%s%s",
                    h->addr, (double)(h->connect_deadline - h->t_spawn) / 1e9, who,
                    *last_line(h, line, sizeof(line)) ? "; the launcher said: " : "",
                    line);
        free(who);
    } else if (h->deadline && now > h->deadline) {
        who = missing(h);
        bh_hub_fail(h, "timeout", "ranks still running at the case's timeout: %s", who);
        free(who);
    }
    return 0;
}
