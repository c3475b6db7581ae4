// SPDX-License-Identifier: MIT
/* Regression alerts: a JSON summary of the regressions of a run or a
 * comparison, posted to a webhook (`--notify URL`). The payload is
 * Slack-compatible ("text", "blocks", "attachments") and carries the
 * regressed cases machine-readably under "bhost" (schema
 * "bhost.alert/1"), so other receivers (Mattermost, Teams workflows, a
 * bot of one's own) can use it too. */
#ifndef BH_NOTIFY_H
#define BH_NOTIFY_H

#include "bh_error.h"

#include <cjson/cJSON.h>
#include <stddef.h>

#define BH_NOTIFY_SCHEMA "bhost.alert/1"
#define BH_NOTIFY_TIMEOUT_MS 10000

/* The payload for the regressions in doc: a result document whose cases
 * carry verdicts (bhost run --baseline) or a comparison document (bhost
 * compare --json); a (case, metric) counts when its final verdict is
 * "regressed", of any severity. result names the result file in the
 * message (may be NULL). Returns a new object (caller deletes) with
 * *count the regressions, or NULL (*count 0) when nothing regressed. */
cJSON *bh_notify_payload(const cJSON *doc, const char *result, size_t *count);

/* POSTs payload as application/json to url (http or https only),
 * giving up after timeout_ms. 0 when the server answered 2xx; -1 with e
 * = "HOST: what failed" (the URL's path, which holds a webhook's secret,
 * is never printed). Without libcurl at build time it always fails,
 * saying so. */
int bh_notify_post(const char *url, const cJSON *payload, long timeout_ms, bh_error *e);

/* The URL shown in messages: scheme and host, path left out ("…"). New
 * string. */
char *bh_notify_url_display(const char *url);

#endif
