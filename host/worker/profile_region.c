// SPDX-License-Identifier: MIT
/* See profile_region.h. */
#include "profile_region.h"

#include "bh_mem.h"
#include "ipc.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifdef BH_HAVE_CALLGRIND
#include <valgrind/valgrind.h>
#endif

void bh_prof_region_open(const cJSON *job, bh_prof_region *r)
{
    const char *ctl = bh_json_str(job, "profile_ctl", NULL);
    const char *ack = bh_json_str(job, "profile_ack", NULL);

    memset(r, 0, sizeof(*r));
    r->ctl_fd = r->ack_fd = -1;
    if (ctl && ack) {
        /* perf holds both open (ctl for reading, ack for writing); without
           a reader the open fails (ENXIO) rather than waiting for one */
        r->ctl_fd = open(ctl, O_WRONLY | O_NONBLOCK | O_CLOEXEC);
        r->ack_fd = open(ack, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    }
    r->begin = bh_json_str(job, "profile_begin", NULL);
    r->end = bh_json_str(job, "profile_end", NULL);
}

/* Sends one command to perf and waits for its "ack". */
static void perf_command(bh_prof_region *r, const char *cmd)
{
    struct pollfd p = {r->ack_fd, POLLIN, 0};
    char buf[64];
    size_t n = strlen(cmd);

    if (r->ctl_fd < 0 || r->ack_fd < 0)
        return;
    if (write(r->ctl_fd, cmd, n) != (ssize_t)n)
        return;
    while (poll(&p, 1, 5000) < 0 && errno == EINTR)
        ;
    if (p.revents & POLLIN)
        (void)!read(r->ack_fd, buf, sizeof(buf));
}

/* Writes massif's detailed snapshot to file (nothing outside Valgrind). */
static void snapshot(const char *file)
{
#ifdef BH_HAVE_CALLGRIND
    char *cmd;

    if (!file || !RUNNING_ON_VALGRIND)
        return;
    cmd = bh_xasprintf("detailed_snapshot %s", file);
    (void)VALGRIND_MONITOR_COMMAND(cmd);
    free(cmd);
#else
    (void)file;
#endif
}

void bh_prof_region_enter(bh_prof_region *r)
{
    snapshot(r->begin);
    perf_command(r, "enable\n");
}

void bh_prof_region_leave(bh_prof_region *r)
{
    perf_command(r, "disable\n");
    snapshot(r->end);
}

void bh_prof_region_close(bh_prof_region *r)
{
    if (r->ctl_fd >= 0)
        close(r->ctl_fd);
    if (r->ack_fd >= 0)
        close(r->ack_fd);
    r->ctl_fd = r->ack_fd = -1;
}
