// SPDX-License-Identifier: MIT
/* The GitHub alerts (see notify.h, bh_notify_github): one pull-request
 * comment that each run updates in place, found again by a hidden marker,
 * and an issue for a critical regression, labelled bhost-regression, that
 * later runs comment on while it is open rather than opening another. */
#define _GNU_SOURCE
#include "notify.h"

#include "bh_mem.h"
#include "notify_github_api.h"
#include "report.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LABEL     "bhost-regression"
/* GitHub refuses bodies over 65536 characters. */
#define BODY_MAX  60000
/* Pages of 100 comments or issues searched for the marker. */
#define MAX_PAGES 20

/* "<!-- bhost:CONFIG -->" for doc's config, characters that could end
 * the comment or break the line written as '_'. New string. */
static char *marker(const cJSON *doc)
{
    const cJSON *run = cJSON_GetObjectItemCaseSensitive(doc, "run");
    const cJSON *cfg = cJSON_GetObjectItemCaseSensitive(run, "config");
    const cJSON *name = cJSON_GetObjectItemCaseSensitive(cfg, "name");
    char *m = bh_xasprintf("<!-- bhost:%s -->",
                           cJSON_IsString(name) && *name->valuestring ? name->valuestring : "-");

    for (char *p = m + 11; p[4]; p++)
        if (!strchr("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._/+=@", *p))
            *p = '_';
    return m;
}

/* The Markdown body: the marker, an optional headline, bhost's Markdown
 * report of doc, cut at a line end when GitHub would refuse it. New
 * string. */
static char *body(const cJSON *doc, const char *mark, const char *headline)
{
    bh_strbuf b = BH_STRBUF_INIT;

    bh_strbuf_printf(&b, "%s\n", mark);
    if (headline)
        bh_strbuf_printf(&b, "**%s**\n\n", headline);
    bh_report_markdown(doc, &b);
    if (b.len > BODY_MAX) {
        char *cut = memrchr(b.data, '\n', BODY_MAX);

        b.len = cut ? (size_t)(cut - b.data) : BODY_MAX;
        b.data[b.len] = '\0';
        bh_strbuf_puts(&b, "\n\n*(cut to fit a GitHub comment: the result file has it all)*\n");
    }
    return bh_strbuf_detach(&b);
}

/* The id (key "id", or "number") of the first item of list whose body
 * holds mark, pull requests left out when skip_prs; 0 when none. */
static long long with_marker(const cJSON *list, const char *key, const char *mark, int skip_prs)
{
    const cJSON *it;

    cJSON_ArrayForEach(it, list) {
        const cJSON *b = cJSON_GetObjectItemCaseSensitive(it, "body");
        const cJSON *id = cJSON_GetObjectItemCaseSensitive(it, key);

        if (skip_prs && cJSON_GetObjectItemCaseSensitive(it, "pull_request"))
            continue;
        if (cJSON_IsString(b) && strstr(b->valuestring, mark) && cJSON_IsNumber(id) &&
            id->valuedouble >= 1)
            return (long long)id->valuedouble;
    }
    return 0;
}

/* Searches the pages of list_path (a GET with per_page=100; "&page=N"
 * is added) for the item holding mark: *id its key, 0 when none. 0, or
 * -1 with e set. */
static int find(const bh_gh *g, const char *list_path, const char *key, const char *mark,
                int skip_prs, long long *id, bh_error *e)
{
    *id = 0;
    for (int page = 1; page <= MAX_PAGES && !*id; page++) {
        char *path = bh_xasprintf("%s&page=%d", list_path, page);
        cJSON *list = NULL;
        int rc = bh_gh_call(g, "GET", path, NULL, &list, e);
        int n = cJSON_IsArray(list) ? cJSON_GetArraySize(list) : 0;

        free(path);
        if (rc == 0 && !cJSON_IsArray(list))
            rc = bh_error_set(e, "%s: GET %s: expected a JSON array", g->shown, list_path);
        if (rc == 0)
            *id = with_marker(list, key, mark, skip_prs);
        cJSON_Delete(list);
        if (rc != 0)
            return -1;
        if (n < 100)
            break;
    }
    return 0;
}

/* {"body": text} */
static cJSON *body_json(const char *text)
{
    cJSON *j = cJSON_CreateObject();

    cJSON_AddStringToObject(j, "body", text);
    return j;
}

/* Updates bhost's comment on the pull request, or posts it. */
static int pr_comment(const bh_gh *g, const cJSON *doc, const char *mark, bh_strbuf *said,
                      bh_error *e)
{
    char *list = bh_xasprintf("/repos/%s/issues/%ld/comments?per_page=100", g->repo, g->pr);
    char *text = body(doc, mark, NULL);
    cJSON *j = body_json(text);
    char *path = NULL;
    long long id = 0;
    int rc = find(g, list, "id", mark, 0, &id, e);

    if (rc == 0 && id) {
        path = bh_xasprintf("/repos/%s/issues/comments/%lld", g->repo, id);
        rc = bh_gh_call(g, "PATCH", path, j, NULL, e);
    } else if (rc == 0) {
        path = bh_xasprintf("/repos/%s/issues/%ld/comments", g->repo, g->pr);
        rc = bh_gh_call(g, "POST", path, j, NULL, e);
    }
    if (rc == 0)
        bh_strbuf_printf(said, "pull-request comment %s on %s", id ? "updated" : "posted",
                         g->shown);
    cJSON_Delete(j);
    free(path);
    free(text);
    free(list);
    return rc;
}

/* Comments on the open bhost-regression issue of this config, or opens
 * one. */
static int issue(const bh_gh *g, const cJSON *doc, const cJSON *payload, const char *mark,
                 bh_strbuf *said, bh_error *e)
{
    const cJSON *head = cJSON_GetObjectItemCaseSensitive(payload, "text");
    const cJSON *m = cJSON_GetObjectItemCaseSensitive(payload, "bhost");
    const cJSON *cfg = cJSON_GetObjectItemCaseSensitive(m, "config");
    char *list = bh_xasprintf("/repos/%s/issues?labels=" LABEL "&state=open&per_page=100", g->repo);
    char *text = body(doc, mark, cJSON_IsString(head) ? head->valuestring : NULL);
    cJSON *j = body_json(text);
    char *path = NULL;
    long long num = 0;
    int rc = find(g, list, "number", mark, 1, &num, e);

    if (rc == 0 && num) {
        path = bh_xasprintf("/repos/%s/issues/%lld/comments", g->repo, num);
    } else if (rc == 0) {
        path = bh_xasprintf("/repos/%s/issues", g->repo);
        char *title = bh_xasprintf("bhost: critical regression in %s",
                                   cJSON_IsString(cfg) ? cfg->valuestring : "a benchmark");

        cJSON_AddStringToObject(j, "title", title);
        free(title);
        cJSON_AddItemToArray(cJSON_AddArrayToObject(j, "labels"), cJSON_CreateString(LABEL));
    }
    if (rc == 0)
        rc = bh_gh_call(g, "POST", path, j, NULL, e);
    if (rc == 0 && num)
        bh_strbuf_printf(said, "commented on the open issue #%lld of %s", num, g->shown);
    else if (rc == 0)
        bh_strbuf_printf(said, "issue opened on %s", g->shown);
    cJSON_Delete(j);
    free(path);
    free(text);
    free(list);
    return rc;
}

int bh_notify_github(const bh_notify_target *t, const cJSON *doc, const cJSON *payload,
                     bh_strbuf *said, bh_error *e)
{
    bh_gh g;
    char *mark;
    int rc;

    if (t->kind == BH_NOTIFY_GITHUB_ISSUE && bh_notify_n_critical(payload) == 0) {
        bh_strbuf_puts(said, "no critical regression, no issue (github:issue)");
        return 0;
    }
    if (bh_gh_resolve(t, &g, e) != 0) {
        bh_gh_free(&g);
        return -1;
    }
    mark = marker(doc);
    rc = t->kind == BH_NOTIFY_GITHUB_COMMENT ? pr_comment(&g, doc, mark, said, e)
                                             : issue(&g, doc, payload, mark, said, e);
    free(mark);
    bh_gh_free(&g);
    return rc;
}
