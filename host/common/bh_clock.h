// SPDX-License-Identifier: MIT
/* Host clocks. */
#ifndef BH_CLOCK_H
#define BH_CLOCK_H

#include <stdint.h>

/* CLOCK_MONOTONIC in nanoseconds. [any-thread] */
uint64_t bh_now_ns(void);
/* Wall-clock time as UTC ISO 8601 with seconds, "2026-11-22T01:02:03Z". */
void bh_utc_iso8601(char buf[32]);
/* The same instant in a file-name-safe form, "20261122T010203Z". */
void bh_utc_compact(char buf[32]);

#endif
