// SPDX-License-Identifier: MIT
#define _GNU_SOURCE
#include "proc_util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

/* bhost processes started and not yet finished: never reaped as orphans. */
static pid_t running[64];
static size_t n_running;

static char tmp_root[512];

const char *tp_env(const char *name)
{
    const char *v = getenv(name);

    if (!v || !*v) {
        fprintf(stderr, "%s is not set (run through meson test)\n", name);
        exit(1);
    }
    return v;
}

const char *tp_init(const char *prefix)
{
    const char *base = getenv("TMPDIR");
    const char *asan = getenv("ASAN_OPTIONS");
    char opts[1024];

    if (prctl(PR_SET_CHILD_SUBREAPER, 1) != 0)
        return NULL;
    /* crash fixtures must die of their signal in sanitizer builds too */
    if (!asan || !strstr(asan, "handle_segv")) {
        snprintf(opts, sizeof(opts), "%s%shandle_segv=0:handle_sigbus=0:"
                 "handle_sigfpe=0:handle_abort=0",
                 asan ? asan : "", asan && *asan ? ":" : "");
        setenv("ASAN_OPTIONS", opts, 1);
    }
    snprintf(tmp_root, sizeof(tmp_root), "%s/%s_XXXXXX",
             base && *base ? base : "/tmp", prefix);
    return mkdtemp(tmp_root);
}

char *tp_slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    char *buf;
    long n;

    if (!f)
        return strdup("");
    fseek(f, 0, SEEK_END);
    n = ftell(f);
    fseek(f, 0, SEEK_SET);
    buf = calloc(1, (size_t)(n > 0 ? n : 0) + 1);
    if (buf && n > 0 && fread(buf, 1, (size_t)n, f) != (size_t)n)
        buf[0] = '\0';
    fclose(f);
    return buf;
}

int tp_write(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    int rc;

    if (!f)
        return -1;
    rc = fputs(text, f) < 0 ? -1 : 0;
    return fclose(f) != 0 ? -1 : rc;
}

void tp_rm_rf(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *de;

    while (d && (de = readdir(d))) {
        char p[2048];
        struct stat st;

        if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
            continue;
        snprintf(p, sizeof(p), "%s/%s", dir, de->d_name);
        if (lstat(p, &st) == 0 && S_ISDIR(st.st_mode)) {
            chmod(p, 0700);
            tp_rm_rf(p);
        } else {
            unlink(p);
        }
    }
    if (d)
        closedir(d);
    rmdir(dir);
}

void tp_start(tp_proc *p, const char *dir, const char *const *args)
{
    static int serial;
    const char *exe = tp_env("BHOST_EXE");
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
    snprintf(p->out_path, sizeof(p->out_path), "%s/stdout.%d.%d", dir,
             (int)getpid(), serial);
    snprintf(p->err_path, sizeof(p->err_path), "%s/stderr.%d.%d", dir,
             (int)getpid(), serial);
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 1, p->out_path,
                                     O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_addopen(&fa, 2, p->err_path,
                                     O_WRONLY | O_CREAT | O_TRUNC, 0644);
    rc = posix_spawn(&p->pid, exe, &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    if (rc != 0) {
        fprintf(stderr, "cannot start %s: %s\n", exe, strerror(rc));
        exit(1);
    }
    if (n_running < sizeof(running) / sizeof(running[0]))
        running[n_running++] = p->pid;
}

void tp_finish(tp_proc *p)
{
    int st = 0;

    while (waitpid(p->pid, &st, 0) < 0)
        if (errno != EINTR) {
            fprintf(stderr, "waitpid %d: %s\n", (int)p->pid, strerror(errno));
            exit(1);
        }
    for (size_t i = 0; i < n_running; i++)
        if (running[i] == p->pid)
            running[i] = running[--n_running];
    p->code = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
    p->out = tp_slurp(p->out_path);
    p->err = tp_slurp(p->err_path);
    unlink(p->out_path);
    unlink(p->err_path);
}

void tp_run(tp_proc *p, const char *dir, const char *const *args)
{
    tp_start(p, dir, args);
    tp_finish(p);
}

void tp_proc_free(tp_proc *p)
{
    free(p->out);
    free(p->err);
    p->out = p->err = NULL;
}

void tp_sleep_ms(int ms)
{
    struct timespec t = {ms / 1000, (long)(ms % 1000) * 1000000L};

    while (nanosleep(&t, &t) != 0 && errno == EINTR)
        ;
}

/* Reads /proc/<pid>/stat: the state letter and the parent pid. 0 or -1. */
static int proc_stat(pid_t pid, char *state, pid_t *ppid)
{
    char path[64];
    char buf[1024];
    FILE *f;
    size_t n;
    const char *rp;
    int pp = 0;

    snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
    if (!(f = fopen(path, "r")))
        return -1;
    n = fread(buf, 1, sizeof(buf) - 1, f);
    fclose(f);
    buf[n] = '\0';
    rp = strrchr(buf, ')');
    if (!rp || sscanf(rp + 1, " %c %d", state, &pp) != 2)
        return -1;
    *ppid = (pid_t)pp;
    return 0;
}

/* The command line of pid with NULs shown as spaces, into buf. */
static void proc_cmdline(pid_t pid, char *buf, size_t cap)
{
    char path[64];
    FILE *f;
    size_t n;

    snprintf(path, sizeof(path), "/proc/%d/cmdline", (int)pid);
    buf[0] = '\0';
    if (!(f = fopen(path, "r")))
        return;
    n = fread(buf, 1, cap - 1, f);
    fclose(f);
    buf[n] = '\0';
    for (size_t i = 0; i + 1 < n; i++)
        if (buf[i] == '\0')
            buf[i] = ' ';
}

static int is_running_bhost(pid_t pid)
{
    for (size_t i = 0; i < n_running; i++)
        if (running[i] == pid)
            return 1;
    return 0;
}

/* Scans /proc for children of this process that tp_start did not start:
 * reaps the dead ones, reports the live ones. Returns the live count. */
static int scan_orphans(int *reaped, char *report, size_t cap)
{
    DIR *d = opendir("/proc");
    struct dirent *de;
    pid_t me = getpid();
    int live = 0;
    size_t used = 0;

    if (report && cap)
        report[0] = '\0';
    while (d && (de = readdir(d))) {
        pid_t pid;
        pid_t ppid;
        char state;

        if (de->d_name[0] < '1' || de->d_name[0] > '9')
            continue;
        pid = (pid_t)atoi(de->d_name);
        if (proc_stat(pid, &state, &ppid) != 0 || ppid != me ||
            is_running_bhost(pid))
            continue;
        if (state == 'Z' || state == 'X') {
            if (waitpid(pid, NULL, WNOHANG) == pid && reaped)
                (*reaped)++;
            continue;
        }
        live++;
        if (report && used + 1 < cap) {
            char cmd[256];
            int w;

            proc_cmdline(pid, cmd, sizeof(cmd));
            w = snprintf(report + used, cap - used, "%d %s\n", (int)pid, cmd);
            if (w > 0)
                used += (size_t)w < cap - used ? (size_t)w : cap - used - 1;
        }
    }
    if (d)
        closedir(d);
    return live;
}

int tp_reap_orphans(void)
{
    int reaped = 0;

    scan_orphans(&reaped, NULL, 0);
    return reaped;
}

int tp_live_orphans(int timeout_ms, char *report, size_t cap)
{
    int live = scan_orphans(NULL, report, cap);

    for (int waited = 0; live > 0 && waited < timeout_ms; waited += 20) {
        tp_sleep_ms(20);
        live = scan_orphans(NULL, report, cap);
    }
    return live;
}

int tp_wait_pid(pid_t pid, int timeout_ms, int *status)
{
    for (int waited = 0;; waited += 20) {
        pid_t r = waitpid(pid, status, WNOHANG);

        if (r == pid)
            return 1;
        if (r < 0)
            return -1;
        if (waited >= timeout_ms)
            return 0;
        tp_sleep_ms(20);
    }
}

/* Fills pids (cap) with the zombie children of parent; returns how many. */
static size_t zombie_children(pid_t parent, pid_t *pids, size_t cap)
{
    DIR *d = opendir("/proc");
    struct dirent *de;
    size_t n = 0;

    while (d && n < cap && (de = readdir(d))) {
        char state;
        pid_t ppid;
        pid_t pid;

        if (de->d_name[0] < '1' || de->d_name[0] > '9')
            continue;
        pid = (pid_t)atoi(de->d_name);
        if (proc_stat(pid, &state, &ppid) == 0 && ppid == parent &&
            state == 'Z')
            pids[n++] = pid;
    }
    if (d)
        closedir(d);
    return n;
}

int tp_lasting_zombies(pid_t parent, int ms)
{
    pid_t before[64], after[64];
    size_t nb = zombie_children(parent, before, 64), na;
    int lasting = 0;

    tp_sleep_ms(ms);
    na = zombie_children(parent, after, 64);
    for (size_t i = 0; i < nb; i++)
        for (size_t j = 0; j < na; j++)
            lasting += before[i] == after[j];
    return lasting;
}

pid_t tp_worker_child(pid_t parent)
{
    DIR *d = opendir("/proc");
    struct dirent *de;
    pid_t found = 0;

    while (d && !found && (de = readdir(d))) {
        char path[300];
        char buf[1024];
        FILE *f;
        size_t n;
        char state;
        pid_t ppid;
        pid_t pid;

        if (de->d_name[0] < '1' || de->d_name[0] > '9')
            continue;
        pid = (pid_t)atoi(de->d_name);
        if (proc_stat(pid, &state, &ppid) != 0 || ppid != parent ||
            state == 'Z')
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
            found = pid;
    }
    if (d)
        closedir(d);
    return found;
}
