// SPDX-License-Identifier: MIT
#include "cli.h"
#include "worker.h"

#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#ifndef BHOST_VERSION
#define BHOST_VERSION "0.0.0"
#endif

static const char usage[] =
    "usage: bhost <command> [options]\n"
    "\n"
    "commands:\n"
    "  run CONFIG        run a suite config and write a result file\n"
    "  list [CONFIG]     list the cases of a config, or every plugin,\n"
    "                    benchmark and parameter on the plugin path\n"
    "  info              system fingerprint, backends and their devices\n"
    "  validate CONFIG   check a config and the plugins it names\n"
    "  check-plugin PLUGIN.so\n"
    "                    ABI conformance checks of one plugin file\n"
    "  compare BASE.json CAND.json\n"
    "                    verdicts of a candidate result against a baseline\n"
    "  history RESULTS_DIR\n"
    "                    change points and the newest-value check over\n"
    "                    the result files of a results folder (or, with\n"
    "                    --store, of the results store)\n"
    "  store ingest|info|runs|export\n"
    "                    the results store (SQLite or PostgreSQL) that\n"
    "                    serves history, baselines and trends\n"
    "  report RESULT.json\n"
    "                    HTML, Markdown, JUnit XML, CSV, Google Benchmark\n"
    "                    and Bencher exports of a result file\n"
    "  ci-matrix [DIR]   the GitHub Actions job matrix of a folder of configs\n"
    "  merge OUT SHARD.json...\n"
    "                    join the results of run --shard I/N into one run\n"
    "\n"
    "Run 'bhost <command> --help' for the options of a command.\n"
    "Plugins are searched in BHOST_PLUGIN_PATH, the config's plugin_path,\n"
    "the build tree and the installed plugin directory.\n";

void bh_cli_error(const char *fmt, ...)
{
    va_list ap;

    fputs("bhost: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

int bh_wants_help(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--") == 0)
            return 0;
        if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0)
            return 1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    const char *cmd = argc > 1 ? argv[1] : NULL;

    if (cmd && strcmp(cmd, "__worker") == 0)
        return bh_worker_main();
    signal(SIGPIPE, SIG_IGN);
    if (!cmd || strcmp(cmd, "help") == 0 || strcmp(cmd, "-h") == 0 ||
        strcmp(cmd, "--help") == 0) {
        fputs(usage, cmd ? stdout : stderr);
        return cmd ? BH_EXIT_OK : BH_EXIT_USAGE;
    }
    if (strcmp(cmd, "--version") == 0 || strcmp(cmd, "version") == 0) {
        printf("bhost %s (plugin ABI %d.%d)\n", BHOST_VERSION, 1, 0);
        return BH_EXIT_OK;
    }
    if (strcmp(cmd, "run") == 0)
        return bh_cmd_run(argc - 1, argv + 1);
    if (strcmp(cmd, "list") == 0)
        return bh_cmd_list(argc - 1, argv + 1);
    if (strcmp(cmd, "info") == 0)
        return bh_cmd_info(argc - 1, argv + 1);
    if (strcmp(cmd, "validate") == 0)
        return bh_cmd_validate(argc - 1, argv + 1);
    if (strcmp(cmd, "check-plugin") == 0)
        return bh_cmd_check_plugin(argc - 1, argv + 1);
    if (strcmp(cmd, "compare") == 0)
        return bh_cmd_compare(argc - 1, argv + 1);
    if (strcmp(cmd, "__regress-eval") == 0)
        return bh_cmd_regress_eval(argc - 1, argv + 1);
    if (strcmp(cmd, "report") == 0)
        return bh_cmd_report(argc - 1, argv + 1);
    if (strcmp(cmd, "store") == 0)
        return bh_cmd_store(argc - 1, argv + 1);
    if (strcmp(cmd, "history") == 0)
        return bh_cmd_history(argc - 1, argv + 1);
    if (strcmp(cmd, "ci-matrix") == 0)
        return bh_cmd_ci_matrix(argc - 1, argv + 1);
    if (strcmp(cmd, "merge") == 0)
        return bh_cmd_merge(argc - 1, argv + 1);
    if (strcmp(cmd, "__history-eval") == 0)
        return bh_cmd_history_eval(argc - 1, argv + 1);
    bh_cli_error("unknown command '%s' (expected run, compare, history, report, list, "
                 "info, validate, check-plugin, ci-matrix, merge or store; see bhost "
                 "--help)", cmd);
    return BH_EXIT_USAGE;
}
