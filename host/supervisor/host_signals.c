// SPDX-License-Identifier: MIT
/* Signals aimed at the supervisor while workers run (host_signals.h). */
#define _GNU_SOURCE
#include "host_signals.h"

#include "watchdog.h"
#include "worker_spawn.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

volatile sig_atomic_t bh_interrupted;

/* The process groups of the live workers (0: a free slot; describe
 * workers run several at a time), and per slot the signal and sender a
 * worker aimed at this process and the watchdog's counters when it
 * started. Written by threads with atomics, read by the handlers. */
#define LIVE_SLOTS 32
static volatile sig_atomic_t live_pgid[LIVE_SLOTS];
static volatile sig_atomic_t live_signal[LIVE_SLOTS];
static volatile sig_atomic_t live_sender[LIVE_SLOTS];
static unsigned live_resumes[LIVE_SLOTS];
static unsigned live_stopped_ms[LIVE_SLOTS];

/* Records sig for the live worker whose group sent it; 0 when the sender
 * is not a live worker's (or cannot be traced any more). */
static int blame_worker(int sig, const siginfo_t *si)
{
    pid_t group;

    if (!si || si->si_code > 0 || si->si_pid <= 0) /* from the kernel */
        return 0;
    group = getpgid(si->si_pid);
    for (int i = 0; i < LIVE_SLOTS; i++) {
        pid_t g = live_pgid[i];

        if (g > 0 && (g == si->si_pid || g == group)) {
            live_sender[i] = si->si_pid;
            live_signal[i] = sig;
            return 1;
        }
    }
    return 0;
}

/* SIGINT/SIGTERM: a worker's is blamed on it, anyone else's interrupts. */
static void on_stop_signal(int sig, siginfo_t *si, void *uc)
{
    (void)uc;
    if (!blame_worker(sig, si))
        bh_interrupted = 1;
}

/* SIGTSTP/SIGTTIN/SIGTTOU: a worker's SIGTSTP is blamed on it; otherwise
 * this process stops as job control asks, announced to the watchdog so
 * that it stays stopped (the default action runs once this handler
 * returns; on_continue re-arms the handler). */
static void on_job_stop(int sig, siginfo_t *si, void *uc)
{
    (void)uc;
    if (sig == SIGTSTP && blame_worker(sig, si))
        return;
    bh_watchdog_voluntary(1);
    signal(sig, SIG_DFL);
    raise(sig);
}

/* Installs handler for sig with SA_SIGINFO. */
static void install(int sig, void (*handler)(int, siginfo_t *, void *))
{
    struct sigaction sa;

    memset(&sa, 0, sizeof(sa));
    sa.sa_sigaction = handler;
    sa.sa_flags = SA_SIGINFO | SA_RESTART;
    sigemptyset(&sa.sa_mask);
    sigaction(sig, &sa, NULL);
}

/* SIGCONT: back from a stop; job-control handlers armed again. */
static void on_continue(int sig, siginfo_t *si, void *uc)
{
    (void)sig, (void)si, (void)uc;
    bh_watchdog_voluntary(0);
    install(SIGTSTP, on_job_stop);
    install(SIGTTIN, on_job_stop);
    install(SIGTTOU, on_job_stop);
}

/* See host_signals.h. */
void bh_supervisor_catch_signals(void)
{
    const char *w = getenv("BHOST_WATCHDOG");

    install(SIGINT, on_stop_signal);
    install(SIGTERM, on_stop_signal);
    install(SIGCONT, on_continue);
    on_continue(SIGCONT, NULL, NULL);
    if (!w || strcmp(w, "0") != 0)
        bh_watchdog_start();
}

/* See host_signals.h. */
int bh_live_add(pid_t pgid)
{
    for (int i = 0; i < LIVE_SLOTS; i++) {
        sig_atomic_t free_slot = 0;

        if (__atomic_compare_exchange_n(&live_pgid[i], &free_slot, (sig_atomic_t)pgid, 0,
                                        __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)) {
            live_signal[i] = 0;
            live_sender[i] = 0;
            live_resumes[i] = bh_watchdog_resumes();
            live_stopped_ms[i] = bh_watchdog_stopped_ms();
            return i;
        }
    }
    return -1;
}

/* See host_signals.h. */
void bh_live_remove(int slot, int *sig, int *sender, int *stopped_ms)
{
    *sig = 0;
    *sender = 0;
    *stopped_ms = 0;
    if (slot < 0)
        return;
    *sig = live_signal[slot];
    *sender = live_sender[slot];
    if (bh_watchdog_resumes() != live_resumes[slot]) {
        unsigned ms = bh_watchdog_stopped_ms() - live_stopped_ms[slot];

        *stopped_ms = ms > 0 ? (int)ms : 1;
    }
    __atomic_store_n(&live_pgid[slot], 0, __ATOMIC_SEQ_CST);
}
