// SPDX-License-Identifier: MIT
/* The executor's parts that another way of ordering runs reuses
 * (runs_auto.c): one run of one case with its live progress line. */
#ifndef BH_EXECUTOR_INTERNAL_H
#define BH_EXECUTOR_INTERNAL_H

#include "executor.h"

#include <stddef.h>
#include <stdint.h>

/* Runs slot s of plan in a fresh worker (exe: bh_self_exe()), as
 * bh_exec_ordered runs each of its slots; with o->progress
 * BH_PROGRESS_LIVE it first redraws the progress line as run k + 1 of n
 * since t0. The case must be runnable and its runs allocated. [main] */
void bh_exec_slot_run(bh_plan *plan, const bh_exec_slot *s, size_t k, size_t n,
                      const bh_exec_opts *o, const char *exe, uint64_t t0);

#endif
