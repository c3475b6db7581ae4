// SPDX-License-Identifier: MIT
/* Named baselines (see baseline.h). */
#define _GNU_SOURCE
#include "baseline.h"

#include "bh_fs.h"
#include "bh_json_write.h"
#include "bh_mem.h"
#include "result_read.h"
#include "store_git.h"
#include "store_query.h"

#include <libgen.h>
#include <stdlib.h>
#include <string.h>

int bh_regress_baseline_name_ok(const char *name)
{
    size_t n = name ? strlen(name) : 0;

    if (n == 0 || n > 100 || name[0] == '.')
        return 0;
    for (size_t i = 0; i < n; i++) {
        char c = name[i];

        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '.' || c == '_' || c == '-'))
            return 0;
    }
    return 1;
}

char *bh_regress_baseline_path(const char *results_dir, const char *config_name,
                               const char *name)
{
    return bh_xasprintf("%s/%s/baselines/%s.json", results_dir, config_name, name);
}

int bh_regress_baseline_save(const cJSON *doc, const char *results_dir,
                             const char *config_name, const char *name,
                             char **used, bh_error *e)
{
    char *path;
    char *dir;
    char *text;
    size_t len;
    int rc = -1;

    if (!bh_regress_baseline_name_ok(name))
        return bh_error_set(e, "baseline name '%s': expected 1 to 100 of A-Z a-z 0-9 . _ - "
                               "not starting with '.'", name ? name : "");
    path = bh_regress_baseline_path(results_dir, config_name, name);
    dir = bh_xstrdup(path);
    text = bh_json_print(doc);
    if (!text) {
        bh_error_set(e, "%s: cannot encode the result document", path);
        goto out;
    }
    len = strlen(text);
    if (bh_mkdir_p(dirname(dir), e) != 0)
        goto out;
    /* The terminating NUL becomes the final newline. */
    text[len] = '\n';
    rc = bh_write_file_atomic(path, text, len + 1, e);
out:
    if (rc == 0 && used)
        *used = path;
    else
        free(path);
    free(dir);
    free(text);
    return rc;
}

char *bh_regress_baseline_resolve(const char *ref, const char *results_dir,
                                  const char *config_name)
{
    size_t n = strlen(ref);

    if (strchr(ref, '/') || (n > 5 && strcmp(ref + n - 5, ".json") == 0))
        return bh_xstrdup(ref);
    return bh_regress_baseline_path(results_dir, config_name, ref);
}

/* How far back store:nearest-ancestor looks, and how long git may take. */
#define ANCESTORS 200
#define GIT_TIMEOUT_MS 10000

int bh_regress_baseline_in_store(const char *ref)
{
    return ref && strncmp(ref, "store:", 6) == 0;
}

/* The run of the store a store: mode selects: 1 found (*id), 0 none (e
 * says what was looked for), -1 error. */
static int select_run(bh_store *st, const char *mode, const char *config, const char *fp,
                      int64_t *id, bh_error *e)
{
    char **commits = NULL;
    size_t n = 0, which = 0;
    int rc;

    if (strncmp(mode, "latest-", 7) == 0 && mode[7]) {
        rc = bh_store_find_latest(st, config, mode + 7, fp, id, e);
        if (rc == 0)
            bh_error_set(e, "no complete run of config '%s' on branch '%s' with this "
                            "system's fingerprint %.12s in %s",
                         config, mode + 7, fp, bh_store_name(st));
        return rc;
    }
    if (strcmp(mode, "nearest-ancestor") != 0)
        return bh_error_set(e, "unknown store selection 'store:%s': expected "
                               "store:latest-BRANCH (e.g. store:latest-main) or "
                               "store:nearest-ancestor",
                            mode);
    if (bh_store_git_first_parents(NULL, ANCESTORS, GIT_TIMEOUT_MS, &commits, &n, e) != 0)
        return -1;
    rc = bh_store_find_commit(st, config, fp, commits, n, id, &which, e);
    if (rc == 0)
        bh_error_set(e, "none of the %zu first-parent commits from HEAD (%.12s) has a "
                        "complete, clean run of config '%s' with this system's fingerprint "
                        "%.12s in %s",
                     n, commits[0], config, fp, bh_store_name(st));
    bh_store_git_free(commits, n);
    return rc;
}

/* The baseline from the store (see bh_regress_baseline_load). */
static cJSON *load_from_store(const char *ref, const char *config, const char *store,
                              const char *fp, char **label, bh_error *e)
{
    bh_store *st;
    bh_store_run r;
    int64_t id = 0;
    cJSON *doc = NULL;

    if (!fp) {
        bh_error_set(e, "%s: this system has no fingerprint to select a baseline by", ref);
        return NULL;
    }
    st = bh_store_exists(store, e) ? bh_store_open(store, e) : NULL;
    if (!st) {
        bh_error_prefix(e, "%s", ref);
        return NULL;
    }
    if (select_run(st, ref + 6, config, fp, &id, e) == 1)
        doc = bh_store_load_doc(st, id, e);
    if (doc && bh_store_get_run(st, id, &r, e) == 1) {
        *label = bh_xasprintf("%s run %lld (%s%s%.12s, %s)", bh_store_name(st), (long long)id,
                              r.branch ? r.branch : "", r.branch ? "@" : "",
                              r.commit ? r.commit : "unknown commit", r.started_at);
        bh_store_run_clear(&r);
    } else if (doc) {
        cJSON_Delete(doc);
        doc = NULL;
    }
    if (!doc)
        bh_error_prefix(e, "%s", ref);
    bh_store_close(st);
    return doc;
}

cJSON *bh_regress_baseline_load(const char *ref, const char *results_dir,
                                const char *config_name, const char *store,
                                const char *fingerprint, char **label, bh_error *e)
{
    char *path;
    cJSON *doc;

    *label = NULL;
    if (bh_regress_baseline_in_store(ref))
        return load_from_store(ref, config_name, store, fingerprint, label, e);
    path = bh_regress_baseline_resolve(ref, results_dir, config_name);
    doc = bh_result_read(path, e);
    if (doc)
        *label = path;
    else
        free(path);
    return doc;
}
