// SPDX-License-Identifier: MIT
/* Multi-rank cases on the supervisor's side: the launcher a case's job
 * carries, and the check before a run that its launcher exists and, when
 * it names other nodes or Slurm, that a probe launch reaches them
 * (docs/multi-rank.md). */
#ifndef BH_RANK_PLAN_H
#define BH_RANK_PLAN_H

#include "plan.h"

#include <cjson/cJSON.h>

/* Makes job (a run job of c) a rank-hub job when c runs on more than one
 * rank: mode "ranks", the rank count, the launcher and the hub's own
 * deadline (6 s inside the case's timeout, half of one under 20 s, so
 * that the hub can say which rank hung and end the launch in time). Other cases: job unchanged. */
void bh_rank_job(const bh_case *c, cJSON *job);

/* Before the runs: every case with more than one rank whose launcher is
 * not on PATH, or whose probe launch fails, is skipped with the reason;
 * each failing launcher is reported once on stderr. [main] */
void bh_rank_preflight(bh_plan *plan);

#endif
