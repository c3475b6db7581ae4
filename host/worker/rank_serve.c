// SPDX-License-Identifier: MIT
/* The rank hub's connections: hellos, jobs, the ranks' messages, the
 * allgather rounds, and the watch for a rank or launcher that ends early
 * or hangs (rank_hub_internal.h). */
#define _GNU_SOURCE
#include "rank_hub_internal.h"

#include "bh_clock.h"
#include "bh_json_write.h"
#include "bh_mem.h"
#include "ipc.h"
#include "rank_wire.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#define SEC 1000000000ull

/* Takes over a pending connection as peer r's channel chan, or closes
 * it when the hello is not one of this launch's. */
static void adopt(bh_hub *h, bh_hub_pending *c)
{
    cJSON *m = cJSON_Parse(c->line);
    const char *chan = bh_json_str(m, "chan", "");
    double r = bh_json_num(m, "rank", -1);
    bh_hub_peer *p = r >= 0 && r < h->n ? &h->peers[(uint32_t)r] : NULL;
    int data = strcmp(chan, "data") == 0, sync = strcmp(chan, "sync") == 0;

    if (!m || strcmp(bh_json_str(m, "t", ""), "rank_hello") != 0 ||
        strcmp(bh_json_str(m, "token", ""), h->token) != 0 || !p || (!data && !sync) ||
        (data && p->hello_data) || (sync && p->hello_sync)) {
        close(c->fd); /* a stray or duplicate connection */
    } else {
        snprintf(p->host, sizeof(p->host), "%s", bh_json_str(m, "host", "?"));
        p->pid = (int)bh_json_num(m, "pid", 0);
        snprintf(p->cpus, sizeof(p->cpus), "%s", bh_json_str(m, "cpus", ""));
        if (data) {
            p->data_fd = c->fd;
            p->hello_data = 1;
        } else {
            p->sync_fd = c->fd;
            p->hello_sync = 1;
        }
    }
    cJSON_Delete(m);
    *c = h->pending[--h->n_pending];
}

/* Reads from a pending connection; adopts it at its hello's newline. */
static void read_hello(bh_hub *h, size_t i)
{
    bh_hub_pending *c = &h->pending[i];
    ssize_t r = read(c->fd, c->line + c->len, sizeof(c->line) - 1 - c->len);
    char *nl;

    if (r <= 0 && !(r < 0 && (errno == EINTR || errno == EAGAIN))) {
        close(c->fd);
        *c = h->pending[--h->n_pending];
        return;
    }
    if (r <= 0)
        return;
    c->len += (size_t)r;
    c->line[c->len] = '\0';
    nl = strchr(c->line, '\n');
    if (nl) {
        *nl = '\0';
        fcntl(c->fd, F_SETFL, 0);
        adopt(h, c);
    } else if (c->len >= sizeof(c->line) - 1) {
        close(c->fd);
        *c = h->pending[--h->n_pending];
    }
}

static void accept_one(bh_hub *h)
{
    int fd = accept4(h->listen_fd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);

    if (fd < 0)
        return;
    if (h->n_pending == sizeof(h->pending) / sizeof(h->pending[0])) {
        close(fd);
        return;
    }
    h->pending[h->n_pending++] = (bh_hub_pending){fd, "", 0};
}

/* Where each rank stands among the nodes, from the hosts of the hellos. */
static cJSON *rank_info(const bh_hub *h, uint32_t r)
{
    cJSON *o = cJSON_CreateObject();
    uint32_t node = 0, nodes = 0, local_rank = 0, local_size = 0;

    for (uint32_t q = 0; q < h->n; q++) {
        int first = 1;

        for (uint32_t s = 0; s < q && first; s++)
            first = strcmp(h->peers[s].host, h->peers[q].host) != 0;
        if (first && q <= r && strcmp(h->peers[q].host, h->peers[r].host) == 0)
            node = nodes;
        nodes += (uint32_t)first;
        if (strcmp(h->peers[q].host, h->peers[r].host) == 0) {
            local_rank += q < r;
            local_size++;
        }
    }
    cJSON_AddNumberToObject(o, "rank", r);
    cJSON_AddNumberToObject(o, "size", h->n);
    cJSON_AddNumberToObject(o, "local_rank", local_rank);
    cJSON_AddNumberToObject(o, "local_size", local_size);
    cJSON_AddNumberToObject(o, "node", node);
    cJSON_AddNumberToObject(o, "nodes", nodes);
    cJSON_AddStringToObject(o, "host", h->peers[r].host);
    cJSON_AddStringToObject(o, "launcher", h->cmd.kind);
    return o;
}

/* Once every rank has said both hellos: each gets its job, then EOF. */
static void send_jobs(bh_hub *h)
{
    for (uint32_t r = 0; r < h->n; r++)
        if (!h->peers[r].hello_data || !h->peers[r].hello_sync)
            return;
    h->jobs_sent = 1;
    h->t_connected = bh_now_ns();
    h->launch_ns = (double)(h->t_connected - h->t_spawn);
    for (uint32_t r = 0; r < h->n; r++) {
        cJSON *job = cJSON_Duplicate(h->job, 1);
        char *text;

        cJSON_DeleteItemFromObject(job, "launcher");
        cJSON_DeleteItemFromObject(job, "ranks");
        cJSON_DeleteItemFromObject(job, "rank_deadline_ns");
        cJSON_ReplaceItemInObject(job, "mode",
                                  cJSON_CreateString(h->probe ? "rank_probe" : "run"));
        cJSON_AddItemToObject(job, "rank_info", rank_info(h, r));
        text = bh_json_print_unformatted(job);
        if (bh_rank_write_all(h->peers[r].data_fd, text, strlen(text)) != 0)
            bh_hub_fail(h, "crashed", "rank %u (%s, pid %d) closed its connection before "
                                      "its job", r, h->peers[r].host, h->peers[r].pid);
        shutdown(h->peers[r].data_fd, SHUT_WR);
        free(text);
        cJSON_Delete(job);
    }
}

/* ": killed by signal 11 (Segmentation fault)" when the rank is a child
 * of the hub (launcher: local) that ended within 200 ms; else "". */
static const char *local_end(bh_hub *h, bh_hub_peer *p)
{
    static char buf[96];

    for (int i = 0; i < 40 && p->local_pid > 0 && !p->local_reaped; i++) {
        usleep(5000);
        bh_hub_reap(h);
    }
    if (!p->local_reaped)
        return "";
    if (WIFSIGNALED(p->local_status))
        snprintf(buf, sizeof(buf), ": killed by signal %d (%s)", WTERMSIG(p->local_status),
                 strsignal(WTERMSIG(p->local_status)));
    else
        snprintf(buf, sizeof(buf), ": exited with status %d", WEXITSTATUS(p->local_status));
    return buf;
}

/* The rank's stream has ended: decode it and judge it. */
static void data_ended(bh_hub *h, uint32_t r)
{
    bh_hub_peer *p = &h->peers[r];
    bh_error e = {""};
    const cJSON *m;

    close(p->data_fd);
    p->data_fd = -1;
    p->data_eof = 1;
    p->msgs = bh_ipc_decode(p->stream ? p->stream : "", p->len, &e);
    cJSON_ArrayForEach(m, p->msgs)
        if (strcmp(bh_ipc_type(m), "result") == 0)
            p->result = m;
    if (h->probe)
        return;
    if (!p->result) {
        const cJSON *err = NULL;

        cJSON_ArrayForEach(m, p->msgs)
            if (strcmp(bh_ipc_type(m), "error") == 0)
                err = m;
        if (err)
            bh_hub_fail(h, "failed", "rank %u (%s): %s", r, p->host,
                        bh_json_str(err, "message", "failed"));
        else
            bh_hub_fail(h, "crashed", "rank %u (%s, pid %d) ended without a result during %s%s",
                        r, p->host, p->pid, bh_hub_stage(p), local_end(h, p));
        return;
    }
    if (strcmp(bh_json_str(p->result, "status", "ok"), "ok") != 0 &&
        !cJSON_GetObjectItemCaseSensitive(p->result, "peer_failed"))
        bh_hub_fail(h, bh_json_str(p->result, "status", "failed"), "rank %u (%s): %s", r,
                    p->host, bh_json_str(p->result, "message", "failed"));
}

static void read_data(bh_hub *h, uint32_t r)
{
    bh_hub_peer *p = &h->peers[r];
    char buf[65536];
    ssize_t n = read(p->data_fd, buf, sizeof(buf));

    if (n < 0 && (errno == EINTR || errno == EAGAIN))
        return;
    if (n <= 0) {
        data_ended(h, r);
        return;
    }
    if (p->len + (size_t)n > BH_IPC_MAX_STREAM) {
        bh_hub_fail(h, "failed", "rank %u sent more than %u bytes of messages", r,
                    BH_IPC_MAX_STREAM);
        return;
    }
    bh_grow((void **)&p->stream, &p->cap, p->len + (size_t)n + 1, 1);
    memcpy(p->stream + p->len, buf, (size_t)n);
    p->len += (size_t)n;
    p->stream[p->len] = '\0';
}

/* Completes the round when every rank's frame is in: each gets all of
 * them in rank order. */
static void finish_round(bh_hub *h)
{
    uint32_t bytes;
    unsigned char hdr[8];
    unsigned char *all;

    for (uint32_t r = 0; r < h->n; r++)
        if (!h->peers[r].req_ready)
            return;
    bytes = bh_rank_get_u32(h->peers[0].req);
    for (uint32_t r = 1; r < h->n; r++)
        if (bh_rank_get_u32(h->peers[r].req) != bytes) {
            bh_hub_fail(h, "failed", "exchange %u: rank 0 passed %u bytes, rank %u %u bytes "
                                     "(every rank must pass the same count)",
                        h->round + 1, bytes, r, bh_rank_get_u32(h->peers[r].req));
            return;
        }
    all = bh_xmalloc((size_t)bytes * h->n + 1);
    for (uint32_t r = 0; r < h->n; r++)
        memcpy(all + (size_t)r * bytes, h->peers[r].req + 4, bytes);
    bh_rank_put_u32(hdr, 0);
    bh_rank_put_u32(hdr + 4, bytes * h->n);
    for (uint32_t r = 0; r < h->n; r++) {
        bh_hub_peer *p = &h->peers[r];

        if (bh_rank_write_all(p->sync_fd, hdr, 8) != 0 ||
            bh_rank_write_all(p->sync_fd, all, (size_t)bytes * h->n) != 0)
            bh_hub_fail(h, "crashed", "rank %u (%s, pid %d) left during exchange %u", r,
                        p->host, p->pid, h->round + 1);
        p->req_ready = 0;
        p->req_len = 0;
        p->rounds++;
    }
    h->round++;
    free(all);
}

static void read_sync(bh_hub *h, uint32_t r)
{
    bh_hub_peer *p = &h->peers[r];
    size_t want = p->req_len < 4 ? 4 : 4 + (size_t)bh_rank_get_u32(p->req);
    ssize_t n;

    if (p->req_ready)
        want = p->req_len + 1; /* a frame too early: read to see EOF */
    bh_grow((void **)&p->req, &p->req_cap, want, 1);
    n = read(p->sync_fd, p->req + p->req_len, want - p->req_len);
    if (n < 0 && (errno == EINTR || errno == EAGAIN))
        return;
    if (n <= 0) {
        close(p->sync_fd);
        p->sync_fd = -1;
        p->sync_eof = 1;
        return;
    }
    if (p->req_ready) {
        bh_hub_fail(h, "failed", "rank %u began exchange %u before the others finished %u",
                    r, h->round + 2, h->round + 1);
        return;
    }
    p->req_len += (size_t)n;
    if (p->req_len == 4 && bh_rank_get_u32(p->req) > BH_RANK_MAX_EXCHANGE)
        bh_hub_fail(h, "failed", "rank %u passed %u bytes to an exchange (at most %u)", r,
                    bh_rank_get_u32(p->req), BH_RANK_MAX_EXCHANGE);
    else if (p->req_len >= 4 && p->req_len == 4 + (size_t)bh_rank_get_u32(p->req))
        p->req_ready = 1;
}

/* Keeps the launcher's first words: its first block of text (lines up to
 * a rule of dashes, as Open MPI frames its messages) joined by spaces, so
 * that "A call to mkdir was unable to create the desired directory:"
 * keeps the folder and the error the next lines name. Complete lines
 * only. */
static void keep_first_line(bh_hub *h, const char *buf, size_t n)
{
    const char *at = buf, *end = buf + n;

    while (!h->first_done && at < end) {
        const char *nl = memchr(at, '\n', (size_t)(end - at));
        size_t len = nl ? (size_t)(nl - at) : (size_t)(end - at);
        size_t used = strlen(h->first);
        int words = len && strspn(at, "- \t\r") < len;

        if (!nl)
            return; /* a line cut by the read: wait for it whole */
        if (words && used < sizeof(h->first) - 1)
            snprintf(h->first + used, sizeof(h->first) - used, "%s%.*s", used ? " " : "",
                     (int)(len - strspn(at, " \t")), at + strspn(at, " \t"));
        else if (len && !words && used) /* a rule of dashes ends it */
            h->first_done = 1;
        at = nl + 1;
    }
}

/* The launcher's output: passed on to this worker's log, its tail kept. */
static void read_launcher(bh_hub *h)
{
    char buf[4096];
    ssize_t n = read(h->launcher_out, buf, sizeof(buf));

    if (n < 0 && (errno == EINTR || errno == EAGAIN))
        return;
    if (n <= 0) {
        close(h->launcher_out);
        h->launcher_out = -1;
        return;
    }
    bh_rank_write_all(2, buf, (size_t)n);
    keep_first_line(h, buf, (size_t)n);
    if ((size_t)n >= sizeof(h->tail)) {
        memcpy(h->tail, buf + n - (ssize_t)sizeof(h->tail) + 1, sizeof(h->tail) - 1);
        h->tail_len = sizeof(h->tail) - 1;
    } else {
        size_t keep = h->tail_len + (size_t)n < sizeof(h->tail) ? h->tail_len
                                                                : sizeof(h->tail) - 1 - (size_t)n;

        memmove(h->tail, h->tail + h->tail_len - keep, keep);
        memcpy(h->tail + keep, buf, (size_t)n);
        h->tail_len = keep + (size_t)n;
    }
    h->tail[h->tail_len] = '\0';
}

/* The poll set of one turn: the listener, the launcher's output, the
 * pending connections and every open rank channel (after the jobs). */
static nfds_t poll_set(const bh_hub *h, struct pollfd *pf, int *who)
{
    nfds_t n = 0;

    pf[n] = (struct pollfd){h->listen_fd, POLLIN, 0};
    who[n++] = -1;
    if (h->launcher_out >= 0) {
        pf[n] = (struct pollfd){h->launcher_out, POLLIN, 0};
        who[n++] = -2;
    }
    for (size_t i = 0; i < h->n_pending; i++) {
        pf[n] = (struct pollfd){h->pending[i].fd, POLLIN, 0};
        who[n++] = -3 - (int)i;
    }
    for (uint32_t r = 0; r < h->n && h->jobs_sent; r++) {
        if (h->peers[r].data_fd >= 0) {
            pf[n] = (struct pollfd){h->peers[r].data_fd, POLLIN, 0};
            who[n++] = (int)(2 * r);
        }
        if (h->peers[r].sync_fd >= 0) {
            pf[n] = (struct pollfd){h->peers[r].sync_fd, POLLIN, 0};
            who[n++] = (int)(2 * r + 1);
        }
    }
    return n;
}

void bh_hub_serve(bh_hub *h)
{
    uint64_t linger = 0;
    size_t cap = 2 + sizeof(h->pending) / sizeof(h->pending[0]) + 2 * (size_t)h->n;
    struct pollfd *pf = bh_xcalloc(cap, sizeof(*pf));
    int *who = bh_xcalloc(cap, sizeof(*who));

    for (;;) {
        uint64_t now = bh_now_ns();
        nfds_t n;

        bh_hub_reap(h);
        if (h->failed && !linger) /* the launcher's own account of a crash */
            linger = now + (strcmp(h->status, "crashed") == 0 ? 2 * SEC : 1);
        if (h->failed && (now >= linger || h->launcher_out < 0))
            break;
        if (!h->failed && bh_hub_watch(h, now))
            break; /* every rank finished */
        n = poll_set(h, pf, who);
        if (poll(pf, n, 50) <= 0)
            continue;
        for (nfds_t i = n; i-- > 0;) { /* backwards: pending slots move */
            if (!(pf[i].revents & (POLLIN | POLLHUP | POLLERR)))
                continue;
            if (who[i] == -1)
                accept_one(h);
            else if (who[i] == -2)
                read_launcher(h);
            else if (who[i] < -2)
                read_hello(h, (size_t)(-3 - who[i]));
            else if (who[i] % 2 == 0)
                read_data(h, (uint32_t)who[i] / 2);
            else
                read_sync(h, (uint32_t)who[i] / 2);
        }
        if (!h->jobs_sent && !h->failed)
            send_jobs(h);
        if (!h->failed && h->jobs_sent)
            finish_round(h);
    }
    free(pf);
    free(who);
}
