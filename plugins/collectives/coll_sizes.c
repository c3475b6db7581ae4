// SPDX-License-Identifier: MIT
/*
 * coll_sizes.c -- names, element counts and bandwidth formulas of the
 * collectives (nccl-tests' conventions; contracts in coll.h).
 */
#include "coll.h"

const char *const coll_dtype_names[] = {"f32", "f64", "i32", NULL};
const char *const coll_op_names[] = {"sum", "max", "min", NULL};

static const char *const kind_names[COLL_KIND_COUNT] = {
    "allreduce", "allgather",   "reduce_scatter", "broadcast",
    "alltoall",  "p2p.latency", "p2p.bandwidth",
};

size_t coll_dtype_size(coll_dtype t)
{
    return t == COLL_F64 ? 8 : t == COLL_BYTE ? 1 : 4;
}

const char *coll_kind_name(coll_kind k)
{
    return k < COLL_KIND_COUNT ? kind_names[k] : "?";
}

int coll_kind_reduces(coll_kind k)
{
    return k == COLL_ALLREDUCE || k == COLL_REDUCE_SCATTER;
}

/* nccl-tests' per-rank chunk: count / n rounded down to whole 16 bytes. */
static uint64_t chunk_of(uint64_t count, unsigned n, size_t elt)
{
    uint64_t per16 = 16 / elt;

    return (count / n) & ~(per16 - 1);
}

int coll_sizes_of(coll_kind k, coll_dtype t, uint64_t bytes, unsigned n, unsigned window,
                  coll_sizes *out)
{
    size_t elt = coll_dtype_size(t);
    uint64_t count = bytes / elt, chunk;

    if (n < 1)
        n = 1;
    *out = (coll_sizes){.count = count};
    switch (k) {
    case COLL_ALLGATHER:
    case COLL_REDUCE_SCATTER:
    case COLL_ALLTOALL:
        chunk = chunk_of(count, n, elt);
        out->param_count = chunk;
        out->send_count = k == COLL_ALLGATHER ? chunk : chunk * n;
        out->recv_count = k == COLL_REDUCE_SCATTER ? chunk : chunk * n;
        out->size_bytes = chunk * n * elt;
        break;
    case COLL_P2P_BANDWIDTH:
        out->param_count = out->send_count = out->recv_count = count;
        out->size_bytes = count * elt * (window > 0 ? window : 1);
        break;
    default: /* allreduce, broadcast, p2p.latency */
        out->param_count = out->send_count = out->recv_count = count;
        out->size_bytes = count * elt;
        break;
    }
    return out->param_count > 0 ? 0 : -1;
}

double coll_busbw_factor(coll_kind k, unsigned n)
{
    if (n < 1)
        n = 1;
    switch (k) {
    case COLL_ALLREDUCE:
        return 2.0 * (double)(n - 1) / (double)n;
    case COLL_ALLGATHER:
    case COLL_REDUCE_SCATTER:
    case COLL_ALLTOALL:
        return (double)(n - 1) / (double)n;
    default:
        return 1.0;
    }
}

double coll_algbw_gbs(uint64_t size_bytes, double seconds)
{
    return seconds > 0 ? (double)size_bytes / 1e9 / seconds : 0.0;
}

uint64_t coll_send_bytes(const coll_case *c)
{
    return c->kind == COLL_BROADCAST ? 0 : c->sz.send_count * coll_dtype_size(c->dtype);
}

uint64_t coll_recv_bytes(const coll_case *c)
{
    return c->sz.recv_count * coll_dtype_size(c->dtype);
}
