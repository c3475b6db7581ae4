// SPDX-License-Identifier: MIT
#include "bh_clock.h"

#include <time.h>

uint64_t bh_now_ns(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static struct tm utc_now(void)
{
    time_t now = time(NULL);
    struct tm tm;

    gmtime_r(&now, &tm);
    return tm;
}

void bh_utc_iso8601(char buf[32])
{
    struct tm tm = utc_now();

    strftime(buf, 32, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

void bh_utc_compact(char buf[32])
{
    struct tm tm = utc_now();

    strftime(buf, 32, "%Y%m%dT%H%M%SZ", &tm);
}
