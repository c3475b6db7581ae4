// SPDX-License-Identifier: MIT
#define _GNU_SOURCE
#include "worker_spawn.h"

#include "bh_clock.h"
#include "bh_mem.h"
#include "host_signals.h"
#include "ipc.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

/* A bounded byte sink for one pipe. */
typedef struct sink {
    int fd;
    char **buf;
    size_t *len;
    size_t cap;
    size_t limit;
    int *overflow;
} sink;

char *bh_self_exe(void)
{
    char buf[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", buf, sizeof(buf) - 1);
    char *slash, *lean;

    if (n <= 0)
        return bh_xstrdup("bhost");
    buf[n] = '\0';
    slash = strrchr(buf, '/');
    lean = bh_xasprintf("%.*sbhost-worker", slash ? (int)(slash - buf + 1) : 0, buf);
    if (access(lean, X_OK) == 0)
        return lean;
    free(lean);
    return bh_xstrdup(buf);
}

/* Creates a pipe whose both ends are close-on-exec and above fd 10, so
 * the dup2 calls that place them on 0..4 in the child never collide. */
static int make_pipe(int p[2])
{
    int raw[2];

    if (pipe2(raw, O_CLOEXEC) != 0)
        return -1;
    p[0] = fcntl(raw[0], F_DUPFD_CLOEXEC, 10);
    p[1] = fcntl(raw[1], F_DUPFD_CLOEXEC, 10);
    close(raw[0]);
    close(raw[1]);
    return (p[0] < 0 || p[1] < 0) ? -1 : 0;
}

static void close_fd(int *fd)
{
    if (*fd >= 0)
        close(*fd);
    *fd = -1;
}

/* Reads what is available from s->fd; closes it at EOF. */
static void drain(sink *s)
{
    char tmp[65536];
    ssize_t r = read(s->fd, tmp, sizeof(tmp));

    if (r < 0 && (errno == EINTR || errno == EAGAIN))
        return;
    if (r <= 0) {
        close_fd(&s->fd);
        return;
    }
    if (*s->len + (size_t)r > s->limit) {
        size_t keep = s->limit > *s->len ? s->limit - *s->len : 0;
        *s->overflow = 1;
        r = (ssize_t)keep;
    }
    if (r > 0) {
        bh_grow((void **)s->buf, &s->cap, *s->len + (size_t)r + 1, 1);
        memcpy(*s->buf + *s->len, tmp, (size_t)r);
        *s->len += (size_t)r;
        (*s->buf)[*s->len] = '\0';
    }
}

/* Resident set size of pid in bytes, from /proc; 0 when unknown. */
static uint64_t resident_bytes(pid_t pid)
{
    char path[64];
    char buf[4096];
    ssize_t n;
    int fd;
    const char *p;

    snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
    fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return 0;
    n = read(fd, buf, sizeof(buf) - 1);
    close(fd);
    if (n <= 0)
        return 0;
    buf[n] = '\0';
    p = strstr(buf, "VmRSS:");
    return p ? strtoull(p + 6, NULL, 10) * 1024u : 0;
}

/* Writes the job; the worker reads it before anything else. A worker that
 * dies first makes this fail with EPIPE, which the outcome then explains. */
static void write_job(int fd, const char *job)
{
    size_t n = strlen(job);

    while (n > 0) {
        ssize_t w = write(fd, job, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            break;
        job += w;
        n -= (size_t)w;
    }
}

static int start(const bh_spawn_opts *o, char *const *wrap, int job[2], int res[2],
                 int out[2], pid_t *pid, bh_error *e)
{
    posix_spawn_file_actions_t fa;
    posix_spawnattr_t at;
    sigset_t none;
    sigset_t deflt;
    char *argv[20];
    size_t k = 0;
    int rc;

    while (wrap && wrap[k] && k < 16) {
        argv[k] = wrap[k];
        k++;
    }
    argv[k++] = (char *)o->exe;
    argv[k++] = (char *)"__worker";
    argv[k] = NULL;

    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, job[0], BH_IPC_JOB_FD);
    posix_spawn_file_actions_adddup2(&fa, res[1], BH_IPC_RESULT_FD);
    posix_spawn_file_actions_adddup2(&fa, out[1], 1);
    posix_spawn_file_actions_adddup2(&fa, out[1], 2);
    posix_spawnattr_init(&at);
    sigemptyset(&none);
    sigfillset(&deflt);
    posix_spawnattr_setsigmask(&at, &none);
    posix_spawnattr_setsigdefault(&at, &deflt);
    posix_spawnattr_setpgroup(&at, 0);
    posix_spawnattr_setflags(&at, POSIX_SPAWN_SETPGROUP |
                                      POSIX_SPAWN_SETSIGMASK |
                                      POSIX_SPAWN_SETSIGDEF);
    rc = posix_spawn(pid, argv[0], &fa, &at, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    posix_spawnattr_destroy(&at);
    if (rc != 0)
        return bh_error_set(e, "cannot start worker %s: %s", argv[0],
                            strerror(rc));
    return 0;
}

int bh_spawn_worker(const bh_spawn_opts *o, bh_worker_outcome *out,
                    bh_error *e)
{
    return bh_spawn_worker_wrapped(o, NULL, out, e);
}

int bh_spawn_worker_wrapped(const bh_spawn_opts *o, char *const *wrap,
                            bh_worker_outcome *out, bh_error *e)
{
    int job[2] = {-1, -1}, res[2] = {-1, -1}, log[2] = {-1, -1};
    pid_t pid;
    int status = 0;
    int reaped = 0;
    struct rusage ru;
    uint64_t t0 = bh_now_ns();
    uint64_t deadline = o->timeout_ns ? t0 + o->timeout_ns : 0;
    uint64_t grace_end = 0;
    sink sinks[2];
    int slot;

    memset(out, 0, sizeof(*out));
    if (make_pipe(job) || make_pipe(res) || make_pipe(log)) {
        int rc = bh_error_set(e, "cannot create pipes: %s", strerror(errno));
        close_fd(&job[0]), close_fd(&job[1]), close_fd(&res[0]);
        close_fd(&res[1]), close_fd(&log[0]), close_fd(&log[1]);
        return rc;
    }
    if (start(o, wrap, job, res, log, &pid, e) != 0) {
        close_fd(&job[0]), close_fd(&job[1]), close_fd(&res[0]);
        close_fd(&res[1]), close_fd(&log[0]), close_fd(&log[1]);
        return -1;
    }
    slot = bh_live_add(pid);
    out->pid = (int)pid;
    close_fd(&job[0]);
    close_fd(&res[1]);
    close_fd(&log[1]);
    write_job(job[1], o->job);
    close_fd(&job[1]);
    sinks[0] = (sink){res[0], &out->result, &out->result_len, 0,
                      BH_IPC_MAX_STREAM, &out->result_overflow};
    sinks[1] = (sink){log[0], &out->log, &out->log_len, 0, o->log_limit,
                      &out->log_truncated};
    while (sinks[0].fd >= 0 || sinks[1].fd >= 0 || !reaped) {
        struct pollfd pf[2];
        int nf = 0;
        uint64_t now = bh_now_ns();

        if (!reaped && wait4(pid, &status, WNOHANG, &ru) == pid) {
            reaped = 1;
            kill(-pid, SIGKILL); /* strays left in the worker's group */
            grace_end = now + 2000000000ull;
        }
        if (!reaped && deadline && now >= deadline && !out->timed_out) {
            out->timed_out = 1;
            kill(-pid, SIGKILL);
        }
        if (!reaped && o->memory_limit && !out->oom && !out->timed_out) {
            uint64_t rss = resident_bytes(pid);

            if (rss > o->memory_limit) {
                out->oom = 1;
                out->rss_at_kill = rss;
                kill(-pid, SIGKILL);
            }
        }
        if (!reaped && bh_interrupted && !out->interrupted) {
            out->interrupted = 1;
            kill(-pid, SIGKILL);
        }
        if (reaped && grace_end && now >= grace_end)
            break; /* someone outside the group holds the pipes */
        for (int i = 0; i < 2; i++)
            if (sinks[i].fd >= 0)
                pf[nf++] = (struct pollfd){sinks[i].fd, POLLIN, 0};
        if (nf == 0) {
            if (!reaped && wait4(pid, &status, 0, &ru) == pid)
                reaped = 1;
            continue;
        }
        if (poll(pf, (nfds_t)nf, 20) > 0) {
            for (int i = 0, k = 0; i < 2; i++) {
                if (sinks[i].fd < 0)
                    continue;
                if (pf[k].revents & (POLLIN | POLLHUP | POLLERR))
                    drain(&sinks[i]);
                k++;
            }
        }
    }
    close_fd(&sinks[0].fd);
    close_fd(&sinks[1].fd);
    bh_live_remove(slot, &out->hostile_signal, &out->hostile_pid, &out->host_stopped_ms);
    out->wall_ns = bh_now_ns() - t0;
    out->maxrss_kb = ru.ru_maxrss;
    out->user_ns = (uint64_t)ru.ru_utime.tv_sec * 1000000000u +
                   (uint64_t)ru.ru_utime.tv_usec * 1000u;
    out->sys_ns = (uint64_t)ru.ru_stime.tv_sec * 1000000000u +
                  (uint64_t)ru.ru_stime.tv_usec * 1000u;
    if (WIFEXITED(status)) {
        out->exited = 1;
        out->exit_code = WEXITSTATUS(status);
    } else if (WIFSIGNALED(status) && !out->timed_out && !out->interrupted &&
               !out->oom) {
        out->signaled = 1;
        out->signal = WTERMSIG(status);
    }
    if (!out->result)
        out->result = bh_xstrdup("");
    if (!out->log)
        out->log = bh_xstrdup("");
    return 0;
}

void bh_worker_outcome_free(bh_worker_outcome *out)
{
    free(out->result);
    free(out->log);
    memset(out, 0, sizeof(*out));
}
