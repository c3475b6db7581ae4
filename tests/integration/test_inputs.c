// SPDX-License-Identifier: MIT
/* Integration tests of hostile input files (issue 20, rows 6 and 7):
 * files a user names on the command line or in a config given as
 * something that is not a regular file (a FIFO, a directory), which every
 * reader refuses at once with "not a regular file" and the exit code of
 * its input kind; and a config whose parameter list has 100000 values,
 * which validate plans in linear time. Each bhost run has a guard: one
 * that has not ended after GUARD_MS is killed and fails the test, so a
 * reader that blocks on a FIFO again cannot hang the suite. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "itest_util.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>

#define GUARD_MS 20000

/* True when p has ended (it stays unreaped for tp_finish). */
static int has_ended(const tp_proc *p)
{
    siginfo_t si;

    memset(&si, 0, sizeof(si));
    return waitid(P_PID, (id_t)p->pid, &si, WEXITED | WNOHANG | WNOWAIT) == 0 &&
           si.si_pid == p->pid;
}

/* it_run() with the guard: a bhost still running after GUARD_MS is killed
 * and the test fails, naming the command. */
static void run_guarded(tp_proc *p, const char *const *args)
{
    it_start(p, args);
    for (int ms = 0; !has_ended(p); ms += 20) {
        if (ms >= GUARD_MS) {
            kill(p->pid, SIGKILL);
            tp_finish(p);
            fail_msg("bhost %s %s blocked for %d s on a file that is not regular", args[0],
                     args[1] ? args[1] : "", GUARD_MS / 1000);
        }
        tp_sleep_ms(20);
    }
    tp_finish(p);
}

/* Runs args under the guard; it must exit with code and say, in one line
 * on stderr, that `what` is not a regular file. */
static void expect_refused(const char *const *args, int code, const char *what)
{
    tp_proc p;
    char want[1200];

    run_guarded(&p, args);
    it_expect_code(&p, code);
    if (snprintf(want, sizeof(want), "%s: not a regular file", what) >=
        (int)sizeof(want))
        fail_msg("path too long: %s", what);
    it_assert_has(p.err, want);
    assert_int_equal(it_count_lines(p.err), 1);
    tp_proc_free(&p);
}

/* The temporary folder with a FIFO, a folder and a good result in it. */
static int setup(void **state)
{
    tp_proc p;

    (void)state;
    if (!it_setup("bh_itest_inputs", 0))
        return -1;
    const char *args[] = {"run",   it_path("tiny.yaml"), "--out", it_path("good.json"),
                          "--no-store", "--quiet", NULL};

    if (mkfifo(it_path("fifo"), 0600) != 0 || mkdir(it_path("dir"), 0700) != 0)
        return -1;
    it_write(it_path("tiny.yaml"), "schema: 1\n"
                                   "name: tiny\n"
                                   "defaults: {warmup: 0, sample_time: 1ms, samples: 3, runs: 1}\n"
                                   "suites:\n"
                                   "  - plugin: selftest\n"
                                   "    include: [noop]\n");
    it_run(&p, args);
    it_expect_code(&p, 0);
    tp_proc_free(&p);
    return 0;
}

/* The config, and a file it extends, as a FIFO or a directory: exit 3,
 * file:line:col. */
static void test_config(void **state)
{
    const char *fifo[] = {"validate", it_path("fifo"), NULL};
    const char *dir[] = {"validate", it_path("dir"), NULL};
    const char *run[] = {"run", it_path("fifo"), "--no-store", NULL};
    const char *ext[] = {"validate", it_path("ext.yaml"), NULL};
    char want[1200];

    (void)state;
    snprintf(want, sizeof(want), "%s:1:1: cannot read config", it_path("fifo"));
    expect_refused(fifo, 3, want);
    expect_refused(run, 3, want);
    snprintf(want, sizeof(want), "%s:1:1: cannot read config", it_path("dir"));
    expect_refused(dir, 3, want);
    it_write(it_path("ext.yaml"), "schema: 1\nextends: fifo\nsuites: []\n");
    snprintf(want, sizeof(want), "ext.yaml:2:10: extends: cannot read '%s'", it_path("fifo"));
    expect_refused(ext, 3, want);
}

/* Result documents read for a comparison, a report or a merge: exit 4. */
static void test_result_inputs(void **state)
{
    const char *fifo = it_path("fifo");
    const char *good = it_path("good.json");
    const char *cmp_base[] = {"compare", fifo, good, NULL};
    const char *cmp_cand[] = {"compare", good, fifo, NULL};
    const char *cmp_cfg[] = {"compare", good, good, "--config", fifo, NULL};
    const char *report[] = {"report", fifo, NULL};
    const char *report_base[] = {"report", good, "--baseline", fifo, NULL};
    const char *merge[] = {"merge", it_path("merged.json"), fifo, NULL};
    const char *run_base[] = {"run",        it_path("tiny.yaml"), "--out", it_path("r.json"),
                              "--baseline", fifo,                 "--no-store", "--quiet",
                              NULL};

    char want[1200];

    (void)state;
    expect_refused(cmp_base, 4, fifo);
    expect_refused(cmp_cand, 4, fifo);
    snprintf(want, sizeof(want), "%s:1:1: cannot read config", fifo);
    expect_refused(cmp_cfg, 3, want);
    expect_refused(report, 4, fifo);
    expect_refused(report_base, 4, fifo);
    expect_refused(merge, 4, fifo);
    expect_refused(run_base, 4, fifo);
}

/* The results store and the files ingested into it: exit 4. */
static void test_store(void **state)
{
    const char *fifo = it_path("fifo");
    const char *ingest[] = {"store", "ingest", fifo, "--store", it_path("s.db"), NULL};
    const char *info[] = {"store", "info", "--store", fifo, NULL};
    const char *history[] = {"history", "--store", fifo, NULL};

    (void)state;
    expect_refused(ingest, 4, fifo);
    expect_refused(info, 4, fifo);
    expect_refused(history, 4, fifo);
}

/* A plugin file that is a FIFO: the ELF check fails at once (exit 7). */
static void test_plugin_file(void **state)
{
    tp_proc p;
    const char *args[] = {"check-plugin", it_path("fifo"), NULL};
    char want[1200];

    (void)state;
    run_guarded(&p, args);
    it_expect_code(&p, 7);
    snprintf(want, sizeof(want), "%s: not a regular file", it_path("fifo"));
    it_assert_has(p.out, want);
    tp_proc_free(&p);
}

/* A results folder holding a FIFO named like a result: the walk passes it
 * by and reads the real results. */
static void test_history_folder(void **state)
{
    tp_proc p;
    const char *args[] = {"history", it_path("hist"), NULL};

    (void)state;
    if (mkdir(it_path("hist"), 0700) != 0 || mkfifo(it_path("hist/a.json"), 0600) != 0)
        fail_msg("cannot create %s", it_path("hist/a.json"));
    run_guarded(&p, args);
    assert_true(p.code == 0 || p.code == 4);
    tp_proc_free(&p);
}

/* A 100000-value list validates to 100000 cases (the plan's id check is
 * one hash pass); a case produced by two suites is still an error. */
static void test_large_list(void **state)
{
    tp_proc p;
    const char *args[] = {"validate", it_path("large.yaml"), NULL};
    const char *twice[] = {"validate", it_path("twice.yaml"), NULL};
    FILE *f = fopen(it_path("large.yaml"), "w");
    char want[1200];

    (void)state;
    assert_non_null(f);
    fputs("schema: 1\nsuites:\n  - plugin: selftest\n    include: [spin]\n"
          "    params:\n      work: [1",
          f);
    for (int i = 2; i <= 100000; i++)
        fprintf(f, ", %d", i);
    fputs("]\n", f);
    assert_int_equal(fclose(f), 0);
    run_guarded(&p, args);
    it_expect_code(&p, 0);
    snprintf(want, sizeof(want), "%s: ok, 100000 cases (100000 runnable)", it_path("large.yaml"));
    it_assert_has(p.out, want);
    tp_proc_free(&p);
    it_write(it_path("twice.yaml"), "schema: 1\n"
                                    "suites:\n"
                                    "  - {plugin: selftest, include: [spin], params: {work: [1, 2]}}\n"
                                    "  - {plugin: selftest, include: [spin], params: {work: [3, 2]}}\n");
    run_guarded(&p, twice);
    it_expect_code(&p, 3);
    it_assert_has(p.err, "twice.yaml:4:5: case 'selftest/spin[work=2]' is produced twice (by "
                         "this suite and an earlier one)");
    assert_int_equal(it_count_lines(p.err), 1);
    tp_proc_free(&p);
}

/* Two suites that both leave one benchmark unrunnable report it once. */
static void test_unrunnable_once(void **state)
{
    tp_proc p;
    const char *args[] = {"validate", it_path("skip.yaml"), NULL};

    (void)state;
    it_write(it_path("skip.yaml"), "schema: 1\n"
                                   "suites:\n"
                                   "  - {plugin: selftest, include: [device_copy]}\n"
                                   "  - {plugin: selftest, include: [device_copy, noop]}\n");
    run_guarded(&p, args);
    it_expect_code(&p, 0);
    it_assert_has(p.out, "selftest/device_copy: skipped: needs a device backend");
    it_assert_has(p.out, "ok, 2 cases (1 runnable)");
    assert_int_equal(it_count_lines(p.out), 2);
    tp_proc_free(&p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_config),        cmocka_unit_test(test_result_inputs),
        cmocka_unit_test(test_store),         cmocka_unit_test(test_plugin_file),
        cmocka_unit_test(test_history_folder), cmocka_unit_test(test_large_list),
        cmocka_unit_test(test_unrunnable_once),
    };

    return cmocka_run_group_tests(tests, setup, it_group_teardown);
}
