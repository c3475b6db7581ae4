// SPDX-License-Identifier: MIT
/* Git metadata of a run (commit, branch, dirty flag): from the CI
 * system's environment when it names them, else from the repository
 * that holds the working directory, read from its .git files. */
#ifndef BH_GITMETA_H
#define BH_GITMETA_H

typedef struct bh_git_meta {
    char *commit;       /* hex object id, NULL when unknown */
    char *branch;       /* NULL when detached or unknown */
    int dirty;          /* 1 modified tracked files, 0 clean, -1 unknown */
    const char *source; /* where commit/branch came from: the CI
                           variable's name (e.g. "GITHUB_SHA"), "git" or
                           "none" (static string) */
} bh_git_meta;

/* Fills g (free with bh_git_meta_free). Commit and branch come from the
 * first of BHOST_GIT_COMMIT/BHOST_GIT_BRANCH, GitHub Actions (GITHUB_SHA,
 * GITHUB_HEAD_REF or GITHUB_REF_NAME), GitLab (CI_COMMIT_SHA, ...),
 * Buildkite, CircleCI, Jenkins that is set; else from the .git directory
 * found from dir upwards (HEAD, loose refs, packed-refs; worktrees too).
 * dirty: BHOST_GIT_DIRTY (0/1) when set, else `git status --porcelain
 * --untracked-files=no` spawned in the work tree (no optional locks,
 * bounded by timeout_ms); -1 when git or the repository is unavailable.
 * Never fails: what cannot be found stays unknown. Not thread-safe (reads
 * the environment). */
void bh_git_meta_collect(const char *dir, int timeout_ms, bh_git_meta *g);

void bh_git_meta_free(bh_git_meta *g);

/* Internal to the module: whether the work tree at dir has modified
 * tracked files (1/0), or -1 when git cannot tell within timeout_ms. */
int bh_git_dirty(const char *worktree, int timeout_ms);

/* True for 7 to 64 lowercase or uppercase hex digits. */
int bh_git_is_object_id(const char *s);

#endif
