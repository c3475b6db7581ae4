// SPDX-License-Identifier: MIT
/* Typed member access for the result view (internal to host/results): the
 * one place the view turns string keys into values. */
#ifndef BH_VIEW_JSON_H
#define BH_VIEW_JSON_H

#include <cjson/cJSON.h>

/* A number member of o, or NAN when o is not an object or the member is
 * absent, null or not a number. */
double bh_vj_num(const cJSON *o, const char *key);

/* A string member of o, or dflt. */
const char *bh_vj_str(const cJSON *o, const char *key, const char *dflt);

/* An object member of o, or NULL. */
const cJSON *bh_vj_obj(const cJSON *o, const char *key);

/* An array member of o, or NULL. */
const cJSON *bh_vj_arr(const cJSON *o, const char *key);

/* A bool member of o: 1 true, 0 false, -1 absent or not a bool. */
int bh_vj_bool(const cJSON *o, const char *key);

/* A non-negative whole number member of o below 1e9, or -1. */
long bh_vj_index(const cJSON *o, const char *key);

/* The median of the finite numbers of a JSON array into a new array of
 * them (*vals, NULL when none; may be NULL to discard) with their count;
 * NAN when there are none. */
double bh_vj_array_median(const cJSON *arr, double **vals, size_t *n);

#endif
