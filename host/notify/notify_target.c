// SPDX-License-Identifier: MIT
/* Reading a --notify value into a target (see notify.h,
 * bh_notify_target_parse). */
#define _GNU_SOURCE
#include "notify.h"

#include <stdlib.h>
#include <string.h>

#define EXPECTED                                                                                   \
    "expected a webhook URL (http:// or https://), slack:URL, github:comment[:OWNER/REPO#PR], "    \
    "github:issue[:OWNER/REPO] or email:ADDRESS[,ADDRESS...]"

/* Whether s starts with http:// or https://. */
static int is_http(const char *s)
{
    return strncmp(s, "http://", 7) == 0 || strncmp(s, "https://", 8) == 0;
}

/* Whether the n characters at s are an OWNER/REPO name: one slash,
 * letters, digits, '.', '-', '_' on both sides. */
static int is_repo(const char *s, size_t n)
{
    const char *slash = memchr(s, '/', n);
    size_t ok = strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-/");

    return slash && slash != s && slash != s + n - 1 && ok >= n &&
           !memchr(slash + 1, '/', (size_t)(s + n - slash - 1));
}

/* github:comment[:OWNER/REPO#PR] or github:issue[:OWNER/REPO] after the
 * kind: rest is "" or ":...". */
static int github_place(const char *text, const char *rest, bh_notify_target *t, bh_error *e)
{
    const char *hash;
    size_t n;
    char *end;

    if (!*rest)
        return 0;
    if (*rest++ != ':')
        return bh_error_set(e, "--notify '%s': " EXPECTED, text);
    hash = strchr(rest, '#');
    n = hash ? (size_t)(hash - rest) : strlen(rest);
    if (!is_repo(rest, n) || n >= sizeof(t->repo))
        return bh_error_set(e, "--notify '%s': expected OWNER/REPO after '%.*s'", text,
                            (int)(rest - text - 1), text);
    memcpy(t->repo, rest, n);
    t->repo[n] = '\0';
    if (!hash)
        return 0;
    if (t->kind != BH_NOTIFY_GITHUB_COMMENT)
        return bh_error_set(
            e, "--notify '%s': expected OWNER/REPO for an issue, not a pull request", text);
    t->pr = strtol(hash + 1, &end, 10);
    if (end == hash + 1 || *end || t->pr <= 0)
        return bh_error_set(e, "--notify '%s': expected a pull request number after '#'", text);
    return 0;
}

/* email:ADDRESS[,ADDRESS...]: each holds an '@' and no space, angle
 * bracket, quote or line break. */
static int email_to(const char *text, const char *to, bh_notify_target *t, bh_error *e)
{
    const char *p = to;

    while (*p) {
        size_t n = strcspn(p, ",");
        size_t bad = strcspn(p, " \t\r\n<>\"(),;");

        if (n == 0 || bad < n || !memchr(p, '@', n))
            return bh_error_set(e, "--notify '%s': expected email:ADDRESS[,ADDRESS...]", text);
        p += n + (p[n] == ',');
    }
    if (!*to || to[strlen(to) - 1] == ',')
        return bh_error_set(e, "--notify '%s': expected email:ADDRESS[,ADDRESS...]", text);
    t->to = to;
    return 0;
}

int bh_notify_target_parse(const char *text, bh_notify_target *t, bh_error *e)
{
    memset(t, 0, sizeof(*t));
    if (is_http(text)) {
        t->kind = BH_NOTIFY_WEBHOOK;
        t->url = text;
        return 0;
    }
    if (strncmp(text, "slack:", 6) == 0) {
        t->kind = BH_NOTIFY_SLACK;
        t->url = text + 6;
        return is_http(t->url)
                   ? 0
                   : bh_error_set(
                         e,
                         "--notify 'slack:...': expected slack:URL, the URL http:// or https://");
    }
    if (strncmp(text, "github:comment", 14) == 0) {
        t->kind = BH_NOTIFY_GITHUB_COMMENT;
        return github_place(text, text + 14, t, e);
    }
    if (strncmp(text, "github:issue", 12) == 0) {
        t->kind = BH_NOTIFY_GITHUB_ISSUE;
        return github_place(text, text + 12, t, e);
    }
    if (strncmp(text, "email:", 6) == 0) {
        t->kind = BH_NOTIFY_EMAIL;
        return email_to(text, text + 6, t, e);
    }
    /* up to the first ':' or '/' only: a mistyped URL holds a webhook's
     * secret in its path */
    size_t n = strcspn(text, ":/");

    n = n > 24 ? 24 : n;
    return bh_error_set(e, "--notify '%.*s%s': " EXPECTED, (int)n, text, text[n] ? "..." : "");
}
