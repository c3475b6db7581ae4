// SPDX-License-Identifier: MIT
/* The one JSON writer of bhost: the text of a cJSON tree with exact
 * numbers. Every finite double is written with the fewest of 15, 16 or 17
 * significant digits ("%.15g", "%.16g", "%.17g") that strtod reads back
 * as the identical double, bit for bit (-0 included); cJSON's own printer
 * accepts a 15-digit form that is only close and so can drop the last bit.
 * A number that is not finite is written as null (docs/results-schema.md).
 * Everything else is written byte for byte as cJSON_Print and
 * cJSON_PrintUnformatted write it: tab indentation, arrays on one line,
 * strings escaped as cJSON escapes them (\" \\ \b \f \n \r \t, other
 * bytes below 0x20 as \u00xx, every other byte, UTF-8 included, as it
 * is), raw items copied as they are. Numbers use '.' whatever the
 * calling thread's locale. Reentrant: any thread. */
#ifndef BH_JSON_WRITE_H
#define BH_JSON_WRITE_H

#include "bh_strbuf.h"

#include <cjson/cJSON.h>

#include <stdbool.h>

/* Room for any number bh_json_format_double writes, NUL included. */
#define BH_JSON_NUMBER_MAX 32

/* Writes v into buf as the writer writes numbers: the first of "%.15g",
 * "%.16g", "%.17g" that reads back as exactly v; "null" when v is not
 * finite. Returns buf. Pure: no I/O, no globals but a C locale made once. */
const char *bh_json_format_double(double v, char buf[BH_JSON_NUMBER_MAX]);

/* Appends the text of item (and everything under it) to b: indented as
 * cJSON_Print indents when formatted is true, else on one line as
 * cJSON_PrintUnformatted writes it; no trailing newline. Returns 0; -1
 * when the tree holds something cJSON could not print either (an item of
 * no known type, a raw item without text, a NULL item), b then holding
 * the text up to that item. */
int bh_json_append(bh_strbuf *b, const cJSON *item, bool formatted);

/* The text of item as cJSON_Print writes it, numbers exact: a new string
 * (free() it), or NULL when bh_json_append fails. */
char *bh_json_print(const cJSON *item);

/* The text of item on one line as cJSON_PrintUnformatted writes it,
 * numbers exact: a new string (free() it), or NULL when bh_json_append
 * fails. */
char *bh_json_print_unformatted(const cJSON *item);

/* Adds key = v to object o, or key = null when v is not finite (JSON has
 * neither NaN nor infinity). */
void bh_json_add_num(cJSON *o, const char *key, double v);

#endif
