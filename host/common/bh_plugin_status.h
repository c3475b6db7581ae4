// SPDX-License-Identifier: MIT
/* What a plugin's bhost_status means to the host: the case status a failing
 * call ends with, and the code's name. One definition for bhost run (the
 * worker) and bhost check-plugin, so the two cannot disagree. */
#ifndef BH_PLUGIN_STATUS_H
#define BH_PLUGIN_STATUS_H

#include "bh_status.h"

#include <bhost/plugin.h>

/* The case status a plugin call that returned st (not BHOST_OK) ends with
 * at stage ("create", "setup", "run", "verify", ...): BHOST_E_SKIP
 * skipped, BHOST_E_UNSUPPORTED unsupported, BHOST_E_VERIFY from verify
 * invalid, anything else failed. */
bh_status bh_plugin_status_case(bhost_status st, const char *stage);

/* "BHOST_E_INTERNAL" for a bhost_status code, NULL for a number that is
 * not one. */
const char *bh_plugin_status_name(bhost_status st);

#endif
