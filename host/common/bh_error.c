// SPDX-License-Identifier: MIT
#include "bh_error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* Replaces newlines so a message always stays one line. */
static void flatten(char *s)
{
    for (; *s; s++)
        if (*s == '\n' || *s == '\r')
            *s = ' ';
}

int bh_error_set(bh_error *e, const char *fmt, ...)
{
    va_list ap;

    if (!e)
        return -1;
    va_start(ap, fmt);
    vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
    va_end(ap);
    flatten(e->msg);
    return -1;
}

int bh_error_prefix(bh_error *e, const char *fmt, ...)
{
    char prefix[512];
    char old[sizeof(((bh_error *)0)->msg)];
    va_list ap;

    if (!e)
        return -1;
    va_start(ap, fmt);
    vsnprintf(prefix, sizeof(prefix), fmt, ap);
    va_end(ap);
    size_t plen = strlen(prefix);
    size_t olen;

    memcpy(old, e->msg, sizeof(old));
    if (plen > sizeof(e->msg) - 3)
        plen = sizeof(e->msg) - 3;
    memcpy(e->msg, prefix, plen);
    memcpy(e->msg + plen, ": ", 2);
    olen = strnlen(old, sizeof(e->msg) - plen - 3);
    memcpy(e->msg + plen + 2, old, olen);
    e->msg[plen + 2 + olen] = '\0';
    flatten(e->msg);
    return -1;
}
