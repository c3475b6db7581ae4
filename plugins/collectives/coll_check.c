// SPDX-License-Identifier: MIT
/*
 * coll_check.c -- what each rank must hold after a collective, checked
 * element by element and exactly (the inputs are integers whose sums are
 * exact in every type), and the digest of a rank's output (contracts in
 * coll.h).
 */
#include "coll.h"
#include "coll_data.h"

#include <string.h>

/* op over every rank's small value at index i of their send buffers. */
static int64_t reduced(const coll_case *c, uint64_t i)
{
    int64_t acc = coll_value(c->seed, 0, i, 1);

    for (unsigned r = 1; r < c->nranks; r++) {
        int64_t v = coll_value(c->seed, r, i, 1);

        acc = c->op == COLL_SUM   ? acc + v
              : c->op == COLL_MAX ? (v > acc ? v : acc)
                                  : (v < acc ? v : acc);
    }
    return acc;
}

/* The value element e of this rank's receive buffer must hold. */
static double expected(const coll_case *c, uint64_t e)
{
    uint64_t chunk = c->sz.param_count;

    switch (c->kind) {
    case COLL_ALLREDUCE:
        return (double)reduced(c, e);
    case COLL_REDUCE_SCATTER:
        return (double)reduced(c, (uint64_t)c->rank * chunk + e);
    case COLL_ALLGATHER:
        return coll_value(c->seed, (unsigned)(e / chunk), e % chunk, 0);
    case COLL_ALLTOALL:
        return coll_value(c->seed, (unsigned)(e / chunk), (uint64_t)c->rank * chunk + e % chunk, 0);
    case COLL_BROADCAST:
        return coll_value(c->seed, c->root, e, 0);
    default: /* point to point: the other rank's message */
        return coll_byte_value(c->seed, c->rank == 0 ? 1u : 0u, e);
    }
}

/* 1 when this rank receives anything to check in c. */
static int receives(const coll_case *c)
{
    if (c->kind == COLL_P2P_LATENCY)
        return c->rank <= 1;
    if (c->kind == COLL_P2P_BANDWIDTH)
        return c->rank == 1;
    return 1;
}

int coll_check(const coll_case *c, coll_mismatch *m)
{
    if (!receives(c))
        return 0;
    for (uint64_t e = 0; e < c->sz.recv_count; e++) {
        double got = coll_load(c->dtype, c->recv, e), want = expected(c, e);

        if (got != want) {
            *m = (coll_mismatch){.element = e, .got = got, .expected = want};
            return 1;
        }
    }
    return 0;
}

uint64_t coll_digest(const coll_case *c)
{
    const unsigned char *p = c->recv;
    uint64_t n = coll_recv_bytes(c), h = UINT64_C(0xcbf29ce484222325), i = 0;

    for (; i + 8 <= n; i += 8) {
        uint64_t w;

        memcpy(&w, p + i, 8);
        h = (h ^ w) * UINT64_C(0x100000001b3);
    }
    for (; i < n; i++)
        h = (h ^ p[i]) * UINT64_C(0x100000001b3);
    return h;
}
