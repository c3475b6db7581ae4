// SPDX-License-Identifier: MIT
/* bhost-worker: the worker process alone (host/worker), spawned by bhost
 * for every run and describe. It links what a worker needs and no more:
 * not the results store (SQLite, libpq), the webhook client (libcurl and
 * its TLS stack) or the report writers, which every worker of the bhost
 * binary loads and relocates at start (40 shared libraries against a
 * handful) and whose pages count in the worker's peak RSS. */
#include "worker.h"

#include <string.h>

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "__rank") == 0)
        return bh_rank_main();
    return bh_worker_main();
}
