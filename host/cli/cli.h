// SPDX-License-Identifier: MIT
/* The bhost command line: one function per subcommand, each described by
 * a bh_cli_cmd that the command table (cli_table.c) lists. */
#ifndef BH_CLI_H
#define BH_CLI_H

#include "cli_opts.h"

/* Exit codes, documented in README.md. */
enum {
    BH_EXIT_OK = 0,          /* every case ok, skipped or unsupported */
    BH_EXIT_CASES_FAILED = 1, /* a case failed, crashed, timed out, ... */
    BH_EXIT_USAGE = 2,       /* bad command line */
    BH_EXIT_CONFIG = 3,      /* config file or plugin description invalid */
    BH_EXIT_IO = 4,          /* results could not be written or read */
    BH_EXIT_REGRESSION = 5,  /* a critical regression (--fail-on-regression) */
    BH_EXIT_INTERRUPTED = 6, /* SIGINT/SIGTERM: partial results written */
    BH_EXIT_CHECK_FAILED = 7, /* check-plugin: a conformance check failed */
    BH_EXIT_INTERNAL = 70
};

/* One subcommand: what the dispatcher, help and completion know of it.
 * A new subcommand is one cmd_*.c file defining its bh_cli_cmd, one line
 * in the table and one in meson.build. */
typedef struct bh_cli_cmd {
    const char *name;                    /* "run" */
    int (*handler)(int argc, char **argv); /* argv[0] is the name */
    const char *args;                    /* its operands in the list: "CONFIG" */
    const char *summary;                 /* one line for bhost --help */
    const char *usage;                   /* bhost CMD --help, bhost help CMD */
    const char *usage_more;              /* the rest of it, or NULL (one C
                                            string literal holds 4095 bytes) */
    const bh_opt *opts;                  /* its options, or NULL */
    int hidden;                          /* left out of help and completion */
} bh_cli_cmd;

/* The command table, in help order, NULL-terminated. */
extern const bh_cli_cmd *const bh_cli_commands[];

/* The command called name, or NULL. */
const bh_cli_cmd *bh_cli_find(const char *name);

/* The commands (cmd_*.c). Exit codes: BH_EXIT_* above; check-plugin
 * gives BH_EXIT_CHECK_FAILED when a check failed; history, store, report
 * and merge give BH_EXIT_IO when a file or the store cannot be read or
 * written; ci-matrix BH_EXIT_CONFIG for a bad config. */
extern const bh_cli_cmd bh_cli_run, bh_cli_list, bh_cli_info, bh_cli_validate,
    bh_cli_check_plugin, bh_cli_compare, bh_cli_history, bh_cli_store, bh_cli_report,
    bh_cli_ci_matrix, bh_cli_merge, bh_cli_ab;
/* bhost import FORMAT FILE... (cmd_import.c): other tools' results. */
extern const bh_cli_cmd bh_cli_import;
/* bhost help [COMMAND] (cli_help.c), bhost completion bash|zsh
 * (cli_complete.c): both read the table. */
extern const bh_cli_cmd bh_cli_help, bh_cli_completion;
/* bhost __man (cli_man.c, hidden): the manual page in roff, from the
 * table and each command's help text. */
extern const bh_cli_cmd bh_cli_man;

/* Runs the command argv[1] of the bhost command line: its help for -h or
 * --help, else its handler; the top-level help without a command, and a
 * "did you mean" for an unknown one (BH_EXIT_USAGE). */
int bh_cli_dispatch(int argc, char **argv);

/* Reserves static TLS for the worker processes, which inherit bhost's
 * environment: unless GLIBC_TUNABLES already names
 * glibc.rtld.optional_static_tls, appends a 16 KiB reserve to it, so that
 * a plugin can dlopen a library built with initial-exec TLS (Debian's
 * libjemalloc2, some vendor runtimes). bhost itself is not affected: the
 * dynamic loader read the variable when bhost started (static_tls.c). */
void bh_cli_reserve_static_tls(void);

/* Prints "bhost: <msg>" on stderr. */
void bh_cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
