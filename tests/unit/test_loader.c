// SPDX-License-Identifier: MIT
/* Unit tests for host/loader: the plugin search path (BHOST_PLUGIN_PATH
 * first, then the config's dirs, never the current directory), finding and
 * listing plugin files, and opening every misbehaving fixture with its own
 * message. The fixtures are real .so files under
 * $BHOST_BUILD_ROOT/tests/fixtures. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "bh_fs.h"
#include "bh_mem.h"
#include "host_api.h"
#include "loader.h"

#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* ---- helpers ---------------------------------------------------------- */

static const char *build_root(void)
{
    const char *r = getenv("BHOST_BUILD_ROOT");

    if (!r || !*r)
        fail_msg("BHOST_BUILD_ROOT is not set (run through meson test)");
    return r;
}

/* Path of a fixture file (free() it). */
static char *fixture(const char *file)
{
    return bh_xasprintf("%s/tests/fixtures/%s", build_root(), file);
}

static char *make_tmpdir(void)
{
    const char *base = getenv("TMPDIR");
    char *dir = bh_xasprintf("%s/bh_loader_XXXXXX",
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

/* Creates dir/name with some text (free() the returned path). */
static char *touch(const char *dir, const char *name)
{
    char *p = bh_xasprintf("%s/%s", dir, name);
    FILE *f = fopen(p, "w");

    assert_non_null(f);
    fputs("not really a plugin\n", f);
    fclose(f);
    return p;
}

static char *real(const char *path)
{
    char buf[PATH_MAX];

    assert_non_null(realpath(path, buf));
    return bh_xstrdup(buf);
}

static const char *base_name(const char *p)
{
    const char *s = strrchr(p, '/');

    return s ? s + 1 : p;
}

/* Saves and restores BHOST_PLUGIN_PATH around each test. */
static char *saved_env;

static int save_env(void **state)
{
    const char *v = getenv("BHOST_PLUGIN_PATH");

    (void)state;
    saved_env = v ? bh_xstrdup(v) : NULL;
    return 0;
}

static int restore_env(void **state)
{
    (void)state;
    if (saved_env)
        setenv("BHOST_PLUGIN_PATH", saved_env, 1);
    else
        unsetenv("BHOST_PLUGIN_PATH");
    free(saved_env);
    saved_env = NULL;
    return 0;
}

/* ---- search path ------------------------------------------------------ */

static void test_search_path_order(void **state)
{
    char *d1 = make_tmpdir(), *d2 = make_tmpdir(), *d3 = make_tmpdir();
    char *env = bh_xasprintf("%s::%s:%s:", d1, d2, d1);
    char *cfg[] = {d3, d2};
    char *tree = bh_xasprintf("%s/plugins/+", build_root());
    bh_search_path sp;

    (void)state;
    setenv("BHOST_PLUGIN_PATH", env, 1);
    bh_search_path_init(&sp, cfg, 2);
    /* environment first (in order, duplicates and empty elements dropped),
     * then the config's dirs, then the build tree (this test runs from
     * it), then the installed directory */
    assert_int_equal(sp.n, 5);
    assert_string_equal(sp.dirs[0], d1);
    assert_string_equal(sp.dirs[1], d2);
    assert_string_equal(sp.dirs[2], d3);
    assert_string_equal(sp.dirs[3], tree);
    assert_non_null(strstr(sp.dirs[4], "bhost/plugins"));
    for (size_t i = 0; i < sp.n; i++) {
        assert_true(sp.dirs[i][0] != '\0');
        assert_string_not_equal(sp.dirs[i], ".");
    }
    bh_search_path_free(&sp);
    assert_int_equal(sp.n, 0);
    assert_null(sp.dirs);

    unsetenv("BHOST_PLUGIN_PATH");
    bh_search_path_init(&sp, cfg, 2);
    assert_int_equal(sp.n, 4);
    assert_string_equal(sp.dirs[0], d3);
    assert_string_equal(sp.dirs[1], d2);
    bh_search_path_free(&sp);

    rm_rf(d1), rm_rf(d2), rm_rf(d3);
    free(d1), free(d2), free(d3), free(env), free(tree);
}

static void test_find_by_name_and_path(void **state)
{
    char *d1 = make_tmpdir(), *d2 = make_tmpdir(), *d3 = make_tmpdir();
    char *env = bh_xasprintf("%s:%s", d1, d2);
    char *sub = bh_xasprintf("%s/sub", d3);
    char *plus = bh_xasprintf("%s/+", d3);
    char *cfg[] = {plus};
    char *a1, *a2, *b2, *g3, *want, *got, *missing;
    bh_search_path sp;
    bh_error e = {""};

    (void)state;
    assert_int_equal(mkdir(sub, 0755), 0);
    a1 = touch(d1, "alpha.so");
    a2 = touch(d2, "alpha.so");
    b2 = touch(d2, "beta.so");
    g3 = touch(sub, "gamma.so");
    setenv("BHOST_PLUGIN_PATH", env, 1);
    bh_search_path_init(&sp, cfg, 1);

    /* the first directory that has the file wins */
    got = bh_loader_find(&sp, "alpha", &e);
    want = real(a1);
    assert_non_null(got);
    assert_string_equal(got, want);
    free(got), free(want);
    got = bh_loader_find(&sp, "beta", &e);
    want = real(b2);
    assert_string_equal(got, want);
    free(got), free(want);
    /* "dir/+" searches the immediate subdirectories */
    got = bh_loader_find(&sp, "gamma", &e);
    want = real(g3);
    assert_non_null(got);
    assert_string_equal(got, want);
    free(got), free(want);

    /* an explicit path is used as given, made absolute */
    got = bh_loader_find(&sp, a2, &e);
    want = real(a2);
    assert_string_equal(got, want);
    free(got), free(want);
    missing = bh_xasprintf("%s/nope.so", d2);
    assert_null(bh_loader_find(&sp, missing, &e));
    assert_non_null(strstr(e.msg, missing));
    assert_non_null(strstr(e.msg, "does not exist"));

    bh_search_path_free(&sp);
    rm_rf(d1), rm_rf(d2), rm_rf(d3);
    free(d1), free(d2), free(d3), free(env), free(sub), free(plus);
    free(a1), free(a2), free(b2), free(g3), free(missing);
}

/* A plugin-named file in the current directory is never found by name,
 * and the not-found message lists every searched directory. */
static void test_find_never_cwd(void **state)
{
    char *cwd = make_tmpdir(), *empty = make_tmpdir();
    char *env = bh_xasprintf(":%s::", empty);
    char *f = touch(cwd, "cwdplug.so");
    char old[PATH_MAX];
    char want[64];
    bh_search_path sp;
    bh_error e = {""};
    char *got;

    (void)state;
    assert_non_null(getcwd(old, sizeof(old)));
    assert_int_equal(chdir(cwd), 0);
    setenv("BHOST_PLUGIN_PATH", env, 1);
    bh_search_path_init(&sp, NULL, 0);
    for (size_t i = 0; i < sp.n; i++)
        assert_string_not_equal(sp.dirs[i], cwd);
    got = bh_loader_find(&sp, "cwdplug", &e);
    if (got)
        fail_msg("found %s in the current directory", got);
    assert_non_null(strstr(e.msg, "plugin 'cwdplug' not found"));
    assert_non_null(strstr(e.msg, "cwdplug.so"));
    /* every directory is named, in order, colon-separated */
    {
        char *p = e.msg;
        for (size_t i = 0; i < sp.n; i++) {
            size_t dl = strlen(sp.dirs[i]);
            char *shown = bh_xstrdup(sp.dirs[i]);
            char *hit;

            /* a "dir/+" entry may be displayed with a star for the plus */
            if (dl >= 2 && strcmp(shown + dl - 2, "/+") == 0 &&
                !strstr(p, shown))
                shown[dl - 1] = '*';
            hit = strstr(p, shown);
            if (!hit)
                fail_msg("dir %s missing in: %s", sp.dirs[i], e.msg);
            p = hit + strlen(shown);
            free(shown);
            if (i + 1 < sp.n)
                assert_int_equal(*p, ':');
        }
    }
    snprintf(want, sizeof(want), "%s", empty);
    assert_non_null(strstr(e.msg, want));
    bh_search_path_free(&sp);

    /* an empty search path is said so */
    unsetenv("BHOST_PLUGIN_PATH");
    memset(&sp, 0, sizeof(sp));
    assert_null(bh_loader_find(&sp, "cwdplug", &e));
    assert_non_null(strstr(e.msg, "empty search path"));

    assert_int_equal(chdir(old), 0);
    rm_rf(cwd), rm_rf(empty);
    free(cwd), free(empty), free(env), free(f);
}

/* Counts list entries with the given file name; returns the last one. */
static size_t count_named(char **files, size_t n, const char *name,
                          const char **which)
{
    size_t k = 0;

    for (size_t i = 0; i < n; i++)
        if (strcmp(base_name(files[i]), name) == 0) {
            k++;
            if (which)
                *which = files[i];
        }
    return k;
}

static void free_list(char **files, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(files[i]);
    free(files);
}

static void test_list_dedup(void **state)
{
    char *d1 = make_tmpdir(), *d2 = make_tmpdir();
    char *env = bh_xasprintf("%s:%s", d1, d2);
    char *fx1 = touch(d1, "fxl_x.so"), *fy1 = touch(d1, "fxl_y.so");
    char *ft1 = touch(d1, "fxl_readme.txt");
    char *fx2 = touch(d2, "fxl_x.so"), *fw2 = touch(d2, "fxl_w.so");
    char *fv2 = touch(d2, "fxl_v.so.1");
    char *dir_so = bh_xasprintf("%s/fxl_dir.so", d2);
    char **files = NULL;
    size_t n = 0;
    const char *which = NULL;
    char *want;
    bh_search_path sp;

    (void)state;
    assert_int_equal(mkdir(dir_so, 0755), 0);
    setenv("BHOST_PLUGIN_PATH", env, 1);
    bh_search_path_init(&sp, NULL, 0);
    bh_loader_list(&sp, &files, &n);
    assert_int_equal(count_named(files, n, "fxl_x.so", &which), 1);
    want = real(fx1);
    assert_string_equal(which, want); /* the first directory's copy */
    free(want);
    assert_int_equal(count_named(files, n, "fxl_y.so", NULL), 1);
    assert_int_equal(count_named(files, n, "fxl_w.so", NULL), 1);
    assert_int_equal(count_named(files, n, "fxl_readme.txt", NULL), 0);
    assert_int_equal(count_named(files, n, "fxl_v.so.1", NULL), 0);
    assert_int_equal(count_named(files, n, "fxl_dir.so", NULL), 0);
    /* the build tree's plugins are listed through "plugins/+" */
    assert_int_equal(count_named(files, n, "selftest.so", NULL), 1);
    /* sorted by file name, every path absolute */
    for (size_t i = 0; i < n; i++) {
        assert_int_equal(files[i][0], '/');
        if (i > 0)
            assert_true(strcmp(base_name(files[i - 1]),
                               base_name(files[i])) <= 0);
    }
    free_list(files, n);
    bh_search_path_free(&sp);
    rm_rf(d1), rm_rf(d2);
    free(d1), free(d2), free(env), free(fx1), free(fy1), free(ft1);
    free(fx2), free(fw2), free(fv2), free(dir_so);
}

/* "first occurrence of each file name wins" must hold when the first one
 * is a symlink (plugins installed as links to versioned files). */
static void test_list_dedup_symlink(void **state)
{
    char *d1 = make_tmpdir(), *d2 = make_tmpdir();
    char *env = bh_xasprintf("%s:%s", d1, d2);
    char *target = touch(d1, "fxs_real_v1.bin");
    char *link_path = bh_xasprintf("%s/fxs_dup.so", d1);
    char *copy = touch(d2, "fxs_dup.so");
    char **files = NULL;
    size_t n = 0;
    size_t named = 0;
    bh_search_path sp;

    (void)state;
    assert_int_equal(symlink(target, link_path), 0);
    setenv("BHOST_PLUGIN_PATH", env, 1);
    bh_search_path_init(&sp, NULL, 0);
    bh_loader_list(&sp, &files, &n);
    {
        char *r1 = real(d1), *r2 = real(d2);

        for (size_t i = 0; i < n; i++)
            if (strncmp(files[i], r1, strlen(r1)) == 0 ||
                strncmp(files[i], r2, strlen(r2)) == 0)
                named++;
        free(r1), free(r2);
    }
    free_list(files, n);
    bh_search_path_free(&sp);
    rm_rf(d1), rm_rf(d2);
    free(d1), free(d2), free(env), free(target), free(link_path), free(copy);
    /* Regression: bh_loader_list once stored realpath()s and deduped on their file
     * name, so the symlink d1/fxs_dup.so is listed as fxs_real_v1.bin and
     * d2/fxs_dup.so is listed as well: two entries for one name. */
    assert_int_equal(named, 1);
}

/* ---- opening fixtures ------------------------------------------------- */

/* Opens a fixture that must fail and checks its message; returns the
 * message without the leading path (free() it). */
static char *open_fails(const char *file, const char *phrase)
{
    char *path = fixture(file);
    bh_plugin p;
    bh_error e = {""};
    char *tail;
    int rc = bh_loader_open(path, bh_host_api_get(), &p, &e);

    free(p.path);
    if (rc != -1)
        fail_msg("%s opened, expected failure '%s'", file, phrase);
    if (strncmp(e.msg, path, strlen(path)) != 0)
        fail_msg("message '%s' does not start with the path", e.msg);
    if (!strstr(e.msg, phrase))
        fail_msg("message '%s' lacks '%s'", e.msg, phrase);
    assert_null(strchr(e.msg, '\n'));
    tail = bh_xstrdup(e.msg + strlen(path));
    free(path);
    return tail;
}

static void test_open_good_fixtures(void **state)
{
    bh_plugin p;
    bh_error e = {""};
    char *path = fixture("fx_faults.so");
    char *future = fixture("fx_future.so");
    char *cpu = bh_xasprintf("%s/plugins/backend-cpu/backend-cpu.so",
                             build_root());

    (void)state;
    assert_int_equal(bh_loader_open(path, bh_host_api_get(), &p, &e), 0);
    assert_string_equal(p.path, path);
    assert_string_equal(p.entry->name, "fx_faults");
    assert_string_equal(p.entry->plugin_id, "org.bhost.fx_faults");
    assert_non_null(p.benchmarks);
    assert_null(p.backend);
    assert_int_equal(p.benchmarks->count(), 10);
    assert_string_equal(p.benchmarks->get(0)->id, "ok");
    assert_string_equal(p.benchmarks->get(1)->id, "crash");
    free(p.path);

    /* a plugin of the next minor with larger structs loads; its tails are
     * ignored */
    assert_int_equal(bh_loader_open(future, bh_host_api_get(), &p, &e), 0);
    assert_int_equal(p.entry->abi_minor, BHOST_ABI_MINOR + 1);
    assert_true(p.entry->struct_size > BHOST_ENTRY_SIZE_1_0);
    assert_int_equal(p.benchmarks->count(), 1);
    assert_string_equal(p.benchmarks->get(0)->id, "ok");
    free(p.path);

    if (bh_is_regular_file(cpu)) {
        assert_int_equal(bh_loader_open(cpu, bh_host_api_get(), &p, &e), 0);
        assert_non_null(p.backend);
        assert_string_equal(p.backend->id, "cpu");
        free(p.path);
    }
    free(path), free(future), free(cpu);
}

static void test_open_bad_fixtures(void **state)
{
    static const struct {
        const char *file;
        const char *phrase;
    } bad[] = {
        {"fx_bad_major.so", "plugin ABI major 2, this host speaks 1"},
        {"fx_small_struct.so",
         "struct_size is 16, smaller than the ABI 1.0 size"},
        {"fx_no_entry.so", "no entry symbol bhost_entry_v1"},
        {"fx_not_elf.so", "not a shared object (no ELF header)"},
        {"fx_no_iface.so", "(missing interfaces)"},
        {"fx_init_fail.so", "init failed with status"},
    };
    char *tails[sizeof(bad) / sizeof(bad[0])];
    size_t nb = sizeof(bad) / sizeof(bad[0]);

    (void)state;
    for (size_t i = 0; i < nb; i++)
        tails[i] = open_fails(bad[i].file, bad[i].phrase);
    /* init failures carry the plugin's own set_error() text */
    assert_non_null(strstr(tails[nb - 1], ": license file missing"));
    /* each failure has its own message */
    for (size_t i = 0; i < nb; i++)
        for (size_t j = 0; j < nb; j++)
            if (i != j)
                assert_null(strstr(tails[j], bad[i].phrase));
    for (size_t i = 0; i < nb; i++)
        free(tails[i]);
}

static void test_open_not_a_plugin_file(void **state)
{
    char *dir = make_tmpdir();
    char *missing = bh_xasprintf("%s/missing.so", dir);
    char *empty = touch(dir, "empty.so");
    char *obj = bh_xasprintf("%s/tests/fixtures/fx_faults.so.p/fx_faults.c.o",
                             build_root());
    bh_plugin p;
    bh_error e = {""};

    (void)state;
    assert_int_equal(bh_loader_open(missing, bh_host_api_get(), &p, &e), -1);
    assert_non_null(strstr(e.msg, "cannot open"));
    assert_int_equal(truncate(empty, 0), 0);
    assert_int_equal(bh_loader_open(empty, bh_host_api_get(), &p, &e), -1);
    assert_non_null(strstr(e.msg, "not a shared object"));
    /* a relocatable object is ELF but not ET_DYN */
    if (bh_is_regular_file(obj)) {
        assert_int_equal(bh_loader_open(obj, bh_host_api_get(), &p, &e), -1);
        assert_non_null(strstr(e.msg, "not a shared object (ELF type 1)"));
    }
    rm_rf(dir);
    free(dir), free(missing), free(empty), free(obj);
}

/* init() aborts: run in a child, which must die of SIGABRT (the loader
 * cannot and must not survive it; the worker process absorbs it). */
static void test_open_abort_init(void **state)
{
    char *path = fixture("fx_abort_init.so");
    int status = 0;
    pid_t pid;

    (void)state;
    fflush(NULL);
    pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        bh_plugin p;
        bh_error e = {""};
        int fd = open("/dev/null", O_WRONLY);

        signal(SIGABRT, SIG_DFL);
        if (fd >= 0)
            dup2(fd, 2);
        bh_loader_open(path, bh_host_api_get(), &p, &e);
        _exit(0);
    }
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFSIGNALED(status));
    assert_int_equal(WTERMSIG(status), SIGABRT);
    free(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_search_path_order, save_env,
                                        restore_env),
        cmocka_unit_test_setup_teardown(test_find_by_name_and_path, save_env,
                                        restore_env),
        cmocka_unit_test_setup_teardown(test_find_never_cwd, save_env,
                                        restore_env),
        cmocka_unit_test_setup_teardown(test_list_dedup, save_env,
                                        restore_env),
        cmocka_unit_test_setup_teardown(test_list_dedup_symlink, save_env,
                                        restore_env),
        cmocka_unit_test(test_open_abort_init),
        cmocka_unit_test(test_open_good_fixtures),
        cmocka_unit_test(test_open_bad_fixtures),
        cmocka_unit_test(test_open_not_a_plugin_file),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
