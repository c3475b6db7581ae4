/* The console summary of a run. */
#ifndef BH_CONSOLE_H
#define BH_CONSOLE_H

#include "plan.h"

#include <stdio.h>

/* Prints one row per case: id, status, median time per iteration with its
 * confidence interval, CV across runs, and throughput; then one line per
 * non-ok case with its message, and a count by status. color enables ANSI
 * colors (the caller decides: TTY and no NO_COLOR). */
void bh_console_print(FILE *out, const bh_plan *plan, int color);

#endif
