// SPDX-License-Identifier: MIT
/* Progress for a log that is not a terminal (a CI job): plain lines on a
 * stream, never redrawn. One line when a suite's last case finishes, and
 * one at least every 30 s in between (from a timer thread, so a long run
 * shows life too): cases done of all, time elapsed, the estimate of the
 * time left from the mean time of the runs so far. */
#ifndef BH_PROGRESS_LOG_H
#define BH_PROGRESS_LOG_H

#include "plan.h"

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>

struct bh_exec_slot; /* executor.h */

/* Seconds between two lines at most. */
#define BH_PROGRESS_LOG_PERIOD_S 30

typedef struct bh_progress_log {
    FILE *out;
    pthread_mutex_t lock;
    pthread_cond_t wake;
    pthread_t timer;
    int started;         /* the timer thread runs */
    int stopping;
    uint64_t t0;         /* when the runs began */
    uint64_t last;       /* when the last line was printed */
    size_t runs, runs_done;
    size_t cases, cases_done;
    size_t suites, suites_done;
    uint32_t *runs_left; /* per case of the plan: runs not finished */
    size_t *cases_left;  /* per suite index: cases not finished */
    size_t n_suite_slots;
    char *running;       /* "case (run i/n)" now running, or NULL */
} bh_progress_log;

/* "1:05" or "1:02:05" for s seconds, into buf: the clock of both kinds
 * of progress line. */
void bh_clock_text(double s, char *buf, size_t cap);

/* Starts progress for the runs order[0..n) of plan (only runnable cases
 * and valid run indices count) and the timer thread; lines go to out. */
void bh_progress_log_start(bh_progress_log *p, const bh_plan *plan,
                           const struct bh_exec_slot *order, size_t n, FILE *out);

/* Run r of case c (index ci of the plan) starts now. */
void bh_progress_log_begin(bh_progress_log *p, const bh_case *c, uint32_t r);

/* The run of case ci that began finished: prints the line of its suite
 * when that was the suite's last run. */
void bh_progress_log_end(bh_progress_log *p, const bh_plan *plan, size_t ci);

/* k runs of case ci that were counted will not run (runs: auto stopped
 * the case early): they leave the totals, and the suite's line is printed
 * when they were its last. */
void bh_progress_log_drop(bh_progress_log *p, const bh_plan *plan, size_t ci, size_t k);

/* Stops the timer thread and frees what start took. */
void bh_progress_log_stop(bh_progress_log *p);

#endif
