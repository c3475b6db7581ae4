// SPDX-License-Identifier: MIT
/* Derived metrics from pairs of cases that differ only in their
 * "variant" parameter: the SIMD speedup of a vector variant over its
 * scalar twin, computed from the two medians of the same run. */
#ifndef BH_VARIANT_SPEEDUP_H
#define BH_VARIANT_SPEEDUP_H

#include <cjson/cJSON.h>

#define BH_SIMD_SPEEDUP "simd_speedup"

/* To every ok case whose params have variant "vector" and whose twin
 * (the same id with variant=scalar) is ok too, adds the informational
 * metric simd_speedup (unit "x": the scalar median time over the vector
 * one, one value) and "speedup_over" naming the twin. Returns how many
 * cases got one. */
int bh_variant_speedup_apply(cJSON *doc);

#endif
