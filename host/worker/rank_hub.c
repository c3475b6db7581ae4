// SPDX-License-Identifier: MIT
/* The rank hub's set-up, launch and ending (rank_hub.h). */
#define _GNU_SOURCE
#include "rank_hub.h"
#include "rank_hub_internal.h"

#include "bh_clock.h"
#include "bh_mem.h"
#include "ipc.h"
#include "rank_wire.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <ifaddrs.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#define SEC 1000000000ull

void bh_hub_fail(bh_hub *h, const char *status, const char *fmt, ...)
{
    va_list ap;
    char msg[2048];

    if (h->failed)
        return;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    h->failed = 1;
    snprintf(h->status, sizeof(h->status), "%s", status);
    h->message = bh_xstrdup(msg);
}

/* True when every rank of the launch runs on this machine: no host is
 * named, or the launcher is local. */
static int all_local(const bh_hub *h)
{
    return strcmp(h->cmd.kind, "local") == 0 ||
           (strcmp(h->cmd.kind, "mpirun") == 0 && bh_rank_cmd_nodes(h->launcher) == 0 &&
            !bh_json_str(h->launcher, "hostfile", NULL));
}

/* Listens on an ephemeral TCP port (loopback only when every rank is
 * local) and writes the address list the ranks try into h->addr. */
static int listen_on(bh_hub *h)
{
    struct sockaddr_in sa = {0};
    socklen_t len = sizeof(sa);
    const char *connect_to = bh_json_str(h->launcher, "connect", NULL);
    int local = all_local(h);
    struct ifaddrs *ifs = NULL;

    h->listen_fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    sa.sin_family = AF_INET;
    sa.sin_addr.s_addr = htonl(local ? INADDR_LOOPBACK : INADDR_ANY);
    if (h->listen_fd < 0 || bind(h->listen_fd, (struct sockaddr *)&sa, sizeof(sa)) != 0 ||
        listen(h->listen_fd, 256) != 0 ||
        getsockname(h->listen_fd, (struct sockaddr *)&sa, &len) != 0) {
        bh_hub_fail(h, "failed", "rank hub: cannot listen on a TCP port: %s", strerror(errno));
        return -1;
    }
    if (connect_to || local) {
        snprintf(h->addr, sizeof(h->addr), "%s:%u", connect_to ? connect_to : "127.0.0.1",
                 ntohs(sa.sin_port));
        return 0;
    }
    /* every IPv4 address of this machine, the loopback last */
    if (getifaddrs(&ifs) == 0) {
        for (struct ifaddrs *i = ifs; i; i = i->ifa_next) {
            char ip[INET_ADDRSTRLEN];
            size_t at = strlen(h->addr);

            if (!i->ifa_addr || i->ifa_addr->sa_family != AF_INET ||
                !inet_ntop(AF_INET, &((struct sockaddr_in *)i->ifa_addr)->sin_addr, ip,
                           sizeof(ip)) ||
                strncmp(ip, "127.", 4) == 0)
                continue;
            snprintf(h->addr + at, sizeof(h->addr) - at, "%s:%u,", ip, ntohs(sa.sin_port));
        }
        freeifaddrs(ifs);
    }
    snprintf(h->addr + strlen(h->addr), sizeof(h->addr) - strlen(h->addr), "127.0.0.1:%u",
             ntohs(sa.sin_port));
    return 0;
}

/* 32 random hex digits. */
static void make_token(char *out)
{
    unsigned char b[16];

    if (getrandom(b, sizeof(b), 0) != (ssize_t)sizeof(b)) {
        uint64_t t = bh_now_ns() ^ (uint64_t)getpid() << 32;

        memcpy(b, &t, 8);
        memcpy(b + 8, &t, 8);
    }
    for (int i = 0; i < 16; i++)
        snprintf(out + 2 * i, 3, "%02x", b[i]);
}

/* Forks one process that runs argv with envp: in a process group of its
 * own when group is set (the launcher, killed as a group), dying with
 * the hub, its output on fd out (-1: inherited). */
static pid_t start(char *const *argv, char *const *envp, int group, int out)
{
    pid_t pid = fork();

    if (pid != 0)
        return pid;
    if (group)
        setpgid(0, 0);
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (out >= 0) {
        dup2(out, 1);
        dup2(out, 2);
    }
    execve(argv[0], argv, envp);
    fprintf(stderr, "bhost rank hub: cannot start %s: %s\n", argv[0], strerror(errno));
    _exit(127);
}

/* Starts the launcher (or, for launcher: local, the ranks themselves). */
static int launch(bh_hub *h, const char *exe)
{
    int p[2];

    h->t_spawn = bh_now_ns();
    if (strcmp(h->cmd.kind, "local") == 0) {
        for (uint32_t r = 0; r < h->n; r++) {
            char *argv[] = {(char *)exe, (char *)"__rank", NULL};
            char rank[32], size[32];
            size_t k = 0;
            char **envp;

            while (h->cmd.envp[k])
                k++;
            envp = bh_xcalloc(k + 3, sizeof(*envp));
            snprintf(rank, sizeof(rank), "%s=%u", BH_RANK_ENV_RANK, r);
            snprintf(size, sizeof(size), "%s=%u", BH_RANK_ENV_SIZE, h->n);
            envp[0] = rank;
            envp[1] = size;
            memcpy(envp + 2, h->cmd.envp, k * sizeof(*envp));
            h->peers[r].local_pid = start(argv, envp, 0, -1);
            free(envp);
            if (h->peers[r].local_pid < 0) {
                bh_hub_fail(h, "failed", "rank hub: fork: %s", strerror(errno));
                return -1;
            }
        }
        return 0;
    }
    if (pipe2(p, O_CLOEXEC) != 0) {
        bh_hub_fail(h, "failed", "rank hub: pipe: %s", strerror(errno));
        return -1;
    }
    h->launcher_pid = start(h->cmd.argv, h->cmd.envp, 1, p[1]);
    close(p[1]);
    h->launcher_out = p[0];
    if (h->launcher_pid < 0) {
        bh_hub_fail(h, "failed", "rank hub: fork: %s", strerror(errno));
        return -1;
    }
    return 0;
}

void bh_hub_reap(bh_hub *h)
{
    int st;

    if (h->launcher_pid > 0 && !h->launcher_exited &&
        waitpid(h->launcher_pid, &st, WNOHANG) == h->launcher_pid) {
        h->launcher_exited = 1;
        h->launcher_status = st;
    }
    for (uint32_t r = 0; r < h->n; r++) {
        bh_hub_peer *p = &h->peers[r];

        if (p->local_pid > 0 && !p->local_reaped &&
            waitpid(p->local_pid, &st, WNOHANG) == p->local_pid) {
            p->local_reaped = 1;
            p->local_status = st;
        }
    }
}

/* True when /proc/pid/environ holds this launch's token: a rank of ours
 * on this machine, not a process that reused its pid. */
static int ours(const bh_hub *h, int pid)
{
    char path[64], buf[65536], want[96];
    ssize_t n;
    int fd;

    snprintf(path, sizeof(path), "/proc/%d/environ", pid);
    fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return 0;
    n = read(fd, buf, sizeof(buf) - 1);
    close(fd);
    if (n <= 0)
        return 0;
    buf[n] = '\0';
    snprintf(want, sizeof(want), "%s=%s", BH_RANK_ENV_TOKEN, h->token);
    for (ssize_t i = 0; i < n; i += (ssize_t)strlen(buf + i) + 1)
        if (strcmp(buf + i, want) == 0)
            return 1;
    return 0;
}

/* Ends the launch: the launcher's group gets SIGTERM, then SIGKILL after
 * 2 s; local ranks and any rank of ours still alive on this machine get
 * SIGKILL. Every child is reaped. */
static void finish(bh_hub *h, uint64_t grace_ns)
{
    uint64_t until = bh_now_ns() + grace_ns;

    while (h->launcher_pid > 0 && !h->launcher_exited && bh_now_ns() < until) {
        bh_hub_reap(h);
        usleep(10000);
    }
    if (h->launcher_pid > 0 && !h->launcher_exited) {
        kill(-h->launcher_pid, SIGTERM);
        until = bh_now_ns() + 2 * SEC;
        while (!h->launcher_exited && bh_now_ns() < until) {
            bh_hub_reap(h);
            usleep(10000);
        }
        kill(-h->launcher_pid, SIGKILL);
        if (!h->launcher_exited && waitpid(h->launcher_pid, &h->launcher_status, 0) > 0)
            h->launcher_exited = 1;
    }
    for (uint32_t r = 0; r < h->n; r++) {
        bh_hub_peer *p = &h->peers[r];

        if (p->local_pid > 0 && !p->local_reaped) {
            if (h->failed)
                kill(p->local_pid, SIGKILL);
            if (waitpid(p->local_pid, &p->local_status, 0) > 0)
                p->local_reaped = 1;
        }
        if (p->pid > 0 && ours(h, p->pid))
            kill(p->pid, SIGKILL);
    }
}

/* The job's members that configure the hub, checked. */
static int read_job(bh_hub *h, const cJSON *job)
{
    double n = bh_json_num(job, "ranks", 0);
    uint64_t now = bh_now_ns();
    double connect_ns;

    h->job = job;
    h->launcher = cJSON_GetObjectItemCaseSensitive(job, "launcher");
    h->probe = strcmp(bh_json_str(job, "mode", ""), "probe") == 0;
    if (!cJSON_IsObject(h->launcher) || (!h->probe && (n < 1 || n > 65536))) {
        bh_hub_fail(h, "failed", "rank hub: the job lacks a launcher or a rank count in "
                                 "[1, 65536]");
        return -1;
    }
    h->n = (uint32_t)n;
    if (h->probe) {
        uint32_t nodes = bh_rank_cmd_nodes(h->launcher);

        h->n = nodes ? nodes : 1;
    }
    connect_ns = bh_json_num(h->launcher, "probe_timeout_ns", 60e9);
    h->connect_deadline = now + (uint64_t)connect_ns;
    if (bh_json_num(job, "rank_deadline_ns", 0) > 0)
        h->deadline = now + (uint64_t)bh_json_num(job, "rank_deadline_ns", 0);
    return 0;
}

int bh_rank_hub(const cJSON *job, int result_fd)
{
    bh_hub h;
    char exe[4096];
    ssize_t k = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
    bh_error e = {""};

    memset(&h, 0, sizeof(h));
    h.listen_fd = h.launcher_out = -1;
    exe[k > 0 ? k : 0] = '\0';
    make_token(h.token);
    if (read_job(&h, job) == 0) {
        h.peers = bh_xcalloc(h.n, sizeof(*h.peers));
        for (uint32_t r = 0; r < h.n; r++)
            h.peers[r].data_fd = h.peers[r].sync_fd = -1;
    }
    if (!h.failed && listen_on(&h) == 0 &&
        bh_rank_cmd_build(h.launcher, h.n, h.probe, exe, h.addr, h.token, &h.cmd, &e) != 0)
        bh_hub_fail(&h, "failed", "%s", e.msg);
    if (!h.failed && launch(&h, exe) == 0)
        bh_hub_serve(&h);
    if (h.peers)
        finish(&h, h.failed ? 0 : 10 * SEC);
    bh_hub_answer(&h, result_fd);
    if (h.listen_fd >= 0)
        close(h.listen_fd);
    for (uint32_t r = 0; h.peers && r < h.n; r++) {
        free(h.peers[r].stream);
        free(h.peers[r].req);
        cJSON_Delete(h.peers[r].msgs);
    }
    free(h.peers);
    free(h.message);
    bh_rank_cmd_free(&h.cmd);
    return 0;
}
