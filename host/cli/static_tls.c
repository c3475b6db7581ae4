// SPDX-License-Identifier: MIT
/* The static TLS reserve of the worker processes (cli.h). */
#define _GNU_SOURCE
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Bytes of static TLS glibc keeps for libraries loaded with dlopen: its
 * default is 512, less than one initial-exec library such as Debian's
 * libjemalloc2 needs. */
#define BH_STATIC_TLS_RESERVE 16384

void bh_cli_reserve_static_tls(void)
{
    const char *old = getenv("GLIBC_TUNABLES");
    char buf[1024];

    if (old != NULL && strstr(old, "glibc.rtld.optional_static_tls") != NULL)
        return; /* the user chose a size */
    if (old != NULL && *old != '\0')
        snprintf(buf, sizeof(buf), "%s:glibc.rtld.optional_static_tls=%d", old,
                 BH_STATIC_TLS_RESERVE);
    else
        snprintf(buf, sizeof(buf), "glibc.rtld.optional_static_tls=%d", BH_STATIC_TLS_RESERVE);
    if (strlen(buf) < sizeof(buf) - 1)
        setenv("GLIBC_TUNABLES", buf, 1);
}
