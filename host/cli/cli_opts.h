// SPDX-License-Identifier: MIT
/* The option parser every bhost command uses. A command declares its
 * options once, in a table (long name, short letter, whether it takes a
 * value, one help line), and reads them one at a time; a bad option gets
 * the same message in every command. The tables also feed shell
 * completion (cli_complete.c), so completion cannot drift from parsing. */
#ifndef BH_CLI_OPTS_H
#define BH_CLI_OPTS_H

#include <getopt.h>
#include <stdarg.h>

/* The most options one command declares. */
#define BH_OPTS_MAX 40

/* Whether an option takes a value. */
typedef enum bh_opt_arg { BH_OPT_FLAG, BH_OPT_VALUE } bh_opt_arg;

/* One option of a command; a table ends with a NULL name. */
typedef struct bh_opt {
    const char *name; /* long name without "--"; NULL ends the table */
    int id;           /* what bh_opts_next returns for it (above zero) */
    char letter;      /* its short form (-v), or 0 */
    bh_opt_arg arg;
    const char *help; /* one line, shown by shell completion */
} bh_opt;

/* Parsing state of one command line. */
typedef struct bh_opts {
    const char *prog;  /* "bhost": names the --help hint of errors */
    const char *cmd;   /* "run": the prefix of errors */
    int argc;
    char **argv;
    char *value;       /* the value of the option just returned */
    int next;          /* at the end: argv index of the first operand */
    const bh_opt *opts;
    struct option lo[BH_OPTS_MAX + 1];
    char letters[2 * BH_OPTS_MAX + 1];
} bh_opts;

/* Starts parsing argv[first..argc) of command cmd against opts (GNU
 * getopt_long rules: operands may come between options, "--" ends them,
 * unambiguous prefixes of long names are accepted). */
void bh_opts_init(bh_opts *p, const char *cmd, const bh_opt *opts, int argc, char **argv,
                  int first);

/* The id of the next option (its value in p->value), 0 when the options
 * are done (operands start at p->next; GNU getopt moves them after the
 * options), or -1 after printing "CMD: unknown or incomplete option 'X'
 * (see bhost CMD --help)". */
int bh_opts_next(bh_opts *p);

/* True when argv[1..] asks for help (-h or --help anywhere before "--"). */
int bh_wants_help(int argc, char **argv);

/* Prints "PROG: <msg>" and a newline on stderr: the body of each
 * program's bh_cli_error. */
void bh_cli_vreport(const char *prog, const char *fmt, va_list ap)
    __attribute__((format(printf, 2, 0)));

#endif
