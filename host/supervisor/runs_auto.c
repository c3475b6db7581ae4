// SPDX-License-Identifier: MIT
/* Executing a plan with runs: auto cases (runs_auto.h): interleaved
 * rounds, each case's runs stopped by its own spread. */
#include "runs_auto.h"

#include "bh_clock.h"
#include "bh_mem.h"
#include "bh_rng.h"
#include "callgrind_run.h"
#include "rank_plan.h"
#include "executor_internal.h"
#include "host_signals.h"
#include "progress_log.h"
#include "worker_spawn.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* Everything one execution carries from round to round. */
typedef struct auto_exec {
    bh_plan *plan;
    const bh_exec_opts *o;
    char *exe;
    uint64_t t0;
    size_t k;        /* runs started so far */
    size_t total;    /* runs planned: fixed runs plus max of open cases */
    bh_progress_log plog;
    size_t started;
} auto_exec;

/* Fills in the limits of an auto case that bh_runs_auto_limits did not
 * set, allocates max runs and plans min of them. */
static void prepare_case(bh_case *c)
{
    bh_case_auto *a = &c->autorun;

    if (a->min == 0) {
        a->max = c->settings.max_runs;
        a->min = c->settings.min_runs ? c->settings.min_runs : BH_RUNS_AUTO_MIN_CI_RUNS;
        if (a->min > a->max)
            a->min = a->max;
        a->floor = 0.01;
    }
    if (a->max < a->min)
        a->max = a->min;
    a->stopped = NULL;
    a->ci_rel_width = NAN;
    c->settings.runs = a->max; /* the most it can get, for progress */
    c->runs = bh_xcalloc(a->max, sizeof(bh_run));
    c->n_runs = a->min;
}

/* Runs slots[0..n) in a shuffled order (one round). */
static void run_round(auto_exec *x, bh_exec_slot *slots, size_t n, bh_rng *rng)
{
    bh_rng_shuffle(rng, slots, n, sizeof(*slots));
    for (size_t i = 0; i < n && !bh_interrupted; i++) {
        bh_case *c = &x->plan->cases[slots[i].case_index];

        if (x->o->progress == BH_PROGRESS_LOG)
            bh_progress_log_begin(&x->plog, c, slots[i].run_index);
        bh_exec_slot_run(x->plan, &slots[i], x->k, x->total, x->o, x->exe, x->t0);
        if (x->o->progress == BH_PROGRESS_LOG && c->runs[slots[i].run_index].done)
            bh_progress_log_end(&x->plog, x->plan, slots[i].case_index);
        x->k++;
        x->started++;
    }
}

/* The rule's decision for auto case c after a round, recorded in c when
 * it stops. */
static bh_runs_auto_stop decide(bh_case *c)
{
    bh_runs_auto_state st = {0};
    double *med;
    size_t n;
    double width;
    bh_runs_auto_stop stop;

    bh_runs_auto_medians(c, &med, &n);
    st.medians = med;
    st.n_medians = n;
    st.all_ok = 1;
    for (uint32_t r = 0; r < c->n_runs; r++) {
        const bh_run *run = &c->runs[r];

        if (!run->done)
            continue;
        st.runs_done++;
        st.spent_ns += run->wall_ns;
        if (run->status != BH_ST_OK)
            st.all_ok = 0;
    }
    st.budget_ns = c->settings.max_time_ns;
    stop = bh_runs_auto_decide(&c->autorun, &st, &width);
    c->autorun.ci_rel_width = width;
    if (stop != BH_RUNS_AUTO_GO_ON)
        c->autorun.stopped = bh_runs_auto_stop_name(stop);
    free(med);
    return stop;
}

/* The first round: every run of the fixed cases and the first min runs of
 * the auto cases, in one shuffled order. */
static void first_round(auto_exec *x, bh_rng *rng)
{
    bh_exec_slot *slots = NULL;
    size_t n = 0, cap = 0;

    for (size_t i = 0; i < x->plan->n; i++) {
        bh_case *c = &x->plan->cases[i];

        if (c->pre_status != BH_ST_OK)
            continue;
        if (c->settings.runs_auto) {
            prepare_case(c);
        } else if (!c->runs) {
            c->n_runs = c->settings.runs;
            c->runs = bh_xcalloc(c->n_runs ? c->n_runs : 1, sizeof(bh_run));
        }
        for (uint32_t r = 0; r < c->n_runs; r++)
            BH_PUSH(slots, n, cap, ((bh_exec_slot){(uint32_t)i, r}));
        x->total += c->settings.runs;
    }
    if (x->o->progress == BH_PROGRESS_LOG) {
        /* counted up to max runs; what a case does not use is dropped */
        bh_exec_slot *all = NULL;
        size_t na = 0, ca = 0;

        for (size_t i = 0; i < x->plan->n; i++)
            if (x->plan->cases[i].pre_status == BH_ST_OK)
                for (uint32_t r = 0; r < x->plan->cases[i].settings.runs; r++)
                    BH_PUSH(all, na, ca, ((bh_exec_slot){(uint32_t)i, r}));
        bh_progress_log_start(&x->plog, x->plan, all, na, stderr);
        free(all);
    }
    run_round(x, slots, n, rng);
    free(slots);
}

/* After the first round: raises the min of every auto case whose
 * min_runs was not given to what a comparison of all the tests the cases
 * reported needs (runs_auto.h). */
static void raise_min(bh_plan *plan)
{
    size_t m = 0;

    for (size_t i = 0; i < plan->n; i++)
        if (plan->cases[i].pre_status == BH_ST_OK)
            m += bh_runs_auto_tests(&plan->cases[i]);
    for (size_t i = 0; i < plan->n; i++) {
        bh_case *c = &plan->cases[i];
        uint32_t n;

        if (c->pre_status != BH_ST_OK || !c->settings.runs_auto || c->settings.min_runs ||
            !(c->autorun.fdr > 0))
            continue;
        n = bh_runs_auto_least(c->autorun.fdr, m);
        if (n > c->autorun.max)
            n = c->autorun.max;
        if (n > c->autorun.min)
            c->autorun.min = n;
    }
}

/* Decides every open auto case and gives each that goes on one more run
 * in a shuffled round; returns the number of runs of the round (0: every
 * case has stopped). */
static size_t next_round(auto_exec *x, bh_rng *rng)
{
    bh_exec_slot *slots = NULL;
    size_t n = 0, cap = 0;

    for (size_t i = 0; i < x->plan->n; i++) {
        bh_case *c = &x->plan->cases[i];

        if (c->pre_status != BH_ST_OK || !c->settings.runs_auto || c->autorun.stopped)
            continue;
        if (decide(c) != BH_RUNS_AUTO_GO_ON) {
            size_t unused = c->autorun.max - c->n_runs;

            x->total -= unused;
            if (x->o->progress == BH_PROGRESS_LOG && unused)
                bh_progress_log_drop(&x->plog, x->plan, i, unused);
            continue;
        }
        BH_PUSH(slots, n, cap, ((bh_exec_slot){(uint32_t)i, c->n_runs}));
        c->n_runs++;
    }
    run_round(x, slots, n, rng);
    free(slots);
    return n;
}

/* See runs_auto.h. */
size_t bh_exec_runs_auto(bh_plan *plan, const bh_exec_opts *o)
{
    auto_exec x = {0};
    bh_rng rng;

    x.plan = plan;
    x.o = o;
    x.exe = bh_self_exe();
    x.t0 = bh_now_ns();
    bh_cg_check_plan(plan);
    bh_rank_preflight(plan);
    bh_rng_seed(&rng, o->seed);
    first_round(&x, &rng);
    raise_min(plan);
    while (!bh_interrupted && next_round(&x, &rng) > 0)
        ;
    if (o->progress == BH_PROGRESS_LIVE)
        fprintf(stderr, "\r\033[K");
    if (o->progress == BH_PROGRESS_LOG)
        bh_progress_log_stop(&x.plog);
    for (size_t i = 0; i < plan->n; i++) {
        bh_case *c = &plan->cases[i];

        if (c->pre_status == BH_ST_OK && c->settings.runs_auto) {
            if (!c->autorun.stopped)
                c->autorun.stopped = "interrupted";
            c->settings.runs = c->n_runs;
        }
        bh_case_finish(c, o->seed);
    }
    free(x.exe);
    return x.started;
}
