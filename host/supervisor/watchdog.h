// SPDX-License-Identifier: MIT
/* The watchdog: a small process that resumes bhost when something stopped
 * it with SIGSTOP (which no handler can refuse), so that a plugin cannot
 * freeze a run; host_signals.c blames the stop on the live workers. */
#ifndef BH_WATCHDOG_H
#define BH_WATCHDOG_H

/* Forks the watchdog of this process: every 50 ms it reads this
 * process's state from /proc and, when it is stopped and no job-control
 * stop was announced (bh_watchdog_voluntary), sends SIGCONT and counts the
 * resume. It dies with this process (PR_SET_PDEATHSIG). Returns 0, or -1
 * when it could not be started (then nothing resumes a stopped bhost).
 * Call while no other thread runs. */
int bh_watchdog_start(void);

/* Announces (on != 0) or withdraws a stop this process wants (job control:
 * SIGTSTP, SIGTTIN, SIGTTOU): the watchdog leaves it stopped.
 * Async-signal-safe. */
void bh_watchdog_voluntary(int on);

/* How many times the watchdog has resumed this process, and for how many
 * ms in all it was stopped before each resume (0 without a watchdog).
 * Async-signal-safe. */
unsigned bh_watchdog_resumes(void);
unsigned bh_watchdog_stopped_ms(void);

#endif
