// SPDX-License-Identifier: MIT
/* Plugin code that turns on its host (signals to the supervisor) or dies
 * after its work is done (exit-time crashes), a plugin that declares one
 * benchmark id twice, and a results folder that cannot be written: each is
 * blamed where it belongs, and the rest of the run goes on
 * (tests/fixtures/fx_hostile_host.c, fx_dup_ids.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "itest_util.h"

#include <cjson/cJSON.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int group_setup(void **state)
{
    (void)state;
    return it_setup("bh_hostile", 1) ? 0 : -1;
}

/* The one run of hostile_host.yaml every test reads (run once). */
static cJSON *hostile_doc(tp_proc *p)
{
    const char *out = it_path("hostile.json");
    const char *args[] = {"run", it_config("hostile_host.yaml"), "--out", out, "--no-store",
                          NULL};

    it_run(p, args);
    return it_load_json(out);
}

static cJSON *doc;
static tp_proc proc;

/* Signals a worker (or a process of its group) sends to bhost fail that
 * case with the sender named; the run is not interrupted: it completes,
 * every later case runs, and the exit code is 1 (a failed case), not 6. */
static void test_signals_from_plugins(void **state)
{
    (void)state;
    doc = hostile_doc(&proc);
    it_expect_code(&proc, 1);
    assert_true(cJSON_IsTrue(it_member(it_member(doc, "run"), "complete")));
    it_expect_case(doc, "fx_hostile_host/term_parent", "failed",
                   "the plugin sent SIGTERM to bhost (from pid ");
    it_expect_case(doc, "fx_hostile_host/int_group", "failed",
                   "the plugin sent SIGINT to bhost (from pid ");
    it_assert_has(it_str_of(it_case_of(doc, "fx_hostile_host/int_group"), "message"),
                  "in the worker's process group): bhost ignored it and failed this run");
    /* SIGSTOP cannot be refused: the watchdog resumes bhost and the run
     * that was going is failed */
    it_expect_case(doc, "fx_hostile_host/stop_parent", "failed",
                   "bhost was stopped (SIGSTOP, by the plugin or another process) while this "
                   "run was going; its watchdog resumed it after about ");
    it_expect_case(doc, "fx_hostile_host/ok", "ok", NULL);
    it_expect_case(doc, "fx_faults/ok", "ok", NULL);
    assert_null(strstr(proc.err, "interrupted"));
}

/* A crash or exit in exit-time code after the final report keeps the
 * report (ok, with its samples) and records a warning on each run; a
 * describe worker that dies so keeps its description (the plugin's cases
 * run) with a warning in run.plugins. */
static void test_exit_time_faults(void **state)
{
    const cJSON *c, *run, *pl;
    int warned = 0;

    (void)state;
    c = it_expect_case(doc, "fx_hostile_host/atexit_crash", "ok", NULL);
    assert_true(cJSON_IsObject(it_member(c, "summary")));
    cJSON_ArrayForEach(run, it_member(c, "runs")) {
        assert_true(cJSON_GetArraySize(it_member(run, "samples")) == 3);
        it_assert_has(it_str_of(run, "warning"),
                      "worker killed by SIGSEGV (Segmentation fault) after its final report");
    }
    c = it_expect_case(doc, "fx_hostile_host/atexit_exit", "ok", NULL);
    cJSON_ArrayForEach(run, it_member(c, "runs"))
        it_assert_has(it_str_of(run, "warning"),
                      "worker exited with status 7 after its final report");
    it_expect_case(doc, "fx_exit_crash/ok", "ok", NULL);
    cJSON_ArrayForEach(pl, it_member(it_member(doc, "run"), "plugins")) {
        const cJSON *w = cJSON_GetObjectItemCaseSensitive(pl, "warning");

        if (cJSON_IsString(w)) {
            it_assert_has(w->valuestring, "fx_exit_crash.so: describe: worker killed by SIGSEGV");
            assert_string_equal(it_str_of(pl, "status"), "ok");
            warned++;
        }
    }
    assert_int_equal(warned, 1);
    /* the console says so, once per case */
    it_assert_has(proc.out, "  fx_hostile_host/atexit_crash: warning: worker killed by SIGSEGV");
    it_assert_has(proc.out, "  plugin fx_exit_crash: warning: ");
}

/* A plugin declaring one benchmark id twice fails its own cases with the
 * id named; every other suite of the config runs. */
static void test_duplicate_bench_id(void **state)
{
    const cJSON *c;

    (void)state;
    it_expect_case(doc, "fx_dup_ids/*", "failed",
                   "the plugin declares the benchmark id 'ok' more than once");
    cJSON_ArrayForEach(c, it_member(doc, "cases"))
        assert_null(strstr(it_str_of(c, "id"), "fx_dup_ids/other"));
    it_expect_case(doc, "fx_faults/ok", "ok", NULL);
    cJSON_Delete(doc);
    tp_proc_free(&proc);
}

/* A results folder that cannot be written is found before the first case
 * runs: exit 4 at once, one line naming the folder, no case started (the
 * config's only case would sleep past the test's patience). */
static void test_unwritable_results(void **state)
{
    const char *blocker = it_path("blocker");
    const char *cfg = it_path("slow.yaml");
    const char *dir = it_path("blocker/results");
    const char *out = it_path("blocker/r.json");
    const char *by_dir[] = {"run", cfg, "--results-dir", dir, "--no-store", NULL};
    const char *by_out[] = {"run", cfg, "--out", out, "--no-store", NULL};
    const char *const *cmds[] = {by_dir, by_out};

    (void)state;
    it_write(blocker, "a file where a folder is expected\n");
    it_write(cfg, "schema: 1\nname: slow\n"
                  "defaults: {warmup: 0, sample_time: 1ms, samples: 1, runs: 1}\n"
                  "suites:\n  - plugin: fx_faults2\n    include: [sleep]\n");
    for (int i = 0; i < 2; i++) {
        tp_proc p;

        it_run(&p, cmds[i]);
        it_expect_code(&p, 4);
        it_assert_has(p.err, "cannot write results into ");
        it_assert_has(p.err, "blocker");
        assert_int_equal(it_count_lines(p.err), 1);
        assert_null(strstr(p.out, "fx_faults2/sleep"));
        tp_proc_free(&p);
    }
}

/* The state letter of process pid from /proc ('?' when unknown). */
static char proc_state(pid_t pid)
{
    char path[64], buf[512];
    FILE *f;
    char *paren;

    snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
    f = fopen(path, "r");
    if (!f)
        return '?';
    buf[fread(buf, 1, sizeof(buf) - 1, f)] = '\0';
    fclose(f);
    paren = strrchr(buf, ')');
    return paren && paren[1] == ' ' ? paren[2] : '?';
}

/* Job control still works: a SIGTSTP from outside the workers (Ctrl-Z)
 * stops bhost and the watchdog leaves it stopped; SIGCONT resumes it and
 * no run is blamed for the stop. bhost runs in a process group of its own
 * in this test's session, as a shell's job does (the kernel drops SIGTSTP
 * to an orphaned group). */
static void test_job_control_stop(void **state)
{
    const char *cfg = it_path("tstp.yaml");
    const char *out = it_path("tstp.json");
    const struct timespec tick = {0, 100000000L};
    cJSON *d;
    char st = '?';
    pid_t pid;
    int status = 0;

    (void)state;
    it_write(cfg, "schema: 1\nname: tstp\n"
                  "defaults: {warmup: 0, sample_time: 1ms, samples: 1, runs: 1, timeout: 2s}\n"
                  "suites:\n  - plugin: fx_faults2\n    include: [sleep]\n");
    pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        int null = open("/dev/null", O_WRONLY);

        setpgid(0, 0);
        dup2(null, 1);
        dup2(null, 2);
        execl(it_env("BHOST_EXE"), "bhost", "run", cfg, "--out", out, "--no-store", "--quiet",
              (char *)NULL);
        _exit(127);
    }
    for (int i = 0; i < 50 && !tp_worker_child(pid); i++)
        nanosleep(&tick, NULL);
    kill(pid, SIGTSTP);
    for (int i = 0; i < 5; i++) /* several watchdog periods */
        nanosleep(&tick, NULL);
    st = proc_state(pid);
    kill(pid, SIGCONT);
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_int_equal(st, 'T');
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 1);
    d = it_load_json(out);
    it_expect_case(d, "fx_faults2/sleep", "timeout", "timeout");
    cJSON_Delete(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_signals_from_plugins),
        cmocka_unit_test(test_exit_time_faults),
        cmocka_unit_test(test_duplicate_bench_id),
        cmocka_unit_test(test_unwritable_results),
        cmocka_unit_test(test_job_control_stop),
    };

    return cmocka_run_group_tests(tests, group_setup, it_group_teardown);
}
