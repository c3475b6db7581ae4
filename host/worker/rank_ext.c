// SPDX-License-Identifier: MIT
/* The rank state of this worker and the "bhost.host.ranks/1" table. */
#include "rank_ext.h"

#include "host_api.h"
#include "ipc.h"
#include "rank_wire.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static struct {
    bhost_rank_info info;
    int sync_fd;
    int have_digest;
    uint64_t digest;
} S = {.info = {sizeof(bhost_rank_info), 0, 1, 0, 1, 0, 1, 0, "", "local"}, .sync_fd = -1};

void bh_rank_set_sync_fd(int fd)
{
    S.sync_fd = fd;
}

/* Copies a string member of o into dst (cap bytes) when present. */
static void copy_str(const cJSON *o, const char *key, char *dst, size_t cap)
{
    const char *v = bh_json_str(o, key, NULL);

    if (v)
        snprintf(dst, cap, "%s", v);
}

void bh_rank_apply_job(const cJSON *job)
{
    const cJSON *ri = cJSON_GetObjectItemCaseSensitive(job, "rank_info");

    gethostname(S.info.host, sizeof(S.info.host) - 1);
    if (!cJSON_IsObject(ri))
        return;
    S.info.rank = (uint32_t)bh_json_num(ri, "rank", 0);
    S.info.size = (uint32_t)bh_json_num(ri, "size", 1);
    S.info.local_rank = (uint32_t)bh_json_num(ri, "local_rank", 0);
    S.info.local_size = (uint32_t)bh_json_num(ri, "local_size", 1);
    S.info.node = (uint32_t)bh_json_num(ri, "node", 0);
    S.info.nodes = (uint32_t)bh_json_num(ri, "nodes", 1);
    copy_str(ri, "host", S.info.host, sizeof(S.info.host));
    copy_str(ri, "launcher", S.info.launcher, sizeof(S.info.launcher));
}

int bh_rank_multi(void)
{
    return S.sync_fd >= 0 && S.info.size > 1;
}

uint32_t bh_rank_self(void)
{
    return S.info.rank;
}

bhost_status bh_rank_allgather(const void *in, uint32_t bytes, void *out, char *why,
                               size_t cap)
{
    unsigned char hdr[8];
    uint32_t total;
    int32_t st;

    if (bytes > BH_RANK_MAX_EXCHANGE || (bytes && (!in || !out))) {
        snprintf(why, cap, "allgather: %u bytes (at most %u, with in and out)", bytes,
                 BH_RANK_MAX_EXCHANGE);
        return BHOST_E_INVALID;
    }
    if (S.sync_fd < 0) {
        if (bytes)
            memmove(out, in, bytes);
        return BHOST_OK;
    }
    bh_rank_put_u32(hdr, bytes);
    if (bh_rank_write_all(S.sync_fd, hdr, 4) != 0 ||
        (bytes && bh_rank_write_all(S.sync_fd, in, bytes) != 0) ||
        bh_rank_read_all(S.sync_fd, hdr, 8) != 0) {
        snprintf(why, cap, "allgather: the host's rank hub is gone");
        return BHOST_E_DEVICE;
    }
    st = (int32_t)bh_rank_get_u32(hdr);
    total = bh_rank_get_u32(hdr + 4);
    if (st != 0 || total != bytes * S.info.size) {
        snprintf(why, cap, "allgather: the ranks passed different byte counts");
        return st ? st : BHOST_E_INVALID;
    }
    if (total && bh_rank_read_all(S.sync_fd, out, total) != 0) {
        snprintf(why, cap, "allgather: the host's rank hub is gone");
        return BHOST_E_DEVICE;
    }
    return BHOST_OK;
}

bhost_status bh_rank_max_u64(uint64_t *v, size_t n)
{
    uint64_t all[16 * 64];
    char why[128];
    bhost_status st;
    uint32_t size = S.info.size;

    if (!bh_rank_multi())
        return BHOST_OK;
    if (n > 16 || size > 64) {
        uint64_t *big = malloc(n * size * sizeof(*big));

        if (!big)
            return BHOST_E_NOMEM;
        st = bh_rank_allgather(v, (uint32_t)(n * sizeof(*v)), big, why, sizeof(why));
        for (uint32_t r = 0; st == BHOST_OK && r < size; r++)
            for (size_t i = 0; i < n; i++)
                v[i] = big[r * n + i] > v[i] ? big[r * n + i] : v[i];
        free(big);
        return st;
    }
    st = bh_rank_allgather(v, (uint32_t)(n * sizeof(*v)), all, why, sizeof(why));
    for (uint32_t r = 0; st == BHOST_OK && r < size; r++)
        for (size_t i = 0; i < n; i++)
            v[i] = all[r * n + i] > v[i] ? all[r * n + i] : v[i];
    return st;
}

int bh_rank_digest(uint64_t *d)
{
    if (S.have_digest)
        *d = S.digest;
    return S.have_digest;
}

static bhost_status BHOST_ABI ext_info(bhost_host *h, bhost_rank_info *out)
{
    uint32_t n;

    if (!out || out->struct_size < offsetof(bhost_rank_info, host))
        return BHOST_E_INVALID;
    n = out->struct_size < sizeof(S.info) ? out->struct_size : (uint32_t)sizeof(S.info);
    memcpy((char *)out + sizeof(uint32_t), (const char *)&S.info + sizeof(uint32_t),
           n - sizeof(uint32_t));
    return BHOST_OK;
}

static bhost_status BHOST_ABI ext_allgather(bhost_host *h, const void *in, uint32_t bytes,
                                            void *out)
{
    char why[160];
    bhost_status st = bh_rank_allgather(in, bytes, out, why, sizeof(why));

    if (st != BHOST_OK)
        bh_host_api_get()->set_error(h, why);
    return st;
}

static bhost_status BHOST_ABI ext_report_digest(bhost_host *h, uint64_t digest)
{
    S.digest = digest;
    S.have_digest = 1;
    return BHOST_OK;
}

static const bhost_host_ranks table = {
    sizeof(bhost_host_ranks), 0, ext_info, ext_allgather, ext_report_digest,
};

const bhost_host_ranks *bh_rank_ext(void)
{
    return &table;
}
