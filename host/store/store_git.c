// SPDX-License-Identifier: MIT
/* The first-parent history from git (see store_git.h). */
#define _GNU_SOURCE
#include "store_git.h"

#include "bh_capture.h"
#include "bh_mem.h"
#include "bh_strbuf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

/* True for a line of 40 (SHA-1) or 64 (SHA-256) lowercase hex digits. */
static int object_id(const char *s, size_t len)
{
    if (len != 40 && len != 64)
        return 0;
    for (size_t i = 0; i < len; i++)
        if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
            return 0;
    return 1;
}

int bh_store_git_first_parents(const char *dir, size_t max, int timeout_ms, char ***out,
                               size_t *n, bh_error *e)
{
    char count[32];
    char *argv[] = {"git", "-C", (char *)(dir ? dir : "."), "rev-list", "--first-parent",
                    "-n", count, "HEAD", NULL};
    bh_strbuf text = BH_STRBUF_INIT;
    size_t cap = 0;
    int status;
    bh_capture_end end;

    *out = NULL;
    *n = 0;
    snprintf(count, sizeof(count), "%zu", max ? max : 1);
    end = bh_capture(argv, timeout_ms, &text, &status);
    if (end == BH_CAPTURE_NO_SPAWN) {
        bh_strbuf_free(&text);
        return bh_error_set(e, "cannot run git: %s", strerror(status));
    }
    if (end != BH_CAPTURE_EXITED || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        bh_strbuf_free(&text);
        return bh_error_set(e, "git rev-list --first-parent HEAD in %s %s", dir ? dir : ".",
                            end == BH_CAPTURE_TIMEOUT
                                ? "took too long"
                                : "failed (not a git work tree, or no commit yet?)");
    }
    for (const char *line = bh_strbuf_str(&text); *line;) {
        size_t len = strcspn(line, "\n");

        if (object_id(line, len)) {
            char *c = bh_xstrndup(line, len);

            BH_PUSH(*out, *n, cap, c);
        }
        line += len + (line[len] == '\n');
    }
    bh_strbuf_free(&text);
    if (*n == 0)
        return bh_error_set(e, "git rev-list --first-parent HEAD listed no commit");
    return 0;
}

void bh_store_git_free(char **v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(v[i]);
    free(v);
}
