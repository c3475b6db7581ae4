// SPDX-License-Identifier: MIT
/* Posting an alert to a webhook (see notify.h, bh_notify_post) and the
 * URL as messages show it. */
#define _GNU_SOURCE
#include "notify.h"

#include "bh_json_write.h"
#include "bh_mem.h"

#include <stdlib.h>
#include <string.h>

char *bh_notify_url_display(const char *url)
{
    const char *host = strstr(url, "://");
    size_t end;

    if (!host)
        return bh_xstrdup("(not a URL)");
    host += 3;
    end = (size_t)(host - url) + strcspn(host, "/?#");
    /* drop "user:password@" */
    {
        const char *at = memchr(host, '@', end - (size_t)(host - url));

        if (at)
            return bh_xasprintf("%.*s%.*s/...", (int)(host - url), url, (int)(url + end - (at + 1)),
                                at + 1);
    }
    return bh_xasprintf("%.*s/...", (int)end, url);
}

int bh_notify_post(const char *url, const cJSON *payload, long timeout_ms, bh_error *e)
{
    static const char *const headers[] = {"Content-Type: application/json", NULL};
    char *shown = bh_notify_url_display(url);
    char *body = bh_json_print_unformatted(payload);
    bh_notify_http req = {"POST", url, shown, headers, body, timeout_ms};
    long status = 0;
    int rc = body ? bh_notify_http_send(&req, &status, NULL, e)
                  : bh_error_set(e, "%s: the payload cannot be written as JSON", shown);

    if (rc == 0 && (status < 200 || status > 299))
        rc = bh_error_set(e, "%s: the server answered HTTP %ld", shown, status);
    free(body);
    free(shown);
    return rc;
}
