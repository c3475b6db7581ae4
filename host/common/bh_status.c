// SPDX-License-Identifier: MIT
#include "bh_status.h"

#include <string.h>

static const char *const names[BH_ST_COUNT] = {
    "ok",      "skipped", "unsupported", "failed",
    "invalid", "crashed", "timeout",     "oom"};

const char *bh_status_name(bh_status s)
{
    if ((int)s < 0 || s >= BH_ST_COUNT)
        return "unknown";
    return names[s];
}

int bh_status_parse(const char *name)
{
    for (int i = 0; i < BH_ST_COUNT; i++)
        if (strcmp(names[i], name) == 0)
            return i;
    return -1;
}

int bh_status_is_failure(bh_status s)
{
    return s == BH_ST_FAILED || s == BH_ST_INVALID || s == BH_ST_CRASHED ||
           s == BH_ST_TIMEOUT || s == BH_ST_OOM;
}

int bh_status_rank(bh_status s)
{
    static const int rank[BH_ST_COUNT] = {0, 1, 2, 6, 5, 7, 4, 3};

    if ((int)s < 0 || s >= BH_ST_COUNT)
        return 99;
    return rank[s];
}
