#include "worker.h"

#include "bh_fs.h"
#include "bh_mem.h"
#include "check_plugin.h"
#include "describe.h"
#include "host_api.h"
#include "ipc.h"
#include "loader.h"
#include "run_case.h"
#include "sysinfo.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

/* Reads the whole job pipe into a parsed JSON object, or NULL. */
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
        if (len > (16u << 20)) {
            free(buf);
            bh_error_set(e, "job larger than 16 MiB");
            return NULL;
        }
    }
    close(BH_IPC_JOB_FD);
    job = cJSON_ParseWithLength(buf ? buf : "", len);
    free(buf);
    if (!cJSON_IsObject(job)) {
        cJSON_Delete(job);
        bh_error_set(e, "job is not a JSON object");
        return NULL;
    }
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
    const char *path = bh_json_str(job, "plugin", NULL);

    if (!path) {
        send_error("job", "describe job without plugin");
        return 2;
    }
    if (bh_loader_open(path, bh_host_api_get(), &p, &e) != 0) {
        send_error("load", e.msg);
        bh_plugin_release(&p);
        return 3;
    }
    msg = bh_describe_plugin(&p);
    bh_ipc_send(BH_IPC_RESULT_FD, msg, NULL);
    cJSON_Delete(msg);
    bh_plugin_release(&p);
    return 0;
}

/* Applies the per-worker limits of the job: memory and CPU pinning. */
static int apply_limits(const cJSON *job, bh_error *e)
{
    double limit = bh_json_num(job, "memory_limit", 0);
    const char *pin = bh_json_str(job, "pin", "none");

    if (limit > 0) {
        struct rlimit rl;

        rl.rlim_cur = rl.rlim_max = (rlim_t)limit;
        if (setrlimit(RLIMIT_AS, &rl) != 0)
            return bh_error_set(e, "cannot set memory limit: %s",
                                strerror(errno));
    }
    return bh_sysinfo_pin(pin, e);
}

int bh_worker_main(void)
{
    bh_error e = {""};
    cJSON *job;
    const char *mode;
    int rc;
    int devnull = open("/dev/null", O_RDONLY | O_CLOEXEC);

    if (devnull >= 0) {
        dup2(devnull, 0);
        close(devnull);
    }
    fcntl(BH_IPC_RESULT_FD, F_SETFD, FD_CLOEXEC);
    bh_host_api_set_log_fd(BH_IPC_RESULT_FD);
    job = read_job(&e);
    if (!job) {
        send_error("job", e.msg);
        return 2;
    }
    mode = bh_json_str(job, "mode", "");
    if (strcmp(mode, "describe") == 0) {
        rc = describe_mode(job);
    } else if (strcmp(mode, "run") == 0) {
        if (apply_limits(job, &e) != 0) {
            send_error("setup", e.msg);
            rc = 2;
        } else {
            rc = bh_run_case(job, BH_IPC_RESULT_FD);
        }
    } else if (strcmp(mode, "check") == 0) {
        rc = bh_check_plugin_job(job, BH_IPC_RESULT_FD);
    } else {
        send_error("job", "unknown job mode");
        rc = 2;
    }
    cJSON_Delete(job);
    return rc;
}
