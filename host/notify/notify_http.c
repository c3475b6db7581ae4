// SPDX-License-Identifier: MIT
/* One HTTP request through libcurl for the alerts (see notify.h,
 * bh_notify_http_send): webhooks, Slack and the GitHub REST API. */
#define _GNU_SOURCE
#include "notify.h"

#include <string.h>

#ifdef BH_HAVE_LIBCURL
#include <curl/curl.h>

/* The most of a reply kept (a GitHub page of 100 comments fits). */
#define REPLY_MAX (8u << 20)

/* Appends the reply to the bh_strbuf in ctx (when there is one), up to
 * REPLY_MAX; more ends the transfer. */
static size_t keep(char *data, size_t size, size_t n, void *ctx)
{
    bh_strbuf *b = ctx;

    if (!b)
        return size * n;
    if (b->len + size * n > REPLY_MAX)
        return 0;
    bh_strbuf_append(b, data, size * n);
    return size * n;
}

/* Restricts h to http and https, redirects included. */
static void http_only(CURL *h)
{
#if LIBCURL_VERSION_NUM >= 0x075500
    curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(h, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
#else
    curl_easy_setopt(h, CURLOPT_PROTOCOLS, (long)(CURLPROTO_HTTP | CURLPROTO_HTTPS));
    curl_easy_setopt(h, CURLOPT_REDIR_PROTOCOLS, (long)(CURLPROTO_HTTP | CURLPROTO_HTTPS));
#endif
}

/* Sets up h for req with the header list hl. */
static void setup(CURL *h, const bh_notify_http *req, struct curl_slist *hl, bh_strbuf *reply,
                  char *err)
{
    long ms = req->timeout_ms > 0 ? req->timeout_ms : 1L;

    curl_easy_setopt(h, CURLOPT_URL, req->url);
    http_only(h);
    curl_easy_setopt(h, CURLOPT_CUSTOMREQUEST, req->method);
    if (req->body) {
        curl_easy_setopt(h, CURLOPT_POSTFIELDS, req->body);
        curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE, (long)strlen(req->body));
    }
    curl_easy_setopt(h, CURLOPT_HTTPHEADER, hl);
    curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, ms);
    curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS, ms);
    curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(h, CURLOPT_USERAGENT, "bhost-notify/1");
    curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, keep);
    curl_easy_setopt(h, CURLOPT_WRITEDATA, reply);
    curl_easy_setopt(h, CURLOPT_ERRORBUFFER, err);
}

int bh_notify_http_send(const bh_notify_http *req, long *status, bh_strbuf *reply, bh_error *e)
{
    static int initialised;
    char err[CURL_ERROR_SIZE] = "";
    struct curl_slist *hl = NULL;
    CURL *h;
    CURLcode cc;

    *status = 0;
    if (strncmp(req->url, "http://", 7) != 0 && strncmp(req->url, "https://", 8) != 0)
        return bh_error_set(e, "%s: expected an http:// or https:// URL", req->shown);
    if (!initialised) {
        curl_global_init(CURL_GLOBAL_DEFAULT);
        initialised = 1;
    }
    h = curl_easy_init();
    if (!h)
        return bh_error_set(e, "%s: out of memory", req->shown);
    for (size_t i = 0; req->headers && req->headers[i]; i++)
        hl = curl_slist_append(hl, req->headers[i]);
    setup(h, req, hl, reply, err);
    cc = curl_easy_perform(h);
    if (cc == CURLE_OK)
        curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, status);
    else
        bh_error_set(e, "%s: %s", req->shown, err[0] ? err : curl_easy_strerror(cc));
    curl_slist_free_all(hl);
    curl_easy_cleanup(h);
    return cc == CURLE_OK ? 0 : -1;
}

#else /* !BH_HAVE_LIBCURL */

int bh_notify_http_send(const bh_notify_http *req, long *status, bh_strbuf *reply, bh_error *e)
{
    (void)reply;
    *status = 0;
    return bh_error_set(e,
                        "%s: this bhost was built without libcurl (install "
                        "libcurl4-openssl-dev and reconfigure meson) and cannot send alerts",
                        req->shown);
}

#endif
