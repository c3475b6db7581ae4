// SPDX-License-Identifier: MIT
/* Posting an alert to a webhook through libcurl (see notify.h). */
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
            return bh_xasprintf("%.*s%.*s/...", (int)(host - url), url,
                                (int)(url + end - (at + 1)), at + 1);
    }
    return bh_xasprintf("%.*s/...", (int)end, url);
}

#ifdef BH_HAVE_LIBCURL
#include <curl/curl.h>

/* Discards the response body. */
static size_t sink(char *data, size_t size, size_t n, void *ctx)
{
    (void)data;
    (void)ctx;
    return size * n;
}

int bh_notify_post(const char *url, const cJSON *payload, long timeout_ms, bh_error *e)
{
    static int initialised;
    char *shown = bh_notify_url_display(url);
    char *body = bh_json_print_unformatted(payload);
    char err[CURL_ERROR_SIZE] = "";
    struct curl_slist *headers = NULL;
    CURL *h = NULL;
    long code = 0;
    int rc = -1;
    CURLcode cc;

    if (strncmp(url, "http://", 7) != 0 && strncmp(url, "https://", 8) != 0) {
        bh_error_set(e, "%s: expected an http:// or https:// URL", shown);
        goto out;
    }
    if (!initialised) {
        curl_global_init(CURL_GLOBAL_DEFAULT);
        initialised = 1;
    }
    h = curl_easy_init();
    if (!h || !body) {
        bh_error_set(e, "%s: out of memory", shown);
        goto out;
    }
    headers = curl_slist_append(headers, "Content-Type: application/json");
    curl_easy_setopt(h, CURLOPT_URL, url);
#if LIBCURL_VERSION_NUM >= 0x075500
    curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(h, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
#else
    curl_easy_setopt(h, CURLOPT_PROTOCOLS, (long)(CURLPROTO_HTTP | CURLPROTO_HTTPS));
    curl_easy_setopt(h, CURLOPT_REDIR_PROTOCOLS, (long)(CURLPROTO_HTTP | CURLPROTO_HTTPS));
#endif
    curl_easy_setopt(h, CURLOPT_HTTPHEADER, headers);
    curl_easy_setopt(h, CURLOPT_POSTFIELDS, body);
    curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE, (long)strlen(body));
    curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, timeout_ms > 0 ? timeout_ms : 1L);
    curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS, timeout_ms > 0 ? timeout_ms : 1L);
    curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(h, CURLOPT_USERAGENT, "bhost-notify/1");
    curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, sink);
    curl_easy_setopt(h, CURLOPT_ERRORBUFFER, err);
    cc = curl_easy_perform(h);
    if (cc != CURLE_OK) {
        bh_error_set(e, "%s: %s", shown, err[0] ? err : curl_easy_strerror(cc));
        goto out;
    }
    curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &code);
    if (code < 200 || code > 299) {
        bh_error_set(e, "%s: the server answered HTTP %ld", shown, code);
        goto out;
    }
    rc = 0;
out:
    curl_slist_free_all(headers);
    if (h)
        curl_easy_cleanup(h);
    free(body);
    free(shown);
    return rc;
}

#else /* !BH_HAVE_LIBCURL */

int bh_notify_post(const char *url, const cJSON *payload, long timeout_ms, bh_error *e)
{
    char *shown = bh_notify_url_display(url);

    (void)payload;
    (void)timeout_ms;
    bh_error_set(e, "%s: this bhost was built without libcurl (install libcurl4-openssl-dev "
                    "and reconfigure meson) and cannot post alerts",
                 shown);
    free(shown);
    return -1;
}

#endif
