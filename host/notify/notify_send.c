// SPDX-License-Identifier: MIT
/* Delivering the verdicts of a run or comparison to one --notify target
 * (see notify.h, bh_notify_send). */
#define _GNU_SOURCE
#include "notify.h"

#include "bh_mem.h"

#include <stdlib.h>
#include <string.h>

/* "1 regression", "2 regressions". */
#define N_REG(n) (n), (n) == 1 ? "" : "s"

/* The Slack message of payload: its text and blocks (Slack's own parts;
 * the machine-readable member and the legacy attachment left out). New
 * object. */
static cJSON *slack_message(const cJSON *payload)
{
    cJSON *p = cJSON_Duplicate(payload, 1);

    cJSON_DeleteItemFromObjectCaseSensitive(p, "bhost");
    cJSON_DeleteItemFromObjectCaseSensitive(p, "attachments");
    return p;
}

/* A webhook or Slack: the payload POSTed when something regressed. */
static int post(const bh_notify_target *t, const cJSON *payload, size_t n, bh_strbuf *said,
                bh_error *e)
{
    int slack = t->kind == BH_NOTIFY_SLACK;
    char *url = bh_notify_url_display(t->url);
    char *shown = bh_xasprintf("%s%s", slack ? "slack " : "", url);
    cJSON *msg = slack && payload ? slack_message(payload) : NULL;
    int rc = 0;

    if (!payload)
        bh_strbuf_printf(said, "nothing regressed, nothing sent to %s", shown);
    else if (bh_notify_post(t->url, msg ? msg : payload, BH_NOTIFY_TIMEOUT_MS, e) != 0)
        rc = bh_error_prefix(e, "%zu regression%s not posted", N_REG(n));
    else
        bh_strbuf_printf(said, "%zu regression%s posted to %s", N_REG(n), shown);
    if (rc != 0 && slack)
        bh_error_prefix(e, "slack");
    cJSON_Delete(msg);
    free(shown);
    free(url);
    return rc;
}

/* A mail when something regressed. */
static int mail(const bh_notify_target *t, const cJSON *doc, const char *result, bh_strbuf *said,
                bh_error *e)
{
    size_t n = 0;
    char *text = bh_notify_text(doc, result, &n);
    int rc = 0;

    if (!text)
        bh_strbuf_printf(said, "nothing regressed, no mail to %s", t->to);
    else if (bh_notify_email(t, text, BH_NOTIFY_TIMEOUT_MS, e) != 0)
        rc = bh_error_prefix(e, "%zu regression%s not mailed", N_REG(n));
    else
        bh_strbuf_printf(said, "%zu regression%s mailed to %s", N_REG(n), t->to);
    free(text);
    return rc;
}

int bh_notify_send(const bh_notify_target *t, const cJSON *doc, const char *result, bh_strbuf *said,
                   bh_error *e)
{
    size_t n = 0;
    cJSON *payload = bh_notify_payload(doc, result, &n);
    int rc;

    switch (t->kind) {
    case BH_NOTIFY_WEBHOOK:
    case BH_NOTIFY_SLACK:
        rc = post(t, payload, n, said, e);
        break;
    case BH_NOTIFY_GITHUB_COMMENT:
    case BH_NOTIFY_GITHUB_ISSUE:
        rc = bh_notify_github(t, doc, payload, said, e);
        if (rc != 0)
            bh_error_prefix(e, "%s not sent",
                            t->kind == BH_NOTIFY_GITHUB_ISSUE ? "the issue" : "the comment");
        break;
    default:
        rc = mail(t, doc, result, said, e);
        break;
    }
    cJSON_Delete(payload);
    return rc;
}
