// SPDX-License-Identifier: MIT
/*
 * roof_caches.h -- the machine's data and unified cache levels from hwloc,
 * counted as the host's system.caches counts them (one entry per hwloc
 * cache object; instruction caches left out).
 */
#ifndef ROOF_CACHES_H
#define ROOF_CACHES_H

#include "roof_levels.h"

#include <stddef.h>

/* Fills *out from the hwloc topology of this machine: per level, the
 * smallest instance's size and the number of instances, ascending by
 * level. Returns 0 (out->n may be 0 when hwloc knows no cache); -1 with a
 * reason in why (cap bytes) when hwloc cannot load the topology. Any
 * thread. */
int roof_caches_read(roof_caches *out, char *why, size_t cap);

#endif
