/* Integration tests for `bhost history`: the real binary ($BHOST_EXE) on
 * results folders written here (a step series, malformed files, filters,
 * baselines) and on result files written by `bhost run` itself. Asserts
 * exit codes, messages, change-point dates and JSON structure; nothing
 * depends on timings. */
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
#include <unistd.h>

extern char **environ;

static char tmp_root[512];

/* ---- process helpers ---------------------------------------------------- */

typedef struct proc {
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

/* Runs "bhost args..." (NULL-terminated) to completion, capturing both
 * streams. */
static void run(proc *p, const char *const *args)
{
    static int serial;
    const char *exe = env_or_fail("BHOST_EXE");
    char *argv[32];
    char out_path[600], err_path[600];
    posix_spawn_file_actions_t fa;
    pid_t pid;
    int n = 0, rc, st = 0;

    memset(p, 0, sizeof(*p));
    argv[n++] = (char *)exe;
    for (; args[n - 1] && n < 31; n++)
        argv[n] = (char *)args[n - 1];
    argv[n] = NULL;
    serial++;
    snprintf(out_path, sizeof(out_path), "%s/stdout.%d", tmp_root, serial);
    snprintf(err_path, sizeof(err_path), "%s/stderr.%d", tmp_root, serial);
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 1, out_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_addopen(&fa, 2, err_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    rc = posix_spawn(&pid, exe, &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    if (rc != 0)
        fail_msg("cannot start %s: %s", exe, strerror(rc));
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR)
            fail_msg("waitpid: %s", strerror(errno));
    p->code = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
    p->out = slurp(out_path);
    p->err = slurp(err_path);
    unlink(out_path);
    unlink(err_path);
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
        fail_msg("exit %d, expected %d\nstdout:\n%s\nstderr:\n%s", p->code, want, p->out,
                 p->err);
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

static cJSON *parse_text(const char *text)
{
    const char *end = NULL;
    cJSON *doc = cJSON_ParseWithOpts(text, &end, 1);

    if (!doc)
        fail_msg("not valid JSON:\n%s", text);
    return doc;
}

static const cJSON *member(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

    if (!v)
        fail_msg("missing key \"%s\"", key);
    return v;
}

/* ---- result folders written here -------------------------------------- */

/* A path under this run's temporary directory (static buffers). */
static const char *tmp_path(const char *name)
{
    static char buf[8][1024];
    static int slot;
    char *b = buf[slot++ % 8];

    snprintf(b, sizeof(buf[0]), "%s/%s", tmp_root, name);
    return b;
}

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");

    if (!f)
        fail_msg("cannot write %s: %s", path, strerror(errno));
    fputs(text, f);
    fclose(f);
}

/* One result file of config `config` started on day `day` of March 2026
 * with cases "k/a" (three runs whose samples of 4 iterations take a_ns
 * times 1, 1.004, 0.996 per iteration) and "k/b" (flat, 50 ns). */
static void write_day(const char *dir, const char *config, int day, double a_ns)
{
    char path[1200], text[2048];

    snprintf(path, sizeof(path), "%s/r-%02d.json", dir, day);
    snprintf(text, sizeof(text),
             "{\"schema\":\"bhost.result/1\",\"run\":{\"started_at\":"
             "\"2026-03-%02dT02:00:00Z\",\"config\":{\"name\":\"%s\"}},\"cases\":["
             "{\"id\":\"k/a\",\"status\":\"ok\",\"runs\":["
             "{\"status\":\"ok\",\"samples\":[[4,%.6f],[4,%.6f]]},"
             "{\"status\":\"ok\",\"samples\":[[4,%.6f]]},"
             "{\"status\":\"ok\",\"samples\":[[4,%.6f]]}]},"
             "{\"id\":\"k/b\",\"status\":\"ok\",\"runs\":["
             "{\"status\":\"ok\",\"samples\":[[1,%.6f]]}]}]}",
             day, config, 4 * a_ns, 4 * a_ns, 4 * a_ns * 1.004, 4 * a_ns * 0.996,
             50.0 + 0.1 * (double)(day % 3));
    write_text(path, text);
}

/* nightly/: 24 days of k/a at ~100 ns with +-0.3% wiggle, 112 ns from
 * day 13 on, so the change point is dated 2026-03-13. */
static const char *make_step_folder(const char *name)
{
    const char *root = tmp_path(name);
    char dir[1100];

    mkdir(root, 0755);
    snprintf(dir, sizeof(dir), "%s/nightly", root);
    mkdir(dir, 0755);
    for (int day = 1; day <= 24; day++) {
        double wiggle = 1.0 + 0.003 * (double)((day * 7) % 5 - 2) / 2.0;

        write_day(dir, "nightly", day, (day >= 13 ? 112.0 : 100.0) * wiggle);
    }
    return root;
}

/* ---- tests ---------------------------------------------------------------- */

static void test_step_text(void **state)
{
    const char *root = make_step_folder("step_text");
    const char *args[] = {"history", root, NULL};
    proc p;

    (void)state;
    run(&p, args);
    expect_code(&p, 0);
    assert_has(p.out, "k/a  [nightly]  24 points");
    assert_has(p.out, "change  2026-03-13T02:00:00Z");
    assert_has(p.out, "+12.");
    assert_has(p.out, "slower");
    assert_has(p.out, "k/b  [nightly]");
    assert_has(p.out, "no change point");
    assert_has(p.out, "newest  2026-03-24T02:00:00Z");
    assert_has(p.out, "inside the 99% PI");
    assert_has(p.out, "2 series, 1 change point");
    assert_int_equal(strlen(p.err), 0);
    proc_free(&p);
}

static void test_step_json_deterministic(void **state)
{
    const char *root = make_step_folder("step_json");
    const char *args[] = {"history", root, "--json", NULL};
    proc p, q;
    cJSON *doc;
    const cJSON *series, *a, *cp;

    (void)state;
    run(&p, args);
    expect_code(&p, 0);
    run(&q, args);
    expect_code(&q, 0);
    assert_string_equal(p.out, q.out);
    doc = parse_text(p.out);
    assert_string_equal(member(doc, "schema")->valuestring, "bhost.history/1");
    assert_int_equal(member(member(doc, "files"), "read")->valueint, 24);
    series = member(doc, "series");
    assert_int_equal(cJSON_GetArraySize(series), 2);
    a = cJSON_GetArrayItem(series, 0);
    assert_string_equal(member(a, "case")->valuestring, "k/a");
    assert_string_equal(member(a, "config")->valuestring, "nightly");
    assert_int_equal(member(a, "points")->valueint, 24);
    assert_int_equal(cJSON_GetArraySize(member(a, "change_points")), 1);
    cp = cJSON_GetArrayItem(member(a, "change_points"), 0);
    assert_int_equal(member(cp, "index")->valueint, 12);
    assert_string_equal(member(cp, "date")->valuestring, "2026-03-13T02:00:00Z");
    assert_non_null(strstr(member(cp, "file")->valuestring, "r-13.json"));
    assert_true(member(cp, "change")->valuedouble > 0.11 &&
                member(cp, "change")->valuedouble < 0.13);
    assert_true(member(cp, "p")->valuedouble < 0.001);
    assert_string_equal(member(member(a, "newest"), "status")->valuestring, "inside");
    assert_int_equal(member(member(a, "newest"), "reference_points")->valueint, 11);
    cJSON_Delete(doc);
    proc_free(&p);
    proc_free(&q);
}

/* A malformed file: one warning line naming it, then the rest; --strict
 * makes it fatal (exit 4). baselines/ is not read. */
static void test_malformed_and_baselines(void **state)
{
    const char *root = make_step_folder("malformed");
    const char *args[] = {"history", root, NULL};
    const char *strict[] = {"history", root, "--strict", NULL};
    char path[1200];
    proc p;

    (void)state;
    snprintf(path, sizeof(path), "%s/nightly/zz-broken.json", root);
    write_text(path, "{\"schema\": \"bhost.result/1\", \"run\": ");
    snprintf(path, sizeof(path), "%s/nightly/baselines", root);
    mkdir(path, 0755);
    write_day(path, "nightly", 28, 1000.0);
    run(&p, args);
    expect_code(&p, 0);
    assert_int_equal(count_lines(p.err), 1);
    assert_has(p.err, "warning: ");
    assert_has(p.err, "zz-broken.json");
    assert_has(p.out, "24 points");
    assert_has(p.out, "1 change point");
    proc_free(&p);
    run(&p, strict);
    expect_code(&p, 4);
    assert_has(p.err, "zz-broken.json");
    assert_int_equal(strlen(p.out), 0);
    proc_free(&p);
}

static void test_filters(void **state)
{
    const char *root = make_step_folder("filters");
    const char *bench[] = {"history", root, "--bench", "k/b*", "--json", NULL};
    const char *config[] = {"history", root, "--config", "other", "--json", NULL};
    char dir[1100];
    proc p;
    cJSON *doc;

    (void)state;
    snprintf(dir, sizeof(dir), "%s/other", root);
    mkdir(dir, 0755);
    write_day(dir, "other", 1, 10.0);
    write_day(dir, "other", 2, 10.0);
    run(&p, bench);
    expect_code(&p, 0);
    doc = parse_text(p.out);
    assert_int_equal(cJSON_GetArraySize(member(doc, "series")), 2); /* k/b of both configs */
    assert_string_equal(member(cJSON_GetArrayItem(member(doc, "series"), 0), "case")->valuestring,
                        "k/b");
    cJSON_Delete(doc);
    proc_free(&p);
    run(&p, config);
    expect_code(&p, 0);
    doc = parse_text(p.out);
    assert_int_equal(member(member(doc, "files"), "read")->valueint, 2);
    assert_int_equal(member(member(doc, "files"), "other_config")->valueint, 24);
    assert_int_equal(cJSON_GetArraySize(member(doc, "series")), 2);
    /* two points: one reference point, too few for an interval */
    assert_string_equal(
        member(member(cJSON_GetArrayItem(member(doc, "series"), 0), "newest"), "status")
            ->valuestring,
        "none");
    cJSON_Delete(doc);
    proc_free(&p);
}

static void test_errors(void **state)
{
    const char *missing[] = {"history", "/nonexistent/bhost-history", NULL};
    const char *noarg[] = {"history", NULL};
    const char *badwin[] = {"history", tmp_root, "--window", "4", NULL};
    const char *badpct[] = {"history", tmp_root, "--min-change", "abc", NULL};
    const char *badtest[] = {"history", tmp_root, "--test", "z", NULL};
    const char *help[] = {"history", "--help", NULL};
    proc p;

    (void)state;
    run(&p, missing);
    expect_code(&p, 4);
    assert_has(p.err, "/nonexistent/bhost-history");
    assert_int_equal(count_lines(p.err), 1);
    proc_free(&p);
    run(&p, noarg);
    expect_code(&p, 2);
    proc_free(&p);
    run(&p, badwin);
    expect_code(&p, 2);
    assert_has(p.err, "--window");
    proc_free(&p);
    run(&p, badpct);
    expect_code(&p, 2);
    assert_has(p.err, "--min-change");
    proc_free(&p);
    run(&p, badtest);
    expect_code(&p, 2);
    proc_free(&p);
    run(&p, help);
    expect_code(&p, 0);
    assert_has(p.out, "usage: bhost history RESULTS_DIR");
    proc_free(&p);
}

/* Files written by `bhost run` read back: every ok case becomes a series
 * of two points, no warning. */
static void test_real_results(void **state)
{
    const char *root = tmp_path("real");
    char config[1100];
    const char *runargs[] = {"run", config, "--results-dir", root, "--quiet", NULL};
    const char *args[] = {"history", root, "--json", NULL};
    proc p;
    cJSON *doc;
    const cJSON *s;
    int n = 0;

    (void)state;
    snprintf(config, sizeof(config), "%s/good.yaml", env_or_fail("BHOST_ITEST_CONFIGS"));
    for (int i = 0; i < 2; i++) {
        run(&p, runargs);
        expect_code(&p, 0);
        proc_free(&p);
    }
    run(&p, args);
    expect_code(&p, 0);
    assert_int_equal(strlen(p.err), 0);
    doc = parse_text(p.out);
    assert_int_equal(member(member(doc, "files"), "read")->valueint, 2);
    cJSON_ArrayForEach(s, member(doc, "series")) {
        assert_string_equal(member(s, "config")->valuestring, "itest_good");
        assert_int_equal(member(s, "points")->valueint, 2);
        assert_int_equal(cJSON_GetArraySize(member(s, "change_points")), 0);
        n++;
    }
    assert_true(n >= 3);
    cJSON_Delete(doc);
    proc_free(&p);
}

/* ---- fixture ---------------------------------------------------------- */

static int rm_rf(const char *dir)
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
    return rmdir(dir);
}

static int group_setup(void **state)
{
    const char *base = getenv("TMPDIR");

    (void)state;
    snprintf(tmp_root, sizeof(tmp_root), "%s/bhost_ihist_XXXXXX", base && *base ? base : "/tmp");
    return mkdtemp(tmp_root) ? 0 : -1;
}

static int group_teardown(void **state)
{
    (void)state;
    rm_rf(tmp_root);
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_step_text),
        cmocka_unit_test(test_step_json_deterministic),
        cmocka_unit_test(test_malformed_and_baselines),
        cmocka_unit_test(test_filters),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_real_results),
    };

    return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
