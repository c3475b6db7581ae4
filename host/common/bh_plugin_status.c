// SPDX-License-Identifier: MIT
/* What a plugin's bhost_status means to the host (bh_plugin_status.h). */
#include "bh_plugin_status.h"

#include <string.h>

/* See bh_plugin_status.h. */
bh_status bh_plugin_status_case(bhost_status st, const char *stage)
{
    if (st == BHOST_E_SKIP)
        return BH_ST_SKIPPED;
    if (st == BHOST_E_UNSUPPORTED)
        return BH_ST_UNSUPPORTED;
    if (st == BHOST_E_VERIFY && strncmp(stage, "verify", 6) == 0)
        return BH_ST_INVALID;
    return BH_ST_FAILED;
}

/* See bh_plugin_status.h. */
const char *bh_plugin_status_name(bhost_status st)
{
    static const char *const names[] = {
        "BHOST_OK",            "BHOST_E_INVALID", "BHOST_E_NOMEM",
        "BHOST_E_UNSUPPORTED", "BHOST_E_VERSION", "BHOST_E_DEVICE",
        "BHOST_E_INTERNAL",    "BHOST_E_VERIFY",  "BHOST_E_SKIP"};

    return st <= 0 && st > -(int)(sizeof(names) / sizeof(names[0])) ? names[-st] : NULL;
}
