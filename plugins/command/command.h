// SPDX-License-Identifier: MIT
/*
 * command.h -- internal interface of the command plugin: an external
 * program as a benchmark (README.md). command.c holds the benchmark and
 * its lifecycle, cmd_spec.c decodes the settings the config's command:
 * map became (JSON text, ${VAR} expansion), cmd_spawn.c runs one process
 * and collects its status, times, stderr and stdout checksum.
 */
#ifndef BH_COMMAND_H
#define BH_COMMAND_H

#include <stddef.h>
#include <stdint.h>
#include <sys/resource.h>

/* The host API from init(); valid until deinit() returns. */
#include <bhost/plugin.h>
extern const bhost_host_api *bh_command_api;

/* Bytes of a command's stderr kept for the failure message. */
#define CMD_STDERR_KEEP 2048

/* ---- cmd_spec.c ---- */

/* A NULL-terminated list of fresh strings; free with cmd_strv_free. */
typedef char **cmd_strv;

void cmd_strv_free(cmd_strv v);

/* Decodes a JSON array of strings (as_map 0) or an object of string
 * values (as_map 1, each member as "key=value") into *out. 0, or -1 with
 * why (cap bytes) naming what was wrong. */
int cmd_json_strings(const char *json, int as_map, cmd_strv *out, char *why, size_t cap);

/* Expands ${NAME} and ${NAME:-default} (default expanded in turn) from the
 * process environment in text; "$$" is one "$". A fresh string, or NULL
 * with why naming the variable that is not set or the brace not closed. */
char *cmd_expand(const char *text, char *why, size_t cap);

/* The process environment with each "NAME=value" of set replacing the
 * variable of that name or added: a fresh list. */
cmd_strv cmd_env_merge(char *const *environ_now, char *const *set);

/* True when name exists: a path (it holds a '/'), or an executable
 * program found in PATH. */
int cmd_present(const char *name);

/* ---- cmd_spawn.c ---- */

/* One process to run. */
typedef struct cmd_proc {
    char *const *argv; /* argv[0] is looked up in PATH when it has no '/' */
    char *const *envp;
    const char *stdin_path; /* NULL: /dev/null */
    const char *cwd;        /* NULL: the worker's */
    int hash_stdout;        /* FNV-1a 64 of stdout, else stdout to /dev/null */
} cmd_proc;

/* What one run of it gave. */
typedef struct cmd_result {
    int spawn_errno;           /* not 0: it never ran (ENOENT, EACCES, ...) */
    const char *failed_at;     /* with spawn_errno: "stdin", "spawn" */
    int wait_status;           /* as waitpid gives it */
    uint64_t wall_ns;          /* spawn to reap */
    struct rusage ru;          /* the child's, from wait4 */
    uint64_t fnv;              /* FNV-1a 64 of stdout when hashed */
    char err[CMD_STDERR_KEEP]; /* the first bytes of stderr, NUL-terminated */
} cmd_result;

/* FNV-1a 64 offset basis, and the update over n bytes. */
#define CMD_FNV_BASIS 0xcbf29ce484222325ull
uint64_t cmd_fnv_update(uint64_t h, const void *data, size_t n);

/* Runs p to its end; 0 when it ran (whatever its status), -1 when it
 * could not start (r->spawn_errno, r->failed_at). */
int cmd_spawn_run(const cmd_proc *p, cmd_result *r);

/* "exit status N", "killed by signal N (NAME)" for r into buf. */
void cmd_status_text(const cmd_result *r, char *buf, size_t cap);

/* The first lines of r->err, newlines as " | ", at most cap-1 bytes. */
void cmd_stderr_head(const cmd_result *r, char *buf, size_t cap);

#endif /* BH_COMMAND_H */
