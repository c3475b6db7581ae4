// SPDX-License-Identifier: MIT
/* Strict parsing of numeric command-line values. */
#ifndef BH_CLI_ARGS_H
#define BH_CLI_ARGS_H

#include <stdint.h>

/* Parses a decimal or 0x-hex unsigned integer in [min, max]; on failure
 * prints "bhost: OPTION expects ..." and returns -1. */
int bh_arg_u64(const char *option, const char *text, uint64_t min,
               uint64_t max, uint64_t *out);

#endif
