// SPDX-License-Identifier: MIT
/* The allowed range of a declared plugin parameter as people read it:
 * integers as integers, an open end as ">= 1" or "<= 5". Used by bhost
 * list and by the plan's "must be within" errors. */
#ifndef BH_PARAM_RANGE_H
#define BH_PARAM_RANGE_H

#include <cjson/cJSON.h>
#include <stddef.h>

/* Writes the range of the parameter description pd (a describe message's
 * {key, type, min, max}) into buf: "[1, 65536]" or ">= 1" for an i64
 * whose bound is beyond 2^53 (what plugins write for "no limit"),
 * "[0.5, 2]" for an f64. An empty string when pd has no range. Returns
 * buf. */
const char *bh_param_range_text(const cJSON *pd, char *buf, size_t cap);

#endif
