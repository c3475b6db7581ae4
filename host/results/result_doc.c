// SPDX-License-Identifier: MIT
/* The result document's run.git object and writing a document to disk
 * (result_doc.h). */
#define _GNU_SOURCE
#include "result_doc.h"

#include "bh_fs.h"
#include "bh_json_write.h"
#include "bh_mem.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

cJSON *bh_result_git_json(const bh_run_git *g)
{
    cJSON *o = cJSON_CreateObject();

    if (g && g->commit)
        cJSON_AddStringToObject(o, "commit", g->commit);
    else
        cJSON_AddNullToObject(o, "commit");
    if (g && g->branch)
        cJSON_AddStringToObject(o, "branch", g->branch);
    else
        cJSON_AddNullToObject(o, "branch");
    if (g && g->dirty >= 0)
        cJSON_AddBoolToObject(o, "dirty", g->dirty);
    else
        cJSON_AddNullToObject(o, "dirty");
    cJSON_AddStringToObject(o, "source", g && g->source ? g->source : "none");
    return o;
}

char *bh_result_default_path(const char *root, const char *config_name,
                             const char *stamp, const char *host)
{
    return bh_xasprintf("%s/%s/%s-%s.json", root, config_name, stamp, host);
}

/* See result_doc.h. */
int bh_result_check_writable(const char *path, bh_error *e)
{
    char *copy = bh_xstrdup(path);
    char *dir = bh_xstrdup(dirname(copy));
    char *probe = bh_xasprintf("%s/.bhost-probe-XXXXXX", dir);
    bh_error inner = {""};
    int fd = -1, rc = 0;

    if (bh_mkdir_p(dir, &inner) != 0) {
        rc = bh_error_set(e, "cannot write results into %s: %s", dir, inner.msg);
    } else {
        /* an unnamed file first: nothing can be left behind, even when the
         * run is killed here; a named one, unlinked at once, where the
         * file system has no O_TMPFILE */
#ifdef O_TMPFILE
        fd = open(dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600);
        if (fd < 0 && errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL)
            rc = bh_error_set(e, "cannot write results into %s: %s", dir, strerror(errno));
#endif
        if (fd < 0 && rc == 0) {
            fd = mkstemp(probe);
            if (fd >= 0)
                unlink(probe);
            else
                rc = bh_error_set(e, "cannot write results into %s: %s", dir, strerror(errno));
        }
    }
    if (fd >= 0)
        close(fd);
    free(probe);
    free(dir);
    free(copy);
    return rc;
}

int bh_result_write(const cJSON *doc, const char *path, int allow_replace,
                    char **used, bh_error *e)
{
    char *text = bh_json_print(doc);
    char *dir = bh_xstrdup(path);
    char *name = NULL;
    size_t len;
    int rc = -1;

    if (!text) {
        free(dir);
        return bh_error_set(e, "cannot encode the result document");
    }
    len = strlen(text);
    text[len] = '\n';
    if (bh_mkdir_p(dirname(dir), e) != 0)
        goto out;
    if (allow_replace) {
        rc = bh_write_file_atomic(path, text, len + 1, e);
        name = bh_xstrdup(path);
        goto out;
    }
    for (int k = 0; k < 1000; k++) {
        free(name);
        if (k == 0) {
            name = bh_xstrdup(path);
        } else {
            size_t pl = strlen(path);
            int json = pl > 5 && strcmp(path + pl - 5, ".json") == 0;
            name = bh_xasprintf("%.*s-%d%s", (int)(json ? pl - 5 : pl), path,
                                k, json ? ".json" : "");
        }
        errno = 0;
        rc = bh_create_file_exclusive(name, text, len + 1, e);
        if (rc == 0 || errno != EEXIST)
            break;
    }
out:
    if (rc == 0 && used)
        *used = name;
    else
        free(name);
    free(text);
    free(dir);
    return rc;
}
