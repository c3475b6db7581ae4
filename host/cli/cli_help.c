// SPDX-License-Identifier: MIT
/* Dispatch and help from the command table: bhost --help, bhost help
 * [COMMAND], bhost COMMAND --help, and the unknown-command message. */
#include "cli.h"
#include "config.h"

#include <stdio.h>
#include <string.h>

/* Width of the command column of the top-level help. */
#define NAME_COLUMN 18

/* Prints the top-level help: one line per visible command of the table. */
static void print_usage(FILE *out)
{
    fputs("usage: bhost <command> [options]\n\ncommands:\n", out);
    for (const bh_cli_cmd *const *c = bh_cli_commands; *c; c++) {
        char head[96];
        int n;

        if ((*c)->hidden)
            continue;
        n = snprintf(head, sizeof(head), "%s%s%s", (*c)->name, *(*c)->args ? " " : "",
                     (*c)->args);
        if (n < NAME_COLUMN)
            fprintf(out, "  %-*s%s\n", NAME_COLUMN, head, (*c)->summary);
        else
            fprintf(out, "  %s\n  %-*s%s\n", head, NAME_COLUMN, "", (*c)->summary);
    }
    fputs("\noptions:\n"
          "  -h, --help        this list; bhost COMMAND --help (or bhost help\n"
          "                    COMMAND): the options of COMMAND\n"
          "  -V, --version     the version of bhost and of its plugin ABI\n"
          "\nRun 'bhost <command> --help' for the options of a command.\n"
          "Plugins are searched in BHOST_PLUGIN_PATH, the config's plugin_path,\n"
          "the build tree and the installed plugin directory.\n",
          out);
}

/* Reports an unknown command with the closest visible name, or the list
 * of them; returns BH_EXIT_USAGE. */
static int unknown_command(const char *name)
{
    const char *names[64] = {NULL};
    size_t n = 0;
    const char *hint;
    char list[512] = "";

    for (const bh_cli_cmd *const *c = bh_cli_commands; *c && n < 64; c++)
        if (!(*c)->hidden)
            names[n++] = (*c)->name;
    hint = bh_did_you_mean(name, names, n);
    if (hint) {
        bh_cli_error("unknown command '%s' (did you mean '%s'? see bhost --help)", name, hint);
        return BH_EXIT_USAGE;
    }
    for (size_t i = 0; i < n; i++) {
        size_t len = strlen(list);

        snprintf(list + len, sizeof(list) - len, "%s%s", i == 0 ? "" : i + 1 < n ? ", " : " or ",
                 names[i]);
    }
    bh_cli_error("unknown command '%s' (expected %s; see bhost --help)", name, list);
    return BH_EXIT_USAGE;
}

/* Prints the help of the command called name; BH_EXIT_USAGE when there is
 * none. */
static int command_help(const char *name)
{
    const bh_cli_cmd *c = bh_cli_find(name);

    if (!c || !c->usage)
        return unknown_command(name);
    fputs(c->usage, stdout);
    if (c->usage_more)
        fputs(c->usage_more, stdout);
    return BH_EXIT_OK;
}

int bh_cli_dispatch(int argc, char **argv)
{
    const char *name = argc > 1 ? argv[1] : NULL;
    const bh_cli_cmd *c;

    if (!name || strcmp(name, "-h") == 0 || strcmp(name, "--help") == 0) {
        print_usage(name ? stdout : stderr);
        return name ? BH_EXIT_OK : BH_EXIT_USAGE;
    }
    c = bh_cli_find(name);
    if (!c)
        return unknown_command(name);
    if (c->usage && bh_wants_help(argc - 1, argv + 1))
        return command_help(name);
    return c->handler(argc - 1, argv + 1);
}

/* bhost help [COMMAND]. */
static int cmd_help(int argc, char **argv)
{
    if (argc > 2) {
        bh_cli_error("help: expected at most one COMMAND (see bhost --help)");
        return BH_EXIT_USAGE;
    }
    if (argc < 2) {
        print_usage(stdout);
        return BH_EXIT_OK;
    }
    return command_help(argv[1]);
}

static const char help_usage[] =
    "usage: bhost help [COMMAND]\n"
    "\n"
    "Lists the commands, or prints the help of COMMAND (the same as\n"
    "bhost COMMAND --help).\n";

const bh_cli_cmd bh_cli_help = {
    .name = "help",
    .handler = cmd_help,
    .args = "[COMMAND]",
    .summary = "the commands, or the help of one",
    .usage = help_usage,
};
