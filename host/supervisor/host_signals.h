// SPDX-License-Identifier: MIT
/* Signals aimed at the supervisor while workers run: a worker (or a
 * process of its group) that sends SIGINT, SIGTERM or SIGTSTP to bhost is
 * blamed for it instead of stopping the run, and a SIGSTOP, which no
 * process can catch, is undone by a watchdog process and blamed on the
 * workers that were live. */
#ifndef BH_HOST_SIGNALS_H
#define BH_HOST_SIGNALS_H

#include <sys/types.h>

/* Installs the handlers of a command that runs workers and starts the
 * watchdog (unless BHOST_WATCHDOG=0). SIGINT/SIGTERM from a live worker's
 * group are recorded for that worker and ignored; from anyone else they
 * set bh_interrupted. SIGTSTP/SIGTTIN/SIGTTOU (job control) stop bhost as
 * usual and the watchdog leaves it stopped; from a worker's group SIGTSTP
 * is blamed and ignored. A sender that has already been reaped when the
 * handler runs cannot be traced and counts as the user's. Call once,
 * before any worker starts and while no other thread runs. */
void bh_supervisor_catch_signals(void);

/* Registers a live worker whose process group is pgid; returns its slot,
 * or -1 when the table is full (its signals then count as the user's). */
int bh_live_add(pid_t pgid);

/* Unregisters slot (nothing for -1), reporting what was aimed at this
 * process while the worker lived: *sig and *sender (0 when nothing), and
 * *stopped_ms (> 0 when the watchdog resumed a SIGSTOPped bhost). */
void bh_live_remove(int slot, int *sig, int *sender, int *stopped_ms);

#endif
