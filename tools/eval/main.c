// SPDX-License-Identifier: MIT
/* bhost-eval: runs one evaluation of bhost's statistics (tools/eval-regress.sh
 * and tools/eval-history.sh drive it). */
#include "cli.h"
#include "eval.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static const char usage[] =
    "usage: bhost-eval <evaluation> [options]\n"
    "\n"
    "  regress sim|tally   the regression engine on synthetic data, or rates\n"
    "                      over bhost compare documents (tools/eval-regress.sh)\n"
    "  history             the history change-point detector on synthetic\n"
    "                      series (tools/eval-history.sh)\n"
    "\n"
    "Run 'bhost-eval <evaluation> --help' for its options.\n";

/* Prints "bhost-eval: <msg>" on stderr (the tool's bh_cli_error). */
void bh_cli_error(const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    bh_cli_vreport("bhost-eval", fmt, ap);
    va_end(ap);
}

int main(int argc, char **argv)
{
    const char *name = argc > 1 ? argv[1] : NULL;

    if (!name || strcmp(name, "-h") == 0 || strcmp(name, "--help") == 0 ||
        strcmp(name, "help") == 0) {
        fputs(usage, name ? stdout : stderr);
        return name ? BH_EXIT_OK : BH_EXIT_USAGE;
    }
    if (strcmp(name, "regress") == 0)
        return bh_eval_regress(argc - 1, argv + 1);
    if (strcmp(name, "history") == 0)
        return bh_eval_history(argc - 1, argv + 1);
    bh_cli_error("unknown evaluation '%s' (expected regress or history)", name);
    return BH_EXIT_USAGE;
}
