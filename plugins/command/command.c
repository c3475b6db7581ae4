// SPDX-License-Identifier: MIT
/*
 * command.c -- the command plugin: benchmark "run", an external program
 * timed as hyperfine times it (README.md). Each run() call runs the
 * command N times: prepare (sh -c, untimed), the command (timed, spawn to
 * reap), cleanup (sh -c, untimed), then checks its exit status (another
 * is failed at once) and, when asked, the FNV-1a 64 checksum of its
 * stdout (another makes verify() find the case invalid). With shell: the median
 * time of `sh -c ''`, measured in setup(), is subtracted from each run.
 * verify() reports the child's user and system time and peak RSS.
 */
#include "command.h"

#include "bh_plugin.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

const bhost_host_api *bh_command_api;

static const bhost_param_desc run_params[] = {
    BH_PARAM_STR("name", "The case's name (the suite's name)", "", NULL),
    BH_PARAM_STR("argv", "Program and arguments, a JSON list (config: command.argv)", "", NULL),
    BH_PARAM_STR("shell", "A command line for /bin/sh -c (config: command.shell)", "", NULL),
    BH_PARAM_STR("stdin", "File read as standard input; empty: /dev/null", "", NULL),
    BH_PARAM_STR("env", "Variables to set, a JSON map (config: command.env)", "", NULL),
    BH_PARAM_STR("cwd", "Working directory of the command", "", NULL),
    BH_PARAM_STR("prepare", "sh -c line run before each timed run (untimed)", "", NULL),
    BH_PARAM_STR("cleanup", "sh -c line run after each timed run (untimed)", "", NULL),
    BH_PARAM_I64("status", "The exit status expected", "0", 0, 255),
    BH_PARAM_STR("checksum", "fnv64:HEX of stdout expected; empty: not checked", "", NULL),
    BH_PARAM_I64("per_run", "Units of work one run does: the sample is per unit", "1", 1,
                 1000000000),
    BH_PARAM_STR("requires",
                 "Programs or files the case needs, a JSON map to a hint; "
                 "one missing skips the case",
                 "", NULL),
};

/* Per-run figures kept for verify()'s medians. */
typedef struct cmd_samples {
    double *user_ns, *sys_ns;
    size_t n, cap;
    long peak_rss_kb;
} cmd_samples;

typedef struct cmd_inst {
    bhost_host *h;
    cmd_strv argv, envp;
    char *stdin_path, *cwd, *prepare, *cleanup;
    char *sh_argv[4]; /* {"/bin/sh", "-c", line, NULL} for shell: */
    int64_t status, per_run;
    int check_sum, shell;
    uint64_t sum;
    uint64_t shell_ns; /* the correction: median of sh -c '' */
    int sum_wrong;     /* a run's stdout had another checksum: verify() */
    uint64_t sum_got;  /* the first wrong one */
    cmd_samples s;
} cmd_inst;

/* Reads STR key, ${VAR}-expanded when expand, into a fresh string (NULL
 * when empty). */
static bhost_status read_str(bhost_host *h, const char *key, int expand, char **out)
{
    char buf[8192], why[256];

    *out = NULL;
    if (bh_plugin_str(h, "command: ", key, buf, sizeof(buf)) != BHOST_OK)
        return BHOST_E_INVALID;
    if (!buf[0])
        return BHOST_OK;
    *out = expand ? cmd_expand(buf, why, sizeof(why)) : strdup(buf);
    if (!*out)
        return bh_plugin_fail(h, BHOST_E_INVALID, "command: %s: %s", key,
                              expand ? why : "out of memory");
    return BHOST_OK;
}

/* Decodes the JSON list or map of key and expands each item in place. */
static bhost_status read_list(bhost_host *h, const char *key, int as_map, cmd_strv *out)
{
    char *json, why[256];
    bhost_status st = read_str(h, key, 0, &json);

    *out = NULL;
    if (st != BHOST_OK || !json)
        return st;
    if (cmd_json_strings(json, as_map, out, why, sizeof(why)) != 0)
        st = bh_plugin_fail(h, BHOST_E_INVALID, "command: %s: %s", key, why);
    free(json);
    for (size_t i = 0; st == BHOST_OK && (*out)[i]; i++) {
        char *x = cmd_expand((*out)[i], why, sizeof(why));

        if (!x)
            return bh_plugin_fail(h, BHOST_E_INVALID, "command: %s[%zu]: %s", key, i, why);
        free((*out)[i]);
        (*out)[i] = x;
    }
    return st;
}

/* Parses "fnv64:<16 hex>" into c->sum. */
static bhost_status read_checksum(cmd_inst *c)
{
    char *text, *end = NULL;
    bhost_status st = read_str(c->h, "checksum", 0, &text);

    if (st != BHOST_OK || !text)
        return st;
    if (strncmp(text, "fnv64:", 6) == 0 && strlen(text) == 22) {
        errno = 0;
        c->sum = strtoull(text + 6, &end, 16);
        c->check_sum = end && *end == '\0' && errno == 0;
    }
    if (!c->check_sum)
        st = bh_plugin_fail(c->h, BHOST_E_INVALID,
                            "command: checksum '%s': expected fnv64: and 16 hex digits", text);
    free(text);
    return st;
}

/* Reads every parameter into c. */
static bhost_status read_params(cmd_inst *c)
{
    extern char **environ;
    cmd_strv set = NULL;
    char *shell = NULL;
    bhost_status st = read_list(c->h, "argv", 0, &c->argv);

    if (st == BHOST_OK)
        st = read_str(c->h, "shell", 0, &shell);
    if (st == BHOST_OK && (!c->argv || !c->argv[0]) == !shell)
        st = bh_plugin_fail(c->h, BHOST_E_INVALID, "command: give exactly one of argv and shell");
    if (st == BHOST_OK)
        st = read_list(c->h, "env", 1, &set);
    if (st == BHOST_OK)
        st = read_str(c->h, "stdin", 1, &c->stdin_path);
    if (st == BHOST_OK)
        st = read_str(c->h, "cwd", 1, &c->cwd);
    if (st == BHOST_OK)
        st = read_str(c->h, "prepare", 0, &c->prepare);
    if (st == BHOST_OK)
        st = read_str(c->h, "cleanup", 0, &c->cleanup);
    if (st == BHOST_OK)
        st = bh_plugin_i64(c->h, "command: ", "status", 0, 255, &c->status);
    if (st == BHOST_OK)
        st = bh_plugin_i64(c->h, "command: ", "per_run", 1, 1000000000, &c->per_run);
    if (st == BHOST_OK)
        st = read_checksum(c);
    c->envp = cmd_env_merge(environ, set);
    cmd_strv_free(set);
    c->shell = shell != NULL;
    c->sh_argv[0] = "/bin/sh";
    c->sh_argv[1] = "-c";
    c->sh_argv[2] = shell;
    return st;
}

/* Frees what the instance holds. */
static void cmd_free(cmd_inst *c)
{
    cmd_strv_free(c->argv);
    cmd_strv_free(c->envp);
    free(c->stdin_path);
    free(c->cwd);
    free(c->prepare);
    free(c->cleanup);
    free(c->sh_argv[2]);
    free(c->s.user_ns);
    free(c->s.sys_ns);
    bh_command_api->free(c->h, c);
}

/* BHOST_E_SKIP naming the first thing of requires that is missing (a
 * program looked up in PATH, or a path) and its hint; else BHOST_OK. */
static bhost_status check_requires(bhost_host *h)
{
    cmd_strv need = NULL;
    bhost_status st = read_list(h, "requires", 1, &need);

    for (size_t i = 0; st == BHOST_OK && need && need[i]; i++) {
        char *eq = strchr(need[i], '=');

        if (eq)
            *eq = '\0';
        if (!cmd_present(need[i]))
            st = bh_plugin_fail(h, BHOST_E_SKIP, "needs %s (%s)", need[i],
                                eq && eq[1] ? eq + 1 : "not found");
    }
    cmd_strv_free(need);
    return st;
}

static bhost_status BHOST_ABI cmd_create(bhost_host *h, const bhost_backend *be, bhost_dev *dev,
                                         void **inst)
{
    cmd_inst *c = bh_command_api->alloc(h, sizeof(*c), 0);
    bhost_status st;

    (void)be;
    (void)dev;
    if (!c)
        return bh_plugin_fail(h, BHOST_E_NOMEM, "command: out of memory");
    memset(c, 0, sizeof(*c));
    c->h = h;
    st = check_requires(h);
    if (st == BHOST_OK)
        st = read_params(c);
    if (st != BHOST_OK) {
        cmd_free(c);
        return st;
    }
    *inst = c;
    return BHOST_OK;
}

/* Runs line through sh -c (prepare, cleanup); BHOST_OK when it exits 0. */
static bhost_status run_aside(cmd_inst *c, const char *what, const char *line)
{
    char *argv[] = {"/bin/sh", "-c", (char *)line, NULL}, how[64], err[512];
    cmd_proc p = {argv, c->envp, NULL, c->cwd, 0};
    cmd_result r;

    if (cmd_spawn_run(&p, &r) != 0)
        return bh_plugin_fail(c->h, BHOST_E_INVALID, "command: %s: /bin/sh: %s", what,
                              strerror(r.spawn_errno));
    if (r.wait_status == 0)
        return BHOST_OK;
    cmd_status_text(&r, how, sizeof(how));
    cmd_stderr_head(&r, err, sizeof(err));
    return bh_plugin_fail(c->h, BHOST_E_INVALID, "command: %s '%s': %s%s%s", what, line, how,
                          err[0] ? "; stderr: " : "", err);
}

/* Ascending order of uint64_t for qsort. */
static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

    return x < y ? -1 : x > y;
}

/* With shell:, measures the shell's own start: the median wall time of
 * 30 runs of sh -c '' after 3 untimed ones (hyperfine's correction). */
static bhost_status BHOST_ABI cmd_setup(void *inst, bhost_stream *s)
{
    cmd_inst *c = inst;
    char *argv[] = {"/bin/sh", "-c", "", NULL};
    cmd_proc p = {argv, c->envp, NULL, c->cwd, 0};
    uint64_t t[30];
    cmd_result r;
    char how[64];

    (void)s;
    if (!c->shell)
        return BHOST_OK;
    for (int i = 0; i < 33; i++) {
        int spawned = cmd_spawn_run(&p, &r) == 0;

        if (!spawned || r.wait_status != 0) {
            if (spawned)
                cmd_status_text(&r, how, sizeof(how));
            return bh_plugin_fail(c->h, BHOST_E_INVALID,
                                  "command: sh -c '' (shell correction)%s: %s",
                                  c->cwd ? " in cwd" : "", spawned ? how : strerror(r.spawn_errno));
        }
        if (i >= 3)
            t[i - 3] = r.wall_ns;
    }
    qsort(t, 30, sizeof(t[0]), cmp_u64);
    c->shell_ns = (t[14] + t[15]) / 2;
    return bh_plugin_metric_info(c->h, "cmd.shell_correction_ns", "ns", (double)c->shell_ns);
}

/* Keeps the user and system time and peak RSS of one timed run. */
static void keep_usage(cmd_samples *s, const cmd_result *r)
{
    if (s->n == s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 64;
        double *u = realloc(s->user_ns, cap * sizeof(double));
        double *y = u ? realloc(s->sys_ns, cap * sizeof(double)) : NULL;

        if (u)
            s->user_ns = u;
        if (!y)
            return;
        s->sys_ns = y;
        s->cap = cap;
    }
    s->user_ns[s->n] = (double)r->ru.ru_utime.tv_sec * 1e9 + (double)r->ru.ru_utime.tv_usec * 1e3;
    s->sys_ns[s->n] = (double)r->ru.ru_stime.tv_sec * 1e9 + (double)r->ru.ru_stime.tv_usec * 1e3;
    s->n++;
    if (r->ru.ru_maxrss > s->peak_rss_kb)
        s->peak_rss_kb = r->ru.ru_maxrss;
}

/* The failure of a run that did not start, or ended with another status
 * than expected: failed, naming the status and stderr's first lines. */
static bhost_status check_end(cmd_inst *c, const cmd_proc *p, int spawned, const cmd_result *r)
{
    char how[64], err[512];
    struct stat sb;

    if (!spawned && strcmp(r->failed_at, "spawn") == 0 && c->cwd && stat(c->cwd, &sb) != 0)
        return bh_plugin_fail(c->h, BHOST_E_INVALID, "command: cwd '%s': %s", c->cwd,
                              strerror(errno));
    if (!spawned)
        return bh_plugin_fail(c->h, BHOST_E_INVALID, "command: %s '%s': %s",
                              strcmp(r->failed_at, "spawn") == 0 ? "cannot run" : r->failed_at,
                              strcmp(r->failed_at, "stdin") == 0 ? c->stdin_path : p->argv[0],
                              r->spawn_errno == ENOENT && strcmp(r->failed_at, "spawn") == 0
                                  ? "not found"
                                  : strerror(r->spawn_errno));
    if (WIFEXITED(r->wait_status) && WEXITSTATUS(r->wait_status) == c->status)
        return BHOST_OK;
    cmd_status_text(r, how, sizeof(how));
    cmd_stderr_head(r, err, sizeof(err));
    return bh_plugin_fail(c->h, BHOST_E_INVALID, "command '%s': %s (expected exit status %d)%s%s",
                          p->argv[0] == c->sh_argv[0] ? c->sh_argv[2] : p->argv[0], how,
                          (int)c->status, err[0] ? "; stderr: " : "", err);
}

/* One timed run between its prepare and cleanup; *ns its corrected wall
 * time. */
static bhost_status run_once(cmd_inst *c, uint64_t *ns)
{
    cmd_proc p = {c->shell ? c->sh_argv : c->argv, c->envp, c->stdin_path, c->cwd, c->check_sum};
    cmd_result r;
    bhost_status st = c->prepare ? run_aside(c, "prepare", c->prepare) : BHOST_OK;
    int spawned;

    if (st != BHOST_OK)
        return st;
    spawned = cmd_spawn_run(&p, &r) == 0;
    st = check_end(c, &p, spawned, &r);
    if (st == BHOST_OK && c->check_sum && r.fnv != c->sum && !c->sum_wrong) {
        c->sum_wrong = 1;
        c->sum_got = r.fnv;
    }
    if (st != BHOST_OK)
        return st;
    keep_usage(&c->s, &r);
    *ns = r.wall_ns > c->shell_ns ? r.wall_ns - c->shell_ns : 0;
    return c->cleanup ? run_aside(c, "cleanup", c->cleanup) : BHOST_OK;
}

/* One iteration is one unit of work and a run of the command does
 * per_run of them, so `iterations` units take k = ceil(iterations /
 * per_run) runs. The time reported is their corrected wall time scaled
 * to `iterations` units: total x iterations / (k x per_run), at least 1
 * ns. The host then sees a call's time grow with its iterations as it
 * does for any benchmark, and its calibration stops at one run per call
 * once that is long enough (dividing every run by per_run instead made it
 * ask for per_run x sample_time / run-time runs per call: 1000 runs of a
 * 1 s ping-pong of 10^6 round trips for a 1 ms sample). */
static bhost_status BHOST_ABI cmd_run(void *inst, bhost_stream *s, uint64_t iterations)
{
    cmd_inst *c = inst;
    uint64_t per = (uint64_t)c->per_run;
    uint64_t k = iterations / per + (iterations % per != 0);
    uint64_t total = 0;
    double scaled;

    (void)s;
    for (uint64_t i = 0; i < k; i++) {
        uint64_t ns = 0;
        bhost_status st = run_once(c, &ns);

        if (st != BHOST_OK)
            return st;
        total += ns;
    }
    scaled = (double)total * (double)iterations / ((double)k * (double)per);
    return bh_command_api->set_iteration_time_ns(c->h, scaled >= 1 ? (uint64_t)scaled : 1);
}

/* Ascending order of doubles for qsort. */
static int cmp_f64(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;

    return x < y ? -1 : x > y;
}

/* The median of v[0..n) (sorted in place). */
static double median(double *v, size_t n)
{
    qsort(v, n, sizeof(v[0]), cmp_f64);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Every run's status was checked as it ended: BHOST_E_VERIFY when a
 * run's stdout had another checksum than verify asks; else reports the
 * child's median user and system time per run and its peak RSS. */
static bhost_status BHOST_ABI cmd_verify(void *inst)
{
    cmd_inst *c = inst;

    if (c->sum_wrong)
        return bh_plugin_fail(c->h, BHOST_E_VERIFY,
                              "command: stdout checksum fnv64:%016llx, expected fnv64:%016llx",
                              (unsigned long long)c->sum_got, (unsigned long long)c->sum);
    if (c->s.n == 0)
        return bh_plugin_fail(c->h, BHOST_E_VERIFY, "command: no run finished");
    bh_plugin_metric(c->h, "cmd.user_ns", "ns", BHOST_LOWER_IS_BETTER,
                     median(c->s.user_ns, c->s.n));
    bh_plugin_metric(c->h, "cmd.sys_ns", "ns", BHOST_LOWER_IS_BETTER, median(c->s.sys_ns, c->s.n));
    bh_plugin_metric(c->h, "cmd.peak_rss_kb", "KiB", BHOST_LOWER_IS_BETTER,
                     (double)c->s.peak_rss_kb);
    return BHOST_OK;
}

static void BHOST_ABI cmd_destroy(void *inst)
{
    cmd_free(inst);
}

/* A process of its own: nothing of the worker's worth a ceiling. */
static bhost_status BHOST_ABI cmd_profile(void *inst, bhost_work_profile *out)
{
    (void)inst;
    return bh_plugin_profile(out, BHOST_ACCESS_UNKNOWN, BHOST_COMPUTE_NONE, 1, 0);
}

static const bhost_bench_desc cmd_bench = {
    .struct_size = sizeof(bhost_bench_desc),
    .flags = BHOST_BENCH_MANUAL_TIMING,
    .id = "run",
    .summary = "An external command, timed from spawn to exit (config: command:)",
    .params = run_params,
    .param_count = BH_PLUGIN_COUNT(run_params),
    .create = cmd_create,
    .setup = cmd_setup,
    .run = cmd_run,
    .verify = cmd_verify,
    .destroy = cmd_destroy,
    .work_profile = cmd_profile,
};

static const bhost_bench_desc *const benches[] = {&cmd_bench};

BH_PLUGIN_FACTORY(benches, BH_PLUGIN_COUNT(benches))
BH_PLUGIN_ENTRY(bh_command_api, "org.bhost.command", "command", BH_PLUGIN_VERSION,
                "External commands as benchmarks: wall, user and system time, peak RSS",
                bh_plugin_no_setup)
