// SPDX-License-Identifier: MIT
/* The command table of bhost: every subcommand, in the order help lists
 * them. Dispatch, help, "did you mean" and completion all read it. */
#include "cli.h"

#include <string.h>

const bh_cli_cmd *const bh_cli_commands[] = {
    &bh_cli_run,     &bh_cli_ab,       &bh_cli_list,     &bh_cli_info,      &bh_cli_validate,
    &bh_cli_check_plugin, &bh_cli_compare, &bh_cli_history, &bh_cli_store,
    &bh_cli_report,  &bh_cli_import, &bh_cli_ci_matrix, &bh_cli_merge,    &bh_cli_help,
    &bh_cli_completion, &bh_cli_man, NULL};

const bh_cli_cmd *bh_cli_find(const char *name)
{
    for (const bh_cli_cmd *const *c = bh_cli_commands; *c; c++)
        if (strcmp((*c)->name, name) == 0)
            return *c;
    return NULL;
}
