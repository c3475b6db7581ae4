// SPDX-License-Identifier: MIT
/* The bhost command line: one function per subcommand. */
#ifndef BH_CLI_H
#define BH_CLI_H

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

int bh_cmd_run(int argc, char **argv);
int bh_cmd_list(int argc, char **argv);
int bh_cmd_info(int argc, char **argv);
int bh_cmd_validate(int argc, char **argv);
/* bhost check-plugin: conformance checks of one plugin file (runs its code
 * only in workers); BH_EXIT_CHECK_FAILED when a check failed. */
int bh_cmd_check_plugin(int argc, char **argv);
/* bhost history: change points and the newest-value check over a results
 * folder; 0, BH_EXIT_USAGE, or BH_EXIT_IO when the folder cannot be read
 * (or, with --strict, a result file is malformed). */
int bh_cmd_history(int argc, char **argv);
/* bhost store ingest|info|runs|export: the results store; BH_EXIT_IO
 * when the store cannot be opened or an ingested file was skipped. */
int bh_cmd_store(int argc, char **argv);
int bh_cmd_compare(int argc, char **argv);
/* bhost report RESULT.json: writes the report formats of an existing
 * result file; BH_EXIT_IO when a result file is missing or malformed or a
 * report cannot be written. */
int bh_cmd_report(int argc, char **argv);
/* bhost ci-matrix [DIR|CONFIG...]: the GitHub Actions job matrix as JSON;
 * BH_EXIT_CONFIG for a bad config, BH_EXIT_USAGE for bad options. */
int bh_cmd_ci_matrix(int argc, char **argv);
/* bhost merge OUT SHARD...: joins shard results into one run document;
 * BH_EXIT_USAGE when the shards do not belong together, BH_EXIT_IO when a
 * file is unreadable or malformed or OUT cannot be written. */
int bh_cmd_merge(int argc, char **argv);
/* Hidden: the regression engine's own evaluation (tools/eval-regress.sh). */
int bh_cmd_regress_eval(int argc, char **argv);
/* Hidden: evaluates the history detector on synthetic series. */
int bh_cmd_history_eval(int argc, char **argv);

/* True when argv[1..] asks for help (-h or --help anywhere). */
int bh_wants_help(int argc, char **argv);

/* Prints "bhost: <msg>" on stderr. */
void bh_cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
