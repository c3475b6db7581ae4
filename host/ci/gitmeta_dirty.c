/* The dirty flag: `git status` spawned with a time limit (gitmeta.h). */
#define _GNU_SOURCE
#include "gitmeta.h"

#include "bh_clock.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdint.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

/* Reads the child's stdout until EOF or the deadline; *any is set when a
 * byte arrived. 0 at EOF, -1 at the deadline or on an error. */
static int drain(int fd, uint64_t deadline_ns, int *any)
{
    char buf[4096];

    for (;;) {
        uint64_t now = bh_now_ns();
        struct pollfd p = {fd, POLLIN, 0};
        ssize_t n;
        int rc;

        if (now >= deadline_ns)
            return -1;
        rc = poll(&p, 1, (int)((deadline_ns - now) / 1000000u) + 1);
        if (rc < 0 && errno == EINTR)
            continue;
        if (rc <= 0)
            return -1;
        n = read(fd, buf, sizeof(buf));
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return -1;
        if (n == 0)
            return 0;
        *any = 1;
    }
}

int bh_git_dirty(const char *worktree, int timeout_ms)
{
    char *argv[] = {"git", "--no-optional-locks", "-C", (char *)worktree, "status",
                    "--porcelain", "--untracked-files=no", NULL};
    posix_spawn_file_actions_t fa;
    int p[2];
    pid_t pid;
    int status = 0;
    int any = 0;
    int done;

    if (pipe2(p, O_CLOEXEC) != 0)
        return -1;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&fa, p[1], 1);
    posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
    if (posix_spawnp(&pid, "git", &fa, NULL, argv, environ) != 0) {
        posix_spawn_file_actions_destroy(&fa);
        close(p[0]);
        close(p[1]);
        return -1; /* no git on PATH */
    }
    posix_spawn_file_actions_destroy(&fa);
    close(p[1]);
    done = drain(p[0], bh_now_ns() + (uint64_t)(timeout_ms > 0 ? timeout_ms : 1) * 1000000u,
                 &any) == 0;
    close(p[0]);
    if (!done)
        kill(pid, SIGKILL);
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    if (!done || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
        return -1;
    return any;
}
