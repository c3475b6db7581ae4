// SPDX-License-Identifier: MIT
/* The console table of bhost ab: per case the A build's median, the B
 * build's, the paired change with its interval and the verdict, read from
 * the result document (its cases are B's, ab.a.cases A's, each B case's
 * verdict the paired decision; docs/results-schema.md, "ab"). */
#ifndef BH_AB_CONSOLE_H
#define BH_AB_CONSOLE_H

#include <cjson/cJSON.h>
#include <stdio.h>

/* Prints the header (the two folders, pairs, design), one row per case
 * and compared metric, and the ids only one side has. A side whose case
 * did not end ok shows its status instead of a median. color: ANSI
 * colors for the verdicts. */
void bh_report_console_ab(FILE *out, const cJSON *doc, int color);

#endif
