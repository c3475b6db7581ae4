// SPDX-License-Identifier: MIT
/* Progress lines for logs (see progress_log.h). */
#define _GNU_SOURCE
#include "progress_log.h"

#include "bh_clock.h"
#include "bh_mem.h"
#include "executor.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

void bh_clock_text(double s, char *buf, size_t cap)
{
    unsigned long t = s > 0 ? (unsigned long)(s + 0.5) : 0;

    if (t >= 3600)
        snprintf(buf, cap, "%lu:%02lu:%02lu", t / 3600, t / 60 % 60, t % 60);
    else
        snprintf(buf, cap, "%lu:%02lu", t / 60, t % 60);
}

/* Prints one line: what (may be empty), then the counts and times; the
 * lock is held. */
static void print_line(bh_progress_log *p, const char *what)
{
    uint64_t now = bh_now_ns();
    double el = (double)(now - p->t0) * 1e-9;
    char e[24], left[24] = "?";

    bh_clock_text(el, e, sizeof(e));
    if (p->runs_done > 0)
        bh_clock_text(el / (double)p->runs_done * (double)(p->runs - p->runs_done), left,
                   sizeof(left));
    fprintf(p->out, "progress: %s%zu/%zu case%s done, %zu/%zu suite%s, %s elapsed, ~%s left%s%s%s\n",
            what, p->cases_done, p->cases, p->cases == 1 ? "" : "s", p->suites_done, p->suites,
            p->suites == 1 ? "" : "s", e, left, p->running ? " (running " : "",
            p->running ? p->running : "", p->running ? ")" : "");
    fflush(p->out);
    p->last = now;
}

/* The timer thread: a line whenever BH_PROGRESS_LOG_PERIOD_S pass
 * without one, until stop. */
static void *timer_main(void *arg)
{
    bh_progress_log *p = arg;

    pthread_mutex_lock(&p->lock);
    while (!p->stopping) {
        uint64_t due = p->last + (uint64_t)BH_PROGRESS_LOG_PERIOD_S * 1000000000u;
        uint64_t now = bh_now_ns();
        struct timespec ts;

        if (now >= due) {
            print_line(p, "");
            continue;
        }
        clock_gettime(CLOCK_REALTIME, &ts);
        ts.tv_sec += (time_t)((due - now) / 1000000000u);
        ts.tv_nsec += (long)((due - now) % 1000000000u);
        if (ts.tv_nsec >= 1000000000L) {
            ts.tv_sec++;
            ts.tv_nsec -= 1000000000L;
        }
        pthread_cond_timedwait(&p->wake, &p->lock, &ts);
    }
    pthread_mutex_unlock(&p->lock);
    return NULL;
}

void bh_progress_log_start(bh_progress_log *p, const bh_plan *plan,
                           const struct bh_exec_slot *order, size_t n, FILE *out)
{
    sigset_t all, old;

    memset(p, 0, sizeof(*p));
    p->out = out;
    p->runs_left = bh_xcalloc(plan->n ? plan->n : 1, sizeof(*p->runs_left));
    for (size_t i = 0; i < plan->n; i++)
        if (plan->cases[i].suite + 1 > p->n_suite_slots)
            p->n_suite_slots = plan->cases[i].suite + 1;
    p->cases_left = bh_xcalloc(p->n_suite_slots ? p->n_suite_slots : 1, sizeof(*p->cases_left));
    for (size_t k = 0; k < n; k++) {
        const bh_case *c;

        if (order[k].case_index >= plan->n)
            continue;
        c = &plan->cases[order[k].case_index];
        if (c->pre_status != BH_ST_OK || order[k].run_index >= c->settings.runs)
            continue;
        if (p->runs_left[order[k].case_index]++ == 0) {
            p->cases++;
            if (p->cases_left[c->suite]++ == 0)
                p->suites++;
        }
        p->runs++;
    }
    pthread_mutex_init(&p->lock, NULL);
    pthread_cond_init(&p->wake, NULL);
    p->t0 = p->last = bh_now_ns();
    /* the thread takes no signal: the supervisor's handlers stay where
     * they are (SIGINT, SIGTERM and their senders) */
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    p->started = pthread_create(&p->timer, NULL, timer_main, p) == 0;
    pthread_sigmask(SIG_SETMASK, &old, NULL);
}

void bh_progress_log_begin(bh_progress_log *p, const bh_case *c, uint32_t r)
{
    pthread_mutex_lock(&p->lock);
    free(p->running);
    p->running = bh_xasprintf("%s, run %u/%u", c->id, r + 1, c->n_runs);
    pthread_mutex_unlock(&p->lock);
}

/* Takes k runs of case ci off what is left (done: they finished, else
 * they will not run) and prints the suite's line when they were its last.
 * The caller holds p->lock. */
static void runs_off(bh_progress_log *p, const bh_plan *plan, size_t ci, size_t k, int done)
{
    const bh_case *c = &plan->cases[ci];

    if (ci >= plan->n || p->runs_left[ci] == 0)
        return;
    if (k > p->runs_left[ci])
        k = p->runs_left[ci];
    if (done)
        p->runs_done += k;
    else
        p->runs -= k;
    p->runs_left[ci] -= (uint32_t)k;
    if (p->runs_left[ci] == 0) {
        p->cases_done++;
        if (--p->cases_left[c->suite] == 0) {
            char *what;

            p->suites_done++;
            what = bh_xasprintf("suite %zu (%s) finished: ", c->suite + 1, c->plugin);
            print_line(p, what);
            free(what);
        }
    }
}

void bh_progress_log_end(bh_progress_log *p, const bh_plan *plan, size_t ci)
{
    pthread_mutex_lock(&p->lock);
    free(p->running);
    p->running = NULL;
    runs_off(p, plan, ci, 1, 1);
    pthread_mutex_unlock(&p->lock);
}

void bh_progress_log_drop(bh_progress_log *p, const bh_plan *plan, size_t ci, size_t k)
{
    pthread_mutex_lock(&p->lock);
    runs_off(p, plan, ci, k, 0);
    pthread_mutex_unlock(&p->lock);
}

void bh_progress_log_stop(bh_progress_log *p)
{
    pthread_mutex_lock(&p->lock);
    p->stopping = 1;
    pthread_cond_signal(&p->wake);
    pthread_mutex_unlock(&p->lock);
    if (p->started)
        pthread_join(p->timer, NULL);
    pthread_cond_destroy(&p->wake);
    pthread_mutex_destroy(&p->lock);
    free(p->running);
    free(p->runs_left);
    free(p->cases_left);
    memset(p, 0, sizeof(*p));
}
