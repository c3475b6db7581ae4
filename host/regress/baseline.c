/* Named baselines (see baseline.h). */
#define _GNU_SOURCE
#include "baseline.h"

#include "bh_fs.h"
#include "bh_mem.h"

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
    text = cJSON_Print(doc);
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
    cJSON_free(text);
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
