// SPDX-License-Identifier: MIT
/*
 * roof_levels.h -- the machine's data caches as a table (level, size,
 * count), the working set the bw ceiling uses for each memory level, and
 * the rule the host places a working set on a level by (plugin-api/
 * README.md section 6.1; host/results/roofline.c), so that the plugin can
 * check that each ceiling lands where it claims.
 *
 * Pure: no I/O, no globals (the hwloc reader is roof_caches_read()).
 */
#ifndef ROOF_LEVELS_H
#define ROOF_LEVELS_H

#include <stddef.h>
#include <stdint.h>

/* The memory level past every cache. */
#define ROOF_DRAM 0u

/* Most cache levels a table holds. */
#define ROOF_MAX_LEVELS 8

/* The DRAM working set is at least this many bytes, and at least
 * ROOF_DRAM_FACTOR times the largest total capacity of a cache level. */
#define ROOF_DRAM_MIN_BYTES (UINT64_C(64) << 20)
#define ROOF_DRAM_FACTOR    2

/* One data or unified cache level: size_bytes per instance, count
 * instances in the machine (per-core caches: one per core). */
typedef struct roof_cache {
    unsigned level;
    uint64_t size_bytes;
    unsigned count;
} roof_cache;

/* The data and unified cache levels, ascending by level, no level twice. */
typedef struct roof_caches {
    roof_cache c[ROOF_MAX_LEVELS];
    unsigned n;
} roof_caches;

/* The bytes level `level` holds for `threads` threads under the host's
 * rule: size_bytes * min(max(threads, 1), count); 0 when the table has no
 * such level. */
uint64_t roof_level_capacity(const roof_caches *t, unsigned level, unsigned threads);

/* The level the host places a working set of ws bytes touched by
 * `threads` threads on: the smallest cache level whose capacity
 * (roof_level_capacity) is at least ws, else ROOF_DRAM. */
unsigned roof_level_of(const roof_caches *t, uint64_t ws, unsigned threads);

/* The working set (bytes) of the bw ceiling at `level` (1, 2, 3, ... or
 * ROOF_DRAM) for `threads` threads, into *out: the level's low end, 1.25
 * times the level below's capacity (where its ceiling is highest), at most half
 * the level's capacity (L1: half), raised to halfway between the level
 * below's capacity and this one's when half would fit the level below;
 * for ROOF_DRAM, ROOF_DRAM_FACTOR
 * times the largest total of any level (size times count: the L3 on most
 * machines, the per-core L2s where they add up to more), at least
 * ROOF_DRAM_MIN_BYTES. Returns 0; -1 with a reason in why (cap bytes)
 * when the table lacks the level or the level holds no more than the one
 * below it at this thread count (no working set would land on it). */
int roof_level_working_set(const roof_caches *t, unsigned level, unsigned threads, uint64_t *out,
                           char *why, size_t cap);

/* The working set rounded down so that `arrays` arrays of doubles split
 * into `threads` slices of whole 64-byte lines: the element count per
 * array into *elements, the bytes of all arrays returned (0 when ws is
 * too small for one line per slice). */
uint64_t roof_round_working_set(uint64_t ws, unsigned arrays, unsigned threads, size_t *elements);

#endif
