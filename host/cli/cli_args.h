// SPDX-License-Identifier: MIT
/* Strict parsing of numeric command-line values. */
#ifndef BH_CLI_ARGS_H
#define BH_CLI_ARGS_H

#include <stdint.h>

/* Parses a decimal or 0x-hex unsigned integer in [min, max]; on failure
 * prints "bhost: OPTION expects ..." and returns -1. */
int bh_arg_u64(const char *option, const char *text, uint64_t min, uint64_t max, uint64_t *out);

/* Parses the duration text of option opt of command cmd into *ns
 * ("200ms", "2s"); with positive, zero is refused. 0, or -1 after one
 * line "bhost: CMD: OPT 'TEXT': why". */
int bh_arg_duration(const char *cmd, const char *opt, const char *text, int positive, uint64_t *ns);

#endif
