// SPDX-License-Identifier: MIT
/* Running a helper program and reading its output (see bh_capture.h). */
#define _GNU_SOURCE
#include "bh_capture.h"

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

bh_capture_end bh_capture(char *const argv[], int timeout_ms, bh_strbuf *out, int *status)
{
    posix_spawn_file_actions_t fa;
    uint64_t deadline = bh_now_ns() + (uint64_t)(timeout_ms > 0 ? timeout_ms : 1) * 1000000u;
    int p[2], rc, done;
    pid_t pid;

    *status = 0;
    if (pipe2(p, O_CLOEXEC) != 0) {
        *status = errno;
        return BH_CAPTURE_NO_SPAWN;
    }
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&fa, p[1], 1);
    posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
    rc = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    close(p[1]);
    if (rc != 0) {
        close(p[0]);
        *status = rc;
        return BH_CAPTURE_NO_SPAWN;
    }
    done = slurp(p[0], deadline, out) == 0;
    close(p[0]);
    if (!done)
        kill(pid, SIGKILL);
    while (waitpid(pid, status, 0) < 0 && errno == EINTR)
        ;
    if (!done) {
        *status = 0;
        return BH_CAPTURE_TIMEOUT;
    }
    return BH_CAPTURE_EXITED;
}
