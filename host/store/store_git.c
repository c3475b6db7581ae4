/* The first-parent history from git (see store_git.h). */
#define _GNU_SOURCE
#include "store_git.h"

#include "bh_clock.h"
#include "bh_mem.h"
#include "bh_strbuf.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

/* Appends what fd delivers until EOF (0) or the deadline or an error (-1). */
static int slurp(int fd, uint64_t deadline_ns, bh_strbuf *out)
{
    char buf[4096];

    for (;;) {
        uint64_t now = bh_now_ns();
        struct pollfd p = {fd, POLLIN, 0};
        ssize_t k;
        int rc;

        if (now >= deadline_ns)
            return -1;
        rc = poll(&p, 1, (int)((deadline_ns - now) / 1000000u) + 1);
        if (rc < 0 && errno == EINTR)
            continue;
        if (rc <= 0)
            return -1;
        k = read(fd, buf, sizeof(buf));
        if (k < 0 && errno == EINTR)
            continue;
        if (k < 0)
            return -1;
        if (k == 0)
            return 0;
        bh_strbuf_append(out, buf, (size_t)k);
    }
}

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
    posix_spawn_file_actions_t fa;
    bh_strbuf text = BH_STRBUF_INIT;
    size_t cap = 0;
    int p[2], status = 0, done, rc;
    pid_t pid;

    *out = NULL;
    *n = 0;
    snprintf(count, sizeof(count), "%zu", max ? max : 1);
    if (pipe2(p, O_CLOEXEC) != 0)
        return bh_error_set(e, "git rev-list: pipe: %s", strerror(errno));
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&fa, p[1], 1);
    posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
    rc = posix_spawnp(&pid, "git", &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    close(p[1]);
    if (rc != 0) {
        close(p[0]);
        return bh_error_set(e, "cannot run git: %s", strerror(rc));
    }
    done = slurp(p[0], bh_now_ns() + (uint64_t)(timeout_ms > 0 ? timeout_ms : 1) * 1000000u,
                 &text) == 0;
    close(p[0]);
    if (!done)
        kill(pid, SIGKILL);
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    if (!done || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        bh_strbuf_free(&text);
        return bh_error_set(e, "git rev-list --first-parent HEAD in %s %s", dir ? dir : ".",
                            !done ? "took too long"
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
