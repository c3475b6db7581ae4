// SPDX-License-Identifier: MIT
/* The dirty flag: `git status` spawned with a time limit (gitmeta.h). */
#include "gitmeta.h"

#include "bh_capture.h"

#include <sys/wait.h>

int bh_git_dirty(const char *worktree, int timeout_ms)
{
    char *argv[] = {"git", "--no-optional-locks", "-C", (char *)worktree, "status",
                    "--porcelain", "--untracked-files=no", NULL};
    bh_strbuf out = BH_STRBUF_INIT;
    int status, any;

    if (bh_capture(argv, timeout_ms, &out, &status) != BH_CAPTURE_EXITED ||
        !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        bh_strbuf_free(&out);
        return -1; /* no git on PATH, too slow, or not a work tree */
    }
    any = out.len > 0;
    bh_strbuf_free(&out);
    return any;
}
