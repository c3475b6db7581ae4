// SPDX-License-Identifier: MIT
/* runs: auto (docs/statistics.md section 8.3): a case's runs go on, from
 * its min_runs up to its max_runs, until the 95% order-statistic interval
 * of the median of its run medians (the interval the console prints) is
 * narrower than its noise floor, or its time budget (max_time) is spent.
 * The decision reads the case's own runs only, never a baseline: stopping
 * when a comparison looks settled is optional stopping, which inflates the
 * false alarm rate of that comparison.
 *
 * Runs stay interleaved: the first min_runs of every case (with every run
 * of the fixed-runs cases) in one shuffled order, as bh_exec_plan does,
 * then rounds in which every case still open gets one more run, each round
 * in its own shuffled order. */
#ifndef BH_RUNS_AUTO_H
#define BH_RUNS_AUTO_H

#include "executor.h"
#include "plan.h"

#include <stddef.h>
#include <stdint.h>

/* The level of the interval the rule reads: the console's. */
#define BH_RUNS_AUTO_LEVEL 0.95
/* The fewest run medians whose 95% order-statistic interval of the median
 * is bounded on both sides (section 10.5): the least min_runs can be. */
#define BH_RUNS_AUTO_MIN_CI_RUNS 6u

/* Why a case's runs stop. */
typedef enum bh_runs_auto_stop {
    BH_RUNS_AUTO_GO_ON = 0,    /* not yet: one more run */
    BH_RUNS_AUTO_CI_NARROW,    /* the interval is narrower than the floor */
    BH_RUNS_AUTO_MAX_RUNS,     /* max runs reached */
    BH_RUNS_AUTO_TIME_BUDGET,  /* another run would not fit max_time */
    BH_RUNS_AUTO_RUN_NOT_OK    /* a run did not end ok: more runs cannot
                                  change the case's status */
} bh_runs_auto_stop;

/* What the rule reads of one case after a round. */
typedef struct bh_runs_auto_state {
    const double *medians; /* the run medians of its ok runs */
    size_t n_medians;
    uint32_t runs_done;    /* runs finished, ok or not */
    int all_ok;            /* every finished run ended ok */
    uint64_t spent_ns;     /* the wall time of its finished runs */
    uint64_t budget_ns;    /* max_time; 0: none */
} bh_runs_auto_state;

/* (hi - lo) / median of the 95% order-statistic interval of the median of
 * v[0..n) (finite values; v is sorted in place): 0 for equal values,
 * INFINITY when n < BH_RUNS_AUTO_MIN_CI_RUNS (a bound is infinite), NAN
 * when n == 0 or the median is not > 0. Pure. */
double bh_runs_auto_ci_width(double *v, size_t n);

/* The decision for a case with limits lim (min, max, floor) in state st,
 * checked in this order: a run not ok; fewer than min runs (go on); the
 * interval narrower than the floor; max runs; the time of another run
 * (the mean of the runs so far) beyond the budget. *width (may be NULL)
 * receives bh_runs_auto_ci_width of st's medians. Pure. */
bh_runs_auto_stop bh_runs_auto_decide(const bh_case_auto *lim, const bh_runs_auto_state *st,
                                      double *width);

/* The name a result records for s ("ci_narrow", ...); NULL for GO_ON. */
const char *bh_runs_auto_stop_name(bh_runs_auto_stop s);

/* The run median of every ok run of c (the median of its samples' ns per
 * iteration, as the summary and the comparisons take it) into *out
 * (malloc'd, free it; NULL when none), their count into *n. */
void bh_runs_auto_medians(const bh_case *c, double **out, size_t *n);

/* The runs per side from which a comparison of m_tests (case, metric)
 * pairs can reach its level at all: the smallest n whose exact
 * Mann-Whitney minimum p, 2 / C(2n, n), is at most fdr / m_tests
 * (docs/statistics.md section 10.8), and at least
 * BH_RUNS_AUTO_MIN_CI_RUNS. Pure. */
uint32_t bh_runs_auto_least(double fdr, size_t m_tests);

/* The tests a comparison of c will make, as far as its first ok run says:
 * its time and every performance metric it reported (1 when it has no ok
 * run yet). */
size_t bh_runs_auto_tests(const bh_case *c);

/* True when some case of plan is runnable with settings.runs_auto. */
int bh_runs_auto_any(const bh_plan *plan);

/* bh_exec_plan for a plan with runs: auto cases (see the top of this
 * file); cases whose limits were not set (autorun.min 0) get min
 * BH_RUNS_AUTO_MIN_CI_RUNS or settings.min_runs, max settings.max_runs and
 * a floor of 1%. After the first round, the min of a case whose min_runs
 * was not given and whose autorun.fdr is set is raised to
 * bh_runs_auto_least over the tests of every runnable case
 * (bh_runs_auto_tests), capped at its max: the metrics a case reports are
 * known only once it ran. Each auto case ends with n_runs and
 * settings.runs the runs it made and autorun.stopped set. Returns the runs
 * started. */
size_t bh_exec_runs_auto(bh_plan *plan, const bh_exec_opts *o);

#endif
