// SPDX-License-Identifier: MIT
/* Leaks: host-API allocations a plugin's destroy left behind (the worker
 * reports them as alloc.leaked_bytes and alloc.leaked_count, read after
 * destroy), turned into a run warning or, with the setting leaks: fail,
 * a failed run (README "Leaks", docs/results-schema.md). */
#ifndef BH_LEAK_CHECK_H
#define BH_LEAK_CHECK_H

#include "plan.h"

/* When r's result reports leaked host-API blocks: with fail set and r ok,
 * r becomes BH_ST_FAILED with the message "leak: N bytes in K host-API
 * allocations not freed by destroy (leaks: fail)"; otherwise the same
 * text, ending "(a warning; leaks: fail fails the run)", is added to
 * r->warning (after a warning already there, "; "-separated). A run
 * without leaks, or without a result, is left as it is. */
void bh_leak_check(bh_run *r, int fail);

/* The leaked bytes and blocks r's result reports (0 when none or no
 * result). */
void bh_leak_of(const bh_run *r, double *bytes, double *count);

#endif
