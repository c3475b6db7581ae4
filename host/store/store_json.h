// SPDX-License-Identifier: MIT
/* Compact JSON text of document parts, for the store's TEXT columns.
 * Faster than cJSON_PrintUnformatted on number-heavy parts (raw samples):
 * integral values below 2^53 are written as integers without going through
 * printf, other numbers with 17 significant digits (they read back to the
 * same double), non-finite ones as null (as cJSON writes them).
 * Deterministic: the same tree gives the same bytes. */
#ifndef BH_STORE_JSON_H
#define BH_STORE_JSON_H

#include "bh_strbuf.h"

#include <cjson/cJSON.h>

/* Appends the JSON text of item (NULL appends "null"). */
void bh_store_json_append(bh_strbuf *b, const cJSON *item);

/* Appends the JSON text of object obj without the members named in skip
 * (a NULL-terminated list). */
void bh_store_json_append_except(bh_strbuf *b, const cJSON *obj, const char *const *skip);

/* Appends one number as bh_store_json_append writes it. */
void bh_store_json_number(bh_strbuf *b, double v);

#endif
