// SPDX-License-Identifier: MIT
/* A benchmark instance's work profile (ABI 1.1 bhost_bench_desc.
 * work_profile): asked of the plugin after setup(), checked, and written
 * as the "work_profile" object of a run result, for `run` and
 * `check-plugin` alike. */
#ifndef BH_WORK_PROFILE_H
#define BH_WORK_PROFILE_H

#include <bhost/plugin.h>
#include <cjson/cJSON.h>
#include <stddef.h>

/* The name of an access kind ("read", "write", "read-write"), or NULL when
 * the value is none of the known ones (0, unknown, is "unknown"). */
const char *bh_work_access_name(bhost_access a);

/* The name of a compute class ("none", "f64", "f32", "f16", "bf16",
 * "int8"), or NULL when unknown. */
const char *bh_work_compute_name(bhost_compute c);

/* Asks d's work_profile for inst when the descriptor has one. Returns 0
 * with *out a new object {working_set_bytes, access, compute, threads}
 * (NULL when the benchmark declares none), or -1 with why set when the
 * call fails or returns a value outside the ABI's enums. [instance] */
int bh_work_profile_get(const bhost_bench_desc *d, void *inst, cJSON **out, char *why,
                        size_t cap);

#endif
