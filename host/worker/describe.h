// SPDX-License-Identifier: MIT
/* Describing an opened plugin: its entry, benchmarks with typed params,
 * and backend devices (with the reason when there are none). */
#ifndef BH_DESCRIBE_H
#define BH_DESCRIBE_H

#include "loader.h"

#include <cjson/cJSON.h>

/* Builds the "describe" protocol message for p (caller deletes). Calls
 * only descriptor getters and device queries, never a benchmark. */
cJSON *bh_describe_plugin(const bh_plugin *p);

/* Name of a bhost_param_type: "i64", "f64", "str", "bool", or NULL. */
const char *bh_param_type_name(bhost_param_type t);

#endif
