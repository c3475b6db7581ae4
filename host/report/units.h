// SPDX-License-Identifier: MIT
/* Human-readable numbers with scaled units. */
#ifndef BH_UNITS_H
#define BH_UNITS_H

#include <stddef.h>

/* Formats nanoseconds as "812 ps", "12.3 ns", "4.56 us", "7.89 ms",
 * "1.23 s" with three significant digits. */
void bh_fmt_time(double ns, char *buf, size_t cap);
/* Formats a rate with SI prefixes: bh_fmt_rate(1.5e11, "FLOP/s") ->
 * "150 GFLOP/s"; bytes use "B/s" -> "25.3 GB/s" (decimal). */
void bh_fmt_rate(double per_s, const char *unit, char *buf, size_t cap);
/* Formats a fraction as a percentage "3.21%". */
void bh_fmt_pct(double fraction, char *buf, size_t cap);

#endif
