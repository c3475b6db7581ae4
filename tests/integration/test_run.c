/* Integration tests: run the real bhost binary ($BHOST_EXE) on the configs
 * in $BHOST_ITEST_CONFIGS with the fault fixtures on BHOST_PLUGIN_PATH, and
 * assert on exit codes, messages and the result JSON. Nothing here depends
 * on timings: only statuses, ids, messages and document structure. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <cjson/cJSON.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

/* ---- process helpers -------------------------------------------------- */

static char tmp_root[512];

typedef struct proc {
    pid_t pid;
    char out_path[600];
    char err_path[600];
    int code;  /* exit status, or 128 + signal */
    char *out; /* captured stdout (free) */
    char *err; /* captured stderr (free) */
} proc;

static const char *env_or_fail(const char *name)
{
    const char *v = getenv(name);

    if (!v || !*v)
        fail_msg("%s is not set (run through meson test)", name);
    return v;
}

/* Path of a test config (static buffer, one at a time per slot). */
static const char *config(const char *name)
{
    static char buf[4][1024];
    static int slot;
    char *b = buf[slot++ % 4];

    snprintf(b, sizeof(buf[0]), "%s/%s", env_or_fail("BHOST_ITEST_CONFIGS"),
             name);
    return b;
}

/* A path under this run's temporary directory (static buffers). */
static const char *tmp_path(const char *name)
{
    static char buf[8][1024];
    static int slot;
    char *b = buf[slot++ % 8];

    snprintf(b, sizeof(buf[0]), "%s/%s", tmp_root, name);
    return b;
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    char *buf;
    long n;

    if (!f)
        return strdup("");
    fseek(f, 0, SEEK_END);
    n = ftell(f);
    fseek(f, 0, SEEK_SET);
    buf = calloc(1, (size_t)n + 1);
    assert_non_null(buf);
    if (n > 0 && fread(buf, 1, (size_t)n, f) != (size_t)n)
        fail_msg("short read of %s", path);
    fclose(f);
    return buf;
}

/* Starts "bhost args..." (args NULL-terminated) with stdout and stderr
 * going to files. */
static void start(proc *p, const char *const *args)
{
    static int serial;
    const char *exe = env_or_fail("BHOST_EXE");
    char *argv[32];
    posix_spawn_file_actions_t fa;
    int n = 0;
    int rc;

    memset(p, 0, sizeof(*p));
    argv[n++] = (char *)exe;
    for (; args[n - 1] && n < 31; n++)
        argv[n] = (char *)args[n - 1];
    argv[n] = NULL;
    serial++;
    snprintf(p->out_path, sizeof(p->out_path), "%s/stdout.%d", tmp_root,
             serial);
    snprintf(p->err_path, sizeof(p->err_path), "%s/stderr.%d", tmp_root,
             serial);
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 1, p->out_path,
                                     O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_addopen(&fa, 2, p->err_path,
                                     O_WRONLY | O_CREAT | O_TRUNC, 0644);
    rc = posix_spawn(&p->pid, exe, &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    if (rc != 0)
        fail_msg("cannot start %s: %s", exe, strerror(rc));
}

static void finish(proc *p)
{
    int st = 0;

    while (waitpid(p->pid, &st, 0) < 0)
        if (errno != EINTR)
            fail_msg("waitpid: %s", strerror(errno));
    p->code = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
    p->out = slurp(p->out_path);
    p->err = slurp(p->err_path);
    unlink(p->out_path);
    unlink(p->err_path);
}

static void run(proc *p, const char *const *args)
{
    start(p, args);
    finish(p);
}

static void proc_free(proc *p)
{
    free(p->out);
    free(p->err);
    p->out = p->err = NULL;
}

static void expect_code(const proc *p, int want)
{
    if (p->code != want)
        fail_msg("exit %d, expected %d\nstdout:\n%s\nstderr:\n%s", p->code,
                 want, p->out, p->err);
}

static void assert_has(const char *hay, const char *needle)
{
    if (!hay || !strstr(hay, needle))
        fail_msg("'%s' lacks '%s'", hay ? hay : "(null)", needle);
}

static int count_lines(const char *s)
{
    int n = 0;

    for (; *s; s++)
        n += *s == '\n';
    return n;
}

/* ---- JSON helpers ----------------------------------------------------- */

/* Parses a whole file that must be one complete JSON document. */
static cJSON *load_json(const char *path)
{
    char *text = slurp(path);
    const char *end = NULL;
    cJSON *doc = cJSON_ParseWithOpts(text, &end, 1);

    if (!doc)
        fail_msg("%s is not one complete JSON document", path);
    free(text);
    return doc;
}

static cJSON *parse_text(const char *text, const char *what)
{
    const char *end = NULL;
    cJSON *doc = cJSON_ParseWithOpts(text, &end, 1);

    if (!doc)
        fail_msg("%s is not valid JSON:\n%s", what, text);
    return doc;
}

static cJSON *member(const cJSON *o, const char *key)
{
    cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

    if (!v)
        fail_msg("missing key \"%s\"", key);
    return v;
}

static const char *str_of(const cJSON *o, const char *key)
{
    cJSON *v = member(o, key);

    if (!cJSON_IsString(v))
        fail_msg("\"%s\" is not a string", key);
    return v->valuestring;
}

static const cJSON *case_of(const cJSON *doc, const char *id)
{
    const cJSON *c;

    cJSON_ArrayForEach(c, member(doc, "cases"))
        if (strcmp(str_of(c, "id"), id) == 0)
            return c;
    fail_msg("no case '%s' in the result", id);
    return NULL;
}

/* Asserts a case's status and that its message contains phrase (phrase
 * NULL: no check). */
static const cJSON *expect_case(const cJSON *doc, const char *id,
                                const char *status, const char *phrase)
{
    const cJSON *c = case_of(doc, id);
    const cJSON *msg = cJSON_GetObjectItemCaseSensitive(c, "message");

    if (strcmp(str_of(c, "status"), status) != 0)
        fail_msg("%s: status %s, expected %s (%s)", id, str_of(c, "status"),
                 status, cJSON_IsString(msg) ? msg->valuestring : "");
    if (phrase && (!cJSON_IsString(msg) || !strstr(msg->valuestring, phrase)))
        fail_msg("%s: message '%s' lacks '%s'", id,
                 cJSON_IsString(msg) ? msg->valuestring : "(none)", phrase);
    return c;
}

/* ---- setup ------------------------------------------------------------ */

static void rm_rf(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *de;

    while (d && (de = readdir(d))) {
        char p[2048];
        struct stat st;

        if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
            continue;
        snprintf(p, sizeof(p), "%s/%s", dir, de->d_name);
        if (lstat(p, &st) == 0 && S_ISDIR(st.st_mode))
            rm_rf(p);
        else
            unlink(p);
    }
    if (d)
        closedir(d);
    rmdir(dir);
}

static int group_setup(void **state)
{
    const char *base = getenv("TMPDIR");

    (void)state;
    snprintf(tmp_root, sizeof(tmp_root), "%s/bh_itest_XXXXXX",
             base && *base ? base : "/tmp");
    if (!mkdtemp(tmp_root))
        return -1;
    return 0;
}

static int group_teardown(void **state)
{
    (void)state;
    rm_rf(tmp_root);
    return 0;
}

/* ---- fault isolation -------------------------------------------------- */

static void test_fault_isolation(void **state)
{
    const char *out = tmp_path("faults.json");
    const char *args[] = {"run", config("faults.yaml"), "--out", out, NULL};
    proc p;
    cJSON *doc;
    const cJSON *c, *r0, *log;

    (void)state;
    run(&p, args);
    expect_code(&p, 1); /* cases failed */
    doc = load_json(out);
    assert_string_equal(str_of(doc, "schema"), "bhost.result/1");
    assert_true(cJSON_IsTrue(member(member(doc, "run"), "complete")));
    assert_int_equal(cJSON_GetArraySize(member(doc, "cases")), 10);

    /* the well-behaved case is measured despite its neighbours */
    c = expect_case(doc, "fx_faults/ok", "ok", NULL);
    r0 = cJSON_GetArrayItem(member(c, "runs"), 0);
    assert_int_equal(cJSON_GetArraySize(member(r0, "samples")), 3);
    assert_true(cJSON_IsObject(member(c, "summary")));
    assert_true(cJSON_IsNumber(member(member(c, "summary"), "median")));
    assert_true(member(member(c, "summary"), "median")->valuedouble > 0);
    assert_true(member(member(c, "summary"), "n")->valuedouble == 3);

    expect_case(doc, "fx_faults/crash", "crashed", "SIGSEGV");
    expect_case(doc, "fx_faults/abort", "crashed", "SIGABRT");
    expect_case(doc, "fx_faults/hang", "timeout", "timeout");
    expect_case(doc, "fx_faults/exit", "failed", "before reporting");
    /* spew never returns: it times out, and its output is cut at the
     * log limit (64 KiB) and flagged */
    c = expect_case(doc, "fx_faults/spew", "timeout", "timeout");
    r0 = cJSON_GetArrayItem(member(c, "runs"), 0);
    assert_true(cJSON_IsTrue(member(r0, "log_truncated")));
    log = member(r0, "log");
    assert_true(cJSON_IsString(log));
    assert_true(strlen(log->valuestring) <= 64 * 1024);
    assert_has(log->valuestring, "fx_faults spew");
    expect_case(doc, "fx_faults/badverify", "invalid",
                "checksum 1234 != expected 5678");
    expect_case(doc, "fx_faults/fail_setup", "failed", "setup refused");
    expect_case(doc, "fx_faults/skip", "skipped",
                "fixture skip always skips");
    expect_case(doc, "fx_faults/unsupported", "unsupported",
                "has no implementation");
    /* no failed case has a summary */
    assert_true(cJSON_IsNull(member(case_of(doc, "fx_faults/crash"),
                                    "summary")));

    /* the console agrees */
    assert_has(p.out, "10 cases: 1 ok 1 skipped 1 unsupported 2 failed "
                      "1 invalid 2 crashed 2 timeout");
    assert_has(p.out, "result: ");
    assert_has(p.out, out);
    cJSON_Delete(doc);
    proc_free(&p);
}

/* ---- plugins that fail to load ---------------------------------------- */

static void test_load_failures(void **state)
{
    static const struct {
        const char *id;
        const char *status;
        const char *phrase;
    } want[] = {
        {"fx_bad_major/*", "failed", "plugin ABI major 2"},
        {"fx_no_entry/*", "failed", "no entry symbol bhost_entry_v1"},
        {"fx_init_fail/*", "failed", "init failed"},
        {"fx_abort_init/*", "crashed", "SIGABRT"},
        {"fx_not_elf/*", "failed", "not a shared object"},
        {"fx_small_struct/*", "failed", "smaller than the ABI 1.0 size"},
        {"fx_no_iface/*", "failed", "missing interfaces"},
        {"fx_no_such_plugin/*", "skipped", "not found"},
    };
    size_t nw = sizeof(want) / sizeof(want[0]);
    const char *out = tmp_path("loadfail.json");
    const char *args[] = {"run", config("loadfail.yaml"), "--out", out,
                          "--quiet", NULL};
    proc p;
    cJSON *doc;

    (void)state;
    run(&p, args);
    expect_code(&p, 1);
    doc = load_json(out);
    assert_true(cJSON_IsTrue(member(member(doc, "run"), "complete")));
    assert_int_equal(cJSON_GetArraySize(member(doc, "cases")), (int)nw + 1);
    for (size_t i = 0; i < nw; i++)
        expect_case(doc, want[i].id, want[i].status, want[i].phrase);
    expect_case(doc, "fx_init_fail/*", "failed", "license file missing");
    /* each message is its own */
    for (size_t i = 0; i < nw; i++)
        for (size_t j = 0; j < nw; j++)
            if (i != j)
                assert_null(strstr(
                    str_of(case_of(doc, want[j].id), "message"),
                    want[i].phrase));
    /* the run still completes: the good suite after them ran */
    expect_case(doc, "fx_faults/ok", "ok", NULL);
    assert_true(cJSON_IsObject(member(case_of(doc, "fx_faults/ok"),
                                      "summary")));
    /* the plugins section records each failure */
    {
        const cJSON *pl;
        int failed = 0;

        cJSON_ArrayForEach(pl, member(member(doc, "run"), "plugins"))
            if (strcmp(str_of(pl, "status"), "ok") != 0) {
                assert_true(strlen(str_of(pl, "error")) > 0);
                failed++;
            }
        assert_int_equal(failed, (int)nw);
    }
    cJSON_Delete(doc);
    proc_free(&p);
}

static void test_future_plugin(void **state)
{
    const char *out = tmp_path("future.json");
    const char *args[] = {"run", config("future.yaml"), "--out", out,
                          "--quiet", NULL};
    proc p;
    cJSON *doc;
    const cJSON *c, *pl;

    (void)state;
    run(&p, args);
    expect_code(&p, 0);
    doc = load_json(out);
    c = expect_case(doc, "fx_future/ok", "ok", NULL);
    assert_int_equal(
        cJSON_GetArraySize(member(cJSON_GetArrayItem(member(c, "runs"), 0),
                                  "samples")),
        3);
    assert_true(cJSON_IsObject(member(c, "summary")));
    pl = cJSON_GetArrayItem(member(member(doc, "run"), "plugins"), 0);
    assert_string_equal(str_of(pl, "plugin_id"), "org.bhost.fx_future");
    assert_true(member(pl, "abi_minor")->valuedouble == 1);
    cJSON_Delete(doc);
    proc_free(&p);
}

/* ---- validate --------------------------------------------------------- */

static void expect_invalid(const char *file, const char *where,
                           const char *phrase)
{
    const char *path = config(file);
    const char *args[] = {"validate", path, NULL};
    char prefix[1200];
    proc p;

    run(&p, args);
    expect_code(&p, 3);
    snprintf(prefix, sizeof(prefix), "bhost: %s:%s: ", path, where);
    if (strncmp(p.err, prefix, strlen(prefix)) != 0)
        fail_msg("stderr '%s' does not start with '%s'", p.err, prefix);
    assert_int_equal(count_lines(p.err), 1);
    assert_has(p.err, phrase);
    assert_string_equal(p.out, "");
    proc_free(&p);
}

static void test_validate(void **state)
{
    const char *args[] = {"validate", config("good.yaml"), NULL};
    proc p;

    (void)state;
    run(&p, args);
    expect_code(&p, 0);
    assert_has(p.out, "good.yaml: ok, 4 cases (4 runnable)");
    assert_string_equal(p.err, "");
    proc_free(&p);

    expect_invalid("bad_param.yaml", "7:7", "did you mean 'work'");
    expect_invalid("bad_type.yaml", "7:18",
                   "parameter 'work' expects an integer, got 'lots'");
    expect_invalid("bad_include.yaml", "4:5",
                   "include pattern 'nosuchbench*' matches no benchmark");
    expect_invalid("bad_syntax.yaml", "6:11", "YAML syntax error");
    expect_invalid("bad_missing_plugin.yaml", "7:13",
                   "plugin 'no_such_plugin' not found");
}

/* ---- list and info ---------------------------------------------------- */

static const cJSON *plugin_named(const cJSON *arr, const char *name)
{
    const cJSON *p;

    cJSON_ArrayForEach(p, arr) {
        const cJSON *n = cJSON_GetObjectItemCaseSensitive(p, "name");
        if (cJSON_IsString(n) && strcmp(n->valuestring, name) == 0)
            return p;
    }
    fail_msg("no plugin named %s", name);
    return NULL;
}

static void test_list(void **state)
{
    const char *text_args[] = {"list", NULL};
    const char *json_args[] = {"list", "--json", NULL};
    const char *cfg_args[] = {"list", config("good.yaml"), NULL};
    proc p;
    cJSON *arr;
    const cJSON *st, *b;
    int ids = 0;
    int failing = 0;

    (void)state;
    run(&p, text_args);
    expect_code(&p, 0);
    assert_has(p.out, "selftest ");
    assert_has(p.out, "(org.bhost.selftest)");
    assert_has(p.out, "    noop -- ");
    assert_has(p.out, "    spin -- ");
    assert_has(p.out, "    memcpy -- ");
    assert_has(p.out, "    device_copy [device] -- ");
    assert_has(p.out, "      work: i64 = 1000");
    assert_has(p.out, "      bytes: i64 = ");
    assert_has(p.out, "backend 'cpu'");
    /* the fixtures are on the path: failures are listed with reasons, and
     * the two files sharing a plugin id are reported */
    assert_has(p.out, "plugin ABI major 2");
    assert_has(p.err, "duplicate plugin id 'org.bhost.fx_dup'");
    proc_free(&p);

    run(&p, json_args);
    expect_code(&p, 0);
    arr = parse_text(p.out, "bhost list --json");
    assert_true(cJSON_IsArray(arr));
    st = plugin_named(arr, "selftest");
    assert_string_equal(str_of(st, "plugin_id"), "org.bhost.selftest");
    cJSON_ArrayForEach(b, member(st, "benchmarks")) {
        const char *id = str_of(b, "id");

        if (strcmp(id, "spin") == 0) {
            const cJSON *pd = cJSON_GetArrayItem(member(b, "params"), 0);
            assert_string_equal(str_of(pd, "key"), "work");
            assert_string_equal(str_of(pd, "type"), "i64");
        }
        ids += strcmp(id, "noop") == 0 || strcmp(id, "spin") == 0 ||
               strcmp(id, "memcpy") == 0 || strcmp(id, "device_copy") == 0;
    }
    assert_int_equal(ids, 4);
    cJSON_ArrayForEach(b, arr)
        failing += cJSON_GetObjectItemCaseSensitive(b, "error") != NULL;
    assert_true(failing >= 6); /* the fixtures that cannot be described */
    cJSON_Delete(arr);
    proc_free(&p);

    run(&p, cfg_args);
    expect_code(&p, 0);
    assert_has(p.out, "selftest/noop\n");
    assert_has(p.out, "selftest/spin[work=10]\n");
    assert_has(p.out, "selftest/spin[work=20]\n");
    assert_has(p.out, "selftest/memcpy[bytes=4096]\n");
    assert_int_equal(count_lines(p.out), 4);
    proc_free(&p);
}

static void test_info(void **state)
{
    const char *args[] = {"info", "--json", NULL};
    proc p;
    cJSON *doc;
    const cJSON *be, *cpu = NULL;

    (void)state;
    run(&p, args);
    expect_code(&p, 0);
    doc = parse_text(p.out, "bhost info --json");
    assert_true(cJSON_IsObject(member(doc, "system")));
    assert_true(cJSON_IsString(member(member(doc, "system"),
                                      "fingerprint_hash")));
    assert_true(cJSON_IsObject(member(member(doc, "system"), "cpu")));
    cJSON_ArrayForEach(be, member(doc, "backends"))
        if (strcmp(str_of(be, "id"), "cpu") == 0)
            cpu = be;
    assert_non_null(cpu);
    assert_true(member(cpu, "device_count")->valuedouble >= 1);
    assert_true(strlen(str_of(cJSON_GetArrayItem(member(cpu, "devices"), 0),
                              "name")) > 0);
    assert_has(str_of(cpu, "path"), "backend-cpu.so");
    cJSON_Delete(doc);
    proc_free(&p);
}

/* ---- the command line ------------------------------------------------- */

static void test_cli_usage(void **state)
{
    static const char *const cmds[] = {"run", "list", "info", "validate"};
    const char *unknown[] = {"frobnicate", NULL};
    const char *none[] = {NULL};
    const char *run_noarg[] = {"run", NULL};
    const char *runs_abc[] = {"run", config("good.yaml"), "--runs", "abc",
                              NULL};
    const char *runs_zero[] = {"run", config("good.yaml"), "--runs", "0",
                               NULL};
    const char *bad_opt[] = {"run", config("good.yaml"), "--bogus", NULL};
    const char *two_cfg[] = {"run", config("good.yaml"), config("good.yaml"),
                             NULL};
    const char *validate_noarg[] = {"validate", NULL};
    const char *missing_cfg[] = {"run", tmp_path("nope.yaml"), NULL};
    const char *top_help[] = {"--help", NULL};
    const char *version[] = {"--version", NULL};
    proc p;

    (void)state;
    run(&p, unknown);
    expect_code(&p, 2);
    assert_has(p.err, "unknown command 'frobnicate'");
    proc_free(&p);
    run(&p, none);
    expect_code(&p, 2);
    assert_has(p.err, "usage: bhost");
    proc_free(&p);
    run(&p, run_noarg);
    expect_code(&p, 2);
    assert_has(p.err, "CONFIG");
    proc_free(&p);
    run(&p, runs_abc);
    expect_code(&p, 2);
    assert_has(p.err, "--runs expects an integer");
    assert_has(p.err, "'abc'");
    assert_int_equal(count_lines(p.err), 1);
    proc_free(&p);
    run(&p, runs_zero);
    expect_code(&p, 2);
    assert_has(p.err, "--runs expects an integer from 1");
    proc_free(&p);
    run(&p, bad_opt);
    expect_code(&p, 2);
    assert_has(p.err, "--bogus");
    proc_free(&p);
    run(&p, two_cfg);
    expect_code(&p, 2);
    proc_free(&p);
    run(&p, validate_noarg);
    expect_code(&p, 2);
    proc_free(&p);
    run(&p, missing_cfg);
    expect_code(&p, 3);
    assert_has(p.err, "nope.yaml");
    proc_free(&p);

    for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
        const char *help[] = {cmds[i], "--help", NULL};
        char want[64];

        run(&p, help);
        expect_code(&p, 0);
        snprintf(want, sizeof(want), "usage: bhost %s", cmds[i]);
        assert_has(p.out, want);
        proc_free(&p);
    }
    run(&p, top_help);
    expect_code(&p, 0);
    assert_has(p.out, "usage: bhost <command>");
    proc_free(&p);
    run(&p, version);
    expect_code(&p, 0);
    assert_has(p.out, "bhost ");
    proc_free(&p);
}

/* ---- determinism, filters, results directory -------------------------- */

/* Asserts the parts of two result documents that a seed must make equal:
 * config, seed, case order and ids, params, statuses, settings, run and
 * sample counts. Timings are never compared. */
static void expect_same_plan(const cJSON *a, const cJSON *b)
{
    const cJSON *ra = member(a, "run"), *rb = member(b, "run");
    int n = cJSON_GetArraySize(member(a, "cases"));

    assert_string_equal(str_of(ra, "seed"), str_of(rb, "seed"));
    assert_string_equal(str_of(member(ra, "config"), "hash"),
                        str_of(member(rb, "config"), "hash"));
    assert_int_equal(n, cJSON_GetArraySize(member(b, "cases")));
    for (int i = 0; i < n; i++) {
        const cJSON *ca = cJSON_GetArrayItem(member(a, "cases"), i);
        const cJSON *cb = cJSON_GetArrayItem(member(b, "cases"), i);
        int nr = cJSON_GetArraySize(member(ca, "runs"));

        assert_string_equal(str_of(ca, "id"), str_of(cb, "id"));
        assert_string_equal(str_of(ca, "status"), str_of(cb, "status"));
        assert_true(cJSON_Compare(member(ca, "params"), member(cb, "params"),
                                  1));
        assert_true(cJSON_Compare(member(ca, "settings"),
                                  member(cb, "settings"), 1));
        assert_int_equal(nr, cJSON_GetArraySize(member(cb, "runs")));
        for (int r = 0; r < nr; r++)
            assert_int_equal(
                cJSON_GetArraySize(member(
                    cJSON_GetArrayItem(member(ca, "runs"), r), "samples")),
                cJSON_GetArraySize(member(
                    cJSON_GetArrayItem(member(cb, "runs"), r), "samples")));
    }
}

static void test_determinism(void **state)
{
    const char *a = tmp_path("seed_a.json");
    const char *b = tmp_path("seed_b.json");
    const char *c = tmp_path("seed_c.json");
    const char *args_a[] = {"run", config("good.yaml"), "--seed", "12345",
                            "--runs", "2", "--out", a, "--quiet", NULL};
    const char *args_b[] = {"run", config("good.yaml"), "--seed", "12345",
                            "--runs", "2", "--out", b, "--quiet", NULL};
    const char *args_c[] = {"run", config("good.yaml"), "--seed", "999",
                            "--runs", "2", "--out", c, "--quiet", NULL};
    proc p;
    cJSON *da, *db, *dc;

    (void)state;
    run(&p, args_a);
    expect_code(&p, 0);
    proc_free(&p);
    run(&p, args_b);
    expect_code(&p, 0);
    proc_free(&p);
    run(&p, args_c);
    expect_code(&p, 0);
    proc_free(&p);
    da = load_json(a);
    db = load_json(b);
    dc = load_json(c);
    assert_string_equal(str_of(member(da, "run"), "seed"), "0x3039");
    assert_string_equal(str_of(member(dc, "run"), "seed"), "0x3e7");
    expect_same_plan(da, db);
    /* the seed changes the run order, never the cases */
    assert_int_equal(cJSON_GetArraySize(member(da, "cases")), 4);
    for (int i = 0; i < 4; i++)
        assert_string_equal(
            str_of(cJSON_GetArrayItem(member(da, "cases"), i), "id"),
            str_of(cJSON_GetArrayItem(member(dc, "cases"), i), "id"));
    /* runs: 2 from the command line reached every case */
    assert_int_equal(cJSON_GetArraySize(member(
                         cJSON_GetArrayItem(member(da, "cases"), 0), "runs")),
                     2);
    cJSON_Delete(da);
    cJSON_Delete(db);
    cJSON_Delete(dc);
}

static void test_filter(void **state)
{
    const char *out = tmp_path("filter.json");
    const char *out2 = tmp_path("filter2.json");
    const char *args[] = {"run", config("good.yaml"), "--filter",
                          "selftest/spin*", "--out", out, "--quiet", NULL};
    const char *args2[] = {"run", config("good.yaml"), "--filter", "*noop",
                           "--filter", "*memcpy*", "--out", out2, "--quiet",
                           NULL};
    proc p;
    cJSON *doc;
    const cJSON *c;
    int n = 0;

    (void)state;
    run(&p, args);
    expect_code(&p, 0);
    proc_free(&p);
    doc = load_json(out);
    cJSON_ArrayForEach(c, member(doc, "cases")) {
        assert_int_equal(strncmp(str_of(c, "id"), "selftest/spin", 13), 0);
        assert_string_equal(str_of(c, "status"), "ok");
        n++;
    }
    assert_int_equal(n, 2);
    cJSON_Delete(doc);

    run(&p, args2);
    expect_code(&p, 0);
    proc_free(&p);
    doc = load_json(out2);
    assert_int_equal(cJSON_GetArraySize(member(doc, "cases")), 2);
    case_of(doc, "selftest/noop");
    case_of(doc, "selftest/memcpy[bytes=4096]");
    cJSON_Delete(doc);
}

/* True when name is "<8 digits>T<6 digits>Z-<host>.json" or with "-N"
 * before ".json"; *stamp receives the stamp. */
static int result_name_ok(const char *name, const char *host, char stamp[17],
                          int *suffixed)
{
    size_t hl = strlen(host);
    const char *rest;

    if (strlen(name) < 16 + 1 + hl + 5)
        return 0;
    for (int i = 0; i < 16; i++) {
        char ch = name[i];
        if (i == 8 ? ch != 'T' : i == 15 ? ch != 'Z' : (ch < '0' || ch > '9'))
            return 0;
    }
    memcpy(stamp, name, 16);
    stamp[16] = '\0';
    if (name[16] != '-' || strncmp(name + 17, host, hl) != 0)
        return 0;
    rest = name + 17 + hl;
    *suffixed = 0;
    if (rest[0] == '-') {
        rest++;
        if (*rest < '1' || *rest > '9')
            return 0;
        while (*rest >= '0' && *rest <= '9')
            rest++;
        *suffixed = 1;
    }
    return strcmp(rest, ".json") == 0;
}

static void test_results_dir(void **state)
{
    const char *root = tmp_path("results");
    const char *args[] = {"run", config("good.yaml"), "--results-dir", root,
                          "--quiet", NULL};
    char dir[1200];
    char host[64];
    char names[2][256];
    char stamps[2][17];
    int suffixed[2];
    int n = 0;
    proc p1, p2;
    DIR *d;
    struct dirent *de;

    (void)state;
    /* two runs started together: same second, same name wanted */
    start(&p1, args);
    start(&p2, args);
    finish(&p1);
    finish(&p2);
    expect_code(&p1, 0);
    expect_code(&p2, 0);
    assert_has(p1.err, "result: ");
    assert_has(p2.err, "result: ");

    if (gethostname(host, sizeof(host)) != 0)
        snprintf(host, sizeof(host), "host");
    host[63] = '\0';
    for (char *h = host; *h; h++)
        if (!((*h >= 'a' && *h <= 'z') || (*h >= 'A' && *h <= 'Z') ||
              (*h >= '0' && *h <= '9') || *h == '-' || *h == '_' ||
              *h == '.'))
            *h = '_';
    snprintf(dir, sizeof(dir), "%s/itest_good", root);
    d = opendir(dir);
    assert_non_null(d);
    while ((de = readdir(d))) {
        char path[1600];
        cJSON *doc;

        if (de->d_name[0] == '.')
            continue;
        if (n >= 2)
            fail_msg("more than two files in %s (%s)", dir, de->d_name);
        if (!result_name_ok(de->d_name, host, stamps[n], &suffixed[n]))
            fail_msg("unexpected result file name %s", de->d_name);
        snprintf(names[n], sizeof(names[n]), "%s", de->d_name);
        snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
        doc = load_json(path);
        assert_string_equal(str_of(doc, "schema"), "bhost.result/1");
        assert_string_equal(str_of(member(member(doc, "run"), "config"),
                                   "name"),
                            "itest_good");
        cJSON_Delete(doc);
        /* each process reported the file it wrote */
        if (!strstr(p1.err, path) && !strstr(p2.err, path))
            fail_msg("%s was reported by neither run", path);
        n++;
    }
    closedir(d);
    assert_int_equal(n, 2);
    assert_string_not_equal(names[0], names[1]);
    /* the same second: exactly one of them got a numeric suffix */
    if (strcmp(stamps[0], stamps[1]) == 0)
        assert_int_equal(suffixed[0] + suffixed[1], 1);
    proc_free(&p1);
    proc_free(&p2);
}

/* ---- interruption ----------------------------------------------------- */

/* The pid of a child of parent whose command line ends in "__worker", or
 * 0. */
static pid_t worker_child(pid_t parent)
{
    DIR *d = opendir("/proc");
    struct dirent *de;
    pid_t found = 0;

    while (d && !found && (de = readdir(d))) {
        char path[300];
        char buf[1024];
        FILE *f;
        size_t n;
        const char *rp;
        int ppid = 0;

        if (de->d_name[0] < '1' || de->d_name[0] > '9')
            continue;
        snprintf(path, sizeof(path), "/proc/%s/stat", de->d_name);
        if (!(f = fopen(path, "r")))
            continue;
        n = fread(buf, 1, sizeof(buf) - 1, f);
        fclose(f);
        buf[n] = '\0';
        rp = strrchr(buf, ')');
        if (!rp || sscanf(rp + 1, " %*c %d", &ppid) != 1 || ppid != parent)
            continue;
        snprintf(path, sizeof(path), "/proc/%s/cmdline", de->d_name);
        if (!(f = fopen(path, "r")))
            continue;
        n = fread(buf, 1, sizeof(buf) - 1, f);
        fclose(f);
        buf[n] = '\0';
        /* argv is NUL-separated: argv[1] follows the first NUL */
        if (n > strlen(buf) + 1 &&
            strcmp(buf + strlen(buf) + 1, "__worker") == 0)
            found = (pid_t)atoi(de->d_name);
    }
    if (d)
        closedir(d);
    return found;
}

/* SIGINT while a case runs: its worker group is killed, partial results
 * are written and marked incomplete, exit 6. */
static void test_interrupt(void **state)
{
    const char *out = tmp_path("interrupt.json");
    const char *args[] = {"run", config("interrupt.yaml"), "--out", out,
                          NULL};
    struct timespec nap = {0, 100000000};
    pid_t w = 0, last = 0;
    int stable = 0;
    proc p;
    cJSON *doc;

    (void)state;
    start(&p, args);
    /* wait for the hang worker: a worker child that stays the same
     * process across several looks (describe workers end at once) */
    for (int i = 0; i < 600 && stable < 5; i++) {
        nanosleep(&nap, NULL);
        w = worker_child(p.pid);
        stable = w && w == last ? stable + 1 : 0;
        last = w;
    }
    if (stable < 5) {
        kill(p.pid, SIGKILL);
        finish(&p);
        fail_msg("the hang worker never showed up");
    }
    assert_int_equal(kill(p.pid, SIGINT), 0);
    finish(&p);
    expect_code(&p, 6);
    assert_has(p.err, "interrupted");
    /* the worker died with its supervisor's interruption */
    assert_int_equal(kill(w, 0), -1);
    assert_int_equal(errno, ESRCH);
    doc = load_json(out);
    assert_true(cJSON_IsFalse(member(member(doc, "run"), "complete")));
    expect_case(doc, "fx_faults/hang", "skipped", "interrupted");
    cJSON_Delete(doc);
    proc_free(&p);
}

/* ---- catalog growth --------------------------------------------------- */

/* Freed memory is poisoned (no tcache, MALLOC_PERTURB_), so a read of a
 * stale pointer into the catalog crashes instead of passing silently. */
static void test_catalog_growth(void **state)
{
    const char *args[] = {"list", config("many_plugins.yaml"), NULL};
    proc p;

    (void)state;
    setenv("GLIBC_TUNABLES", "glibc.malloc.tcache_count=0", 1);
    setenv("MALLOC_PERTURB_", "165", 1);
    run(&p, args);
    unsetenv("GLIBC_TUNABLES");
    unsetenv("MALLOC_PERTURB_");
    /* Regression: plan_suite() (host/supervisor/plan.c) kept `en`, a pointer into
     * the catalog's entry array, across add_point(), whose
     * bh_catalog_get("backend-cpu") may realloc that array; the include
     * check after the loop then reads en->info from freed memory. With 7
     * other plugin names before it, bhost validate dies of SIGSEGV (exit
     * 139) here; valgrind shows "Invalid read of size 8" at plan.c:477. */
    expect_code(&p, 0);
    assert_has(p.out, "fx_nx7/*");
    assert_has(p.out, "selftest/device_copy@cpu:0");
    proc_free(&p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fault_isolation),
        cmocka_unit_test(test_load_failures),
        cmocka_unit_test(test_future_plugin),
        cmocka_unit_test(test_validate),
        cmocka_unit_test(test_list),
        cmocka_unit_test(test_info),
        cmocka_unit_test(test_cli_usage),
        cmocka_unit_test(test_determinism),
        cmocka_unit_test(test_filter),
        cmocka_unit_test(test_results_dir),
        cmocka_unit_test(test_interrupt),
        cmocka_unit_test(test_catalog_growth),
    };

    return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
