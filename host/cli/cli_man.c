// SPDX-License-Identifier: MIT
/* bhost __man: the bhost(1) manual page in roff, generated from the
 * command table: each command's summary and its help text (the same text
 * bhost COMMAND --help prints), so the page cannot drift from the help.
 * Hidden; meson runs it at build time and installs the page. */
#include "cli.h"

#include <stdio.h>
#include <string.h>

#ifndef BHOST_VERSION
#define BHOST_VERSION "0.0.0"
#endif

/* Prints text as roff body text: backslashes and dashes escaped, a line
 * that would start with a control character ('.' or ') protected. */
static void put_roff(FILE *out, const char *text)
{
    int bol = 1;

    for (const char *p = text; *p; p++) {
        if (bol && (*p == '.' || *p == '\''))
            fputs("\\&", out);
        bol = *p == '\n';
        if (*p == '\\')
            fputs("\\e", out);
        else if (*p == '-')
            fputs("\\-", out);
        else
            fputc(*p, out);
    }
}

/* One subsection per visible command: its synopsis, summary and help
 * text, verbatim (no fill), as the terminal shows it. */
static void put_commands(FILE *out)
{
    for (const bh_cli_cmd *const *c = bh_cli_commands; *c; c++) {
        if ((*c)->hidden)
            continue;
        fputs(".SS \"", out);
        put_roff(out, (*c)->name);
        if (*(*c)->args) {
            fputc(' ', out);
            put_roff(out, (*c)->args);
        }
        fputs("\"\n", out);
        put_roff(out, (*c)->summary);
        fputs(".\n", out);
        if ((*c)->usage) {
            fputs(".PP\n.RS 4\n.nf\n", out);
            put_roff(out, (*c)->usage);
            if ((*c)->usage_more)
                put_roff(out, (*c)->usage_more);
            fputs(".fi\n.RE\n", out);
        }
    }
}

/* The exit codes of README.md, in short. */
static const char *const exit_codes[][2] = {
    {"0", "every case ok, skipped or unsupported"},
    {"1", "at least one case failed, crashed, timed out, was invalid or ran out of memory"},
    {"2", "bad command line (a one-line error says what was expected), or results not "
          "comparable without --force"},
    {"3", "config invalid: one line file:line:col: message"},
    {"4", "a result file could not be written, or an input file is missing or malformed"},
    {"5", "a confirmed critical regression, or a missed budget (expect:), with "
          "--fail-on-regression"},
    {"6", "interrupted by SIGINT or SIGTERM: finished cases written, run marked incomplete"},
    {"7", "check-plugin: at least one conformance check failed"},
    {"70", "internal error"},
};

/* The environment variables bhost reads. */
static const char *const environment[][2] = {
    {"BHOST_PLUGIN_PATH", "colon-separated folders searched for plugins first"},
    {"BHOST_STORE", "the results store when --store is not given"},
    {"BHOST_ALLOW_UNSAFE_PLUGINS", "1: load world-writable or foreign plugin files"},
    {"BHOST_WATCHDOG", "0: no watchdog process resuming a stopped bhost"},
    {"NO_COLOR", "set: no colour on a terminal"},
};

/* Prints a .TP list of name/text pairs. */
static void put_list(FILE *out, const char *const (*rows)[2], size_t n, int bold)
{
    for (size_t i = 0; i < n; i++) {
        fputs(bold ? ".TP\n.B " : ".TP\n", out);
        put_roff(out, rows[i][0]);
        fputc('\n', out);
        put_roff(out, rows[i][1]);
        fputc('\n', out);
    }
}

/* bhost __man: the page on stdout. */
static int cmd_man(int argc, char **argv)
{
    (void)argv;
    if (argc != 1) {
        bh_cli_error("__man: expected no arguments");
        return BH_EXIT_USAGE;
    }
    printf(".TH BHOST 1 \"\" \"bhost %s\" \"User Commands\"\n", BHOST_VERSION);
    fputs(".SH NAME\n"
          "bhost \\- run benchmark plugins in supervised workers, compare and report results\n"
          ".SH SYNOPSIS\n"
          ".B bhost\n.I command\n.RI [ options ]\n.br\n"
          ".B bhost run\n.IR CONFIG | PLUGIN / BENCH\n.RI [ options ]\n.br\n"
          ".B bhost\n.RB [ \\-h | \\-\\-help | \\-V | \\-\\-version ]\n"
          ".SH DESCRIPTION\n"
          "bhost reads YAML suite configs, loads benchmark and hardware backend plugins\n"
          "through one stable C ABI, runs every case in supervised worker processes and\n"
          "writes one JSON result per run. A plugin that crashes, hangs or lies becomes\n"
          "a status of its case; every other case keeps its results.\n"
          ".SH OPTIONS\n"
          ".TP\n.BR \\-h \", \" \\-\\-help\n"
          "the commands; after a command, its options (also\n.BR \"bhost help\" \" COMMAND\" ).\n"
          ".TP\n.BR \\-V \", \" \\-\\-version\n"
          "the version of bhost and of its plugin ABI.\n"
          ".SH COMMANDS\n",
          stdout);
    put_commands(stdout);
    fputs(".SH EXIT STATUS\n", stdout);
    put_list(stdout, exit_codes, sizeof(exit_codes) / sizeof(exit_codes[0]), 1);
    fputs(".SH ENVIRONMENT\n", stdout);
    put_list(stdout, environment, sizeof(environment) / sizeof(environment[0]), 1);
    fputs(".SH FILES\n"
          ".TP\n.I results/CONFIG/TIME\\-HOST.json\n"
          "one result per run (never overwritten)\n"
          ".TP\n.I results/bhost.db\n"
          "the results store (SQLite), unless --store, --no-store or --out say otherwise\n"
          ".SH SEE ALSO\n"
          "The README.md of the bhost sources; shell completion: bhost completion bash|zsh.\n",
          stdout);
    return BH_EXIT_OK;
}

const bh_cli_cmd bh_cli_man = {
    .name = "__man",
    .handler = cmd_man,
    .args = "",
    .summary = "the bhost(1) manual page in roff",
    .usage = NULL,
    .hidden = 1,
};
