// SPDX-License-Identifier: MIT
/* The fault matrix and loading hygiene, through the real bhost binary
 * ($BHOST_EXE) with the fixtures of tests/fixtures on BHOST_PLUGIN_PATH:
 * each fault of fx_faults2.so and backend-flaky.so gets its status and
 * message while every other case keeps its results; no process outlives a
 * run (this test is the subreaper of everything bhost starts, so orphans
 * land here and are counted); SIGTERM mid-run; unsafe plugin files and
 * folders; result files that are malformed. Nothing here asserts a
 * timing. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "loader.h"
#include "itest_util.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* ---- helpers ---------------------------------------------------------- */

/* Asserts that case id is ok with runs ok runs of 3 samples each and a
 * summary. */
static void expect_measured(const cJSON *doc, const char *id, int runs)
{
    const cJSON *c = it_expect_case(doc, id, "ok", NULL);
    const cJSON *r;

    assert_int_equal(cJSON_GetArraySize(it_member(c, "runs")), runs);
    cJSON_ArrayForEach(r, it_member(c, "runs")) {
        assert_string_equal(it_str_of(r, "status"), "ok");
        assert_int_equal(cJSON_GetArraySize(it_member(r, "samples")), 3);
    }
    assert_true(cJSON_IsObject(it_member(c, "summary")));
    assert_true(it_member(it_member(c, "summary"), "median")->valuedouble > 0);
}

/* Fails when a process bhost started outlived it (reparented here). */
static void expect_no_strays(void)
{
    char report[2048];

    if (tp_live_orphans(5000, report, sizeof(report)) != 0)
        fail_msg("processes outlived bhost:\n%s", report);
}

/* Writes a config file under the temporary directory; returns its path. */
static const char *write_config(const char *name, const char *text)
{
    const char *path = it_path(name);

    it_write(path, text);
    return path;
}

/* Reads the pid a fixture wrote into path (0 when none). */
static pid_t read_pid(const char *path)
{
    char *text = tp_slurp(path);
    long v = strtol(text, NULL, 10);

    free(text);
    return v > 1 ? (pid_t)v : 0;
}

/* The case of id prefix+suffix. */
static const cJSON *case_like(const cJSON *doc, const char *prefix,
                              const char *suffix)
{
    const cJSON *c;

    cJSON_ArrayForEach(c, it_member(doc, "cases")) {
        const char *id = it_str_of(c, "id");
        size_t n = strlen(id), ns = strlen(suffix);

        if (strncmp(id, prefix, strlen(prefix)) == 0 && n >= ns &&
            strcmp(id + n - ns, suffix) == 0)
            return c;
    }
    fail_msg("no case %s...%s", prefix, suffix);
    return NULL;
}

/* ---- the fault matrix ------------------------------------------------- */

/* Only the cases that must time out get a short timeout: the others end
 * on their own, however loaded the machine. */
static const char matrix_yaml[] =
    "schema: 1\n"
    "name: itest_faults2\n"
    "defaults: {warmup: 0, sample_time: 1ms, samples: 3, runs: 1, seed: 7,\n"
    "           timeout: 120s}\n"
    "suites:\n"
    "  - plugin: fx_faults2\n"
    "    include: [stack_overflow, divzero, exit0, exit1, close_pipe,\n"
    "              garbage_pipe]\n"
    "  - plugin: fx_faults2\n"
    "    name: stuck\n"
    "    include: [deadlock, sleep, signals_hang]\n"
    "    defaults: {timeout: 2s}\n"
    "  - plugin: fx_faults2\n"
    "    name: isolated\n"
    "    include: [ok, chdir_signals]\n"
    "    defaults: {runs: 3}\n"
    "  - plugin: fx_faults2\n"
    "    name: hog\n"
    "    include: [memhog]\n"
    "    params: {cap_mib: 1024}\n"
    "    defaults: {memory_limit: 256MiB, timeout: 120s}\n";

/* Every fault of fx_faults2 in one run: each case gets its own status and
 * message, the well-behaved ones are measured in full, chdir_signals (3
 * runs, each checking it inherited nothing) stays ok, and nothing
 * outlives the run. */
static void test_fault_matrix(void **state)
{
    const char *out = it_path("matrix.json");
    const char *args[] = {"run", write_config("matrix.yaml", matrix_yaml),
                          "--out", out, "--quiet", NULL};
    tp_proc p;
    cJSON *doc;

    (void)state;
    it_run(&p, args);
    it_expect_code(&p, 1);
    expect_no_strays();
    doc = it_load_json(out);
    assert_true(cJSON_IsTrue(it_member(it_member(doc, "run"), "complete")));
    assert_int_equal(cJSON_GetArraySize(it_member(doc, "cases")), 12);
    it_expect_case(doc, "fx_faults2/stack_overflow", "crashed", "SIGSEGV");
    it_expect_case(doc, "fx_faults2/divzero", "crashed", "SIGFPE");
    it_expect_case(doc, "fx_faults2/deadlock", "timeout", "timeout");
    it_expect_case(doc, "fx_faults2/sleep", "timeout", "timeout");
    it_expect_case(doc, "fx_faults2/signals_hang", "timeout", "timeout");
    it_expect_case(doc, "fx_faults2/exit0", "failed",
                   "worker exited with status 0 before reporting");
    it_expect_case(doc, "fx_faults2/exit1", "failed",
                   "worker exited with status 1 before reporting");
    it_expect_case(doc, "fx_faults2/close_pipe", "failed",
                   "result pipe lost: the worker's result pipe (fd 4) was "
                   "closed or replaced");
    it_expect_case(doc, "fx_faults2/garbage_pipe", "failed",
                   "protocol error: line ");
    it_expect_case(doc, "fx_faults2/garbage_pipe", "failed",
                   ": not a protocol message");
    it_expect_case(doc, "fx_faults2/memhog[cap_mib=1024]", "oom",
                   "went over the memory limit");
    expect_measured(doc, "fx_faults2/ok", 3);
    expect_measured(doc, "fx_faults2/chdir_signals", 3);
    /* no failed case has a summary */
    assert_true(cJSON_IsNull(it_member(it_case_of(doc, "fx_faults2/divzero"),
                                       "summary")));
    cJSON_Delete(doc);
    tp_proc_free(&p);
}

/* The faults of fx_faults.so with nothing left behind: segfault, abort,
 * busy loop, exit(3) and a flood on stdout and stderr at once (the log
 * keeps the first 64 KiB of both and is flagged truncated; the flood
 * never blocks the worker or the host, the timeout ends it). */
static void test_fault_basics(void **state)
{
    static const char yaml[] =
        "schema: 1\n"
        "name: itest_faults1\n"
        "defaults: {warmup: 0, sample_time: 1ms, samples: 3, runs: 1, seed: 9,\n"
        "           timeout: 120s}\n"
        "suites:\n"
        "  - plugin: fx_faults\n"
        "    include: [ok, crash, abort, exit]\n"
        "    defaults: {runs: 2}\n"
        "  - plugin: fx_faults\n"
        "    name: endless\n"
        "    include: [hang, spew]\n"
        "    defaults: {timeout: 2s}\n";
    const char *out = it_path("basics.json");
    const char *args[] = {"run", write_config("basics.yaml", yaml), "--out",
                          out, "--quiet", NULL};
    tp_proc p;
    cJSON *doc;
    const cJSON *r0, *log;

    (void)state;
    it_run(&p, args);
    it_expect_code(&p, 1);
    expect_no_strays();
    doc = it_load_json(out);
    assert_true(cJSON_IsTrue(it_member(it_member(doc, "run"), "complete")));
    assert_int_equal(cJSON_GetArraySize(it_member(doc, "cases")), 6);
    expect_measured(doc, "fx_faults/ok", 2);
    it_expect_case(doc, "fx_faults/crash", "crashed", "SIGSEGV");
    it_expect_case(doc, "fx_faults/abort", "crashed", "SIGABRT");
    it_expect_case(doc, "fx_faults/exit", "failed",
                   "worker exited with status 3 before reporting");
    it_expect_case(doc, "fx_faults/hang", "timeout", "timeout");
    r0 = cJSON_GetArrayItem(
        it_member(it_expect_case(doc, "fx_faults/spew", "timeout", "timeout"),
                  "runs"),
        0);
    assert_true(cJSON_IsTrue(it_member(r0, "log_truncated")));
    log = it_member(r0, "log");
    assert_true(cJSON_IsString(log));
    assert_true(strlen(log->valuestring) <= 64 * 1024);
    assert_true(strlen(log->valuestring) > 32 * 1024);
    it_assert_has(log->valuestring, "fx_faults spew: stdout line 0\n");
    it_assert_has(log->valuestring, "fx_faults spew: stderr line 0\n");
    /* the host's own output stays small: the flood is not echoed */
    assert_true(strlen(p.out) + strlen(p.err) < 16 * 1024);
    cJSON_Delete(doc);
    tp_proc_free(&p);
}

/* A child forked by a plugin dies with its worker's process group; a
 * grandchild that called setsid() escapes the group kill (documented in
 * README.md), and the run still ends. */
static void test_process_strays(void **state)
{
    const char *out = it_path("strays.json");
    const char *child_file = it_path("child.pid");
    const char *escape_file = it_path("escape.pid");
    char yaml[2048];
    const char *args[] = {"run", NULL, "--out", out, "--quiet", NULL};
    tp_proc p;
    cJSON *doc;
    pid_t child, escaped;
    int st = 0;

    (void)state;
    snprintf(yaml, sizeof(yaml),
             "schema: 1\n"
             "name: itest_strays\n"
             "defaults: {warmup: 0, sample_time: 1ms, samples: 3, runs: 1,\n"
             "           timeout: 30s}\n"
             "suites:\n"
             "  - plugin: fx_faults2\n"
             "    include: [fork_child]\n"
             "    params: {pidfile: '%s'}\n"
             "  - plugin: fx_faults2\n"
             "    name: escape\n"
             "    include: [escape]\n"
             "    params: {pidfile: '%s'}\n",
             child_file, escape_file);
    args[1] = write_config("strays.yaml", yaml);
    it_run(&p, args);
    child = read_pid(child_file);
    escaped = read_pid(escape_file);
    assert_true(child > 1);
    assert_true(escaped > 1);
    /* the forked child was killed with the worker's group: it was
     * reparented here and died of SIGKILL */
    assert_int_equal(tp_wait_pid(child, 10000, &st), 1);
    assert_true(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL);
    assert_int_equal(kill(child, 0), -1);
    assert_int_equal(errno, ESRCH);
    /* the setsid() grandchild escaped: still alive; clean it up */
    assert_int_equal(kill(escaped, 0), 0);
    assert_int_equal(kill(escaped, SIGKILL), 0);
    assert_int_equal(tp_wait_pid(escaped, 10000, &st), 1);
    it_expect_code(&p, 0);
    expect_no_strays();
    doc = it_load_json(out);
    assert_string_equal(
        it_str_of(case_like(doc, "fx_faults2/fork_child[", "]"), "status"),
        "ok");
    assert_string_equal(
        it_str_of(case_like(doc, "fx_faults2/escape[", "]"), "status"), "ok");
    cJSON_Delete(doc);
    tp_proc_free(&p);
}

/* bhost killed with SIGKILL mid-run: its worker dies with it
 * (PR_SET_PDEATHSIG), but a process the plugin forked is not tied to the
 * host and survives (documented in README.md). */
static void test_killed_host(void **state)
{
    const char *pidfile = it_path("killed.pid");
    char yaml[1024];
    const char *args[] = {"run", NULL, "--out", it_path("killed.json"),
                          "--quiet", NULL};
    tp_proc p;
    pid_t worker = 0, child = 0;
    int st = 0;

    (void)state;
    snprintf(yaml, sizeof(yaml),
             "schema: 1\n"
             "name: itest_killed\n"
             "defaults: {warmup: 0, sample_time: 1ms, samples: 3, runs: 1,\n"
             "           timeout: 300s}\n"
             "suites:\n"
             "  - plugin: fx_faults2\n"
             "    include: [fork_child]\n"
             "    params: {pidfile: '%s', then_sleep: true}\n",
             pidfile);
    args[1] = write_config("killed.yaml", yaml);
    it_start(&p, args);
    for (int i = 0; i < 600 && (!child || !worker); i++) {
        tp_sleep_ms(50);
        child = read_pid(pidfile);
        worker = tp_worker_child(p.pid);
    }
    if (!child || !worker) {
        kill(p.pid, SIGKILL);
        tp_finish(&p);
        fail_msg("the fork_child worker never showed up");
    }
    assert_int_equal(kill(p.pid, SIGKILL), 0);
    tp_finish(&p);
    /* the worker was reparented here and killed by the kernel */
    assert_int_equal(tp_wait_pid(worker, 10000, &st), 1);
    assert_true(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL);
    /* the plugin's own child is still there: clean it up */
    assert_int_equal(kill(child, 0), 0);
    assert_int_equal(kill(child, SIGKILL), 0);
    assert_int_equal(tp_wait_pid(child, 10000, &st), 1);
    expect_no_strays();
    tp_proc_free(&p);
}

/* A device lost between open and run: the case on that backend fails with
 * the backend's message; the same benchmark on the CPU backend is ok. */
static void test_flaky_backend(void **state)
{
    static const char yaml[] =
        "schema: 1\n"
        "name: itest_flaky\n"
        "defaults: {warmup: 0, sample_time: 1ms, samples: 3, runs: 1,\n"
        "           timeout: 30s, seed: 3}\n"
        "backends:\n"
        "  cpu: {required: true}\n"
        "  flaky: {required: true}\n"
        "suites:\n"
        "  - plugin: selftest\n"
        "    include: [device_copy]\n"
        "    params: {bytes: [4096]}\n";
    const char *out = it_path("flaky.json");
    const char *args[] = {"run", write_config("flaky.yaml", yaml), "--out",
                          out, "--quiet", NULL};
    tp_proc p;
    cJSON *doc;
    const cJSON *c;

    (void)state;
    it_run(&p, args);
    it_expect_code(&p, 1);
    expect_no_strays();
    doc = it_load_json(out);
    assert_int_equal(cJSON_GetArraySize(it_member(doc, "cases")), 2);
    c = case_like(doc, "selftest/device_copy", "@flaky:0");
    assert_string_equal(it_str_of(c, "status"), "failed");
    it_assert_has(it_str_of(c, "message"), "device lost");
    c = case_like(doc, "selftest/device_copy", "@cpu:0");
    assert_string_equal(it_str_of(c, "status"), "ok");
    assert_true(cJSON_IsObject(it_member(c, "summary")));
    cJSON_Delete(doc);
    tp_proc_free(&p);
}

/* ---- SIGTERM mid-run -------------------------------------------------- */

/* SIGTERM while a case is running: its worker group is killed, the cases
 * that finished are written, the run is marked incomplete, exit 6; the
 * running case says it was running, a case that never started says so. */
static void test_sigterm_mid_run(void **state)
{
    static const char yaml[] =
        "schema: 1\n"
        "name: itest_sigterm\n"
        "defaults: {warmup: 0, sample_time: 1ms, samples: 3, runs: 1,\n"
        "           timeout: 300s, seed: 11}\n"
        "suites:\n"
        "  - plugin: fx_faults2\n"
        "    include: [sleep, ok]\n"
        "    defaults: {runs: 2}\n";
    const char *out = it_path("sigterm.json");
    const char *args[] = {"run", write_config("sigterm.yaml", yaml), "--out",
                          out, "--quiet", NULL};
    pid_t w = 0, last = 0;
    int stable = 0;
    tp_proc p;
    cJSON *doc;
    const cJSON *c, *msg;

    (void)state;
    it_start(&p, args);
    /* the sleep worker: a worker child that stays the same process across
     * several looks (describe workers and ok runs end at once) */
    for (int i = 0; i < 600 && stable < 5; i++) {
        tp_sleep_ms(100);
        w = tp_worker_child(p.pid);
        stable = w && w == last ? stable + 1 : 0;
        last = w;
    }
    if (stable < 5) {
        kill(p.pid, SIGKILL);
        tp_finish(&p);
        fail_msg("the sleep worker never showed up");
    }
    /* the workers that ended before were reaped: no zombie lingers */
    assert_int_equal(tp_lasting_zombies(p.pid, 500), 0);
    assert_int_equal(kill(p.pid, SIGTERM), 0);
    tp_finish(&p);
    it_expect_code(&p, 6);
    it_assert_has(p.err, "interrupted");
    assert_int_equal(tp_wait_pid(w, 0, NULL), -1); /* reaped by bhost */
    assert_int_equal(kill(w, 0), -1);
    expect_no_strays();
    doc = it_load_json(out);
    assert_true(cJSON_IsFalse(it_member(it_member(doc, "run"), "complete")));
    it_expect_case(doc, "fx_faults2/sleep", "skipped",
                   "interrupted while this case was running");
    /* ok either finished both runs, or some never started */
    c = it_case_of(doc, "fx_faults2/ok");
    msg = cJSON_GetObjectItemCaseSensitive(c, "message");
    if (strcmp(it_str_of(c, "status"), "ok") != 0) {
        assert_string_equal(it_str_of(c, "status"), "skipped");
        assert_true(cJSON_IsString(msg));
        assert_null(strstr(msg->valuestring, "while this case was running"));
        it_assert_has(msg->valuestring, "interrupted before");
    }
    cJSON_Delete(doc);
    tp_proc_free(&p);
}

/* Waits until bhost p printed phrase on stderr and then has the same
 * worker child for several looks in a row; returns it (0: never). */
static pid_t wait_stuck_worker(const tp_proc *p, const char *phrase)
{
    pid_t w = 0, last = 0;
    int stable = 0;

    for (int i = 0; i < 1200 && stable < 5; i++) {
        char *err = tp_slurp(p->err_path);
        int seen = strstr(err, phrase) != NULL;

        free(err);
        tp_sleep_ms(100);
        w = seen ? tp_worker_child(p->pid) : 0;
        stable = w && w == last ? stable + 1 : 0;
        last = w;
    }
    return stable >= 5 ? w : 0;
}

/* The gate benchmark: spin_ns per iteration, hanging after pass runs
 * counted in countfile. */
static const char *gate_config(const char *file, int spin_ns, int pass,
                               const char *countfile)
{
    char yaml[1024];

    snprintf(yaml, sizeof(yaml),
             "schema: 1\n"
             "name: itest_confirm\n"
             "defaults: {warmup: 0, sample_time: 1ms, samples: 3, runs: 6,\n"
             "           timeout: 300s, seed: 5}\n"
             "suites:\n"
             "  - plugin: fx_faults2\n"
             "    include: [gate]\n"
             "    params: {spin_ns: %d, pass_runs: %d, countfile: '%s'}\n",
             spin_ns, pass, countfile);
    return write_config(file, yaml);
}

/* SIGTERM while suspect regressions are being rerun to confirm them: the
 * run exits 6 and its result says incomplete; the reruns decide nothing
 * (the first verdict stays, the confirmation says it was interrupted);
 * no baseline is saved from the incomplete run; nothing outlives it. */
static void test_sigterm_during_confirmation(void **state)
{
    const char *base = it_path("confirm_base.json");
    const char *out = it_path("confirm.json");
    const char *results = it_path("confirm_results");
    const char *base_args[] = {
        "run", gate_config("confirm_base.yaml", 0, 1000000,
                           it_path("confirm_base.count")),
        "--out", base, "--quiet", NULL};
    const char *args[] = {
        "run", gate_config("confirm.yaml", 20000, 6, it_path("confirm.count")),
        "--out", out, "--results-dir", results, "--baseline", base,
        "--ignore-param", "spin_ns", "--ignore-param", "pass_runs",
        "--ignore-param", "countfile", "--save-baseline", "never", NULL};
    tp_proc p;
    cJSON *doc;
    const cJSON *c, *m, *conf;
    pid_t w;
    char saved[1200];

    (void)state;
    it_run(&p, base_args);
    it_expect_code(&p, 0);
    tp_proc_free(&p);

    it_start(&p, args);
    w = wait_stuck_worker(&p, "confirming 1 suspect case");
    if (!w) {
        kill(p.pid, SIGKILL);
        tp_finish(&p);
        fail_msg("no confirmation rerun got stuck\nstderr:\n%s", p.err);
    }
    assert_int_equal(tp_lasting_zombies(p.pid, 500), 0);
    assert_int_equal(kill(p.pid, SIGTERM), 0);
    tp_finish(&p);
    it_expect_code(&p, 6);
    it_assert_has(p.err, "interrupted: partial results written, run marked "
                         "incomplete");
    it_assert_has(p.err, "baseline 'never' not saved: the run is incomplete");
    assert_int_equal(kill(w, 0), -1);
    expect_no_strays();
    snprintf(saved, sizeof(saved), "%s/itest_confirm/baselines/never.json",
             results);
    assert_int_equal(access(saved, F_OK), -1);

    doc = it_load_json(out);
    assert_true(cJSON_IsFalse(it_member(it_member(doc, "run"), "complete")));
    /* the first phase finished: its one case is measured */
    assert_int_equal(cJSON_GetArraySize(it_member(doc, "cases")), 1);
    c = cJSON_GetArrayItem(it_member(doc, "cases"), 0);
    expect_measured(doc, it_str_of(c, "id"), 6);
    m = cJSON_GetArrayItem(it_member(it_member(c, "verdict"), "metrics"), 0);
    assert_string_equal(it_str_of(m, "verdict"), "regressed");
    assert_true(cJSON_IsTrue(it_member(m, "suspect")));
    conf = it_member(m, "confirmation");
    assert_true(cJSON_IsFalse(it_member(conf, "confirmed")));
    it_assert_has(it_str_of(conf, "error"),
                  "interrupted before the reruns finished");
    cJSON_Delete(doc);
    tp_proc_free(&p);
}

/* ---- loading hygiene -------------------------------------------------- */

/* Copies the file src to dst with mode. */
static void copy_file(const char *src, const char *dst, mode_t mode)
{
    char buf[65536];
    int in = open(src, O_RDONLY);
    int out = open(dst, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    ssize_t n;

    if (in < 0 || out < 0)
        fail_msg("cannot copy %s to %s", src, dst);
    while ((n = read(in, buf, sizeof(buf))) > 0)
        if (write(out, buf, (size_t)n) != n)
            fail_msg("short write to %s", dst);
    close(in);
    close(out);
    assert_int_equal(chmod(dst, mode), 0);
}

/* A config running the "ok" benchmark of the plugin named name. */
static const char *ok_config(const char *file, const char *name)
{
    char yaml[512];

    snprintf(yaml, sizeof(yaml),
             "schema: 1\n"
             "name: itest_hygiene\n"
             "defaults: {warmup: 0, sample_time: 1ms, samples: 3, runs: 1}\n"
             "suites:\n"
             "  - plugin: %s\n"
             "    include: [ok]\n",
             name);
    return write_config(file, yaml);
}

/* Runs bhost with args and BHOST_PLUGIN_PATH=path, restoring the variable
 * after. */
static void run_with_path(tp_proc *p, const char *const *args, const char *path)
{
    char *old = getenv("BHOST_PLUGIN_PATH") ? strdup(getenv("BHOST_PLUGIN_PATH")) : NULL;

    setenv("BHOST_PLUGIN_PATH", path, 1);
    it_run(p, args);
    if (old)
        setenv("BHOST_PLUGIN_PATH", old, 1);
    else
        unsetenv("BHOST_PLUGIN_PATH");
    free(old);
}

/* Runs cfg with BHOST_PLUGIN_PATH=path (plus extra, NULL-terminated
 * arguments) and returns the status and message of case id. */
static void run_ok_case(const char *cfg, const char *path, const char *id,
                        const char *extra, const char *status,
                        const char *phrase)
{
    const char *out = it_path("hygiene.json");
    const char *args[] = {"run", cfg, "--out", out, "--quiet", extra, NULL};
    tp_proc p;
    cJSON *doc;

    unlink(out);
    run_with_path(&p, args, path);
    if (p.code != 0 && p.code != 1)
        fail_msg("exit %d\n%s", p.code, p.err);
    doc = it_load_json(out);
    it_expect_case(doc, id, status, phrase);
    cJSON_Delete(doc);
    tp_proc_free(&p);
}

/* Runs cfg with BHOST_PLUGIN_PATH=path and expects its plugin not to be
 * found: a config error (exit 3) whose message has phrase, nothing run. */
static void run_not_found(const char *cfg, const char *path, const char *phrase)
{
    const char *out = it_path("hygiene.json");
    const char *args[] = {"run", cfg, "--out", out, "--quiet", NULL};
    tp_proc p;

    unlink(out);
    run_with_path(&p, args, path);
    it_expect_code(&p, 3);
    it_assert_has(p.err, phrase);
    assert_int_equal(access(out, F_OK), -1);
    tp_proc_free(&p);
}

/* A plugin file writable by every user, or owned by another user, is
 * refused with a clear message unless --allow-unsafe-plugins or
 * BHOST_ALLOW_UNSAFE_PLUGINS=1. */
static void test_unsafe_plugin_files(void **state)
{
    char src[1024];
    const char *dir = it_path("unsafe");
    char file[1200];
    const char *cfg = ok_config("unsafe.yaml", "fx_unsafe");
    struct passwd *nobody = getpwnam("nobody");

    (void)state;
    snprintf(src, sizeof(src), "%s/fx_faults.so",
             it_env("BHOST_FIXTURE_DIR"));
    assert_int_equal(mkdir(dir, 0755), 0);
    snprintf(file, sizeof(file), "%s/fx_unsafe.so", dir);
    copy_file(src, file, 0755);
    run_ok_case(cfg, dir, "fx_faults/ok", NULL, "ok", NULL);

    assert_int_equal(chmod(file, 0757), 0); /* o+w */
    run_ok_case(cfg, dir, "fx_unsafe/*", NULL, "failed",
                "the file is writable by every user (fix its permissions "
                "or pass --allow-unsafe-plugins)");
    run_ok_case(cfg, dir, "fx_faults/ok", "--allow-unsafe-plugins", "ok",
                NULL);
    setenv("BHOST_ALLOW_UNSAFE_PLUGINS", "1", 1);
    run_ok_case(cfg, dir, "fx_faults/ok", NULL, "ok", NULL);
    unsetenv("BHOST_ALLOW_UNSAFE_PLUGINS");
    assert_int_equal(chmod(file, 0755), 0);

    if (geteuid() == 0 && nobody && nobody->pw_uid != 0) {
        assert_int_equal(chown(file, nobody->pw_uid, nobody->pw_gid), 0);
        run_ok_case(cfg, dir, "fx_unsafe/*", NULL, "failed",
                    "the file is owned by another user");
        run_ok_case(cfg, dir, "fx_faults/ok", "--allow-unsafe-plugins", "ok",
                    NULL);
        assert_int_equal(chown(file, 0, 0), 0);
    } else {
        print_message("skipped: chown to nobody needs root\n");
    }
}

/* A world-writable folder named in BHOST_PLUGIN_PATH is explicit and
 * used, but each file in it still has to pass the file check; an empty
 * element of the path does not mean the current directory. */
static void test_plugin_path_hygiene(void **state)
{
    char src[1024];
    const char *ww = it_path("ww");
    const char *cwd_dir = it_path("cwd");
    char file[1200];
    const char *cfg = ok_config("ww.yaml", "fx_wwdir");
    const char *cfg_cwd = ok_config("cwd.yaml", "fx_incwd");
    char old_cwd[1024];

    (void)state;
    snprintf(src, sizeof(src), "%s/fx_faults.so",
             it_env("BHOST_FIXTURE_DIR"));
    assert_int_equal(mkdir(ww, 0755), 0);
    assert_int_equal(chmod(ww, 0777), 0); /* no sticky bit */
    snprintf(file, sizeof(file), "%s/fx_wwdir.so", ww);
    copy_file(src, file, 0755);
    run_ok_case(cfg, ww, "fx_faults/ok", NULL, "ok", NULL);
    assert_int_equal(chmod(file, 0666), 0);
    run_ok_case(cfg, ww, "fx_wwdir/*", NULL, "failed",
                "writable by every user");

    /* "::" and a trailing ':' name nothing: the current directory, which
     * holds the plugin, is not searched */
    assert_int_equal(mkdir(cwd_dir, 0755), 0);
    snprintf(file, sizeof(file), "%s/fx_incwd.so", cwd_dir);
    copy_file(src, file, 0755);
    assert_non_null(getcwd(old_cwd, sizeof(old_cwd)));
    assert_int_equal(chdir(cwd_dir), 0);
    run_not_found(cfg_cwd, "::", "plugin 'fx_incwd' not found");
    run_not_found(cfg_cwd, ":", "plugin 'fx_incwd' not found");
    /* named explicitly, "." is used */
    run_ok_case(cfg_cwd, ".", "fx_faults/ok", NULL, "ok", NULL);
    assert_int_equal(chdir(old_cwd), 0);
}

/* The implicit locations (build tree, installed plugindir) are used only
 * when they are safe; an empty BHOST_PLUGIN_PATH element adds nothing. */
static void test_implicit_dirs(void **state)
{
    const char *safe = it_path("implicit_safe");
    const char *ww = it_path("implicit_ww");
    const char *sticky = it_path("implicit_sticky");
    struct passwd *nobody = getpwnam("nobody");
    bh_search_path sp;

    (void)state;
    assert_int_equal(mkdir(safe, 0755), 0);
    assert_int_equal(mkdir(ww, 0755), 0);
    assert_int_equal(chmod(ww, 0777), 0);
    assert_int_equal(mkdir(sticky, 0755), 0);
    assert_int_equal(chmod(sticky, 01777), 0);
    assert_true(bh_loader_dir_is_safe(safe));
    assert_false(bh_loader_dir_is_safe(ww));
    assert_true(bh_loader_dir_is_safe(sticky)); /* like /tmp */
    if (geteuid() == 0 && nobody && nobody->pw_uid != 0) {
        assert_int_equal(chown(safe, nobody->pw_uid, nobody->pw_gid), 0);
        assert_false(bh_loader_dir_is_safe(safe));
    }

    setenv("BHOST_PLUGIN_PATH", ":::", 1);
    bh_search_path_init(&sp, NULL, 0);
    for (size_t i = 0; i < sp.n; i++) {
        assert_true(sp.dirs[i][0] != '\0');
        assert_string_not_equal(sp.dirs[i], ".");
    }
    bh_search_path_free(&sp);
    setenv("BHOST_PLUGIN_PATH", it_env("BHOST_FIXTURE_DIR"), 1);
}

/* ---- result files from elsewhere -------------------------------------- */

/* bhost compare and bhost run --baseline on a malformed file: a clean
 * refusal (exit 4, one message naming the problem), never a crash. */
static void expect_rejected(const char *bad, const char *good,
                            const char *phrase)
{
    const char *cmp[] = {"compare", bad, good, NULL};
    const char *cfg = ok_config("baseline.yaml", "fx_faults");
    const char *base[] = {"run", cfg, "--quiet", "--results-dir",
                          it_path("results_bl"), "--baseline", bad, NULL};
    tp_proc p;

    it_run(&p, cmp);
    it_expect_code(&p, 4);
    it_assert_has(p.err, phrase);
    tp_proc_free(&p);
    it_run(&p, base);
    it_expect_code(&p, 4);
    it_assert_has(p.err, "baseline: ");
    it_assert_has(p.err, phrase);
    tp_proc_free(&p);
}

/* Truncated, deeply nested, huge, wrong-schema, duplicate-id and
 * non-JSON result files are refused cleanly. */
static void test_strict_result_files(void **state)
{
    const char *good = it_path("good.json");
    const char *args[] = {"run", ok_config("good.yaml", "fx_faults"),
                          "--out", good, "--quiet", NULL};
    const char *bad = it_path("bad.json");
    tp_proc p;
    char *text;
    size_t n;
    char *deep;
    int fd;

    (void)state;
    it_run(&p, args);
    it_expect_code(&p, 0);
    tp_proc_free(&p);
    text = tp_slurp(good);
    n = strlen(text);
    assert_true(n > 100);

    text[n / 2] = '\0'; /* truncated */
    assert_int_equal(tp_write(bad, text), 0);
    expect_rejected(bad, good, "not valid JSON");
    free(text);

    deep = malloc(200001);
    assert_non_null(deep);
    memset(deep, '[', 100000);
    memset(deep + 100000, ']', 100000);
    deep[200000] = '\0';
    assert_int_equal(tp_write(bad, deep), 0);
    expect_rejected(bad, good, "nested deeper than 64 levels");
    free(deep);

    fd = open(bad, O_WRONLY | O_CREAT | O_TRUNC, 0644); /* sparse 600 MiB */
    assert_true(fd >= 0);
    assert_int_equal(ftruncate(fd, (off_t)600 << 20), 0);
    close(fd);
    expect_rejected(bad, good, "the limit is");

    assert_int_equal(tp_write(bad, "{\"schema\": \"bhost.result/2\", "
                                   "\"run\": {}, \"cases\": []}"),
                     0);
    expect_rejected(bad, good, "expected \"schema\": \"bhost.result/1\"");

    assert_int_equal(tp_write(bad, "{\"schema\": \"bhost.result/1\", "
                                   "\"run\": {}, \"cases\": ["
                                   "{\"id\": \"a/x\", \"status\": \"ok\"},"
                                   "{\"id\": \"a/y\", \"status\": \"ok\"},"
                                   "{\"id\": \"a/x\", \"status\": \"ok\"}]}"),
                     0);
    expect_rejected(bad, good, "cases[2]: duplicate id 'a/x'");

    assert_int_equal(tp_write(bad, "{\"schema\": \"bhost.result/1\", "
                                   "\"run\": {}, \"cases\": {}}"),
                     0);
    expect_rejected(bad, good, "expected a \"cases\" array");

    assert_int_equal(tp_write(bad, "\x7f" "ELF\x02\x01\x01 binary"), 0);
    expect_rejected(bad, good, "not valid JSON");
    expect_no_strays();
}

/* ---- setup ------------------------------------------------------------ */

static int group_setup(void **state)
{
    (void)state;
    return it_setup("bh_faults", 1) ? 0 : -1;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fault_basics),
        cmocka_unit_test(test_fault_matrix),
        cmocka_unit_test(test_process_strays),
        cmocka_unit_test(test_killed_host),
        cmocka_unit_test(test_flaky_backend),
        cmocka_unit_test(test_sigterm_mid_run),
        cmocka_unit_test(test_sigterm_during_confirmation),
        cmocka_unit_test(test_unsafe_plugin_files),
        cmocka_unit_test(test_plugin_path_hygiene),
        cmocka_unit_test(test_implicit_dirs),
        cmocka_unit_test(test_strict_result_files),
    };

    return cmocka_run_group_tests(tests, group_setup, it_group_teardown);
}
