// SPDX-License-Identifier: MIT
/* Regression alerts (`--notify TARGET`, repeatable) through libcurl:
 *
 *   URL                      a JSON summary POSTed to a webhook: Slack-
 *                            compatible ("text", "blocks", "attachments")
 *                            with the regressed cases machine-readably
 *                            under "bhost" (schema "bhost.alert/1")
 *   slack:URL                a Slack message (text and Block Kit blocks)
 *   github:comment[:O/R#N]   one pull-request comment, updated in place
 *   github:issue[:O/R]       an issue for a critical regression, or a
 *                            comment on the open one bhost opened before
 *   email:ADDR[,ADDR...]     a plain-text mail over SMTP
 *
 * Secrets (GITHUB_TOKEN, BHOST_SMTP_PASSWORD, a webhook's path) come from
 * the command line or the environment and never appear in a message. */
#ifndef BH_NOTIFY_H
#define BH_NOTIFY_H

#include "bh_error.h"
#include "bh_strbuf.h"

#include <cjson/cJSON.h>
#include <stddef.h>

#define BH_NOTIFY_SCHEMA     "bhost.alert/1"
#define BH_NOTIFY_TIMEOUT_MS 10000

/* The payload for the regressions in doc: a result document whose cases
 * carry verdicts (bhost run --baseline) or a comparison document (bhost
 * compare --json); a (case, metric) counts when its final verdict is
 * "regressed", of any severity. result names the result file in the
 * message (may be NULL). Returns a new object (caller deletes) with
 * *count the regressions, or NULL (*count 0) when nothing regressed. */
cJSON *bh_notify_payload(const cJSON *doc, const char *result, size_t *count);

/* The same regressions as plain text for a mail: the headline on the
 * first line, then one line per regression. *count as above; NULL when
 * nothing regressed, else a new string. */
char *bh_notify_text(const cJSON *doc, const char *result, size_t *count);

/* How many of the regressions of payload (bh_notify_payload) are
 * critical. */
size_t bh_notify_n_critical(const cJSON *payload);

/* POSTs payload as application/json to url (http or https only),
 * giving up after timeout_ms. 0 when the server answered 2xx; -1 with e
 * = "HOST: what failed" (the URL's path, which holds a webhook's secret,
 * is never printed). Without libcurl at build time it always fails,
 * saying so. */
int bh_notify_post(const char *url, const cJSON *payload, long timeout_ms, bh_error *e);

/* The URL shown in messages: scheme and host, path left out ("…"). New
 * string. */
char *bh_notify_url_display(const char *url);

/* One HTTP request (bh_notify_http_send). */
typedef struct bh_notify_http {
    const char *method;         /* "GET", "POST" or "PATCH" */
    const char *url;            /* http:// or https:// */
    const char *shown;          /* what messages call the target */
    const char *const *headers; /* "Name: value" lines, NULL-terminated; may be NULL */
    const char *body;           /* sent as it is; NULL for none */
    long timeout_ms;
} bh_notify_http;

/* Sends req; 0 with *status the HTTP status and the reply's body (up to
 * 8 MiB) appended to reply (may be NULL), whatever the status; -1 with e
 * = "SHOWN: reason" when no answer came (refused, timed out, not http(s),
 * no libcurl in this build). */
int bh_notify_http_send(const bh_notify_http *req, long *status, bh_strbuf *reply, bh_error *e);

/* Where an alert goes: one --notify value. */
typedef enum bh_notify_kind {
    BH_NOTIFY_WEBHOOK,
    BH_NOTIFY_SLACK,
    BH_NOTIFY_GITHUB_COMMENT,
    BH_NOTIFY_GITHUB_ISSUE,
    BH_NOTIFY_EMAIL
} bh_notify_kind;

typedef struct bh_notify_target {
    bh_notify_kind kind;
    const char *url; /* webhook, slack: the URL (points into the value) */
    char repo[256];  /* github: OWNER/REPO given, "" to take $GITHUB_REPOSITORY */
    long pr;         /* github:comment: the pull request given, 0 to take the event's */
    const char *to;  /* email: the comma-separated addresses (into the value) */
} bh_notify_target;

/* Parses a --notify value (it must outlive t). 0, or -1 with e = what
 * was expected. */
int bh_notify_target_parse(const char *text, bh_notify_target *t, bh_error *e);

/* Delivers doc's verdicts (result names its file, may be NULL) to t: a
 * webhook, Slack or a mail only when something regressed, an issue only
 * on a critical regression, the pull-request comment always (it shows
 * the current state). 0 with what was done appended to said ("1
 * regression posted to slack https://hooks.slack.com/..."), or -1 with e
 * = "TARGET: what failed", never naming a secret. */
int bh_notify_send(const bh_notify_target *t, const cJSON *doc, const char *result, bh_strbuf *said,
                   bh_error *e);

/* The GitHub deliveries (bh_notify_send for github:...): payload is
 * bh_notify_payload's (NULL when nothing regressed). */
int bh_notify_github(const bh_notify_target *t, const cJSON *doc, const cJSON *payload,
                     bh_strbuf *said, bh_error *e);

/* Mails text (bh_notify_text: headline first) to t->to over SMTP: the
 * server $BHOST_SMTP_URL (smtp://HOST[:PORT], STARTTLS when offered and
 * required with a password, or smtps://), from $BHOST_SMTP_FROM (default
 * bhost@localhost), logging in as $BHOST_SMTP_USER with
 * $BHOST_SMTP_PASSWORD when set. 0, or -1 with e set. */
int bh_notify_email(const bh_notify_target *t, const char *text, long timeout_ms, bh_error *e);

#endif
