// SPDX-License-Identifier: MIT
/* Helpers shared by the fault and reliability tests
 * (tests/integration/test_faults.c, tests/reliability/test_kill.c): start
 * the real bhost binary ($BHOST_EXE) with its output in files, reap what
 * it leaves behind, and find processes that outlived it. */
#ifndef BH_TEST_PROC_UTIL_H
#define BH_TEST_PROC_UTIL_H

#include <stddef.h>
#include <sys/types.h>

typedef struct tp_proc {
    pid_t pid;
    char out_path[600];
    char err_path[600];
    int code;  /* exit status, or 128 + signal */
    char *out; /* captured stdout (free with tp_proc_free) */
    char *err; /* captured stderr */
} tp_proc;

/* Makes this process the subreaper of everything it starts (orphans of
 * bhost's workers are reparented here, so the tests can reap and count
 * them), appends the options sanitizer builds need for crash fixtures to
 * ASAN_OPTIONS, and creates a fresh temporary directory under $TMPDIR
 * (or /tmp) named by prefix. Returns the directory (static) or NULL. */
const char *tp_init(const char *prefix);

/* The value of an environment variable the meson test sets; aborts the
 * process with a message when it is missing. */
const char *tp_env(const char *name);

/* Starts "$BHOST_EXE args..." (args NULL-terminated, at most 30) in the
 * current directory with stdout/stderr going to files under dir. */
void tp_start(tp_proc *p, const char *dir, const char *const *args);

/* Waits for p, fills code, out and err. */
void tp_finish(tp_proc *p);

/* tp_start + tp_finish. */
void tp_run(tp_proc *p, const char *dir, const char *const *args);

/* Frees out and err. */
void tp_proc_free(tp_proc *p);

/* Reads a whole file into a new NUL-terminated string ("" when it cannot
 * be read; free it). */
char *tp_slurp(const char *path);

/* Writes text to path (truncating); 0 or -1. */
int tp_write(const char *path, const char *text);

/* Removes dir and everything under it. */
void tp_rm_rf(const char *dir);

/* Reaps every exited child of this process that is not a bhost started by
 * tp_start still running (orphans reparented here). Returns how many were
 * reaped. */
int tp_reap_orphans(void);

/* Waits (up to about timeout_ms) until no process reparented to this one
 * is still alive, reaping each as it dies. Returns the number still alive
 * at the end and writes their "pid cmdline" lines into report (cap bytes,
 * may be NULL). */
int tp_live_orphans(int timeout_ms, char *report, size_t cap);

/* Waits (up to about timeout_ms) for pid, a child of this process (as its
 * subreaper), to end; 1 and *status when it was reaped, 0 when it is
 * still running, -1 when it is not our child. */
int tp_wait_pid(pid_t pid, int timeout_ms, int *status);

/* Sleeps for ms milliseconds. */
void tp_sleep_ms(int ms);

/* The number of zombie children of parent that are still zombies ms
 * milliseconds later (children it exited and never reaped; one that dies
 * and is reaped in the meantime is not counted). */
int tp_lasting_zombies(pid_t parent, int ms);

/* The pid of a child of parent whose argv[1] is "__worker", or 0. */
pid_t tp_worker_child(pid_t parent);

#endif
