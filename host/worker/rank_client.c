// SPDX-License-Identifier: MIT
/* A rank of a multi-rank case ("bhost-worker __rank", started by the
 * launcher): connects to the rank hub twice (rank_wire.h), places the
 * data connection where a worker finds its pipes, and runs the job as
 * any worker does. */
#define _GNU_SOURCE
#include "worker.h"

#include "ipc.h"
#include "rank_ext.h"
#include "rank_wire.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

/* Connects to host:port within 10 s; the socket, or -1. */
static int dial(const char *host, const char *port)
{
    struct addrinfo hints = {0}, *res = NULL;
    int fd = -1;

    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    if (getaddrinfo(host, port, &hints, &res) != 0)
        return -1;
    for (struct addrinfo *a = res; a && fd < 0; a = a->ai_next) {
        struct pollfd pf;
        int err = 0;
        socklen_t len = sizeof(err);

        fd = socket(a->ai_family, a->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, a->ai_protocol);
        if (fd < 0)
            continue;
        if (connect(fd, a->ai_addr, a->ai_addrlen) != 0) {
            err = errno;
            pf = (struct pollfd){fd, POLLOUT, 0};
            if (err == EINPROGRESS && poll(&pf, 1, 10000) != 1)
                err = ETIMEDOUT;
            else if (err == EINPROGRESS &&
                     getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) != 0)
                err = errno; /* else err is the connection's outcome */
        }
        if (err) {
            close(fd);
            fd = -1;
        }
    }
    freeaddrinfo(res);
    if (fd >= 0) {
        int one = 1, high = fcntl(fd, F_DUPFD_CLOEXEC, 10);

        close(fd); /* above the fds a worker's pipes go to */
        fd = high;
        fcntl(fd, F_SETFL, 0); /* blocking from here on */
        setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
    }
    return fd;
}

/* The CPUs this process may run on, as a list ("0", "0-3,8"), into buf;
 * "" when the kernel does not say or the list does not fit. */
static void cpus_allowed(char *buf, size_t cap)
{
    cpu_set_t set;
    size_t len = 0;

    buf[0] = '\0';
    if (sched_getaffinity(0, sizeof(set), &set) != 0)
        return;
    for (int c = 0; c < CPU_SETSIZE; c++) {
        int end = c;

        if (!CPU_ISSET(c, &set))
            continue;
        while (end + 1 < CPU_SETSIZE && CPU_ISSET(end + 1, &set))
            end++;
        len += (size_t)snprintf(buf + len, len < cap ? cap - len : 0,
                                end > c ? "%s%d-%d" : "%s%d", len ? "," : "", c, end);
        if (len >= cap) {
            buf[0] = '\0';
            return;
        }
        c = end;
    }
}

/* Connects to the first reachable address of list ("h:p,h:p") and sends
 * the hello of channel chan; the socket, or -1 with why set. */
static int open_channel(const char *list, const char *token, const char *chan, uint32_t rank,
                        uint32_t size, char *why, size_t cap)
{
    char *copy = strdup(list), *save = NULL;
    int fd = -1;
    char host[256] = "";

    if (getenv("BHOST_NODE_NAME") && *getenv("BHOST_NODE_NAME"))
        snprintf(host, sizeof(host), "%s", getenv("BHOST_NODE_NAME"));
    else
        gethostname(host, sizeof(host) - 1);
    for (char *item = strtok_r(copy, ",", &save); item && fd < 0;
         item = strtok_r(NULL, ",", &save)) {
        char *colon = strrchr(item, ':');

        if (!colon)
            continue;
        *colon = '\0';
        fd = dial(item, colon + 1);
    }
    free(copy);
    if (fd < 0) {
        snprintf(why, cap, "rank %u: cannot reach the bhost rank hub at %s", rank, list);
        return -1;
    }
    char line[BH_RANK_MAX_HELLO], cpus[BH_RANK_MAX_CPUS];
    cpus_allowed(cpus, sizeof(cpus));
    int n = snprintf(line, sizeof(line),
                     "{\"t\":\"rank_hello\",\"token\":\"%s\",\"chan\":\"%s\",\"rank\":%u,"
                     "\"size\":%u,\"host\":\"%.200s\",\"pid\":%d,\"cpus\":\"%s\"}\n",
                     token, chan, rank, size, host, (int)getpid(), cpus);
    if (n <= 0 || (size_t)n >= sizeof(line) || bh_rank_write_all(fd, line, (size_t)n) != 0) {
        snprintf(why, cap, "rank %u: cannot greet the bhost rank hub", rank);
        close(fd);
        return -1;
    }
    return fd;
}

/* Ends MPI for a plugin that initialised it and left MPI_Finalize to
 * process exit (bhost/ranks.h allows it): mpirun takes a rank that exits
 * without it for a failure. The library is found only if the plugin
 * loaded it (RTLD_NOLOAD); the host links no MPI. */
static void finalize_mpi(void)
{
    static const char *const libs[] = {"libmpi.so.40", "libmpi.so.12", "libmpi.so"};

    for (size_t i = 0; i < sizeof(libs) / sizeof(libs[0]); i++) {
        void *lib = dlopen(libs[i], RTLD_NOW | RTLD_NOLOAD);
        int (*initialized)(int *), (*finalized)(int *), (*finalize)(void);
        void *p1, *p2, *p3;
        int on = 0, off = 0;

        if (!lib)
            continue;
        p1 = dlsym(lib, "MPI_Initialized");
        p2 = dlsym(lib, "MPI_Finalized");
        p3 = dlsym(lib, "MPI_Finalize");
        memcpy(&initialized, &p1, sizeof(p1)); /* POSIX: object to function pointer */
        memcpy(&finalized, &p2, sizeof(p2));
        memcpy(&finalize, &p3, sizeof(p3));
        if (p1 && p2 && p3 && initialized(&on) == 0 && on && finalized(&off) == 0 && !off)
            finalize();
        dlclose(lib);
        return;
    }
}

int bh_rank_main(void)
{
    const char *addr = getenv(BH_RANK_ENV_ADDR), *token = getenv(BH_RANK_ENV_TOKEN);
    uint32_t rank = 0, size = 0;
    char why[512];
    int data, sync_fd, rc;

    if (!addr || !token || strspn(token, "0123456789abcdef") != strlen(token) ||
        bh_rank_from_env(&rank, &size) != 0) {
        fprintf(stderr, "bhost-worker __rank: started outside a bhost launch (no %s, %s "
                        "or rank variable of the launcher)\n",
                BH_RANK_ENV_ADDR, BH_RANK_ENV_TOKEN);
        return 2;
    }
    data = open_channel(addr, token, "data", rank, size, why, sizeof(why));
    sync_fd = data < 0 ? -1 : open_channel(addr, token, "sync", rank, size, why, sizeof(why));
    if (data < 0 || sync_fd < 0) {
        fprintf(stderr, "bhost-worker: %s\n", why);
        return 2;
    }
    if (dup2(data, BH_IPC_JOB_FD) < 0 || dup2(data, BH_IPC_RESULT_FD) < 0) {
        fprintf(stderr, "bhost-worker: rank %u: dup2: %s\n", rank, strerror(errno));
        return 2;
    }
    close(data);
    bh_rank_set_sync_fd(sync_fd);
    rc = bh_worker_main();
    finalize_mpi();
    return rc;
}
