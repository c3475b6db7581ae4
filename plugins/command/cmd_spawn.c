// SPDX-License-Identifier: MIT
/*
 * cmd_spawn.c -- one run of an external command for the command plugin:
 * posix_spawn (no shell; PATH lookup), stdin from a file or /dev/null,
 * stdout hashed (FNV-1a 64) or sent to /dev/null, stderr's first bytes
 * kept through a pipe, then wait4 for the exit status and the child's
 * rusage. The child stays in the worker's process group, so the host's
 * timeout, which kills that group, ends it too.
 */
#define _GNU_SOURCE
#include "command.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* CLOCK_MONOTONIC in nanoseconds. */
static uint64_t now_ns(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

uint64_t cmd_fnv_update(uint64_t h, const void *data, size_t n)
{
    const unsigned char *p = data;

    for (size_t i = 0; i < n; i++) {
        h ^= p[i];
        h *= 0x100000001b3ull;
    }
    return h;
}

/* The child's descriptors: 0 from in_fd, 1 to out_fd, 2 to err_fd, every
 * other one closed. 0, or an errno. */
static int child_files(posix_spawn_file_actions_t *fa, int in_fd, int out_fd, int err_fd,
                       const char *cwd)
{
    int rc = posix_spawn_file_actions_adddup2(fa, in_fd, 0);

    if (rc == 0)
        rc = posix_spawn_file_actions_adddup2(fa, out_fd, 1);
    if (rc == 0)
        rc = posix_spawn_file_actions_adddup2(fa, err_fd, 2);
    if (rc == 0)
        rc = posix_spawn_file_actions_addclosefrom_np(fa, 3);
    if (rc == 0 && cwd)
        rc = posix_spawn_file_actions_addchdir_np(fa, cwd);
    return rc;
}

/* Reads what fd has: into r->err (stderr) or the hash (stdout). 1 at
 * end of file, 0 otherwise. */
static int drain(int fd, int is_err, cmd_result *r, size_t *kept)
{
    char buf[65536];
    ssize_t n = read(fd, buf, sizeof(buf));

    if (n < 0)
        return errno == EINTR || errno == EAGAIN ? 0 : 1;
    if (n == 0)
        return 1;
    if (!is_err) {
        r->fnv = cmd_fnv_update(r->fnv, buf, (size_t)n);
    } else if (*kept + 1 < sizeof(r->err)) {
        size_t take = sizeof(r->err) - 1 - *kept;

        take = take < (size_t)n ? take : (size_t)n;
        memcpy(r->err + *kept, buf, take);
        *kept += take;
        r->err[*kept] = '\0';
    }
    return 0;
}

/* Reads the stdout pipe (out < 0: none) and the stderr pipe until both
 * are closed. */
static void collect(int out, int err, cmd_result *r)
{
    struct pollfd p[2] = {{.fd = err, .events = POLLIN}, {.fd = out, .events = POLLIN}};
    size_t kept = 0;
    int open_n = out >= 0 ? 2 : 1;

    while (open_n > 0) {
        if (poll(p, 2, -1) < 0) {
            if (errno == EINTR)
                continue;
            return;
        }
        for (int i = 0; i < 2; i++) {
            if (p[i].fd < 0 || !(p[i].revents & (POLLIN | POLLHUP | POLLERR)))
                continue;
            if (drain(p[i].fd, i == 0, r, &kept)) {
                p[i].fd = -1;
                open_n--;
            }
        }
    }
}

/* Spawns p with the three descriptors and waits for it. */
static int spawn_wait(const cmd_proc *p, int in_fd, int out_w, int out_r, int err_w, int err_r,
                      cmd_result *r)
{
    posix_spawn_file_actions_t fa;
    pid_t pid;
    int rc, st = 0;
    uint64_t t0;

    posix_spawn_file_actions_init(&fa);
    rc = child_files(&fa, in_fd, out_w, err_w, p->cwd);
    t0 = now_ns();
    if (rc == 0)
        rc = strchr(p->argv[0], '/') ? posix_spawn(&pid, p->argv[0], &fa, NULL, p->argv, p->envp)
                                     : posix_spawnp(&pid, p->argv[0], &fa, NULL, p->argv, p->envp);
    posix_spawn_file_actions_destroy(&fa);
    close(out_w);
    close(err_w);
    if (rc != 0) {
        r->spawn_errno = rc;
        r->failed_at = "spawn";
        return -1;
    }
    collect(out_r, err_r, r);
    while (wait4(pid, &st, 0, &r->ru) < 0 && errno == EINTR)
        ;
    r->wall_ns = now_ns() - t0;
    r->wait_status = st;
    return 0;
}

int cmd_spawn_run(const cmd_proc *p, cmd_result *r)
{
    int in_fd, out[2] = {-1, -1}, err[2] = {-1, -1}, rc = -1;

    memset(r, 0, sizeof(*r));
    r->fnv = CMD_FNV_BASIS;
    in_fd = open(p->stdin_path ? p->stdin_path : "/dev/null", O_RDONLY | O_CLOEXEC);
    if (in_fd < 0) {
        r->spawn_errno = errno;
        r->failed_at = "stdin";
        return -1;
    }
    if (pipe2(err, O_CLOEXEC) != 0 ||
        (p->hash_stdout ? pipe2(out, O_CLOEXEC)
                        : ((out[1] = open("/dev/null", O_WRONLY | O_CLOEXEC)) < 0 ? -1 : 0)) != 0) {
        r->spawn_errno = errno;
        r->failed_at = "pipe";
    } else {
        rc = spawn_wait(p, in_fd, out[1], out[0], err[1], err[0], r);
        out[1] = err[1] = -1;
    }
    for (int i = 0; i < 2; i++) {
        if (out[i] >= 0)
            close(out[i]);
        if (err[i] >= 0)
            close(err[i]);
    }
    close(in_fd);
    return rc;
}

void cmd_status_text(const cmd_result *r, char *buf, size_t cap)
{
    if (WIFEXITED(r->wait_status))
        snprintf(buf, cap, "exit status %d", WEXITSTATUS(r->wait_status));
    else if (WIFSIGNALED(r->wait_status))
        snprintf(buf, cap, "killed by signal %d (%s)", WTERMSIG(r->wait_status),
                 sigabbrev_np(WTERMSIG(r->wait_status)) ? sigabbrev_np(WTERMSIG(r->wait_status))
                                                        : "?");
    else
        snprintf(buf, cap, "wait status 0x%x", (unsigned)r->wait_status);
}

void cmd_stderr_head(const cmd_result *r, char *buf, size_t cap)
{
    size_t o = 0;
    int lines = 0;

    for (const char *s = r->err; *s && o + 4 < cap && lines < 3; s++) {
        if (*s == '\n') {
            lines++;
            if (s[1] && lines < 3) {
                memcpy(buf + o, " | ", 3);
                o += 3;
            }
        } else if ((unsigned char)*s >= 0x20) {
            buf[o++] = *s;
        }
    }
    buf[o] = '\0';
}
