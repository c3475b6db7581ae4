// SPDX-License-Identifier: MIT
#include "cli.h"
#include "worker.h"

#include <bhost/plugin.h>

#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#ifndef BHOST_VERSION
#define BHOST_VERSION "0.0.0"
#endif

void bh_cli_error(const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    bh_cli_vreport("bhost", fmt, ap);
    va_end(ap);
}

int main(int argc, char **argv)
{
    const char *cmd = argc > 1 ? argv[1] : NULL;

    if (cmd && strcmp(cmd, "__worker") == 0)
        return bh_worker_main();
    if (cmd && strcmp(cmd, "__rank") == 0)
        return bh_rank_main();
    signal(SIGPIPE, SIG_IGN);
    bh_cli_reserve_static_tls();
    if (cmd && (strcmp(cmd, "--version") == 0 || strcmp(cmd, "-V") == 0 ||
                strcmp(cmd, "version") == 0)) {
        printf("bhost %s (plugin ABI %d.%d)\n", BHOST_VERSION, BHOST_ABI_MAJOR, BHOST_ABI_MINOR);
        return BH_EXIT_OK;
    }
    return bh_cli_dispatch(argc, argv);
}
