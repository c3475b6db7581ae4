// SPDX-License-Identifier: MIT
/* The GitHub REST client of the alerts (notify_github*.c only): where the
 * calls go (API base, repository, pull request, token, from the target or
 * the GitHub Actions environment) and one call with its JSON reply. */
#ifndef BH_NOTIFY_GITHUB_API_H
#define BH_NOTIFY_GITHUB_API_H

#include "notify.h"

typedef struct bh_gh {
    char api[1024];  /* $GITHUB_API_URL (default https://api.github.com), no final '/' */
    char repo[256];  /* OWNER/REPO */
    long pr;         /* the pull request; 0 for an issue */
    char *auth;      /* "Authorization: Bearer TOKEN"; never printed */
    char shown[320]; /* "github:comment OWNER/REPO#N", "github:issue OWNER/REPO" */
    long timeout_ms;
} bh_gh;

/* Fills g for t: the repository from t or $GITHUB_REPOSITORY; for a
 * comment the pull request from t, else $GITHUB_REF (refs/pull/N/merge),
 * else the event file $GITHUB_EVENT_PATH (pull_request.number); the token
 * from $GITHUB_TOKEN, else $GH_TOKEN. 0, or -1 with e = what is missing.
 * bh_gh_free(g) in every case. */
int bh_gh_resolve(const bh_notify_target *t, bh_gh *g, bh_error *e);

void bh_gh_free(bh_gh *g);

/* METHOD api+path with the JSON body (NULL: none); on a 2xx answer 0 with
 * *reply the parsed JSON (NULL when empty or not asked for: reply NULL).
 * -1 with e = "SHOWN: METHOD PATH: HTTP 404 (Not Found)" or the
 * transport's failure; the token never appears. */
int bh_gh_call(const bh_gh *g, const char *method, const char *path, const cJSON *body,
               cJSON **reply, bh_error *e);

#endif
