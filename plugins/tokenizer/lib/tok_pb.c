// SPDX-License-Identifier: MIT
/*
 * tok_pb.c -- protobuf wire format: varints, fixed32/64 and length-delimited
 * fields, bounds-checked (SentencePiece .model files are ModelProto).
 */
#include "tok_internal.h"

#include <string.h>

/* Reads one base-128 varint; 0 or -1 when truncated or too long. */
static int varint(pb_rd *r, uint64_t *v)
{
    uint64_t x = 0;
    for (int shift = 0; shift < 64; shift += 7) {
        if (r->p >= r->end)
            return -1;
        uint8_t b = *r->p++;
        x |= (uint64_t)(b & 0x7F) << shift;
        if (!(b & 0x80)) {
            *v = x;
            return 0;
        }
    }
    return -1;
}

int bh_pb_next(pb_rd *r, uint32_t *field, uint32_t *wt, uint64_t *v,
               const uint8_t **data, size_t *len)
{
    uint64_t key;
    if (r->p >= r->end)
        return 0;
    if (varint(r, &key) != 0 || (key >> 3) == 0 || (key >> 3) > 0x1FFFFFFF)
        return -1;
    *field = (uint32_t)(key >> 3);
    *wt = (uint32_t)(key & 7);
    switch (*wt) {
    case 0:
        return varint(r, v) == 0 ? 1 : -1;
    case 1:
        if (r->end - r->p < 8)
            return -1;
        memcpy(v, r->p, 8); /* little-endian host */
        r->p += 8;
        return 1;
    case 2: {
        uint64_t n;
        if (varint(r, &n) != 0 || n > (uint64_t)(r->end - r->p))
            return -1;
        *data = r->p;
        *len = (size_t)n;
        r->p += n;
        return 1;
    }
    case 5: {
        uint32_t x;
        if (r->end - r->p < 4)
            return -1;
        memcpy(&x, r->p, 4);
        *v = x;
        r->p += 4;
        return 1;
    }
    default:
        return -1; /* groups are not used by ModelProto */
    }
}
