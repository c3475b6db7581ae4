// SPDX-License-Identifier: MIT
/* Unit tests for host/supervisor: real workers (the bhost binary re-run as
 * "bhost __worker") on the fault fixtures, the outcome classifier on
 * synthetic worker ends, case seeds, plan filtering and building, and the
 * executor's seeded interleaving.
 *
 * The executor re-executes its own binary as the worker, so this test
 * binary doubles as a fake worker: started as "test_supervisor __worker" it
 * reads the job, appends one line about it to $BH_FAKE_WORKER_LOG and
 * answers with samples and a result, without any plugin. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "bh_fs.h"
#include "bh_mem.h"
#include "catalog.h"
#include "config.h"
#include "executor.h"
#include "ipc.h"
#include "outcome.h"
#include "plan.h"
#include "worker_spawn.h"

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- the fake worker -------------------------------------------------- */

static int fake_worker(void)
{
    char *buf = NULL;
    size_t len = 0, cap = 0;
    ssize_t r;
    cJSON *job;
    const char *log = getenv("BH_FAKE_WORKER_LOG");
    const char *bench;
    int run_index;
    FILE *f;
    char line[256];

    for (;;) {
        bh_grow((void **)&buf, &cap, len + 4096, 1);
        r = read(BH_IPC_JOB_FD, buf + len, cap - len - 1);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        len += (size_t)r;
    }
    job = cJSON_ParseWithLength(buf ? buf : "", len);
    free(buf);
    if (!job)
        return 2;
    bench = bh_json_str(job, "bench", "?");
    run_index = (int)bh_json_num(job, "run_index", -1);
    if (log && (f = fopen(log, "a"))) {
        fprintf(f, "%s %d %s\n", bench, run_index,
                bh_json_str(job, "seed", "?"));
        fclose(f);
    }
    for (int i = 0; i < 3; i++) {
        int n = snprintf(line, sizeof(line),
                         "{\"t\":\"sample\",\"iters\":10,\"ns\":%d}\n",
                         2000000 + i * 1000);
        if (write(BH_IPC_RESULT_FD, line, (size_t)n) != n)
            return 4;
    }
    if (strcmp(bench, "crashy") == 0 && run_index == 1)
        abort();
    if (strcmp(bench, "mixed") == 0 && run_index == 1)
        snprintf(line, sizeof(line), "{\"t\":\"result\",\"status\":"
                 "\"invalid\",\"message\":\"verify: wrong\"}\n");
    else
        snprintf(line, sizeof(line),
                 "{\"t\":\"result\",\"status\":\"ok\"}\n");
    if (write(BH_IPC_RESULT_FD, line, strlen(line)) != (ssize_t)strlen(line))
        return 4;
    cJSON_Delete(job);
    return 0;
}

/* ---- helpers ---------------------------------------------------------- */

static const char *build_root(void)
{
    const char *r = getenv("BHOST_BUILD_ROOT");

    if (!r || !*r)
        fail_msg("BHOST_BUILD_ROOT is not set (run through meson test)");
    return r;
}

static char *bhost_exe(void)
{
    return bh_xasprintf("%s/host/cli/bhost", build_root());
}

static char *fixture(const char *file)
{
    return bh_xasprintf("%s/tests/fixtures/%s", build_root(), file);
}

static char *make_tmpdir(void)
{
    const char *base = getenv("TMPDIR");
    char *dir = bh_xasprintf("%s/bh_super_XXXXXX",
                             base && *base ? base : "/tmp");

    assert_non_null(mkdtemp(dir));
    return dir;
}

static void rm_rf(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *de;

    while (d && (de = readdir(d))) {
        char *p;
        struct stat st;

        if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
            continue;
        p = bh_xasprintf("%s/%s", dir, de->d_name);
        if (lstat(p, &st) == 0 && S_ISDIR(st.st_mode))
            rm_rf(p);
        else
            unlink(p);
        free(p);
    }
    if (d)
        closedir(d);
    rmdir(dir);
}

/* A run job for benchmark bench of fx_faults.so (free() it). */
static char *run_job(const char *bench)
{
    char *plugin = fixture("fx_faults.so");
    char *job = bh_xasprintf(
        "{\"mode\":\"run\",\"plugin\":\"%s\",\"bench\":\"%s\","
        "\"params\":{\"n\":{\"type\":\"i64\",\"value\":\"16\"},"
        "\"scale\":{\"type\":\"f64\",\"value\":1.5},"
        "\"mode\":{\"type\":\"str\",\"value\":\"fast\"},"
        "\"flag\":{\"type\":\"bool\",\"value\":false}},"
        "\"warmup_ns\":0,\"sample_time_ns\":1000000,\"samples\":3,"
        "\"budget_ns\":0,\"seed\":\"0x1234\",\"pin\":\"none\","
        "\"memory_limit\":0,\"run_index\":0}",
        plugin, bench);

    free(plugin);
    return job;
}

/* Spawns the real bhost as a worker for job and classifies the end. */
static void spawn(const char *job, uint64_t timeout_ns, size_t log_limit,
                  const char *final_type, bh_worker_outcome *out,
                  bh_outcome_view *v)
{
    char *exe = bhost_exe();
    bh_spawn_opts o = {exe, job, timeout_ns, log_limit, 0};
    bh_error e = {""};

    if (bh_spawn_worker(&o, out, &e) != 0)
        fail_msg("spawn failed: %s", e.msg);
    bh_outcome_classify(out, final_type, v);
    free(exe);
}

static void spawn_run(const char *bench, uint64_t timeout_ns,
                      size_t log_limit, bh_worker_outcome *out,
                      bh_outcome_view *v)
{
    char *job = run_job(bench);

    spawn(job, timeout_ns, log_limit, "result", out, v);
    free(job);
}

static void assert_contains(const char *s, const char *needle)
{
    if (!s || !strstr(s, needle))
        fail_msg("'%s' does not contain '%s'", s ? s : "(null)", needle);
}

static int count_type(const cJSON *msgs, const char *type)
{
    const cJSON *m;
    int n = 0;

    cJSON_ArrayForEach(m, msgs) n += strcmp(bh_ipc_type(m), type) == 0;
    return n;
}

/* ---- real workers ----------------------------------------------------- */

static void test_spawn_describe_selftest(void **state)
{
    char *plugin = bh_xasprintf("%s/plugins/selftest/selftest.so",
                                build_root());
    char *job = bh_xasprintf("{\"mode\":\"describe\",\"plugin\":\"%s\"}",
                             plugin);
    bh_worker_outcome out;
    bh_outcome_view v;
    const cJSON *b;
    int seen = 0;

    (void)state;
    spawn(job, 30000000000ull, 65536, "describe", &out, &v);
    assert_true(out.exited);
    assert_int_equal(out.exit_code, 0);
    assert_false(out.timed_out);
    assert_false(out.signaled);
    assert_int_equal(v.status, BH_ST_OK);
    assert_null(v.message);
    assert_non_null(v.final);
    assert_string_equal(bh_json_str(v.final, "name", ""), "selftest");
    cJSON_ArrayForEach(b, cJSON_GetObjectItemCaseSensitive(v.final,
                                                           "benchmarks")) {
        const char *id = bh_json_str(b, "id", "");
        if (strcmp(id, "noop") == 0 || strcmp(id, "spin") == 0 ||
            strcmp(id, "memcpy") == 0 || strcmp(id, "device_copy") == 0)
            seen++;
    }
    assert_int_equal(seen, 4);
    bh_outcome_view_free(&v);
    bh_worker_outcome_free(&out);
    free(job);
    free(plugin);
}

static void test_spawn_ok(void **state)
{
    bh_worker_outcome out;
    bh_outcome_view v;

    (void)state;
    spawn_run("ok", 30000000000ull, 65536, &out, &v);
    assert_true(out.exited);
    assert_int_equal(out.exit_code, 0);
    assert_int_equal(v.status, BH_ST_OK);
    assert_non_null(v.final);
    assert_int_equal(count_type(v.messages, "sample"), 3);
    assert_int_equal(count_type(v.messages, "result"), 1);
    assert_true(bh_json_num(v.final, "items_per_iter", 0) == 16);
    bh_outcome_view_free(&v);
    bh_worker_outcome_free(&out);
}

static void test_spawn_crash(void **state)
{
    bh_worker_outcome out;
    bh_outcome_view v;

    (void)state;
    spawn_run("crash", 30000000000ull, 65536, &out, &v);
    assert_true(out.signaled);
    assert_int_equal(out.signal, SIGSEGV);
    assert_false(out.timed_out);
    assert_int_equal(v.status, BH_ST_CRASHED);
    assert_contains(v.message, "SIGSEGV");
    bh_outcome_view_free(&v);
    bh_worker_outcome_free(&out);

    spawn_run("abort", 30000000000ull, 65536, &out, &v);
    assert_int_equal(v.status, BH_ST_CRASHED);
    assert_contains(v.message, "SIGABRT");
    bh_outcome_view_free(&v);
    bh_worker_outcome_free(&out);
}

static void test_spawn_hang_timeout(void **state)
{
    bh_worker_outcome out;
    bh_outcome_view v;

    (void)state;
    spawn_run("hang", 1000000000ull, 65536, &out, &v);
    assert_true(out.timed_out);
    assert_false(out.signaled); /* killed by us, not a crash */
    assert_int_equal(v.status, BH_ST_TIMEOUT);
    assert_contains(v.message, "timeout");
    bh_outcome_view_free(&v);
    bh_worker_outcome_free(&out);
}

static void test_spawn_exit(void **state)
{
    bh_worker_outcome out;
    bh_outcome_view v;

    (void)state;
    spawn_run("exit", 30000000000ull, 65536, &out, &v);
    assert_true(out.exited);
    assert_int_equal(out.exit_code, 3);
    assert_int_equal(v.status, BH_ST_FAILED);
    assert_contains(v.message, "before reporting");
    assert_contains(v.message, "status 3");
    bh_outcome_view_free(&v);
    bh_worker_outcome_free(&out);
}

static void test_spawn_spew(void **state)
{
    bh_worker_outcome out;
    bh_outcome_view v;

    (void)state;
    spawn_run("spew", 1000000000ull, 4096, &out, &v);
    assert_true(out.log_truncated);
    assert_true(out.log_len <= 4096);
    assert_true(out.log_len > 0);
    assert_int_equal(strlen(out.log), out.log_len);
    assert_contains(out.log, "fx_faults spew");
    assert_true(out.timed_out); /* it never returns */
    assert_int_equal(v.status, BH_ST_TIMEOUT);
    bh_outcome_view_free(&v);
    bh_worker_outcome_free(&out);
}

static void test_spawn_badverify(void **state)
{
    bh_worker_outcome out;
    bh_outcome_view v;

    (void)state;
    spawn_run("badverify", 30000000000ull, 65536, &out, &v);
    assert_int_equal(out.exit_code, 0);
    assert_int_equal(v.status, BH_ST_INVALID);
    assert_contains(v.message, "checksum 1234 != expected 5678");
    bh_outcome_view_free(&v);
    bh_worker_outcome_free(&out);
}

static void test_spawn_statuses_from_plugin(void **state)
{
    static const struct {
        const char *bench;
        bh_status st;
        const char *phrase;
    } cases[] = {
        {"fail_setup", BH_ST_FAILED, "setup refused"},
        {"skip", BH_ST_SKIPPED, "fixture skip always skips"},
        {"unsupported", BH_ST_UNSUPPORTED, "has no implementation"},
        {"no_such_bench", BH_ST_FAILED, "benchmark not found"},
    };

    (void)state;
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        bh_worker_outcome out;
        bh_outcome_view v;

        spawn_run(cases[i].bench, 30000000000ull, 65536, &out, &v);
        if (v.status != cases[i].st)
            fail_msg("%s: status %s, expected %s (%s)", cases[i].bench,
                     bh_status_name(v.status), bh_status_name(cases[i].st),
                     v.message ? v.message : "");
        assert_contains(v.message, cases[i].phrase);
        bh_outcome_view_free(&v);
        bh_worker_outcome_free(&out);
    }
}

static void test_spawn_load_failure_and_bad_job(void **state)
{
    char *plugin = fixture("fx_bad_major.so");
    char *job = bh_xasprintf("{\"mode\":\"describe\",\"plugin\":\"%s\"}",
                             plugin);
    bh_worker_outcome out;
    bh_outcome_view v;

    (void)state;
    spawn(job, 30000000000ull, 65536, "describe", &out, &v);
    assert_int_equal(out.exit_code, 3);
    assert_int_equal(v.status, BH_ST_FAILED);
    assert_contains(v.message, "ABI major 2");
    bh_outcome_view_free(&v);
    bh_worker_outcome_free(&out);

    spawn("this is not json", 30000000000ull, 65536, "describe", &out, &v);
    assert_int_equal(out.exit_code, 2);
    assert_int_equal(v.status, BH_ST_FAILED);
    assert_contains(v.message, "job is not a JSON object");
    bh_outcome_view_free(&v);
    bh_worker_outcome_free(&out);

    spawn("{\"mode\":\"dance\"}", 30000000000ull, 65536, "result", &out, &v);
    assert_int_equal(v.status, BH_ST_FAILED);
    assert_contains(v.message, "unknown job mode");
    bh_outcome_view_free(&v);
    bh_worker_outcome_free(&out);
    free(job);
    free(plugin);
}

static void test_spawn_missing_exe(void **state)
{
    bh_spawn_opts o = {"/nonexistent/bhost", "{}", 1000000000ull, 1024, 0};
    bh_worker_outcome out;
    bh_error e = {""};

    (void)state;
    if (bh_spawn_worker(&o, &out, &e) == 0) {
        /* where posix_spawn cannot report exec errors (under valgrind) the
         * child exits 127 instead; never a success either way */
        int code = out.exited ? out.exit_code : -1;

        bh_worker_outcome_free(&out);
        assert_int_equal(code, 127);
        return;
    }
    assert_contains(e.msg, "cannot start worker");
    assert_contains(e.msg, "/nonexistent/bhost");
}

/* ---- the classifier on synthetic outcomes ----------------------------- */

static void classify(bh_worker_outcome *o, const char *result,
                     const char *final_type, bh_outcome_view *v)
{
    o->result = (char *)result;
    o->result_len = strlen(result);
    bh_outcome_classify(o, final_type, v);
}

static void test_classify_synthetic(void **state)
{
    static const char ok_result[] =
        "{\"t\":\"hello\",\"pid\":1}\n"
        "{\"t\":\"sample\",\"iters\":1,\"ns\":5}\n"
        "{\"t\":\"result\",\"status\":\"ok\"}\n";
    bh_worker_outcome o;
    bh_outcome_view v;

    (void)state;
    /* a clean exit with a result */
    memset(&o, 0, sizeof(o));
    o.exited = 1;
    classify(&o, ok_result, "result", &v);
    assert_int_equal(v.status, BH_ST_OK);
    assert_null(v.message);
    assert_string_equal(bh_json_str(v.final, "t", ""), "result");
    assert_int_equal(cJSON_GetArraySize(v.messages), 3);
    bh_outcome_view_free(&v);

    /* a timeout wins over anything the worker said */
    memset(&o, 0, sizeof(o));
    o.timed_out = 1;
    o.wall_ns = 2000000000ull;
    classify(&o, ok_result, "result", &v);
    assert_int_equal(v.status, BH_ST_TIMEOUT);
    assert_contains(v.message, "2.0 s timeout");
    bh_outcome_view_free(&v);

    /* a signal is a crash with the signal's name */
    memset(&o, 0, sizeof(o));
    o.signaled = 1;
    o.signal = SIGSEGV;
    classify(&o, "{\"t\":\"hello\"}\n{\"t\":\"sam", "result", &v);
    assert_int_equal(v.status, BH_ST_CRASHED);
    assert_contains(v.message, "killed by SIGSEGV");
    bh_outcome_view_free(&v);
    memset(&o, 0, sizeof(o));
    o.signaled = 1;
    o.signal = SIGBUS;
    classify(&o, "", "result", &v);
    assert_contains(v.message, "SIGBUS");
    bh_outcome_view_free(&v);

    /* a garbled stream after a clean exit is a protocol error naming the
     * line */
    memset(&o, 0, sizeof(o));
    o.exited = 1;
    classify(&o, "{\"t\":\"hello\"}\nnot json\n{\"t\":\"result\","
                 "\"status\":\"ok\"}\n", "result", &v);
    assert_int_equal(v.status, BH_ST_FAILED);
    assert_contains(v.message, "protocol error");
    assert_contains(v.message, "line 2");
    bh_outcome_view_free(&v);
    classify(&o, "{\"t\":\"result\",\"status\":\"ok\"}\n{\"t\":\"x\"",
             "result", &v);
    assert_int_equal(v.status, BH_ST_FAILED);
    assert_contains(v.message, "truncated");
    bh_outcome_view_free(&v);

    /* too much data */
    memset(&o, 0, sizeof(o));
    o.exited = 1;
    o.result_overflow = 1;
    classify(&o, ok_result, "result", &v);
    assert_int_equal(v.status, BH_ST_FAILED);
    assert_contains(v.message, "too much data");
    bh_outcome_view_free(&v);

    /* an error message without a final message */
    memset(&o, 0, sizeof(o));
    o.exited = 1;
    o.exit_code = 3;
    classify(&o, "{\"t\":\"error\",\"kind\":\"load\",\"message\":"
                 "\"x.so: no entry symbol\"}\n", "describe", &v);
    assert_int_equal(v.status, BH_ST_FAILED);
    assert_string_equal(v.message, "x.so: no entry symbol");
    bh_outcome_view_free(&v);

    /* an exit without reporting */
    classify(&o, "{\"t\":\"hello\"}\n", "result", &v);
    assert_int_equal(v.status, BH_ST_FAILED);
    assert_contains(v.message, "status 3 before reporting");
    bh_outcome_view_free(&v);

    /* a non-zero exit after a complete report: the report counts, the
     * exit is a warning */
    o.exit_code = 5;
    classify(&o, ok_result, "result", &v);
    assert_int_equal(v.status, BH_ST_OK);
    assert_null(v.message);
    assert_contains(v.warning, "exited with status 5 after its final report");
    bh_outcome_view_free(&v);

    /* a signal after a complete report: the same */
    o.exit_code = 0;
    o.exited = 0;
    o.signaled = 1;
    o.signal = SIGSEGV;
    classify(&o, ok_result, "result", &v);
    assert_int_equal(v.status, BH_ST_OK);
    assert_contains(v.warning, "killed by SIGSEGV (Segmentation fault) after its final report");
    bh_outcome_view_free(&v);
    /* ... and before it: crashed */
    classify(&o, "{\"t\":\"hello\"}\n", "result", &v);
    assert_int_equal(v.status, BH_ST_CRASHED);
    assert_null(v.warning);
    bh_outcome_view_free(&v);
    o.signaled = 0;
    o.exited = 1;

    /* the status and message carried by the result */
    o.exit_code = 0;
    classify(&o, "{\"t\":\"result\",\"status\":\"invalid\",\"message\":"
                 "\"verify: off by one\"}\n", "result", &v);
    assert_int_equal(v.status, BH_ST_INVALID);
    assert_string_equal(v.message, "verify: off by one");
    bh_outcome_view_free(&v);
    classify(&o, "{\"t\":\"result\",\"status\":\"splendid\"}\n", "result",
             &v);
    assert_int_equal(v.status, BH_ST_FAILED);
    assert_contains(v.message, "unknown status");
    bh_outcome_view_free(&v);

    /* the final message is the one of the asked type */
    classify(&o, "{\"t\":\"describe\",\"name\":\"p\"}\n", "describe", &v);
    assert_int_equal(v.status, BH_ST_OK);
    assert_string_equal(bh_json_str(v.final, "name", ""), "p");
    bh_outcome_view_free(&v);
    classify(&o, "{\"t\":\"describe\",\"name\":\"p\"}\n", "result", &v);
    assert_int_equal(v.status, BH_ST_FAILED);
    assert_contains(v.message, "before reporting");
    bh_outcome_view_free(&v);
}

static void test_signal_names(void **state)
{
    char buf[16];

    (void)state;
    assert_string_equal(bh_signal_name(SIGSEGV, buf), "SIGSEGV");
    assert_string_equal(bh_signal_name(SIGABRT, buf), "SIGABRT");
    assert_string_equal(bh_signal_name(SIGKILL, buf), "SIGKILL");
    assert_string_equal(bh_signal_name(SIGFPE, buf), "SIGFPE");
    assert_string_equal(bh_signal_name(200, buf), "SIG200");
}

/* ---- seeds, filter, order --------------------------------------------- */

static void test_case_seed(void **state)
{
    uint64_t a = bh_case_seed(42, "selftest/spin[work=10]");

    (void)state;
    assert_true(a == bh_case_seed(42, "selftest/spin[work=10]"));
    assert_true(a != bh_case_seed(43, "selftest/spin[work=10]"));
    assert_true(a != bh_case_seed(42, "selftest/spin[work=20]"));
    assert_true(bh_case_seed(0, "") == bh_case_seed(0, ""));
    assert_true(bh_case_seed(1, "a") != bh_case_seed(1, "b"));
}

/* Appends a bare case that bh_plan_free can release. */
static bh_case *add_case(bh_plan *plan, const char *id, const char *bench,
                         uint32_t runs)
{
    bh_case c;

    memset(&c, 0, sizeof(c));
    c.id = bh_xstrdup(id);
    c.plugin = bh_xstrdup("fake");
    c.plugin_path = bh_xstrdup("/nonexistent/fake.so");
    c.bench = bh_xstrdup(bench);
    c.params = cJSON_CreateObject();
    c.params_plain = cJSON_CreateObject();
    c.device = -1;
    bh_settings_default(&c.settings);
    c.settings.runs = runs;
    c.settings.samples = 3;
    c.settings.warmup_ns = 0;
    c.settings.timeout_ns = 30000000000ull;
    BH_PUSH(plan->cases, plan->n, plan->cap, c);
    return &plan->cases[plan->n - 1];
}

static void test_plan_filter(void **state)
{
    bh_plan plan;
    char *pats[] = {"selftest/spin*"};
    char *pats2[] = {"*noop", "other/*"};
    char *none[] = {"nothing*"};

    (void)state;
    memset(&plan, 0, sizeof(plan));
    add_case(&plan, "selftest/noop", "noop", 1);
    add_case(&plan, "selftest/spin[work=10]", "spin", 1);
    add_case(&plan, "other/memcpy", "memcpy", 1);
    add_case(&plan, "selftest/spin[work=20]", "spin", 1);

    bh_plan_filter(&plan, NULL, 0); /* no patterns: everything stays */
    assert_int_equal(plan.n, 4);
    bh_plan_filter(&plan, pats, 1);
    assert_int_equal(plan.n, 2);
    assert_string_equal(plan.cases[0].id, "selftest/spin[work=10]");
    assert_string_equal(plan.cases[1].id, "selftest/spin[work=20]");
    bh_plan_free(&plan);

    add_case(&plan, "selftest/noop", "noop", 1);
    add_case(&plan, "selftest/spin[work=10]", "spin", 1);
    add_case(&plan, "other/memcpy", "memcpy", 1);
    bh_plan_filter(&plan, pats2, 2); /* any pattern keeps a case */
    assert_int_equal(plan.n, 2);
    assert_string_equal(plan.cases[0].id, "selftest/noop");
    assert_string_equal(plan.cases[1].id, "other/memcpy");
    bh_plan_filter(&plan, none, 1);
    assert_int_equal(plan.n, 0);
    bh_plan_free(&plan);
}

/* Reads the fake worker log into lines (free each and the array). */
static size_t read_lines(const char *path, char ***out)
{
    char *text = NULL;
    size_t len = 0, n = 0, cap = 0;
    bh_error e = {""};
    char *save = NULL;

    *out = NULL;
    if (bh_read_file(path, 1 << 20, &text, &len, &e) != 0)
        return 0;
    for (char *tok = strtok_r(text, "\n", &save); tok;
         tok = strtok_r(NULL, "\n", &save))
        BH_PUSH(*out, n, cap, bh_xstrdup(tok));
    free(text);
    return n;
}

static void free_lines(char **l, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(l[i]);
    free(l);
}

/* Runs a four-case plan (3 runs each) with the fake worker and returns the
 * order the runs were started in. */
static size_t exec_fake(uint64_t seed, const char *log, char ***lines,
                        bh_plan *plan)
{
    bh_exec_opts o = {seed, 0, 4096, NULL};

    unlink(log);
    memset(plan, 0, sizeof(*plan));
    add_case(plan, "fake/a", "a", 3);
    add_case(plan, "fake/b", "b", 3);
    add_case(plan, "fake/mixed", "mixed", 3);
    add_case(plan, "fake/crashy", "crashy", 3);
    add_case(plan, "fake/never", "never", 3);
    plan->cases[4].pre_status = BH_ST_SKIPPED;
    plan->cases[4].pre_reason = bh_xstrdup("not here");
    assert_int_equal(bh_exec_plan(plan, &o), 12);
    return read_lines(log, lines);
}

static void test_exec_seeded_order(void **state)
{
    char *dir = make_tmpdir();
    char *log = bh_xasprintf("%s/workers.log", dir);
    char **l1, **l2, **l3;
    size_t n1, n2, n3;
    bh_plan p1, p2, p3;
    int same3 = 1;
    int interleaved = 0;

    (void)state;
    setenv("BH_FAKE_WORKER_LOG", log, 1);
    n1 = exec_fake(77, log, &l1, &p1);
    n2 = exec_fake(77, log, &l2, &p2);
    n3 = exec_fake(78, log, &l3, &p3);
    unsetenv("BH_FAKE_WORKER_LOG");
    assert_int_equal(n1, 12);
    assert_int_equal(n2, 12);
    assert_int_equal(n3, 12);
    /* the same seed gives the same order and the same job seeds */
    for (size_t i = 0; i < n1; i++)
        assert_string_equal(l1[i], l2[i]);
    for (size_t i = 0; i < n1; i++)
        same3 &= strcmp(l1[i], l3[i]) == 0;
    assert_false(same3);
    /* runs of different cases are interleaved, not case after case */
    for (size_t i = 1; i < n1; i++)
        interleaved += l1[i][0] != l1[i - 1][0];
    assert_true(interleaved > 3);

    /* every job carries bh_case_seed(seed, id), for every run */
    for (size_t i = 0; i < n1; i++) {
        char bench[32], seed[40], want[40];
        int run;
        char *id;

        assert_int_equal(sscanf(l1[i], "%31s %d %39s", bench, &run, seed),
                         3);
        assert_true(run >= 0 && run < 3);
        id = bh_xasprintf("fake/%s", bench);
        snprintf(want, sizeof(want), "0x%016" PRIx64,
                 bh_case_seed(77, id));
        assert_string_equal(seed, want);
        free(id);
    }

    /* statuses are folded: the worst run decides, skipped cases never run */
    assert_int_equal(p1.cases[0].status, BH_ST_OK);
    assert_true(p1.cases[0].has_summary);
    assert_int_equal(p1.cases[0].summary.n, 9);
    assert_int_equal(p1.cases[0].summary.n_runs, 3);
    assert_int_equal(p1.cases[2].status, BH_ST_INVALID);
    assert_string_equal(p1.cases[2].message, "verify: wrong");
    assert_int_equal(p1.cases[2].runs[1].status, BH_ST_INVALID);
    assert_int_equal(p1.cases[2].runs[0].status, BH_ST_OK);
    assert_true(p1.cases[2].has_summary); /* over its ok runs */
    assert_int_equal(p1.cases[2].summary.n, 6);
    assert_int_equal(p1.cases[3].status, BH_ST_CRASHED);
    assert_contains(p1.cases[3].message, "SIGABRT");
    assert_int_equal(p1.cases[4].status, BH_ST_SKIPPED);
    assert_string_equal(p1.cases[4].message, "not here");
    assert_int_equal(p1.cases[4].n_runs, 0);

    free_lines(l1, n1);
    free_lines(l2, n2);
    free_lines(l3, n3);
    bh_plan_free(&p1);
    bh_plan_free(&p2);
    bh_plan_free(&p3);
    rm_rf(dir);
    free(dir);
    free(log);
}

/* ---- building plans from configs -------------------------------------- */

/* Loads text as a config file in dir (free with bh_config_free). */
static bh_config *load_config(const char *dir, const char *name,
                              const char *text)
{
    char *path = bh_xasprintf("%s/%s", dir, name);
    bh_error e = {""};
    bh_config *cfg;

    assert_int_equal(bh_write_file_atomic(path, text, strlen(text), &e), 0);
    cfg = bh_config_load(path, &e);
    if (!cfg)
        fail_msg("config: %s", e.msg);
    free(path);
    return cfg;
}

/* A catalog whose describe workers are the real bhost, with the fixtures
 * on the search path. */
static void catalog_init(bh_catalog *cat)
{
    char *fx = bh_xasprintf("%s/tests/fixtures", build_root());

    setenv("BHOST_PLUGIN_PATH", fx, 1);
    bh_catalog_init(cat, NULL, 0);
    free(cat->exe);
    cat->exe = bhost_exe();
    free(fx);
}

static const bh_case *find_case(const bh_plan *plan, const char *id)
{
    for (size_t i = 0; i < plan->n; i++)
        if (strcmp(plan->cases[i].id, id) == 0)
            return &plan->cases[i];
    fail_msg("no case '%s'", id);
    return NULL;
}

/* Plans fx_faults/ok with the params flow mapping params; the plan must
 * fail with an error containing want. */
static void assert_plan_error(const char *dir, const char *name, const char *params,
                              const char *want)
{
    char *text = bh_xasprintf("schema: 1\nsuites:\n  - plugin: fx_faults\n"
                              "    include: [ok]\n    params: %s\n", params);
    bh_config *cfg = load_config(dir, name, text);
    bh_catalog cat;
    bh_plan plan;
    bh_error e = {""};

    catalog_init(&cat);
    assert_int_equal(bh_plan_build(cfg, &cat, &plan, &e), -1);
    assert_contains(e.msg, want);
    bh_catalog_free(&cat);
    bh_config_free(cfg);
    free(text);
}

static void test_plan_build(void **state)
{
    char *dir = make_tmpdir();
    bh_config *cfg = load_config(
        dir, "p.yaml",
        "schema: 1\n"
        "suites:\n"
        "  - plugin: fx_faults\n"
        "    include: [ok, crash]\n"
        "    params: {n: [4, 8]}\n"
        "  - plugin: fx_bad_major\n");
    bh_catalog cat;
    bh_plan plan;
    bh_error e = {""};
    const bh_case *c;

    (void)state;
    catalog_init(&cat);
    assert_int_equal(bh_plan_build(cfg, &cat, &plan, &e), 0);
    /* n is an explicit axis of ok only; crash has no params */
    assert_int_equal(plan.n, 4);
    c = find_case(&plan, "fx_faults/ok[n=4]");
    assert_int_equal(c->pre_status, BH_ST_OK);
    assert_string_equal(c->bench, "ok");
    assert_true(bh_json_num(c->params_plain, "n", 0) == 4);
    assert_string_equal(bh_json_str(c->params_plain, "mode", ""), "fast");
    find_case(&plan, "fx_faults/ok[n=8]");
    find_case(&plan, "fx_faults/crash");
    c = find_case(&plan, "fx_bad_major/*");
    assert_int_equal(c->pre_status, BH_ST_FAILED);
    assert_contains(c->pre_reason, "ABI major 2");
    bh_plan_free(&plan);
    bh_catalog_free(&cat);
    bh_config_free(cfg);

    /* a plugin that does not exist is a config error at its name, with
     * the closest plugin name on the search path */
    cfg = load_config(dir, "m.yaml",
                      "schema: 1\n"
                      "suites:\n"
                      "  - plugin: fx_faults\n"
                      "  - plugin: fx_fault\n");
    catalog_init(&cat);
    assert_int_equal(bh_plan_build(cfg, &cat, &plan, &e), -1);
    assert_contains(e.msg, "m.yaml:4:13: plugin 'fx_fault' not found");
    assert_contains(e.msg, "did you mean 'fx_faults'?");
    bh_catalog_free(&cat);
    bh_config_free(cfg);

    /* an unknown parameter names its position and suggests the name */
    cfg = load_config(dir, "q.yaml",
                      "schema: 1\n"
                      "suites:\n"
                      "  - plugin: fx_faults\n"
                      "    include: [ok]\n"
                      "    params:\n"
                      "      scael: [2]\n");
    catalog_init(&cat);
    assert_int_equal(bh_plan_build(cfg, &cat, &plan, &e), -1);
    assert_contains(e.msg, "q.yaml:6:7:");
    assert_contains(e.msg, "did you mean 'scale'");
    bh_catalog_free(&cat);
    bh_config_free(cfg);

    /* a value outside the declared range */
    cfg = load_config(dir, "r.yaml",
                      "schema: 1\n"
                      "suites:\n"
                      "  - plugin: fx_faults\n"
                      "    include: [ok]\n"
                      "    params: {mode: [fast, turbo]}\n");
    catalog_init(&cat);
    assert_int_equal(bh_plan_build(cfg, &cat, &plan, &e), -1);
    assert_contains(e.msg, "r.yaml:5:");
    assert_contains(e.msg, "must be one of: fast, slow");
    bh_catalog_free(&cat);
    bh_config_free(cfg);

    /* an integer parameter takes sizes as settings do; the id shows the
     * integer, and the range applies to it */
    cfg = load_config(dir, "s.yaml",
                      "schema: 1\n"
                      "suites:\n"
                      "  - plugin: fx_faults\n"
                      "    include: [ok]\n"
                      "    params: {n: [1KiB, 2k, 1M]}\n");
    catalog_init(&cat);
    assert_int_equal(bh_plan_build(cfg, &cat, &plan, &e), 0);
    c = find_case(&plan, "fx_faults/ok[n=1024]");
    assert_true(bh_json_num(c->params_plain, "n", 0) == 1024);
    find_case(&plan, "fx_faults/ok[n=2000]");
    find_case(&plan, "fx_faults/ok[n=1000000]");
    bh_plan_free(&plan);
    bh_catalog_free(&cat);
    bh_config_free(cfg);
    assert_plan_error(dir, "t.yaml", "{n: [2MiB]}", "must be within [1, 1000000], got 2MiB");
    assert_plan_error(dir, "u.yaml", "{n: [3x]}",
                      "expects an integer, got '3x' (sizes such as 4KiB");
    unsetenv("BHOST_PLUGIN_PATH");
    rm_rf(dir);
    free(dir);
}

/* Eight plugin names fill the catalog's first allocation; a device
 * benchmark in the eighth suite then looks up its backend, which grows the
 * catalog while plan_suite() still holds a pointer into it. */
static void test_plan_build_many_plugins(void **state)
{
    char *dir = make_tmpdir();
    bh_config *cfg = load_config(
        dir, "many.yaml",
        "schema: 1\n"
        "backends:\n"
        "  cpu: {required: false}\n"
        "suites:\n"
        "  - plugin: fx_abi_1_0\n  - plugin: fx_faults\n  - plugin: fx_faults2\n"
        "  - plugin: fx_future\n  - plugin: fx_struct_edge\n  - plugin: fx_cpp_throw\n"
        "  - plugin: fx_bad_major\n"
        "  - plugin: selftest\n"
        "    include: [device_copy]\n");
    bh_catalog cat;
    bh_plan plan;
    bh_error e = {""};

    (void)state;
    catalog_init(&cat);
    /* Regression: use after free in plan_suite() (plan.c): `en` pointed into
     * cat->entries, which bh_catalog_get() reallocs from add_point() when
     * the backend is looked up; the include check after the loop then
     * reads en->info from freed memory. Valgrind reports "Invalid read";
     * bhost validate on this config segfaults with
     * GLIBC_TUNABLES=glibc.malloc.tcache_count=0 MALLOC_PERTURB_=165. */
    assert_int_equal(bh_plan_build(cfg, &cat, &plan, &e), 0);
    assert_true(plan.n > 8);
    assert_non_null(strstr(plan.cases[plan.n - 1].id, "selftest/device_copy@cpu"));
    bh_plan_free(&plan);
    bh_catalog_free(&cat);
    bh_config_free(cfg);
    unsetenv("BHOST_PLUGIN_PATH");
    rm_rf(dir);
    free(dir);
}

int main(int argc, char **argv)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_spawn_describe_selftest),
        cmocka_unit_test(test_spawn_ok),
        cmocka_unit_test(test_spawn_crash),
        cmocka_unit_test(test_spawn_hang_timeout),
        cmocka_unit_test(test_spawn_exit),
        cmocka_unit_test(test_spawn_spew),
        cmocka_unit_test(test_spawn_badverify),
        cmocka_unit_test(test_spawn_statuses_from_plugin),
        cmocka_unit_test(test_spawn_load_failure_and_bad_job),
        cmocka_unit_test(test_spawn_missing_exe),
        cmocka_unit_test(test_classify_synthetic),
        cmocka_unit_test(test_signal_names),
        cmocka_unit_test(test_case_seed),
        cmocka_unit_test(test_plan_filter),
        cmocka_unit_test(test_exec_seeded_order),
        cmocka_unit_test(test_plan_build),
        cmocka_unit_test(test_plan_build_many_plugins),
    };

    if (argc > 1 && strcmp(argv[1], "__worker") == 0)
        return fake_worker();
    /* bh_spawn_worker() relies on its caller ignoring SIGPIPE (bhost's
     * main does): a worker that dies before reading its job must make the
     * job write fail with EPIPE, not kill the supervisor. */
    signal(SIGPIPE, SIG_IGN);
    return cmocka_run_group_tests(tests, NULL, NULL);
}
