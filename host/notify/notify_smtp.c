// SPDX-License-Identifier: MIT
/* Alerts by mail over SMTP through libcurl (see notify.h,
 * bh_notify_email): a plain-text message, its server, sender and login
 * from the environment. */
#define _GNU_SOURCE
#include "notify.h"

#include "bh_mem.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* $name when set and not empty, else NULL. */
static const char *env(const char *name)
{
    const char *v = getenv(name);

    return v && *v ? v : NULL;
}

/* The message: headers (Subject: the text's first line), a blank line,
 * the text with CRLF line ends. */
static void message(bh_strbuf *b, const char *from, const char *to, const char *text)
{
    char date[64];
    time_t now = time(NULL);
    struct tm tm;

    gmtime_r(&now, &tm);
    strftime(date, sizeof(date), "%a, %d %b %Y %H:%M:%S +0000", &tm);
    bh_strbuf_printf(b, "Date: %s\r\nFrom: %s\r\nTo: ", date, from);
    for (const char *p = to; *p; p++)
        bh_strbuf_append(b, *p == ',' ? ", " : p, *p == ',' ? 2 : 1);
    bh_strbuf_printf(b, "\r\nSubject: %.*s\r\n", (int)strcspn(text, "\r\n"), text);
    bh_strbuf_printf(b, "Message-ID: <bhost.%lld.%ld@%s>\r\n", (long long)now, (long)getpid(),
                     strchr(from, '@') + 1);
    bh_strbuf_puts(b, "MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n"
                      "Content-Transfer-Encoding: 8bit\r\n\r\n");
    for (const char *p = text; *p; p++)
        bh_strbuf_append(b, *p == '\n' ? "\r\n" : p, *p == '\n' ? 2 : 1);
}

#ifdef BH_HAVE_LIBCURL
#include <curl/curl.h>

typedef struct upload {
    const char *data;
    size_t left;
} upload;

/* Hands libcurl the next part of the message. */
static size_t feed(char *buf, size_t size, size_t n, void *ctx)
{
    upload *u = ctx;
    size_t k = size * n < u->left ? size * n : u->left;

    memcpy(buf, u->data, k);
    u->data += k;
    u->left -= k;
    return k;
}

/* Sets up h to send u from from to the recipients rcpt through url. */
static void setup(CURL *h, const char *url, const char *from, struct curl_slist *rcpt, upload *u,
                  long timeout_ms, char *err)
{
    const char *user = env("BHOST_SMTP_USER");

    curl_easy_setopt(h, CURLOPT_URL, url);
#if LIBCURL_VERSION_NUM >= 0x075500
    curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "smtp,smtps");
#else
    curl_easy_setopt(h, CURLOPT_PROTOCOLS, (long)(CURLPROTO_SMTP | CURLPROTO_SMTPS));
#endif
    /* a password never travels in clear: STARTTLS is required with one */
    curl_easy_setopt(h, CURLOPT_USE_SSL, (long)(user ? CURLUSESSL_ALL : CURLUSESSL_TRY));
    if (user) {
        curl_easy_setopt(h, CURLOPT_USERNAME, user);
        curl_easy_setopt(h, CURLOPT_PASSWORD,
                         env("BHOST_SMTP_PASSWORD") ? env("BHOST_SMTP_PASSWORD") : "");
    }
    curl_easy_setopt(h, CURLOPT_MAIL_FROM, from);
    curl_easy_setopt(h, CURLOPT_MAIL_RCPT, rcpt);
    curl_easy_setopt(h, CURLOPT_READFUNCTION, feed);
    curl_easy_setopt(h, CURLOPT_READDATA, u);
    curl_easy_setopt(h, CURLOPT_UPLOAD, 1L);
    curl_easy_setopt(h, CURLOPT_INFILESIZE_LARGE, (curl_off_t)u->left);
    curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, timeout_ms > 0 ? timeout_ms : 1L);
    curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS, timeout_ms > 0 ? timeout_ms : 1L);
    curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(h, CURLOPT_ERRORBUFFER, err);
}

/* Sends msg; 0, or -1 with e = "SHOWN: reason". */
static int send_mail(const bh_notify_target *t, const char *url, const char *from,
                     const bh_strbuf *msg, long timeout_ms, const char *shown, bh_error *e)
{
    char err[CURL_ERROR_SIZE] = "";
    char *sender = bh_xasprintf("<%s>", from);
    struct curl_slist *rcpt = NULL;
    upload u = {msg->data, msg->len};
    CURL *h;
    CURLcode cc;

    curl_global_init(CURL_GLOBAL_DEFAULT);
    h = curl_easy_init();
    if (!h) {
        free(sender);
        return bh_error_set(e, "%s: out of memory", shown);
    }
    for (const char *p = t->to; *p;) {
        size_t n = strcspn(p, ",");
        char *one = bh_xasprintf("<%.*s>", (int)n, p);

        rcpt = curl_slist_append(rcpt, one);
        free(one);
        p += n + (p[n] == ',');
    }
    setup(h, url, sender, rcpt, &u, timeout_ms, err);
    cc = curl_easy_perform(h);
    if (cc != CURLE_OK)
        bh_error_set(e, "%s: %s", shown, err[0] ? err : curl_easy_strerror(cc));
    curl_slist_free_all(rcpt);
    curl_easy_cleanup(h);
    free(sender);
    return cc == CURLE_OK ? 0 : -1;
}

#else /* !BH_HAVE_LIBCURL */

static int send_mail(const bh_notify_target *t, const char *url, const char *from,
                     const bh_strbuf *msg, long timeout_ms, const char *shown, bh_error *e)
{
    (void)t, (void)url, (void)from, (void)msg, (void)timeout_ms;
    return bh_error_set(e,
                        "%s: this bhost was built without libcurl (install "
                        "libcurl4-openssl-dev and reconfigure meson) and cannot send mail",
                        shown);
}

#endif

int bh_notify_email(const bh_notify_target *t, const char *text, long timeout_ms, bh_error *e)
{
    const char *url = env("BHOST_SMTP_URL");
    const char *from = env("BHOST_SMTP_FROM") ? env("BHOST_SMTP_FROM") : "bhost@localhost";
    char *server = url ? bh_notify_url_display(url) : NULL;
    char *shown = bh_xasprintf("email %s via %s", t->to, server ? server : "?");
    bh_strbuf msg = BH_STRBUF_INIT;
    int rc;

    if (!url || (strncmp(url, "smtp://", 7) != 0 && strncmp(url, "smtps://", 8) != 0))
        rc = bh_error_set(e, "%s: set BHOST_SMTP_URL to smtp://HOST[:PORT] or smtps://...", shown);
    else if (!strchr(from, '@') || strpbrk(from, " \t\r\n<>\",;"))
        rc = bh_error_set(e, "%s: $BHOST_SMTP_FROM: expected one address", shown);
    else {
        message(&msg, from, t->to, text);
        rc = send_mail(t, url, from, &msg, timeout_ms, shown, e);
    }
    bh_strbuf_free(&msg);
    free(shown);
    free(server);
    return rc;
}
