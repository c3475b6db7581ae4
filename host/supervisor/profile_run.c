// SPDX-License-Identifier: MIT
/* See profile_run.h. */
#define _GNU_SOURCE
#include "profile_run.h"

#include "bh_fs.h"
#include "bh_mem.h"
#include "flame.h"
#include "massif_out.h"
#include "tool_env.h"

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

/* The largest profile read to draw its flame graph. */
#define PROF_MAX_BYTES (512u << 20)

static const struct {
    const char *name;    /* as --profile and the result name it */
    const char *program; /* on PATH */
    const char *install; /* what provides the program */
    const char *region;  /* what is profiled */
} tools[] = {
    [BH_PROF_PERF] = {"perf", "perf", "Debian package linux-perf", "run"},
    [BH_PROF_CALLGRIND] = {"callgrind", "valgrind", "Debian package valgrind", "samples"},
    [BH_PROF_MASSIF] = {"massif", "valgrind", "Debian package valgrind", "worker"},
    [BH_PROF_HEAPTRACK] = {"heaptrack", "heaptrack", "Debian package heaptrack", "worker"},
    [BH_PROF_NSYS] = {"nsys", "nsys", "NVIDIA Nsight Systems", "worker"},
    [BH_PROF_ROCPROF] = {"rocprofv3", "rocprofv3", "ROCm's rocprofiler-sdk", "worker"},
};

int bh_prof_tool_parse(const char *name)
{
    if (strcmp(name, "rocprofv") == 0)
        return BH_PROF_ROCPROF;
    for (int t = BH_PROF_PERF; t <= BH_PROF_ROCPROF; t++)
        if (strcmp(name, tools[t].name) == 0)
            return t;
    return -1;
}

const char *bh_prof_tool_name(bh_prof_tool t)
{
    return t >= BH_PROF_PERF && t <= BH_PROF_ROCPROF ? tools[t].name : "none";
}

int bh_prof_check_tool(bh_prof_tool tool, bh_error *e)
{
    char *p;

    if (tool < BH_PROF_PERF || tool > BH_PROF_ROCPROF)
        return 0;
    p = bh_tool_find(tools[tool].program);
    if (!p)
        return bh_error_set(e, "--profile %s: %s not found on PATH (%s)", tools[tool].name,
                            tools[tool].program, tools[tool].install);
    free(p);
    return 0;
}

void bh_prof_check_plan(const bh_prof_request *req, bh_plan *plan)
{
    const char *why = bh_tool_valgrind_refusal();

    if (!req || (req->tool != BH_PROF_CALLGRIND && req->tool != BH_PROF_MASSIF) || !why)
        return;
    for (size_t i = 0; i < plan->n; i++) {
        bh_case *c = &plan->cases[i];

        if (c->pre_status != BH_ST_OK || c->runs)
            continue;
        c->pre_status = BH_ST_UNSUPPORTED;
        free(c->pre_reason);
        c->pre_reason =
            bh_xasprintf("--profile %s cannot run in this build: %s", tools[req->tool].name, why);
    }
}

/* The case id as a file name: letters, digits, '.', '-' and '_' kept,
 * every run of other characters one '_' (new string). */
static char *slug_of(const char *id)
{
    char *s = bh_xmalloc(strlen(id) + 1);
    size_t k = 0;

    for (const char *p = id; *p; p++) {
        int ok = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
                 *p == '.' || *p == '-' || *p == '_';

        if (ok)
            s[k++] = *p;
        else if (k == 0 || s[k - 1] != '_')
            s[k++] = '_';
    }
    while (k > 1 && s[k - 1] == '_')
        k--;
    s[k] = '\0';
    return s;
}

/* Makes the private folder with perf's FIFOs and opens the host's end of
 * ack. */
static int perf_fifos(bh_prof_run *x, bh_error *e)
{
    const char *t = getenv("TMPDIR");

    x->tmp = bh_xasprintf("%s/bhost-profile-XXXXXX", t && *t ? t : "/tmp");
    if (!mkdtemp(x->tmp)) {
        free(x->tmp);
        x->tmp = NULL;
        return bh_error_set(e, "--profile perf: cannot create a folder under %s: %s",
                            t && *t ? t : "/tmp", strerror(errno));
    }
    x->ctl = bh_xasprintf("%s/ctl", x->tmp);
    x->ack = bh_xasprintf("%s/ack", x->tmp);
    if (mkfifo(x->ctl, 0600) != 0 || mkfifo(x->ack, 0600) != 0)
        return bh_error_set(e, "--profile perf: cannot create its control FIFOs in %s: %s", x->tmp,
                            strerror(errno));
    x->ack_fd = open(x->ack, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (x->ack_fd < 0)
        return bh_error_set(e, "--profile perf: cannot open %s: %s", x->ack, strerror(errno));
    return 0;
}

int bh_prof_begin(const bh_prof_request *req, const bh_case *c, bh_prof_run *x, bh_error *e)
{
    char *prog;
    size_t k = 0;

    memset(x, 0, sizeof(*x));
    x->ack_fd = -1;
    if (!req || req->tool == BH_PROF_NONE)
        return 0;
    x->req = req;
    x->slug = slug_of(c->id);
    if (bh_mkdir_p(req->dir, e) != 0)
        return bh_error_prefix(e, "--profile %s: ", tools[req->tool].name);
    switch (req->tool) {
    case BH_PROF_CALLGRIND:
        x->out = bh_xasprintf("%s/%s.callgrind.out", req->dir, x->slug);
        return 0;
    case BH_PROF_PERF:
        x->out = bh_xasprintf("%s/%s.perf.data", req->dir, x->slug);
        if (perf_fifos(x, e) != 0)
            return -1;
        break;
    case BH_PROF_MASSIF:
        x->out = bh_xasprintf("%s/%s.massif.out", req->dir, x->slug);
        x->begin = bh_xasprintf("%s/%s.massif.begin", req->dir, x->slug);
        x->end = bh_xasprintf("%s/%s.massif.end", req->dir, x->slug);
        break;
    default:
        x->out = bh_xasprintf("%s/%s.%s", req->dir, x->slug, tools[req->tool].name);
        break;
    }
    prog = bh_tool_find(tools[req->tool].program);
    if (!prog)
        return bh_error_set(e, "--profile %s: %s is no longer on PATH", tools[req->tool].name,
                            tools[req->tool].program);
    x->argv[k++] = prog;
    switch (req->tool) {
    case BH_PROF_PERF:
        x->argv[k++] = bh_xstrdup("record");
        x->argv[k++] = bh_xstrdup("-q");
        x->argv[k++] = bh_xstrdup("-g");
        x->argv[k++] = bh_xstrdup("-o");
        x->argv[k++] = bh_xstrdup(x->out);
        x->argv[k++] = bh_xasprintf("--control=fifo:%s,%s", x->ctl, x->ack);
        x->argv[k++] = bh_xstrdup("--delay=-1");
        x->argv[k++] = bh_xstrdup("--");
        break;
    case BH_PROF_MASSIF:
        x->argv[k++] = bh_xstrdup("-q");
        x->argv[k++] = bh_xstrdup("--tool=massif");
        x->argv[k++] = bh_xasprintf("--massif-out-file=%s", x->out);
        break;
    case BH_PROF_HEAPTRACK:
        x->argv[k++] = bh_xstrdup("-o");
        x->argv[k++] = bh_xstrdup(x->out);
        break;
    case BH_PROF_NSYS:
        x->argv[k++] = bh_xstrdup("profile");
        x->argv[k++] = bh_xstrdup("--force-overwrite=true");
        x->argv[k++] = bh_xstrdup("-o");
        x->argv[k++] = bh_xstrdup(x->out);
        break;
    case BH_PROF_ROCPROF:
        x->argv[k++] = bh_xstrdup("--kernel-trace");
        x->argv[k++] = bh_xstrdup("--stats");
        x->argv[k++] = bh_xstrdup("-d");
        x->argv[k++] = bh_xstrdup(x->out);
        x->argv[k++] = bh_xstrdup("-o");
        x->argv[k++] = bh_xstrdup(x->slug);
        x->argv[k++] = bh_xstrdup("--");
        break;
    default:
        break;
    }
    x->argv[k] = NULL;
    return 0;
}

const char *bh_prof_callgrind_file(const bh_prof_run *x)
{
    return x->req && x->req->tool == BH_PROF_CALLGRIND ? x->out : NULL;
}

char *const *bh_prof_wrap(const bh_prof_run *x)
{
    return x->argv[0] ? x->argv : NULL;
}

void bh_prof_add_job(const bh_prof_run *x, cJSON *job)
{
    if (!x->req)
        return;
    cJSON_AddStringToObject(job, "profile", tools[x->req->tool].name);
    if (x->ctl) {
        cJSON_AddStringToObject(job, "profile_ctl", x->ctl);
        cJSON_AddStringToObject(job, "profile_ack", x->ack);
    }
    if (x->begin) {
        cJSON_AddStringToObject(job, "profile_begin", x->begin);
        cJSON_AddStringToObject(job, "profile_end", x->end);
    }
}

/* The last non-empty line of log (new string; "" when none). */
static char *last_line(const char *log)
{
    const char *end = log ? log + strlen(log) : NULL;

    while (end && end > log && (end[-1] == '\n' || end[-1] == '\r' || end[-1] == ' '))
        end--;
    if (!end || end == log)
        return bh_xstrdup("");
    for (const char *p = end; p > log; p--)
        if (p[-1] == '\n')
            return bh_xstrndup(p, (size_t)(end - p));
    return bh_xstrndup(log, (size_t)(end - log));
}

/* Fails r with "--profile TOOL: LINE (what)", LINE the last line the
 * tool or the worker printed (the tool's reason when it refused), or
 * "--profile TOOL: what" when they printed nothing. */
static void fail_run(bh_run *r, bh_prof_tool tool, const char *what)
{
    char *line = last_line(r->log);
    char *old = r->message;

    if (*line)
        r->message = bh_xasprintf("--profile %s: %s (%s)", tools[tool].name, line, what);
    else
        r->message = bh_xasprintf("--profile %s: %s", tools[tool].name, what);
    r->status = BH_ST_FAILED;
    free(old);
    free(line);
}

/* The first entry of dir whose name starts with prefix and is not an
 * .svg (new path), or NULL: the output of a tool that names its files. */
static char *find_output(const char *dir, const char *prefix)
{
    DIR *d = opendir(dir);
    struct dirent *de;
    char *best = NULL;
    size_t n = strlen(prefix);

    while (d && (de = readdir(d)) != NULL) {
        size_t len = strlen(de->d_name);

        if (strncmp(de->d_name, prefix, n) != 0 ||
            (len > 4 && strcmp(de->d_name + len - 4, ".svg") == 0))
            continue;
        if (!best || strcmp(de->d_name, best) < 0) {
            free(best);
            best = bh_xstrdup(de->d_name);
        }
    }
    if (d)
        closedir(d);
    if (best) {
        char *p = bh_xasprintf("%s/%s", dir, best);

        free(best);
        return p;
    }
    return NULL;
}

/* Runs "perf script -i DATA" with its output in the file txt. */
static int perf_script(const char *data, const char *txt, bh_error *e)
{
    char *perf = bh_tool_find("perf");
    char *argv[] = {perf, (char *)"script", (char *)"-i", (char *)data, NULL};
    posix_spawn_file_actions_t fa;
    pid_t pid;
    int st = 0, rc;

    if (!perf)
        return bh_error_set(e, "perf is no longer on PATH");
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, txt, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
    rc = posix_spawn(&pid, perf, &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    free(perf);
    if (rc != 0)
        return bh_error_set(e, "cannot start perf script: %s", strerror(rc));
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
        ;
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
        return bh_error_set(e, "perf script -i %s failed (status %d)", data, st);
    return 0;
}

/* Builds the flame graph of x's profile into f (unit set); massif also
 * records its peak in rec. 0, or -1 with e. */
static int flame_of(const bh_prof_run *x, bh_flame *f, const char **unit, cJSON *rec, bh_error *e)
{
    char *text = NULL, *txt = NULL;
    size_t len = 0;
    int rc = -1;
    const char *file = x->out;

    if (x->req->tool == BH_PROF_PERF) {
        txt = bh_xasprintf("%s/script.txt", x->tmp);
        if (perf_script(x->out, txt, e) != 0)
            goto out;
        file = txt;
    }
    if (bh_read_file(file, PROF_MAX_BYTES, &text, &len, e) != 0)
        goto out;
    if (x->req->tool == BH_PROF_CALLGRIND) {
        *unit = "Ir";
        rc = bh_flame_from_callgrind(text, len, x->out, f, e);
    } else if (x->req->tool == BH_PROF_PERF) {
        *unit = "samples";
        rc = bh_flame_from_perf_script(text, len, "perf script", f, e);
    } else {
        bh_massif_peak pk;

        *unit = "bytes";
        rc = bh_massif_parse(text, len, x->out, &pk, f, e);
        if (rc == 0) {
            cJSON_AddNumberToObject(rec, "peak_heap_bytes", pk.heap_bytes);
            cJSON_AddNumberToObject(rec, "peak_heap_extra_bytes", pk.extra_bytes);
            cJSON_AddNumberToObject(rec, "peak_snapshot", pk.snapshot);
            cJSON_AddNumberToObject(rec, "snapshots", pk.snapshots);
        }
    }
out:
    free(text);
    free(txt);
    return rc;
}

/* The record's name of path: the request's rel_dir and the file name. */
static char *rel(const bh_prof_request *req, const char *path)
{
    const char *base = strrchr(path, '/');

    return bh_xasprintf("%s/%s", req->rel_dir, base ? base + 1 : path);
}

/* Names the file path in rec under key (relative, as rel) when it exists. */
static void add_file(const bh_prof_request *req, cJSON *rec, const char *key, const char *path)
{
    char *r;

    if (!bh_path_exists(path))
        return;
    r = rel(req, path);
    cJSON_AddStringToObject(rec, key, r);
    free(r);
}

/* Draws the flame graph next to the profile and names it in rec. */
static void add_svg(const bh_prof_run *x, const bh_case *c, cJSON *rec)
{
    bh_flame f;
    bh_error e = {""};
    const char *unit = "";
    char *svg = bh_xasprintf("%s/%s.%s.svg", x->req->dir, x->slug, tools[x->req->tool].name);
    char *title = bh_xasprintf("%s: %s, %s", tools[x->req->tool].name, c->id,
                               x->req->tool == BH_PROF_MASSIF
                                   ? "peak heap, allocation functions above their callers"
                                   : "callers above callees");

    bh_flame_init(&f);
    if (flame_of(x, &f, &unit, rec, &e) == 0 && f.nodes[0].value <= 0)
        bh_error_set(&e, "the profile holds no cost to draw");
    if (!e.msg[0] && bh_flame_write_svg(&f, title, unit, svg, &e) == 0) {
        char *r = rel(x->req, svg);

        cJSON_AddStringToObject(rec, "svg", r);
        cJSON_AddStringToObject(rec, "svg_unit", unit);
        free(r);
    } else {
        cJSON_AddNullToObject(rec, "svg");
        cJSON_AddStringToObject(rec, "svg_error", e.msg);
    }
    bh_flame_free(&f);
    free(svg);
    free(title);
}

/* The profile record of an ok run whose profile is at path. */
static cJSON *record(const bh_prof_run *x, const bh_case *c, const char *path)
{
    bh_prof_tool t = x->req->tool;
    cJSON *rec = cJSON_CreateObject();
    char *r = rel(x->req, path);

    cJSON_AddStringToObject(rec, "tool", tools[t].name);
    cJSON_AddStringToObject(rec, "path", r);
    cJSON_AddStringToObject(rec, "region", tools[t].region);
    free(r);
    if (t == BH_PROF_MASSIF) {
        add_file(x->req, rec, "region_begin", x->begin);
        add_file(x->req, rec, "region_end", x->end);
    }
    if (t == BH_PROF_CALLGRIND || t == BH_PROF_PERF || t == BH_PROF_MASSIF)
        add_svg(x, c, rec);
    else
        cJSON_AddNullToObject(rec, "svg");
    return rec;
}

void bh_prof_end(bh_prof_run *x, const bh_case *c, bh_run *r)
{
    char *path = NULL;

    if (!x->req)
        goto done;
    if (x->req->tool == BH_PROF_CALLGRIND || x->req->tool == BH_PROF_PERF ||
        x->req->tool == BH_PROF_MASSIF)
        path = bh_path_exists(x->out) ? bh_xstrdup(x->out) : NULL;
    else {
        char *prefix = bh_xasprintf("%s.%s", x->slug, tools[x->req->tool].name);

        path = find_output(x->req->dir, prefix);
        free(prefix);
    }
    if (r->status != BH_ST_OK && !r->result) {
        /* the worker never reported: the profiler may not have started it */
        fail_run(r, x->req->tool, r->message ? r->message : "the run failed");
    } else if (r->status == BH_ST_OK && !path) {
        fail_run(r, x->req->tool, "the profiler wrote no profile");
    } else if (r->status == BH_ST_OK && !r->interrupted) {
        cJSON_DeleteItemFromObjectCaseSensitive(x->req->records, c->id);
        cJSON_AddItemToObject(x->req->records, c->id, record(x, c, path));
    }
done:
    free(path);
    if (x->ack_fd >= 0)
        close(x->ack_fd);
    if (x->tmp)
        bh_tool_remove_dir(x->tmp);
    free(x->tmp);
    free(x->ctl);
    free(x->ack);
    free(x->slug);
    free(x->out);
    free(x->begin);
    free(x->end);
    for (size_t i = 0; x->argv[i]; i++)
        free(x->argv[i]);
    memset(x, 0, sizeof(*x));
    x->ack_fd = -1;
}
