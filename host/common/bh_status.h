// SPDX-License-Identifier: MIT
/* The statuses a case or one run of it can end with. Names are the strings
 * written into results ("ok", "skipped", ...). */
#ifndef BH_STATUS_H
#define BH_STATUS_H

typedef enum bh_status {
    BH_ST_OK = 0,
    BH_ST_SKIPPED,     /* not applicable here (reason given) */
    BH_ST_UNSUPPORTED, /* the backend or plugin lacks a needed feature */
    BH_ST_FAILED,      /* an error, an early exit, a protocol violation */
    BH_ST_INVALID,     /* verify() found the output wrong */
    BH_ST_CRASHED,     /* the worker died on a signal */
    BH_ST_TIMEOUT,     /* the worker ran past its timeout and was killed */
    BH_ST_OOM,         /* the worker went past its memory limit */
    BH_ST_COUNT
} bh_status;

/* "ok", "skipped", ...; "unknown" for out-of-range values. */
const char *bh_status_name(bh_status s);
/* Parses a status name; -1 when unknown. */
int bh_status_parse(const char *name);
/* True for statuses that count as a failed case for the exit code. */
int bh_status_is_failure(bh_status s);
/* Severity order used to fold run statuses into a case status: the case
 * takes the status of its worst run. */
int bh_status_rank(bh_status s);

#endif
