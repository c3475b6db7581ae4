// SPDX-License-Identifier: MIT
/*
 * bench_zero_mpi.c -- zero.mpi: ZeRO steps with real Open MPI collectives
 * between the ranks of one mpirun on this machine. setup() starts
 * `mpirun -np N optimizer-zero-mpi ...` (fork and execve, pipes on its
 * stdin and stdout; tools/zero_mpi.c documents the protocol); each run(n)
 * asks it for n steps (reduce-scatter, shard update, all-gather; stage 0
 * all-reduce) and waits for the answer, so the host times real
 * collectives; verify() has the ranks check the last step (see
 * zero_mpi.c). Without MPI at build time, or without mpirun at run time,
 * the case is skipped with the reason.
 *
 * Counting: items_per_iter = parameters of the model updated per step
 * (all ranks together). Communication volumes are metrics, not
 * bytes_per_iter (they are not DRAM traffic). Work profile: read-write,
 * f32, one thread per rank, working set unknown (spread over the ranks'
 * processes).
 */
#include "op.h"

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

typedef struct mpi_inst {
    bhost_host *h;
    int64_t params, stage, np, timeout_s;
    char dtype[8], optimizer[16];
    char mpirun[512];
    const char *tool;
    pid_t pid;
    int to_child, from_child;
    char buf[4096];     /* unread output of the child */
    size_t have;
    uint64_t steps;
    double rs_ns, ag_ns, ar_ns, upd_ns;
    opt_zero_plan plan;
} mpi_inst;

static const char *const mpi_dtype_choices[] = {"f32", "bf16", NULL};
static const char *const mpi_kind_choices[] = {
    "sgd", "adam", "adamw", "adagrad", "rmsprop", "lion", NULL,
};

static const bhost_param_desc mpi_params[] = {
    BH_OPTIM_P(BHOST_PARAM_I64, "params", "Model parameters (all ranks)",
               "8388608", 64, BH_OPTIM_I64_MAX, NULL),
    BH_OPTIM_P(BHOST_PARAM_I64, "stage", "ZeRO stage 0-3", "2", 0, 3, NULL),
    BH_OPTIM_P(BHOST_PARAM_I64, "np", "MPI ranks (processes)", "2", 1, 64, NULL),
    BH_OPTIM_P(BHOST_PARAM_STR, "dtype", "f32, or bf16 gradients and "
               "parameters on the wire (f32 master and state)", "f32", 1, 0,
               mpi_dtype_choices),
    BH_OPTIM_P(BHOST_PARAM_STR, "optimizer", "An element-wise optimizer",
               "adamw", 1, 0, mpi_kind_choices),
    BH_OPTIM_P(BHOST_PARAM_STR, "mpirun", "The launcher (searched in PATH)",
               "mpirun", 1, 0, NULL),
    BH_OPTIM_P(BHOST_PARAM_I64, "timeout_s", "Longest wait for one answer",
               "120", 1, 3600, NULL),
};

static void BHOST_ABI mpi_destroy(void *inst);

/* The MPI tool: next to the build tree's plugin, else the installed one. */
static const char *tool_path(void)
{
#if defined(BH_OPTIM_MPI_TOOL)
    if (access(BH_OPTIM_MPI_TOOL, X_OK) == 0)
        return BH_OPTIM_MPI_TOOL;
    if (access(BH_OPTIM_MPI_TOOL_INSTALLED, X_OK) == 0)
        return BH_OPTIM_MPI_TOOL_INSTALLED;
#endif
    return NULL;
}

/* name resolved through PATH into out (absolute names kept); 0 when an
 * executable file was found. */
static int find_in_path(const char *name, char *out, size_t cap)
{
    const char *path = getenv("PATH");

    if (strchr(name, '/') != NULL) {
        snprintf(out, cap, "%s", name);
        return access(out, X_OK) == 0 ? 0 : -1;
    }
    while (path != NULL && *path != '\0') {
        const char *end = strchr(path, ':');
        size_t len = end != NULL ? (size_t)(end - path) : strlen(path);

        if (len > 0 && (size_t)snprintf(out, cap, "%.*s/%s", (int)len, path, name) < cap &&
            access(out, X_OK) == 0)
            return 0;
        path = end != NULL ? end + 1 : NULL;
    }
    return -1;
}

/* Reads the parameters; skips when MPI or mpirun is absent. [instance] */
static bhost_status BHOST_ABI mpi_create(bhost_host *h, const bhost_backend *be,
                                         bhost_dev *dev, void **inst)
{
    mpi_inst *m = calloc(1, sizeof(*m));
    char launcher[256];
    bhost_status st;

    (void)be;
    (void)dev;
    if (m == NULL)
        return bh_optim_fail(h, BHOST_E_NOMEM, "out of memory");
    m->h = h;
    m->pid = -1;
    m->to_child = m->from_child = -1;
    st = bh_plugin_i64(h, BH_OPTIM_PREFIX, "params", 64, INT64_MAX, &m->params);
    if (st == BHOST_OK)
        st = bh_plugin_i64(h, BH_OPTIM_PREFIX, "stage", 0, 3, &m->stage);
    if (st == BHOST_OK)
        st = bh_plugin_i64(h, BH_OPTIM_PREFIX, "np", 1, 64, &m->np);
    if (st == BHOST_OK)
        st = bh_plugin_i64(h, BH_OPTIM_PREFIX, "timeout_s", 1, 3600, &m->timeout_s);
    if (st == BHOST_OK)
        st = bh_plugin_str(h, BH_OPTIM_PREFIX, "dtype", m->dtype, sizeof(m->dtype));
    if (st == BHOST_OK)
        st = bh_plugin_str(h, BH_OPTIM_PREFIX, "optimizer", m->optimizer, sizeof(m->optimizer));
    if (st == BHOST_OK)
        st = bh_plugin_str(h, BH_OPTIM_PREFIX, "mpirun", launcher, sizeof(launcher));
    if (st == BHOST_OK && (m->tool = tool_path()) == NULL)
        st = bh_optim_fail(h, BHOST_E_SKIP,
                           "built without MPI: install libopenmpi-dev and "
                           "openmpi-bin, then reconfigure");
    if (st == BHOST_OK && find_in_path(launcher, m->mpirun, sizeof(m->mpirun)) != 0)
        st = bh_optim_fail(h, BHOST_E_SKIP,
                           "%s not found in PATH (install openmpi-bin)", launcher);
    if (st == BHOST_OK && m->params < m->np)
        st = bh_optim_fail(h, BHOST_E_INVALID, "params < np");
    if (st != BHOST_OK) {
        free(m);
        return st;
    }
    *inst = m;
    return BHOST_OK;
}

/* Milliseconds on the monotonic clock. */
static int64_t now_ms(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Reads one line of the child's output into line (cap bytes) within the
 * timeout; BHOST_E_INTERNAL (with the reason set) on EOF, timeout or an
 * "error" line. */
static bhost_status read_line(mpi_inst *m, char *line, size_t cap)
{
    int64_t deadline = now_ms() + m->timeout_s * 1000;

    for (;;) {
        char *nl = memchr(m->buf, '\n', m->have);
        struct pollfd pfd = {m->from_child, POLLIN, 0};
        int64_t left = deadline - now_ms();
        ssize_t got;

        if (nl != NULL) {
            size_t len = (size_t)(nl - m->buf);

            snprintf(line, cap, "%.*s", (int)len, m->buf);
            memmove(m->buf, nl + 1, m->have - len - 1);
            m->have -= len + 1;
            if (strncmp(line, "error", 5) == 0)
                return bh_optim_fail(m->h, BHOST_E_INTERNAL, "zero.mpi: %s", line);
            if (strncmp(line, "ready", 5) == 0 || strncmp(line, "done", 4) == 0 ||
                strncmp(line, "ok", 2) == 0 || strncmp(line, "bad", 3) == 0)
                return BHOST_OK;
            continue; /* anything else mpirun printed */
        }
        if (m->have == sizeof(m->buf))
            m->have = 0; /* a line longer than the buffer: drop it */
        if (left <= 0)
            return bh_optim_fail(m->h, BHOST_E_INTERNAL,
                                 "zero.mpi: no answer within %llds",
                                 (long long)m->timeout_s);
        if (poll(&pfd, 1, left > 1000 ? 1000 : (int)left) < 0 && errno != EINTR)
            return bh_optim_fail(m->h, BHOST_E_INTERNAL, "zero.mpi: poll failed");
        if (!(pfd.revents & (POLLIN | POLLHUP)))
            continue;
        got = read(m->from_child, m->buf + m->have, sizeof(m->buf) - m->have);
        if (got == 0)
            return bh_optim_fail(m->h, BHOST_E_INTERNAL,
                                 "zero.mpi: mpirun exited (see its stderr in the "
                                 "case log)");
        if (got > 0)
            m->have += (size_t)got;
    }
}

/* Sends one command line. SIGPIPE (mpirun gone) is blocked for the write
 * and a pending one consumed, so a dead child is an error, not a signal
 * that kills the worker. */
static bhost_status send_line(mpi_inst *m, const char *line)
{
    size_t len = strlen(line), off = 0;
    sigset_t pipe_set, old;
    struct timespec zero = {0, 0};
    int broken = 0;

    sigemptyset(&pipe_set);
    sigaddset(&pipe_set, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &pipe_set, &old);
    while (off < len) {
        ssize_t w = write(m->to_child, line + off, len - off);

        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            broken = 1;
            break;
        }
        off += (size_t)w;
    }
    if (broken)
        while (sigtimedwait(&pipe_set, NULL, &zero) == SIGPIPE)
            ;
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    return broken ? bh_optim_fail(m->h, BHOST_E_INTERNAL,
                                  "zero.mpi: cannot write to mpirun")
                  : BHOST_OK;
}

/* The environment of mpirun: ours, plus permission to run as root when we
 * are root (Open MPI refuses otherwise). Built before fork. */
static char **child_env(void)
{
    static char root1[] = "OMPI_ALLOW_RUN_AS_ROOT=1";
    static char root2[] = "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1";
    size_t n = 0;
    char **env;

    while (environ[n] != NULL)
        n++;
    env = calloc(n + 3, sizeof(char *));
    if (env == NULL)
        return NULL;
    memcpy(env, environ, n * sizeof(char *));
    if (geteuid() == 0) {
        env[n++] = root1;
        env[n++] = root2;
    }
    return env;
}

/* Starts mpirun with pipes on its stdin and stdout. */
static bhost_status spawn(mpi_inst *m)
{
    char np[24], params[24], stage[24], seed[32];
    char *argv[] = {m->mpirun, "-np", np, "--oversubscribe", "--bind-to", "none",
                    (char *)m->tool, "--params", params, "--stage", stage,
                    "--dtype", m->dtype, "--optimizer", m->optimizer, "--seed",
                    seed, NULL};
    int in[2], out[2];
    char **env = child_env();

    snprintf(np, sizeof(np), "%lld", (long long)m->np);
    snprintf(params, sizeof(params), "%lld", (long long)m->params);
    snprintf(stage, sizeof(stage), "%lld", (long long)m->stage);
    snprintf(seed, sizeof(seed), "%llu",
             (unsigned long long)bh_optim_api->seed(m->h));
    if (env == NULL || pipe(in) != 0) {
        free(env);
        return bh_optim_fail(m->h, BHOST_E_INTERNAL, "zero.mpi: pipe failed");
    }
    if (pipe(out) != 0) {
        close(in[0]);
        close(in[1]);
        free(env);
        return bh_optim_fail(m->h, BHOST_E_INTERNAL, "zero.mpi: pipe failed");
    }
    m->pid = fork();
    if (m->pid == 0) {
        dup2(in[0], 0);
        dup2(out[1], 1);
        close(in[0]);
        close(in[1]);
        close(out[0]);
        close(out[1]);
        execve(m->mpirun, argv, env);
        _exit(127);
    }
    close(in[0]);
    close(out[1]);
    free(env);
    m->to_child = in[1];
    m->from_child = out[0];
    if (m->pid < 0) {
        m->pid = -1;
        return bh_optim_fail(m->h, BHOST_E_INTERNAL, "zero.mpi: fork failed");
    }
    return BHOST_OK;
}

/* Starts the ranks and waits until they hold their buffers. [instance] */
static bhost_status BHOST_ABI mpi_setup(void *inst, bhost_stream *s)
{
    mpi_inst *m = inst;
    char line[512];
    unsigned long long shard;
    double mem;
    int ranks;
    bhost_status st;
    opt_hparams hp;
    double ds = strcmp(m->dtype, "f32") == 0 ? 4 : 2;

    (void)s;
    if (m->pid > 0)
        return BHOST_OK;
    st = spawn(m);
    if (st == BHOST_OK)
        st = read_line(m, line, sizeof(line));
    if (st != BHOST_OK)
        return st;
    if (sscanf(line, "ready ranks=%d shard=%llu rank_memory=%lf", &ranks, &shard,
               &mem) != 3)
        return bh_optim_fail(m->h, BHOST_E_INTERNAL, "zero.mpi: unexpected '%s'", line);
    opt_hparams_default((opt_kind)opt_kind_from_name(m->optimizer), &hp);
    opt_zero_plan_make((unsigned)m->stage, (unsigned)ranks, (uint64_t)m->params, ds,
                       ds, opt_state_bytes_per_param(&hp, ds == 4 ? OPT_F32 : OPT_BF16),
                       16, &m->plan);
    bh_plugin_metric_info(m->h, "mpi.ranks", "", ranks);
    bh_plugin_metric_info(m->h, "zero.stage", "", (double)m->stage);
    bh_plugin_metric_info(m->h, "zero.shard_params", "", (double)shard);
    bh_plugin_metric_info(m->h, "zero.rank_memory_bytes", "B", mem);
    bh_plugin_metric_info(m->h, "zero.reduce_scatter_bytes", "B", m->plan.reduce_scatter_bytes);
    bh_plugin_metric_info(m->h, "zero.all_gather_bytes", "B", m->plan.all_gather_bytes);
    bh_plugin_metric_info(m->h, "zero.all_reduce_bytes", "B", m->plan.all_reduce_bytes);
    bh_plugin_metric_info(m->h, "zero.comm_bytes_per_rank", "B", m->plan.comm_bytes);
    return BHOST_OK;
}

/* iterations ZeRO steps across the ranks. [instance] */
static bhost_status BHOST_ABI mpi_run(void *inst, bhost_stream *s,
                                      uint64_t iterations)
{
    mpi_inst *m = inst;
    char line[512];
    unsigned long long n;
    double rs, ag, ar, upd;
    bhost_status st;

    (void)s;
    snprintf(line, sizeof(line), "run %llu\n", (unsigned long long)iterations);
    st = send_line(m, line);
    if (st == BHOST_OK)
        st = read_line(m, line, sizeof(line));
    if (st != BHOST_OK)
        return st;
    if (sscanf(line, "done steps=%llu rs=%lf ag=%lf ar=%lf upd=%lf", &n, &rs, &ag,
               &ar, &upd) != 5 || n != iterations)
        return bh_optim_fail(m->h, BHOST_E_INTERNAL, "zero.mpi: unexpected '%s'", line);
    m->steps += n;
    m->rs_ns += rs;
    m->ag_ns += ag;
    m->ar_ns += ar;
    m->upd_ns += upd;
    return BHOST_OK;
}

/* Has the ranks check the last step; reports the phase times. [instance] */
static bhost_status BHOST_ABI mpi_verify(void *inst)
{
    mpi_inst *m = inst;
    char line[512];
    double steps = m->steps > 0 ? (double)m->steps : 1;
    bhost_status st = send_line(m, "verify\n");

    if (st == BHOST_OK)
        st = read_line(m, line, sizeof(line));
    if (st != BHOST_OK)
        return st;
    if (strncmp(line, "ok", 2) != 0)
        return bh_optim_fail(m->h, BHOST_E_VERIFY, "zero.mpi: %s", line);
    bh_plugin_metric(m->h, "mpi.reduce_scatter_ns_per_step", "ns", BHOST_LOWER_IS_BETTER,
                     m->rs_ns / steps);
    bh_plugin_metric(m->h, "mpi.all_gather_ns_per_step", "ns", BHOST_LOWER_IS_BETTER,
                     m->ag_ns / steps);
    bh_plugin_metric(m->h, "mpi.all_reduce_ns_per_step", "ns", BHOST_LOWER_IS_BETTER,
                     m->ar_ns / steps);
    bh_plugin_metric(m->h, "mpi.update_ns_per_step", "ns", BHOST_LOWER_IS_BETTER,
                     m->upd_ns / steps);
    if (m->rs_ns > 0)
        bh_plugin_metric(m->h, "mpi.reduce_scatter_bytes_per_s", "B/s", BHOST_HIGHER_IS_BETTER,
                         m->plan.reduce_scatter_bytes * steps / (m->rs_ns * 1e-9));
    if (m->ag_ns > 0)
        bh_plugin_metric(m->h, "mpi.all_gather_bytes_per_s", "B/s", BHOST_HIGHER_IS_BETTER,
                         m->plan.all_gather_bytes * steps / (m->ag_ns * 1e-9));
    if (m->ar_ns > 0)
        bh_plugin_metric(m->h, "mpi.all_reduce_bytes_per_s", "B/s", BHOST_HIGHER_IS_BETTER,
                         m->plan.all_reduce_bytes * steps / (m->ar_ns * 1e-9));
    return BHOST_OK;
}

/* Asks mpirun to finish, waits up to 10 s, then terminates it; frees the
 * instance. [instance] */
static void BHOST_ABI mpi_destroy(void *inst)
{
    mpi_inst *m = inst;

    if (m->to_child >= 0) {
        (void)send_line(m, "quit\n");
        close(m->to_child);
    }
    if (m->pid > 0) {
        int status;
        int64_t deadline = now_ms() + 10000;

        while (waitpid(m->pid, &status, WNOHANG) == 0) {
            if (now_ms() > deadline) {
                kill(m->pid, SIGTERM);
                waitpid(m->pid, &status, 0);
                break;
            }
            usleep(10000);
        }
    }
    if (m->from_child >= 0)
        close(m->from_child);
    free(m);
}

/* Model parameters updated per step. */
static double BHOST_ABI mpi_items(void *inst)
{
    return (double)((mpi_inst *)inst)->params;
}

/* See the counting note at the top. [instance] */
static bhost_status BHOST_ABI mpi_profile(void *inst, bhost_work_profile *out)
{
    return bh_plugin_profile(out, BHOST_ACCESS_READ_WRITE, BHOST_COMPUTE_F32,
                             (unsigned)((mpi_inst *)inst)->np, 0);
}

const bhost_bench_desc bh_optim_zero_mpi = {
    .struct_size = sizeof(bhost_bench_desc),
    .id = "zero.mpi",
    .summary = "ZeRO stage 0-3 steps with real Open MPI collectives across "
               "mpirun ranks on this machine (skipped without MPI)",
    .params = mpi_params,
    .param_count = 7,
    .create = mpi_create,
    .setup = mpi_setup,
    .run = mpi_run,
    .verify = mpi_verify,
    .destroy = mpi_destroy,
    .items_per_iter = mpi_items,
    .work_profile = mpi_profile,
};
