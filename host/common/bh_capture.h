// SPDX-License-Identifier: MIT
/* Running a helper program (git) and reading what it prints, with a time
 * limit: no shell, stdin and stderr on /dev/null. */
#ifndef BH_CAPTURE_H
#define BH_CAPTURE_H

#include "bh_strbuf.h"

/* How bh_capture ended. */
typedef enum bh_capture_end {
    BH_CAPTURE_EXITED = 0,  /* ran to its end: *status holds its wait status */
    BH_CAPTURE_NO_SPAWN,    /* could not be started (*status: the errno) */
    BH_CAPTURE_TIMEOUT,     /* killed at the deadline, or its output could
                               not be read (*status: 0) */
} bh_capture_end;

/* Runs argv[0] (looked up on PATH) with argv, appending its stdout to out
 * until it closes it or timeout_ms pass (then SIGKILL), and reaps it.
 * Returns how it ended, with *status as said there. */
bh_capture_end bh_capture(char *const argv[], int timeout_ms, bh_strbuf *out, int *status);

#endif
