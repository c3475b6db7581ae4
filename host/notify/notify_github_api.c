// SPDX-License-Identifier: MIT
/* The GitHub REST client of the alerts (see notify_github_api.h). */
#define _GNU_SOURCE
#include "notify_github_api.h"

#include "bh_fs.h"
#include "bh_json_write.h"
#include "bh_mem.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_API "https://api.github.com"

/* $name when set and not empty, else NULL. */
static const char *env(const char *name)
{
    const char *v = getenv(name);

    return v && *v ? v : NULL;
}

/* The pull request of the event file at path (pull_request.number, else
 * number); 0 when it names none or cannot be read. */
static long event_pr(const char *path)
{
    char *text = NULL;
    size_t len = 0;
    cJSON *doc;
    const cJSON *n;
    long pr = 0;

    if (bh_read_file(path, 64u << 20, &text, &len, NULL) != 0)
        return 0;
    doc = cJSON_ParseWithLength(text, len);
    n = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(doc, "pull_request"),
                                         "number");
    if (!cJSON_IsNumber(n))
        n = cJSON_GetObjectItemCaseSensitive(doc, "number");
    if (cJSON_IsNumber(n) && n->valuedouble >= 1 && n->valuedouble < 1e12)
        pr = (long)n->valuedouble;
    cJSON_Delete(doc);
    free(text);
    return pr;
}

/* The pull request of the Actions run: refs/pull/N/... in $GITHUB_REF,
 * else the event file's; 0 when neither names one. */
static long actions_pr(void)
{
    const char *ref = env("GITHUB_REF");
    long pr = 0;
    char rest[2];

    if (ref && sscanf(ref, "refs/pull/%ld/%1s", &pr, rest) == 2 && pr > 0)
        return pr;
    return env("GITHUB_EVENT_PATH") ? event_pr(env("GITHUB_EVENT_PATH")) : 0;
}

/* The API base into g->api; -1 when it is not an http(s) URL. */
static int api_base(bh_gh *g, bh_error *e)
{
    const char *api = env("GITHUB_API_URL") ? env("GITHUB_API_URL") : DEFAULT_API;
    size_t n = strlen(api);

    while (n > 0 && api[n - 1] == '/')
        n--;
    if ((strncmp(api, "http://", 7) != 0 && strncmp(api, "https://", 8) != 0) ||
        n >= sizeof(g->api))
        return bh_error_set(e, "%s: $GITHUB_API_URL: expected an http:// or https:// URL",
                            g->shown);
    memcpy(g->api, api, n);
    g->api[n] = '\0';
    return 0;
}

int bh_gh_resolve(const bh_notify_target *t, bh_gh *g, bh_error *e)
{
    const char *repo = t->repo[0] ? t->repo : env("GITHUB_REPOSITORY");
    int comment = t->kind == BH_NOTIFY_GITHUB_COMMENT;
    const char *token = env("GITHUB_TOKEN") ? env("GITHUB_TOKEN") : env("GH_TOKEN");

    memset(g, 0, sizeof(*g));
    g->timeout_ms = BH_NOTIFY_TIMEOUT_MS;
    snprintf(g->shown, sizeof(g->shown), "github:%s", comment ? "comment" : "issue");
    if (!repo || !strchr(repo, '/') || strlen(repo) >= sizeof(g->repo) ||
        strspn(repo, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-/") !=
            strlen(repo))
        return bh_error_set(e,
                            "%s: no repository: set GITHUB_REPOSITORY=OWNER/REPO or give "
                            "%s:OWNER/REPO",
                            g->shown, g->shown);
    snprintf(g->repo, sizeof(g->repo), "%s", repo);
    g->pr = comment ? (t->pr ? t->pr : actions_pr()) : 0;
    if (comment && g->pr <= 0)
        return bh_error_set(e,
                            "%s %s: no pull request: not a pull_request event; give "
                            "github:comment:OWNER/REPO#N",
                            g->shown, g->repo);
    if (comment)
        snprintf(g->shown, sizeof(g->shown), "github:comment %s#%ld", g->repo, g->pr);
    else
        snprintf(g->shown, sizeof(g->shown), "github:issue %s", g->repo);
    if (!token)
        return bh_error_set(e, "%s: no token: set GITHUB_TOKEN", g->shown);
    if (strpbrk(token, "\r\n"))
        return bh_error_set(e, "%s: $GITHUB_TOKEN holds a line break", g->shown);
    g->auth = bh_xasprintf("Authorization: Bearer %s", token);
    return api_base(g, e);
}

void bh_gh_free(bh_gh *g)
{
    free(g->auth);
    g->auth = NULL;
}

/* "METHOD PATH: HTTP N (message)" into e, the message from the reply's
 * JSON (GitHub says what was wrong there), cut to one short line. */
static int http_error(const bh_gh *g, const char *method, const char *path, long status,
                      const bh_strbuf *reply, bh_error *e)
{
    cJSON *doc = cJSON_Parse(bh_strbuf_str(reply));
    const cJSON *m = cJSON_GetObjectItemCaseSensitive(doc, "message");
    const char *msg = cJSON_IsString(m) ? m->valuestring : "";
    int n = (int)strcspn(msg, "\r\n");

    bh_error_set(e, "%s: %s %.*s: the server answered HTTP %ld%s%.*s%s", g->shown, method,
                 (int)strcspn(path, "?"), path, status, *msg ? " (" : "", n > 120 ? 120 : n, msg,
                 *msg ? ")" : "");
    cJSON_Delete(doc);
    return -1;
}

int bh_gh_call(const bh_gh *g, const char *method, const char *path, const cJSON *body,
               cJSON **reply, bh_error *e)
{
    const char *headers[] = {g->auth, "Accept: application/vnd.github+json",
                             "X-GitHub-Api-Version: 2022-11-28", "Content-Type: application/json",
                             NULL};
    char *url = bh_xasprintf("%s%s", g->api, path);
    char *text = body ? bh_json_print_unformatted(body) : NULL;
    bh_notify_http req = {method, url, g->shown, headers, text, g->timeout_ms};
    bh_strbuf got = BH_STRBUF_INIT;
    long status = 0;
    int rc = bh_notify_http_send(&req, &status, &got, e);

    if (rc == 0 && (status < 200 || status > 299))
        rc = http_error(g, method, path, status, &got, e);
    if (rc == 0 && reply) {
        *reply = got.len ? cJSON_ParseWithLength(got.data, got.len) : NULL;
        if (got.len && !*reply)
            rc = bh_error_set(e, "%s: %s %.*s: the reply is not JSON", g->shown, method,
                              (int)strcspn(path, "?"), path);
    }
    bh_strbuf_free(&got);
    free(text);
    free(url);
    return rc;
}
