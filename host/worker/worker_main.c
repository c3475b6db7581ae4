// SPDX-License-Identifier: MIT
#include "worker.h"

#include "bh_fs.h"
#include "bh_json_write.h"
#include "bh_mem.h"
#include "check_plugin.h"
#include "describe.h"
#include "host_api.h"
#include "ipc.h"
#include "job.h"
#include "rank_ext.h"
#include "rank_hub.h"
#include "loader.h"
#include "run_case.h"
#include "sysinfo.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

/* Reads the whole job pipe into a parsed and checked JSON object (see
 * bh_job_parse), or NULL with e set. */
static cJSON *read_job(bh_error *e)
{
    char *buf = NULL;
    size_t len = 0;
    size_t cap = 0;
    cJSON *job;

    for (;;) {
        ssize_t r;

        bh_grow((void **)&buf, &cap, len + 65536, 1);
        r = read(BH_IPC_JOB_FD, buf + len, cap - len - 1);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0) {
            free(buf);
            bh_error_set(e, "cannot read job: %s", strerror(errno));
            return NULL;
        }
        if (r == 0)
            break;
        len += (size_t)r;
        if (len > BH_JOB_MAX_BYTES) {
            free(buf);
            bh_error_set(e, "job larger than %u bytes", BH_JOB_MAX_BYTES);
            return NULL;
        }
    }
    close(BH_IPC_JOB_FD);
    job = bh_job_parse(buf, len, e);
    free(buf);
    return job;
}

/* Sends an "error" message of the given kind. */
static void send_error(const char *kind, const char *msg)
{
    cJSON *m = cJSON_CreateObject();

    cJSON_AddStringToObject(m, "t", "error");
    cJSON_AddStringToObject(m, "kind", kind);
    cJSON_AddStringToObject(m, "message", msg);
    bh_ipc_send(BH_IPC_RESULT_FD, m, NULL);
    cJSON_Delete(m);
}

static int describe_mode(const cJSON *job)
{
    bh_error e = {""};
    bh_plugin p;
    cJSON *msg;
    char *text;
    int rc = 0;
    const char *path = bh_json_str(job, "plugin", NULL);

    if (!path) {
        send_error("job", "describe job without plugin");
        return 2;
    }
    bh_host_api_stage("load");
    if (bh_loader_open(path, bh_host_api_get(), &p, &e) != 0) {
        send_error("load", e.msg);
        bh_plugin_release(&p);
        return 3;
    }
    bh_host_api_stage("describe");
    msg = bh_describe_plugin(&p);
    text = bh_json_print_unformatted(msg);
    if (text && strlen(text) >= BH_IPC_MAX_LINE) {
        char *why = bh_xasprintf("describe: the plugin's description is %zu "
                                 "bytes, over the %u-byte protocol limit "
                                 "(too many benchmarks or parameters)",
                                 strlen(text), BH_IPC_MAX_LINE);
        send_error("describe", why);
        free(why);
        rc = 3;
    } else {
        bh_ipc_send(BH_IPC_RESULT_FD, msg, NULL);
    }
    bh_host_api_stage("exit");
    free(text);
    cJSON_Delete(msg);
    bh_plugin_release(&p);
    return rc;
}

/* Applies the per-worker CPU pinning of the job. (The memory limit is
 * enforced by the supervisor on the worker's resident set: an address
 * space limit would break runtimes that reserve large virtual ranges.) */
static int apply_limits(const cJSON *job, bh_error *e)
{
    return bh_sysinfo_pin(bh_json_str(job, "pin", "none"), e);
}

/* Ties this worker's life to its supervisor: the kernel sends SIGKILL
 * when the supervisor dies (even by SIGKILL), and a supervisor that died
 * before that was armed is seen as a result pipe nobody reads any more.
 * Returns 0, or -1 when the supervisor is already gone. */
static int bind_to_supervisor(void)
{
    struct pollfd pf = {BH_IPC_RESULT_FD, POLLOUT, 0};

    prctl(PR_SET_PDEATHSIG, SIGKILL);
    return poll(&pf, 1, 0) == 1 && (pf.revents & (POLLERR | POLLNVAL)) ? -1
                                                                      : 0;
}

/* True when fd is still the pipe (or, for a rank, the socket) described
 * by st (a plugin may close or replace the result pipe). */
static int same_pipe(int fd, const struct stat *st)
{
    struct stat now;

    return fstat(fd, &now) == 0 && (S_ISFIFO(now.st_mode) || S_ISSOCK(now.st_mode)) &&
           now.st_dev == st->st_dev && now.st_ino == st->st_ino;
}

int bh_worker_main(void)
{
    bh_error e = {""};
    cJSON *job;
    const char *mode;
    int rc;
    int devnull = open("/dev/null", O_RDONLY | O_CLOEXEC);
    struct stat pipe_st;

    if (bind_to_supervisor() != 0)
        return BH_IPC_EXIT_PIPE_LOST;
    if (devnull >= 0) {
        dup2(devnull, 0);
        close(devnull);
    }
    fcntl(BH_IPC_RESULT_FD, F_SETFD, FD_CLOEXEC);
    if (fstat(BH_IPC_RESULT_FD, &pipe_st) != 0)
        return BH_IPC_EXIT_PIPE_LOST;
    bh_host_api_set_log_fd(BH_IPC_RESULT_FD);
    job = read_job(&e);
    if (!job) {
        send_error("job", e.msg);
        return 2;
    }
    mode = bh_json_str(job, "mode", "");
    bh_rank_apply_job(job);
    if (strcmp(mode, "describe") == 0) {
        rc = describe_mode(job);
    } else if (strcmp(mode, "run") == 0) {
        if (apply_limits(job, &e) != 0) {
            send_error("setup", e.msg);
            rc = 2;
        } else {
            rc = bh_run_case(job, BH_IPC_RESULT_FD);
        }
    } else if (strcmp(mode, "ranks") == 0 || strcmp(mode, "probe") == 0) {
        rc = bh_rank_hub(job, BH_IPC_RESULT_FD);
    } else if (strcmp(mode, "rank_probe") == 0) {
        rc = 0; /* a rank of a probe launch: reaching the hub was the test */
    } else if (strcmp(mode, "check") == 0) {
        rc = bh_check_plugin_job(job, BH_IPC_RESULT_FD);
    } else {
        send_error("job", "unknown job mode");
        rc = 2;
    }
    cJSON_Delete(job);
    if (!same_pipe(BH_IPC_RESULT_FD, &pipe_st)) {
        fprintf(stderr, "bhost worker: the result pipe (fd %d) was closed or "
                        "replaced during the job; the result is lost\n",
                BH_IPC_RESULT_FD);
        return BH_IPC_EXIT_PIPE_LOST;
    }
    return rc;
}
