// SPDX-License-Identifier: MIT
/* Git metadata from the CI environment or the .git files (gitmeta.h). */
#define _GNU_SOURCE
#include "gitmeta.h"

#include "bh_fs.h"
#include "bh_mem.h"

#include <ctype.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define GIT_FILE_MAX (64u << 20) /* packed-refs of a very large repository */

int bh_git_is_object_id(const char *s)
{
    size_t n = 0;

    if (!s)
        return 0;
    for (; s[n]; n++)
        if (!isxdigit((unsigned char)s[n]))
            return 0;
    return n >= 7 && n <= 64;
}

/* The value of an environment variable when set and non-empty. */
static const char *env(const char *name)
{
    const char *v = getenv(name);

    return v && *v ? v : NULL;
}

/* A branch name without the prefixes CI systems put before it. */
static char *clean_branch(const char *b)
{
    if (!b)
        return NULL;
    if (strncmp(b, "refs/heads/", 11) == 0)
        b += 11;
    else if (strncmp(b, "origin/", 7) == 0)
        b += 7;
    return *b ? bh_xstrdup(b) : NULL;
}

/* One CI system's variables: commit, then branch candidates in order. */
typedef struct ci_vars {
    const char *commit;
    const char *branch[3];
} ci_vars;

/* Commit and branch from the first CI system whose commit variable holds
 * an object id; 1 when found. */
static int from_env(bh_git_meta *g)
{
    static const ci_vars systems[] = {
        {"BHOST_GIT_COMMIT", {"BHOST_GIT_BRANCH", NULL, NULL}},
        {"GITHUB_SHA", {"GITHUB_HEAD_REF", "GITHUB_REF_NAME", NULL}},
        {"CI_COMMIT_SHA",
         {"CI_MERGE_REQUEST_SOURCE_BRANCH_NAME", "CI_COMMIT_BRANCH", "CI_COMMIT_REF_NAME"}},
        {"BUILDKITE_COMMIT", {"BUILDKITE_BRANCH", NULL, NULL}},
        {"CIRCLE_SHA1", {"CIRCLE_BRANCH", NULL, NULL}},
        {"GIT_COMMIT", {"GIT_LOCAL_BRANCH", "GIT_BRANCH", NULL}},
    };

    for (size_t i = 0; i < sizeof(systems) / sizeof(*systems); i++) {
        const char *c = env(systems[i].commit);

        if (!bh_git_is_object_id(c))
            continue;
        g->commit = bh_xstrdup(c);
        g->source = systems[i].commit;
        for (size_t k = 0; k < 3 && systems[i].branch[k] && !g->branch; k++) {
            /* GitHub: a tag push names the tag in GITHUB_REF_NAME */
            if (strcmp(systems[i].branch[k], "GITHUB_REF_NAME") == 0 && env("GITHUB_REF_TYPE") &&
                strcmp(env("GITHUB_REF_TYPE"), "branch") != 0)
                continue;
            g->branch = clean_branch(env(systems[i].branch[k]));
        }
        return 1;
    }
    return 0;
}

/* A small file's first line without trailing white space, or NULL. */
static char *read_line(const char *path)
{
    char *text = NULL;
    size_t len = 0;
    char *nl;

    if (bh_read_file(path, 4096, &text, &len, NULL) != 0)
        return NULL;
    nl = strchr(text, '\n');
    if (nl)
        *nl = '\0';
    len = strlen(text);
    while (len && isspace((unsigned char)text[len - 1]))
        text[--len] = '\0';
    return text;
}

/* path relative to base, or path itself when absolute (new string). */
static char *join(const char *base, const char *path)
{
    return path[0] == '/' ? bh_xstrdup(path) : bh_xasprintf("%s/%s", base, path);
}

/* Where a repository keeps its files: gitdir holds HEAD, common the refs
 * (they differ in a linked worktree); worktree is the checkout. */
typedef struct repo {
    char *gitdir;
    char *common;
    char *worktree;
} repo;

/* Finds the repository holding dir (or $GIT_DIR); 0 or -1 when none. */
static int find_repo(const char *dir, repo *r)
{
    char *d = realpath(dir, NULL);
    char *common;

    memset(r, 0, sizeof(*r));
    if (env("GIT_DIR")) {
        r->gitdir = bh_xstrdup(env("GIT_DIR"));
        r->worktree = env("GIT_WORK_TREE") ? bh_xstrdup(env("GIT_WORK_TREE")) : NULL;
    }
    while (!r->gitdir && d) {
        char *dot = bh_xasprintf("%s/.git", d);
        struct stat st;

        if (stat(dot, &st) == 0 && S_ISDIR(st.st_mode)) {
            r->gitdir = dot;
            r->worktree = bh_xstrdup(d);
            break;
        }
        if (stat(dot, &st) == 0 && S_ISREG(st.st_mode)) {
            char *line = read_line(dot); /* "gitdir: PATH" of a linked worktree */

            if (line && strncmp(line, "gitdir: ", 8) == 0) {
                r->gitdir = join(d, line + 8);
                r->worktree = bh_xstrdup(d);
            }
            free(line);
            free(dot);
            break;
        }
        free(dot);
        if (strcmp(d, "/") == 0)
            break;
        *strrchr(d, '/') = '\0';
        if (!*d)
            strcpy(d, "/");
    }
    free(d);
    if (!r->gitdir)
        return -1;
    common = bh_xasprintf("%s/commondir", r->gitdir);
    {
        char *line = read_line(common);

        r->common = line && *line ? join(r->gitdir, line) : bh_xstrdup(r->gitdir);
        free(line);
    }
    free(common);
    return 0;
}

/* The object id packed-refs records for refname, or NULL. */
static char *packed_ref(const char *common, const char *refname)
{
    char *path = bh_xasprintf("%s/packed-refs", common);
    char *text = NULL;
    size_t len = 0;
    char *found = NULL;
    size_t rl = strlen(refname);

    if (bh_read_file(path, GIT_FILE_MAX, &text, &len, NULL) == 0) {
        for (char *line = text; line && *line && !found;) {
            char *nl = strchr(line, '\n');
            char *sp = strchr(line, ' ');

            if (nl)
                *nl = '\0';
            if (line[0] != '#' && line[0] != '^' && sp && strncmp(sp + 1, refname, rl) == 0 &&
                (sp[1 + rl] == '\0' || sp[1 + rl] == '\r')) {
                *sp = '\0';
                if (bh_git_is_object_id(line))
                    found = bh_xstrdup(line);
            }
            line = nl ? nl + 1 : NULL;
        }
    }
    free(text);
    free(path);
    return found;
}

/* True for a ref name that stays inside the repository's folders. */
static int ref_name_ok(const char *name)
{
    return (strcmp(name, "HEAD") == 0 || strncmp(name, "refs/", 5) == 0) &&
           !strstr(name, "..") && !strstr(name, "//");
}

/* Resolves a ref (following symbolic refs a few levels) to an object id;
 * *symref gets the last ref name a symbolic ref pointed at. */
static char *resolve(const repo *r, const char *name, int depth, char **symref)
{
    char *value = NULL;

    if (depth > 5 || !ref_name_ok(name))
        return NULL;
    for (int k = 0; k < 2 && !value; k++) {
        char *path = bh_xasprintf("%s/%s", k == 0 ? r->gitdir : r->common, name);

        value = read_line(path);
        free(path);
    }
    if (!value)
        return strcmp(name, "HEAD") == 0 ? NULL : packed_ref(r->common, name);
    if (strncmp(value, "ref: ", 5) == 0) {
        char *target = bh_xstrdup(value + 5);
        char *id;

        free(*symref);
        *symref = bh_xstrdup(target);
        id = resolve(r, target, depth + 1, symref);
        free(target);
        free(value);
        return id;
    }
    if (!bh_git_is_object_id(value)) {
        free(value);
        return NULL;
    }
    return value;
}

void bh_git_meta_collect(const char *dir, int timeout_ms, bh_git_meta *g)
{
    repo r;
    int have_repo;
    const char *forced = env("BHOST_GIT_DIRTY");

    memset(g, 0, sizeof(*g));
    g->dirty = -1;
    g->source = "none";
    have_repo = find_repo(dir ? dir : ".", &r) == 0;
    if (!from_env(g) && have_repo) {
        char *symref = NULL;

        g->commit = resolve(&r, "HEAD", 0, &symref);
        if (symref && strncmp(symref, "refs/heads/", 11) == 0)
            g->branch = bh_xstrdup(symref + 11);
        free(symref);
        if (g->commit || g->branch)
            g->source = "git";
    }
    if (forced && (strcmp(forced, "0") == 0 || strcmp(forced, "1") == 0))
        g->dirty = forced[0] == '1';
    else if (have_repo && r.worktree)
        g->dirty = bh_git_dirty(r.worktree, timeout_ms);
    if (have_repo) {
        free(r.gitdir);
        free(r.common);
        free(r.worktree);
    }
}

void bh_git_meta_free(bh_git_meta *g)
{
    free(g->commit);
    free(g->branch);
    g->commit = g->branch = NULL;
}
