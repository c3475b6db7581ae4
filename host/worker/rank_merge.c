// SPDX-License-Identifier: MIT
/* The rank hub's answer to the supervisor: rank 0's messages, the other
 * ranks' log lines, and one result for the whole launch
 * (rank_hub_internal.h). */
#define _GNU_SOURCE
#include "rank_hub_internal.h"

#include "ipc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *bh_hub_stage(const bh_hub_peer *p)
{
    const char *stage = "start";
    const char *at = p->stream;

    /* the stream may end mid-line: scan the complete lines for stages */
    while (at && *at) {
        const char *nl = strchr(at, '\n');
        const char *s;

        if (!nl)
            break;
        s = strstr(at, "\"t\":\"stage\",\"stage\":\"");
        if (s && s < nl) {
            static char buf[32];

            s += strlen("\"t\":\"stage\",\"stage\":\"");
            snprintf(buf, sizeof(buf), "%.*s", (int)strcspn(s, "\""), s);
            stage = buf;
        }
        at = nl + 1;
    }
    return stage;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

    return (x > y) - (x < y);
}

/* The median of a rank's own sample times per iteration ("local_ns" of
 * its sample messages, divided by their iterations); 0 when none. */
static double local_median(const bh_hub_peer *p, uint32_t *count)
{
    const cJSON *m;
    uint64_t *v = NULL;
    size_t n = 0, cap = 0;
    double med = 0;

    cJSON_ArrayForEach(m, p->msgs) {
        double iters = bh_json_num(m, "iters", 0), ns = bh_json_num(m, "local_ns", -1);

        if (strcmp(bh_ipc_type(m), "sample") != 0 || iters < 1 || ns < 0)
            continue;
        if (n == cap) {
            cap = cap ? 2 * cap : 16;
            v = realloc(v, cap * sizeof(*v));
            if (!v)
                return 0;
        }
        v[n++] = (uint64_t)(ns / iters * 1000.0); /* picoseconds: keep the fraction */
    }
    if (n) {
        qsort(v, n, sizeof(*v), cmp_u64);
        med = (n % 2 ? (double)v[n / 2] : ((double)v[n / 2 - 1] + (double)v[n / 2]) / 2) / 1000.0;
    }
    free(v);
    *count = (uint32_t)n;
    return med;
}

/* Compares the digests the ranks reported; the first rank that differs
 * from the lowest rank that reported one makes the launch invalid. */
static void check_digests(bh_hub *h)
{
    const char *first = NULL;
    uint32_t first_rank = 0;

    for (uint32_t r = 0; r < h->n && !h->failed; r++) {
        const char *d = bh_json_str(h->peers[r].result, "digest", NULL);

        if (!d)
            continue;
        if (!first) {
            first = d;
            first_rank = r;
        } else if (strcmp(first, d) != 0) {
            bh_hub_fail(h, "invalid", "verify: the ranks disagree on the result: rank %u's "
                                      "digest %s differs from rank %u's %s",
                        r, d, first_rank, first);
        }
    }
}

/* Appends an informational metric to the result's metrics array. */
static void info_metric(cJSON *res, const char *name, const char *unit, double v)
{
    cJSON *arr = cJSON_GetObjectItemCaseSensitive(res, "metrics");
    cJSON *m = cJSON_CreateObject();

    if (!cJSON_IsArray(arr)) {
        cJSON_DeleteItemFromObject(res, "metrics");
        arr = cJSON_AddArrayToObject(res, "metrics");
    }
    cJSON_AddStringToObject(m, "name", name);
    cJSON_AddStringToObject(m, "unit", unit);
    cJSON_AddStringToObject(m, "direction", "lower");
    cJSON_AddNumberToObject(m, "value", v);
    cJSON_AddStringToObject(m, "kind", "informational");
    cJSON_AddItemToArray(arr, m);
}

/* The "ranks" record of the result: the launch and each rank's own time. */
static void add_ranks(bh_hub *h, cJSON *res)
{
    cJSON *o = cJSON_AddObjectToObject(res, "ranks");
    cJSON *per = cJSON_AddArrayToObject(o, "per_rank");
    double lo = 0, hi = 0;
    uint32_t nodes = 0;

    for (uint32_t r = 0; r < h->n; r++) {
        const bh_hub_peer *p = &h->peers[r];
        cJSON *q = cJSON_CreateObject();
        uint32_t count = 0;
        double med = local_median(p, &count);
        int first = 1;

        for (uint32_t s = 0; s < r && first; s++)
            first = strcmp(h->peers[s].host, p->host) != 0;
        nodes += (uint32_t)first;
        cJSON_AddNumberToObject(q, "rank", r);
        cJSON_AddStringToObject(q, "host", p->host);
        cJSON_AddNumberToObject(q, "pid", p->pid);
        if (p->cpus[0])
            cJSON_AddStringToObject(q, "cpus", p->cpus);
        cJSON_AddStringToObject(q, "status",
                                p->result ? bh_json_str(p->result, "status", "ok") : "lost");
        if (count) {
            cJSON_AddNumberToObject(q, "median_ns", med);
            lo = lo == 0 || med < lo ? med : lo;
            hi = med > hi ? med : hi;
        }
        cJSON_AddItemToArray(per, q);
    }
    cJSON_AddNumberToObject(o, "count", h->n);
    cJSON_AddNumberToObject(o, "nodes", nodes);
    cJSON_AddStringToObject(o, "launcher", h->cmd.kind);
    if (strcmp(h->cmd.kind, "local") != 0)
        cJSON_AddStringToObject(o, "bind", bh_json_str(h->launcher, "bind", "auto"));
    cJSON_AddNumberToObject(o, "launch_ns", h->launch_ns);
    if (!h->probe)
        info_metric(res, "ranks", "", h->n);
    if (lo > 0)
        info_metric(res, "ranks.imbalance", "", hi / lo);
    if (h->launch_ns > 0)
        info_metric(res, "ranks.launch_s", "s", h->launch_ns / 1e9);
}

/* Sends rank 0's messages but its result, and the other ranks' logs. */
static void forward(const bh_hub *h, int fd)
{
    for (uint32_t r = 0; r < h->n; r++) {
        const cJSON *m;

        cJSON_ArrayForEach(m, h->peers[r].msgs) {
            const char *t = bh_ipc_type(m);

            /* rank 0's stages would name its stage, not the failing rank's */
            if (strcmp(t, "result") == 0 || strcmp(t, "stage") == 0 ||
                (r > 0 && strcmp(t, "log") != 0))
                continue;
            if (r > 0) {
                cJSON *c = cJSON_Duplicate(m, 1);
                char *msg = NULL;
                int len = asprintf(&msg, "[rank %u] %s", r, bh_json_str(m, "msg", ""));

                if (len >= 0)
                    cJSON_ReplaceItemInObject(c, "msg", cJSON_CreateString(msg));
                free(msg);
                bh_ipc_send(fd, c, NULL);
                cJSON_Delete(c);
            } else {
                bh_ipc_send(fd, m, NULL);
            }
        }
    }
}

/* The launcher's own account of a crash: its last output line that
 * names a signal or an exit ("mpirun noticed that process rank 1 ...
 * exited on signal 11"), or NULL. */
static const char *launcher_account(const bh_hub *h, char *buf, size_t cap)
{
    const char *at = h->tail;
    int found = 0;

    while (*at) {
        size_t n = strcspn(at, "\n");
        char line[512];

        snprintf(line, sizeof(line), "%.*s", (int)n, at);
        if ((strstr(line, "signal") || strstr(line, "exited")) && !strstr(line, "-----")) {
            snprintf(buf, cap, "%s", line);
            found = 1;
        }
        at += n + (at[n] == '\n');
    }
    return found ? buf : NULL;
}

void bh_hub_answer(bh_hub *h, int fd)
{
    char said[512];

    cJSON *res;
    const cJSON *r0 = h->peers && h->n ? h->peers[0].result : NULL;

    if (!h->probe && h->peers)
        check_digests(h);
    if (h->peers && !h->probe)
        forward(h, fd);
    res = r0 ? cJSON_Duplicate(r0, 1) : cJSON_CreateObject();
    if (!r0)
        cJSON_AddStringToObject(res, "t", "result");
    if (h->failed || !r0) {
        cJSON_DeleteItemFromObject(res, "status");
        cJSON_DeleteItemFromObject(res, "message");
        cJSON_AddStringToObject(res, "status", h->failed ? h->status : h->probe ? "ok" : "failed");
        if (h->failed && strcmp(h->status, "crashed") == 0 &&
            launcher_account(h, said, sizeof(said))) {
            char *m = NULL;

            if (asprintf(&m, "%s; %s", h->message, said) >= 0) {
                free(h->message);
                h->message = m;
            }
        }
        if (h->failed || !h->probe)
            cJSON_AddStringToObject(res, "message",
                                    h->message ? h->message : "rank 0 sent no result");
    }
    cJSON_DeleteItemFromObject(res, "peer_failed");
    if (h->peers)
        add_ranks(h, res);
    bh_ipc_send(fd, res, NULL);
    cJSON_Delete(res);
}
