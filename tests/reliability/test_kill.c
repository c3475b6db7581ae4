// SPDX-License-Identifier: MIT
/* Reliability of the results folder when bhost is killed or run several
 * times at once (tests/reliability/meson.build runs it in CI).
 *
 *   test_kill [--kills N] [--seed S] [--concurrent M]
 *
 * Kill phase: starts "bhost run" on a small config N times (default 30)
 * and SIGKILLs it after a random delay (seeded; spread over the whole
 * length of an unkilled run, measured first). After every kill: each
 * *.json under the results folder (results and the baseline saved with
 * --save-baseline) must pass the strict reader bh_result_read, every other
 * file must be a temporary file whose name does not end in ".json", and no
 * worker may outlive its killed supervisor (this process is the subreaper:
 * orphans land here). The results store's SQLite files (bhost.db, -wal,
 * -shm, -journal), when bhost run keeps one there, are allowed, and the
 * store must open afterwards. Then a normal run must succeed, and bhost
 * history must count exactly the complete results.
 *
 * Concurrent phase: M (default 6) runs started at once into one results
 * folder, all saving the same baseline name: M distinct valid result
 * files, no temporary file left, and the baseline is byte-identical to one
 * of the M results.
 *
 * Prints "kills: N, results: R, temp files left: T, corrupt: 0" for the
 * record. Exit 0 when every check held. */
#define _GNU_SOURCE
#include "proc_util.h"
#include "result_read.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static const char config_yaml[] =
    "schema: 1\n"
    "name: kill\n"
    "defaults: {warmup: 0, sample_time: 1ms, samples: 3, runs: 4,\n"
    "           timeout: 30s, seed: 5}\n"
    "suites:\n"
    "  - plugin: fx_faults\n"
    "    include: [ok, badverify]\n";

/* What one look at a results folder found. */
typedef struct scan {
    int results;  /* *.json that passed the strict reader */
    int temps;    /* temporary files (name contains ".tmp.") */
    int store;    /* the results store's SQLite files (bhost.db*) */
    int bad;      /* anything else: a corrupt result, an odd file */
    char first_bad[1200];
} scan;

static uint64_t rng_state;

/* xorshift64*: the delays are reproducible from --seed. */
static uint64_t rng_next(void)
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * UINT64_C(2685821657736338717);
}

static uint64_t now_us(void)
{
    struct timespec t;

    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000u + (uint64_t)t.tv_nsec / 1000u;
}

static void sleep_us(uint64_t us)
{
    struct timespec t = {(time_t)(us / 1000000u), (long)(us % 1000000u) * 1000};

    while (nanosleep(&t, &t) != 0 && errno == EINTR)
        ;
}

/* Checks every file under dir (recursively) into s. */
static void scan_dir(const char *dir, scan *s)
{
    DIR *d = opendir(dir);
    struct dirent *de;

    while (d && (de = readdir(d))) {
        char path[1100];
        struct stat st;
        size_t n = strlen(de->d_name);

        if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
            continue;
        snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
        if (lstat(path, &st) != 0)
            continue;
        if (S_ISDIR(st.st_mode)) {
            scan_dir(path, s);
        } else if (n > 5 && strcmp(de->d_name + n - 5, ".json") == 0) {
            bh_error e = {""};
            cJSON *doc = bh_result_read(path, &e);

            if (doc) {
                s->results++;
            } else if (s->bad++ == 0) {
                snprintf(s->first_bad, sizeof(s->first_bad), "%s", e.msg);
            }
            cJSON_Delete(doc);
        } else if (strstr(de->d_name, ".json.tmp.")) {
            s->temps++;
        } else if (strncmp(de->d_name, "bhost.db", 8) == 0 &&
                   (n == 8 || strcmp(de->d_name + 8, "-wal") == 0 ||
                    strcmp(de->d_name + 8, "-shm") == 0 ||
                    strcmp(de->d_name + 8, "-journal") == 0)) {
            s->store++;
        } else if (s->bad++ == 0) {
            snprintf(s->first_bad, sizeof(s->first_bad),
                     "%s: unexpected file", path);
        }
    }
    if (d)
        closedir(d);
}

/* Fails the process with a message. */
static void die(const char *what, const char *detail)
{
    fprintf(stderr, "test_kill: FAIL: %s%s%s\n", what, detail ? ": " : "",
            detail ? detail : "");
    exit(1);
}

/* A normal run into results must succeed; returns its duration in us. */
static uint64_t normal_run(const char *tmp, const char *cfg,
                           const char *results)
{
    const char *args[] = {"run", cfg, "--results-dir", results, "--quiet",
                          "--save-baseline", "kill", NULL};
    uint64_t t0 = now_us();
    tp_proc p;

    tp_run(&p, tmp, args);
    if (p.code != 1) /* badverify makes it exit 1 */
        die("a normal run failed", p.err);
    tp_proc_free(&p);
    return now_us() - t0;
}

/* bhost history, a real consumer of the folder, must read exactly the n
 * complete results (no temporary file, not the baseline). */
static void history_sees_results(const char *tmp, const char *results, int n)
{
    const char *args[] = {"history", results, NULL};
    char want[64];
    tp_proc p;

    tp_run(&p, tmp, args);
    snprintf(want, sizeof(want), ": %d result files,", n);
    if (p.code != 0 || !strstr(p.out, want))
        die("bhost history does not see exactly the complete results",
            p.code != 0 ? p.err : p.out);
    tp_proc_free(&p);
}

/* When bhost run keeps a results store in the folder (bhost.db), it must
 * still open after the kills: bhost store info exits 0. */
static void store_opens(const char *tmp, const char *results, const scan *s)
{
    const char *args[] = {"store", "info", "--results-dir", results, NULL};
    tp_proc p;

    if (!s->store)
        return;
    tp_run(&p, tmp, args);
    if (p.code != 0)
        die("the results store does not open after the kills", p.err);
    tp_proc_free(&p);
}

/* The kill phase; returns 0. */
static int kill_phase(const char *tmp, const char *cfg, int kills)
{
    char results[700];
    char report[2048];
    uint64_t span;
    scan s = {0};

    snprintf(results, sizeof(results), "%s/results", tmp);
    span = normal_run(tmp, cfg, results);
    for (int k = 0; k < kills; k++) {
        const char *args[] = {"run", cfg, "--results-dir", results,
                              "--quiet", "--save-baseline", "kill", NULL};
        uint64_t delay = rng_next() % (span + span / 5 + 1);
        tp_proc p;

        tp_start(&p, tmp, args);
        sleep_us(delay);
        kill(p.pid, SIGKILL);
        tp_finish(&p);
        tp_proc_free(&p);
        if (tp_live_orphans(10000, report, sizeof(report)) != 0)
            die("a worker outlived its killed supervisor", report);
        memset(&s, 0, sizeof(s));
        scan_dir(results, &s);
        if (s.bad)
            die("corrupt or unexpected file in the results folder",
                s.first_bad);
    }
    normal_run(tmp, cfg, results);
    memset(&s, 0, sizeof(s));
    scan_dir(results, &s);
    if (s.bad)
        die("corrupt file after the final run", s.first_bad);
    history_sees_results(tmp, results, s.results - 1);
    store_opens(tmp, results, &s);
    printf("kills: %d, results: %d (incl. the baseline), temp files left: "
           "%d, corrupt: 0\n",
           kills, s.results, s.temps);
    return 0;
}

/* Reads a whole file (free it). */
static char *read_all(const char *path)
{
    return tp_slurp(path);
}

/* The concurrent phase; returns 0. */
static int concurrent_phase(const char *tmp, const char *cfg, int m)
{
    char results[700];
    char dir[800];
    char base[900];
    tp_proc procs[16];
    DIR *d;
    struct dirent *de;
    int files = 0;
    int same = 0;
    char *baseline;
    scan s = {0};

    if (m > 16)
        m = 16;
    snprintf(results, sizeof(results), "%s/concurrent", tmp);
    for (int i = 0; i < m; i++) {
        const char *args[] = {"run", cfg, "--results-dir", results,
                              "--quiet", "--save-baseline", "same", NULL};

        tp_start(&procs[i], tmp, args);
    }
    for (int i = 0; i < m; i++) {
        tp_finish(&procs[i]);
        if (procs[i].code != 1)
            die("a concurrent run failed", procs[i].err);
        tp_proc_free(&procs[i]);
    }
    scan_dir(results, &s);
    if (s.bad || s.temps)
        die("corrupt or temporary file after concurrent runs",
            s.bad ? s.first_bad : "temporary file left");
    snprintf(dir, sizeof(dir), "%s/kill", results);
    snprintf(base, sizeof(base), "%s/baselines/same.json", dir);
    baseline = read_all(base);
    if (!*baseline)
        die("the baseline was not saved", base);
    d = opendir(dir);
    while (d && (de = readdir(d))) {
        char path[1200];
        size_t n = strlen(de->d_name);
        char *text;

        if (n <= 5 || strcmp(de->d_name + n - 5, ".json") != 0)
            continue;
        snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
        text = read_all(path);
        files++;
        same += strcmp(text, baseline) == 0;
        free(text);
    }
    if (d)
        closedir(d);
    free(baseline);
    if (files != m)
        die("concurrent runs clobbered each other (fewer result files "
            "than runs)", NULL);
    if (same != 1)
        die("the baseline is not one whole result of the runs", NULL);
    printf("concurrent runs: %d, result files: %d, baseline intact\n", m,
           files);
    return 0;
}

int main(int argc, char **argv)
{
    int kills = 30;
    int concurrent = 6;
    uint64_t seed = 1;
    const char *tmp;
    char cfg[600];

    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--kills") == 0 && i + 1 < argc)
            kills = atoi(argv[++i]);
        else if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc)
            seed = strtoull(argv[++i], NULL, 0);
        else if (strcmp(argv[i], "--concurrent") == 0 && i + 1 < argc)
            concurrent = atoi(argv[++i]);
        else {
            fprintf(stderr, "usage: test_kill [--kills N] [--seed S] "
                            "[--concurrent M]\n");
            return 2;
        }
    }
    rng_state = seed ? seed : 1;
    tmp = tp_init("bh_kill");
    if (!tmp)
        die("cannot create a temporary directory", NULL);
    snprintf(cfg, sizeof(cfg), "%s/kill.yaml", tmp);
    if (tp_write(cfg, config_yaml) != 0)
        die("cannot write the config", cfg);
    printf("seed %llu\n", (unsigned long long)seed);
    kill_phase(tmp, cfg, kills);
    if (concurrent > 0)
        concurrent_phase(tmp, cfg, concurrent);
    tp_rm_rf(tmp);
    return 0;
}
