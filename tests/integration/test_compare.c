/* Integration tests of the comparison half of the regression engine: the
 * real bhost binary ($BHOST_EXE) with the selftest plugin's spin benchmark.
 * Slowdowns are injected with slowdown_pct = 300 (4x the work), where the
 * outcome is certain; nothing asserts on timings. Configs are written into
 * a temporary directory. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <cjson/cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

static char tmp[512];

typedef struct proc {
    pid_t pid;
    char out_path[600], err_path[600];
    int code;
    char *out, *err;
} proc;

static const char *env_or_fail(const char *name)
{
    const char *v = getenv(name);

    if (!v || !*v)
        fail_msg("%s is not set (run through meson test)", name);
    return v;
}

/* tmp/name in one of 8 rotating buffers. */
static const char *tp(const char *name)
{
    static char buf[8][1024];
    static int slot;
    char *b = buf[slot++ % 8];

    snprintf(b, sizeof(buf[0]), "%s/%s", tmp, name);
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

static void spit(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");

    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* Starts bhost with args (NULL-terminated), output into files. */
static void start(proc *p, const char *const *args)
{
    static int serial;
    const char *exe = env_or_fail("BHOST_EXE");
    char *argv[40];
    posix_spawn_file_actions_t fa;
    int n = 0, rc;

    memset(p, 0, sizeof(*p));
    argv[n++] = (char *)exe;
    for (; args[n - 1] && n < 39; n++)
        argv[n] = (char *)args[n - 1];
    argv[n] = NULL;
    serial++;
    snprintf(p->out_path, sizeof(p->out_path), "%s/out.%d", tmp, serial);
    snprintf(p->err_path, sizeof(p->err_path), "%s/err.%d", tmp, serial);
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 1, p->out_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_addopen(&fa, 2, p->err_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
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

static int lines(const char *s)
{
    int n = 0;

    for (; *s; s++)
        n += *s == '\n';
    return n;
}

static cJSON *load(const char *path)
{
    char *text = slurp(path);
    cJSON *d = cJSON_Parse(text);

    if (!d)
        fail_msg("%s is not JSON", path);
    free(text);
    return d;
}

static const char *str_at(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

    if (!cJSON_IsString(v))
        fail_msg("no string '%s'", key);
    return v->valuestring;
}

/* The verdict object of the first case of a result document. */
static const cJSON *first_verdict(const cJSON *doc)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(
        cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(doc, "cases"), 0), "verdict");

    if (!cJSON_IsObject(v))
        fail_msg("the first case has no verdict object");
    return v;
}

/* Its time metric object. */
static const cJSON *time_metric(const cJSON *verdict)
{
    return cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(verdict, "metrics"), 0);
}

/* A spin config named cmp: work 2000, slowdown_pct pct (omitted when < 0),
 * extra a YAML suffix for the file. */
static void write_config(const char *file, int pct, const char *extra)
{
    char text[2048];

    snprintf(text, sizeof(text),
             "schema: 1\n"
             "name: cmp\n"
             "defaults: {warmup: 20ms, sample_time: 2ms, samples: 5, runs: 6, seed: 7}\n"
             "suites:\n"
             "  - plugin: selftest\n"
             "    include: [spin]\n"
             "    params: {work: [2000]%s}\n"
             "%s",
             pct < 0 ? "" : (pct == 0 ? ", slowdown_pct: [0]" : ", slowdown_pct: [300]"),
             extra ? extra : "");
    spit(tp(file), text);
}

static int setup(void **state)
{
    char *dir;

    (void)state;
    snprintf(tmp, sizeof(tmp), "/tmp/bh_itest_compareXXXXXX");
    dir = mkdtemp(tmp);
    assert_non_null(dir);
    write_config("base.yaml", -1, NULL);
    write_config("slow.yaml", 1, NULL);
    {
        proc p;
        const char *args[] = {"run", tp("base.yaml"), "--results-dir", tp("res"),
                              "--save-baseline", "main", "--out", tp("base.json"), "--quiet",
                              NULL};

        run(&p, args);
        expect_code(&p, 0);
        proc_free(&p);
    }
    return 0;
}

static int rm_one(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb;
    (void)flag;
    (void)ftw;
    return remove(path);
}

/* Removes the temporary tree. */
static int teardown(void **state)
{
    (void)state;
    nftw(tmp, rm_one, 16, FTW_DEPTH | FTW_PHYS);
    return 0;
}

static void test_saved_baseline_is_a_result(void **state)
{
    cJSON *d = load(tp("res/cmp/baselines/main.json"));

    (void)state;
    assert_string_equal(str_at(d, "schema"), "bhost.result/1");
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(d, "cases")), 1);
    cJSON_Delete(d);
}

static void test_regression_fails_without_confirm(void **state)
{
    proc p;
    const char *args[] = {"run",          tp("slow.yaml"), "--results-dir", tp("res"),
                          "--baseline",   "main",          "--ignore-param", "slowdown_pct",
                          "--fail-on-regression", "--no-confirm", "--out", tp("slow1.json"),
                          NULL};
    cJSON *d;
    const cJSON *v;
    const cJSON *cmp;

    (void)state;
    run(&p, args);
    expect_code(&p, 5);
    assert_has(p.out, "change: [+");
    assert_has(p.out, "regressed (critical)");
    assert_has(p.out, "(baseline: selftest/spin[work=2000])");
    d = load(tp("slow1.json"));
    v = first_verdict(d);
    assert_string_equal(str_at(v, "verdict"), "regressed");
    assert_string_equal(str_at(v, "severity"), "critical");
    assert_string_equal(str_at(time_metric(v), "metric"), "time");
    assert_true(cJSON_GetObjectItemCaseSensitive(time_metric(v), "change")->valuedouble > 1.0);
    assert_true(cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(time_metric(v), "confirmation")));
    cmp = cJSON_GetObjectItemCaseSensitive(d, "comparison");
    assert_int_equal(
        cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(cmp, "regressed"),
                                         "critical")->valueint,
        1);
    cJSON_Delete(d);
    proc_free(&p);
}

static void test_regression_confirmed_by_rerun(void **state)
{
    proc p;
    const char *args[] = {"run",        tp("slow.yaml"), "--results-dir",  tp("res"),
                          "--baseline", tp("base.json"), "--ignore-param", "slowdown_pct",
                          "--fail-on-regression", "--out", tp("slow2.json"), NULL};
    cJSON *d;
    const cJSON *c;

    (void)state;
    run(&p, args);
    expect_code(&p, 5);
    assert_has(p.out, "confirmed: [+");
    assert_has(p.err, "no --baseline-plugins: weaker");
    d = load(tp("slow2.json"));
    c = cJSON_GetObjectItemCaseSensitive(time_metric(first_verdict(d)), "confirmation");
    assert_true(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(c, "confirmed")));
    assert_true(cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(c, "paired")));
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(c, "candidate_values")),
                     12);
    cJSON_Delete(d);
    proc_free(&p);
}

static void test_abba_with_same_build_is_not_confirmed(void **state)
{
    /* The baseline build is the same plugin: interleaved pairs run the same
       (slowed) case on both sides, so the first verdict does not hold. */
    char plugins[1024];
    proc p;
    const char *args[] = {"run", tp("slow.yaml"), "--results-dir", tp("res"), "--baseline",
                          "main", "--ignore-param", "slowdown_pct", "--fail-on-regression",
                          "--baseline-plugins", plugins, "--out", tp("slow3.json"), NULL};
    cJSON *d;
    const cJSON *m;
    const cJSON *c;

    (void)state;
    snprintf(plugins, sizeof(plugins), "%s/plugins", env_or_fail("BHOST_BUILD_ROOT"));
    run(&p, args);
    expect_code(&p, 0);
    assert_has(p.out, "not confirmed: [");
    assert_has(p.out, "ABBA, 12 pairs");
    d = load(tp("slow3.json"));
    m = time_metric(first_verdict(d));
    assert_string_equal(str_at(m, "initial_verdict"), "regressed");
    assert_string_not_equal(str_at(m, "verdict"), "regressed");
    c = cJSON_GetObjectItemCaseSensitive(m, "confirmation");
    assert_true(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(c, "paired")));
    assert_true(cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(c, "confirmed")));
    assert_int_equal(cJSON_GetObjectItemCaseSensitive(c, "pairs")->valueint, 12);
    assert_string_equal(str_at(c, "test"), "wilcoxon-exact");
    cJSON_Delete(d);
    proc_free(&p);
}

static void test_compare_self(void **state)
{
    /* A result against itself: shift exactly 0, p 1, never a change. */
    proc p;
    const char *args[] = {"compare", tp("base.json"), tp("base.json"), "--json", NULL};
    cJSON *d;
    const cJSON *m;
    const char *v;

    (void)state;
    run(&p, args);
    expect_code(&p, 0);
    d = cJSON_Parse(p.out);
    assert_non_null(d);
    assert_string_equal(str_at(d, "schema"), "bhost.comparison/1");
    m = time_metric(cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(d, "cases"), 0));
    assert_true(cJSON_GetObjectItemCaseSensitive(m, "change")->valuedouble == 0.0);
    assert_true(cJSON_GetObjectItemCaseSensitive(m, "p")->valuedouble == 1.0);
    v = str_at(m, "verdict");
    assert_true(strcmp(v, "no change") == 0 || strcmp(v, "inconclusive") == 0);
    cJSON_Delete(d);
    proc_free(&p);
}

static void test_compare_lines_out_and_fail(void **state)
{
    proc p;
    const char *args[] = {"compare",        tp("base.json"), tp("slow1.json"),
                          "--ignore-param", "slowdown_pct",  "--out",
                          tp("cmp.json"),   "--fail-on-regression", NULL};
    cJSON *d;

    (void)state;
    run(&p, args);
    expect_code(&p, 5);
    assert_has(p.out, "selftest/spin[work=2000,slowdown_pct=300]");
    assert_has(p.out, "regressed (critical)");
    assert_has(p.out, "compared 1 case, 1 test (BH fdr 0.05): 1 regressed (1 critical");
    d = load(tp("cmp.json"));
    assert_string_equal(str_at(d, "schema"), "bhost.comparison/1");
    cJSON_Delete(d);
    proc_free(&p);
    /* Without --ignore-param the ids differ: one new, one missing. */
    {
        const char *a2[] = {"compare", tp("base.json"), tp("slow1.json"), NULL};

        run(&p, a2);
        expect_code(&p, 0);
        assert_has(p.out, "0 regressed");
        assert_has(p.out, "1 new, 1 missing");
        proc_free(&p);
    }
}

static void test_compare_refuses_incomparable(void **state)
{
    proc p;
    cJSON *d = load(tp("base.json"));
    char *text;
    const char *args[] = {"compare", tp("base.json"), tp("other.json"), NULL};
    const char *forced[] = {"compare", tp("base.json"), tp("other.json"), "--force", "--json",
                            NULL};
    cJSON *out;

    (void)state;
    cJSON_ReplaceItemInObjectCaseSensitive(
        cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(d, "system"), "cpu"),
        "model", cJSON_CreateString("Imaginary CPU 9000"));
    text = cJSON_Print(d);
    spit(tp("other.json"), text);
    free(text);
    run(&p, args);
    expect_code(&p, 2);
    assert_has(p.err, "system fingerprints differ: cpu.model");
    assert_has(p.err, "Imaginary CPU 9000");
    assert_has(p.err, "use --force");
    proc_free(&p);
    run(&p, forced);
    expect_code(&p, 0);
    out = cJSON_Parse(p.out);
    assert_non_null(out);
    assert_true(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(out, "forced")));
    assert_has(str_at(out, "system_diff"), "cpu.model");
    cJSON_Delete(out);
    proc_free(&p);
    /* Another config's result. */
    cJSON_ReplaceItemInObjectCaseSensitive(
        cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(d, "run"), "config"),
        "name", cJSON_CreateString("nightly"));
    text = cJSON_Print(d);
    spit(tp("other.json"), text);
    free(text);
    run(&p, args);
    expect_code(&p, 2);
    assert_has(p.err, "different configs ('cmp' != 'nightly')");
    proc_free(&p);
    cJSON_Delete(d);
}

static void test_bad_files(void **state)
{
    proc p;
    const char *missing[] = {"compare", tp("base.json"), tp("nope.json"), NULL};
    const char *bad[] = {"compare", tp("bad.json"), tp("base.json"), NULL};
    const char *notres[] = {"compare", tp("base.json"), tp("notres.json"), NULL};
    const char *nobase[] = {"run", tp("slow.yaml"), "--results-dir", tp("res"), "--baseline",
                            "never-saved", NULL};

    (void)state;
    run(&p, missing);
    expect_code(&p, 4);
    assert_has(p.err, "nope.json");
    assert_int_equal(lines(p.err), 1);
    proc_free(&p);
    spit(tp("bad.json"), "{\"schema\": \"bhost.result/1\",\n \"run\": {,}\n");
    run(&p, bad);
    expect_code(&p, 4);
    assert_has(p.err, "bad.json:2: not valid JSON");
    assert_int_equal(lines(p.err), 1);
    proc_free(&p);
    spit(tp("notres.json"), "{\"schema\": \"other/1\"}");
    run(&p, notres);
    expect_code(&p, 4);
    assert_has(p.err, "notres.json: expected \"schema\": \"bhost.result/1\"");
    proc_free(&p);
    run(&p, nobase);
    expect_code(&p, 4);
    assert_has(p.err, "res/cmp/baselines/never-saved.json");
    assert_int_equal(lines(p.err), 1);
    proc_free(&p);
}

static void test_bad_regression_section(void **state)
{
    proc p;
    const char *args[] = {"run", tp("badreg.yaml"), "--results-dir", tp("res"), NULL};
    const char *cmp[] = {"compare", tp("base.json"), tp("base.json"), "--config",
                         tp("badreg.yaml"), NULL};

    (void)state;
    write_config("badreg.yaml", -1, "regression:\n  noise_flor: 2%\n");
    run(&p, args);
    expect_code(&p, 3);
    assert_has(p.err, "badreg.yaml:9:15: regression.noise_flor: unknown key 'noise_flor' (did "
                      "you mean 'noise_floor'?)");
    assert_int_equal(lines(p.err), 1);
    proc_free(&p);
    run(&p, cmp);
    expect_code(&p, 3);
    assert_has(p.err, "did you mean 'noise_floor'");
    proc_free(&p);
}

static void test_concurrent_save_baseline(void **state)
{
    proc a, b;
    const char *args[] = {"run", tp("base.yaml"), "--results-dir", tp("res"), "--save-baseline",
                          "twice", "--quiet", "--runs", "2", NULL};
    cJSON *d;

    (void)state;
    start(&a, args);
    start(&b, args);
    finish(&a);
    finish(&b);
    expect_code(&a, 0);
    expect_code(&b, 0);
    d = load(tp("res/cmp/baselines/twice.json"));
    assert_string_equal(str_at(d, "schema"), "bhost.result/1");
    cJSON_Delete(d);
    proc_free(&a);
    proc_free(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_saved_baseline_is_a_result),
        cmocka_unit_test(test_regression_fails_without_confirm),
        cmocka_unit_test(test_regression_confirmed_by_rerun),
        cmocka_unit_test(test_abba_with_same_build_is_not_confirmed),
        cmocka_unit_test(test_compare_self),
        cmocka_unit_test(test_compare_lines_out_and_fail),
        cmocka_unit_test(test_compare_refuses_incomparable),
        cmocka_unit_test(test_bad_files),
        cmocka_unit_test(test_bad_regression_section),
        cmocka_unit_test(test_concurrent_save_baseline),
    };

    return cmocka_run_group_tests(tests, setup, teardown);
}
