// SPDX-License-Identifier: MIT
/*
 * coll_data.c -- the deterministic inputs of the collectives: the value
 * each (seed, rank, index) contributes, element stores and loads by
 * type, and the filling of a case's buffers before it runs (contracts in
 * coll.h).
 */
#include "coll.h"
#include "coll_data.h"

#include "bh_rng.h"

#include <string.h>

int32_t coll_value(uint64_t seed, unsigned rank, uint64_t index, int small)
{
    uint64_t h = bh_rng_finalize(bh_rng_mix(seed) + ((uint64_t)rank << 40) + index);

    if (small)
        return (int32_t)(h % 17) - 8;
    return (int32_t)(h >> 44) - (INT32_C(1) << 20);
}

void coll_store(coll_dtype t, void *buf, uint64_t i, int32_t v)
{
    switch (t) {
    case COLL_F32:
        ((float *)buf)[i] = (float)v;
        break;
    case COLL_F64:
        ((double *)buf)[i] = (double)v;
        break;
    case COLL_I32:
        ((int32_t *)buf)[i] = v;
        break;
    case COLL_BYTE:
        ((uint8_t *)buf)[i] = (uint8_t)v;
        break;
    }
}

double coll_load(coll_dtype t, const void *buf, uint64_t i)
{
    switch (t) {
    case COLL_F32:
        return ((const float *)buf)[i];
    case COLL_F64:
        return ((const double *)buf)[i];
    case COLL_I32:
        return ((const int32_t *)buf)[i];
    case COLL_BYTE:
        return ((const uint8_t *)buf)[i];
    }
    return 0.0;
}

int32_t coll_byte_value(uint64_t seed, unsigned rank, uint64_t index)
{
    return coll_value(seed, rank, index, 0) & 0xff;
}

/* n elements of buf from rank `rank`'s pattern (small: reduction inputs). */
static void fill_rank(const coll_case *c, void *buf, uint64_t n, unsigned rank, int small)
{
    for (uint64_t i = 0; i < n; i++) {
        int32_t v = c->dtype == COLL_BYTE ? coll_byte_value(c->seed, rank, i)
                                          : coll_value(c->seed, rank, i, small);

        coll_store(c->dtype, buf, i, v);
    }
}

void coll_fill(coll_case *c)
{
    int small = coll_kind_reduces(c->kind);

    if (c->send != NULL)
        fill_rank(c, c->send, c->sz.send_count, c->rank, small);
    /* the receive buffer starts as a pattern of a rank that does not
     * exist (the root's data itself for broadcast's root) */
    fill_rank(c, c->recv, c->sz.recv_count,
              c->kind == COLL_BROADCAST ? c->rank : c->nranks + c->rank, 0);
}
