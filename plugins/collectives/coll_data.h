// SPDX-License-Identifier: MIT
/*
 * coll_data.h -- element access by type and the byte pattern of point to
 * point, shared by coll_data.c and coll_check.c.
 */
#ifndef BH_COLL_DATA_H
#define BH_COLL_DATA_H

#include "coll.h"

/* Stores v as element i of buf of type t (bytes keep v mod 256). */
void coll_store(coll_dtype t, void *buf, uint64_t i, int32_t v);

/* Element i of buf of type t, exactly, as a double. */
double coll_load(coll_dtype t, const void *buf, uint64_t i);

/* The byte element `index` of rank `rank`'s message holds. */
int32_t coll_byte_value(uint64_t seed, unsigned rank, uint64_t index);

#endif /* BH_COLL_DATA_H */
