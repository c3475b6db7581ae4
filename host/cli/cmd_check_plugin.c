// SPDX-License-Identifier: MIT
/* bhost check-plugin: conformance checks of one plugin file, out of
 * process. The ELF export table is read here from the file; everything
 * that needs plugin code runs in "check" workers (host/worker/
 * check_plugin.h): one for the static checks, one per benchmark cycle,
 * one for the backend calls, so that a crash or hang in one becomes a
 * FAIL line and the rest still run. */
#define _GNU_SOURCE
#include "cli.h"
#include "bh_json_write.h"
#include "cli_args.h"

#include "bh_mem.h"
#include "elf_symbols.h"
#include "ipc.h"
#include "loader.h"
#include "outcome.h"
#include "worker_spawn.h"

#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char check_usage[] =
    "usage: bhost check-plugin PLUGIN [--backend NAME] [--timeout SECONDS]\n"
    "                          [--json]\n"
    "\n"
    "Checks that PLUGIN (a .so path, or a name on the plugin path) follows\n"
    "the bhost plugin ABI, printing one PASS, FAIL or WARN line per check:\n"
    "the exported symbols (read from the ELF file: exactly bhost_entry_v1),\n"
    "the entry (ABI version, struct size, id, name, version), init, the\n"
    "interfaces, every benchmark descriptor and typed parameter, a full\n"
    "create/setup/run/verify/destroy cycle of each benchmark at its default\n"
    "params, and for a backend plugin its calls on device 0. Plugin code\n"
    "runs only in worker processes: a crash or hang is a FAIL line.\n"
    "\n"
    "  --backend NAME     backend for device benchmarks (backend-NAME.so on\n"
    "                     the plugin path, or a path); default: the plugin\n"
    "                     itself when it is a backend, else such cycles are\n"
    "                     skipped with WARN\n"
    "  --timeout SECONDS  limit per worker (default 30)\n"
    "  --json             print the report as one JSON document\n"
    "\n"
    "Exit status: 0 when nothing FAILed (WARN is allowed), 7 when a check\n"
    "failed, 2 for a bad command line.\n";

/* The report being built. */
typedef struct checker {
    int json;
    cJSON *checks;
    unsigned pass, fail, warn;
    char *exe;
    uint64_t timeout_ns;
} checker;

/* Records one check line (and prints it in text mode). */
static void add(checker *c, const char *id, const char *result,
                const char *reason)
{
    cJSON *o;

    if (strcmp(result, "PASS") == 0)
        c->pass++;
    else if (strcmp(result, "WARN") == 0)
        c->warn++;
    else
        c->fail++;
    if (!c->json) {
        printf("%-4s %-36s %s\n", result, id, reason);
        fflush(stdout);
        return;
    }
    o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "id", id);
    cJSON_AddStringToObject(o, "result", result);
    cJSON_AddStringToObject(o, "reason", reason);
    cJSON_AddItemToArray(c->checks, o);
}

/* Reads the ELF dynamic symbols; 1 when the file is a shared object the
 * workers may try to load. */
static int check_elf(checker *c, const char *path)
{
    bh_elf_symbol *syms;
    size_t n;
    bh_error e = {""};
    const bh_elf_symbol *entry = NULL;
    char *list;

    if (bh_elf_dynamic_symbols(path, &syms, &n, &e) != 0) {
        add(c, "file.elf", "FAIL", e.msg);
        return 0;
    }
    add(c, "file.elf", "PASS", "ELF shared object with a .dynsym table");
    for (size_t i = 0; i < n; i++)
        if (strcmp(syms[i].name, "bhost_entry_v1") == 0)
            entry = &syms[i];
    if (!entry)
        add(c, "symbol.entry", "FAIL",
            "bhost_entry_v1 is not defined in .dynsym (not a bhost 1.x "
            "plugin, or hidden by its version script)");
    else if (entry->type != STT_OBJECT)
        add(c, "symbol.entry", "FAIL",
            "bhost_entry_v1 is not a data object (it must be a const "
            "bhost_entry, not a function)");
    else
        add(c, "symbol.entry", "PASS", "bhost_entry_v1 is a data object");
    if (n == 1 && entry) {
        add(c, "symbol.exports", "PASS", "exports exactly bhost_entry_v1");
    } else {
        list = bh_xasprintf("exports %zu symbols, expected exactly "
                            "bhost_entry_v1 (build with -fvisibility=hidden "
                            "and the version script plugin.map):",
                            n);
        for (size_t i = 0; i < n && i < 8; i++) {
            char *more = bh_xasprintf("%s %s", list, syms[i].name);
            free(list);
            list = more;
        }
        add(c, "symbol.exports", "FAIL", list);
        free(list);
    }
    bh_elf_symbols_free(syms, n);
    return 1;
}

/* Records the one verdict on a check worker that died after its last
 * check (check_done sent): a FAIL of its own, "<part>.exit", so that no
 * check it reported is counted twice or blamed for it. */
static void exit_failed(checker *c, const char *fail_id,
                        const bh_worker_outcome *out)
{
    const char *dot = strrchr(fail_id, '.');
    char *id = bh_xasprintf("%.*s.exit", dot ? (int)(dot - fail_id) : 0,
                            fail_id);
    char sig[16];
    char *what = out->signaled
                     ? bh_xasprintf("killed by %s (%s)",
                                    bh_signal_name(out->signal, sig),
                                    strsignal(out->signal))
                     : bh_xasprintf("%s %d", out->timed_out
                                                 ? "killed at the timeout, status"
                                                 : "exited with status",
                                    out->exit_code);
    char *why = bh_xasprintf("%s after every check of this worker had "
                             "finished (during exit): exit-time code of the "
                             "plugin (an atexit handler, a destructor) "
                             "failed",
                             what);

    add(c, id, "FAIL", why);
    free(why);
    free(what);
    free(id);
}

/* Runs one check worker on job; records its check lines, and a FAIL line
 * named fail_id when the worker crashed, hung or exited early. Returns
 * the check_plan message (caller deletes) or NULL. */
static cJSON *run_part(checker *c, cJSON *job, const char *fail_id)
{
    char *text = bh_json_print_unformatted(job);
    bh_spawn_opts o = {c->exe, text, c->timeout_ns, 65536, 0};
    bh_worker_outcome out;
    bh_outcome_view v;
    bh_error e = {""};
    const cJSON *m;
    const char *stage = NULL;
    cJSON *plan = NULL;

    if (bh_spawn_worker(&o, &out, &e) != 0) {
        add(c, fail_id, "FAIL", e.msg);
        free(text);
        return NULL;
    }
    free(text);
    bh_outcome_classify(&out, "check_done", &v);
    cJSON_ArrayForEach(m, v.messages) {
        const char *t = bh_ipc_type(m);

        if (strcmp(t, "check") == 0)
            add(c, bh_json_str(m, "id", "?"), bh_json_str(m, "result", "FAIL"),
                bh_json_str(m, "reason", ""));
        else if (strcmp(t, "check_stage") == 0)
            stage = bh_json_str(m, "stage", NULL);
        else if (strcmp(t, "check_plan") == 0 && !plan)
            plan = cJSON_Duplicate(m, 1);
    }
    if (v.final && (out.signaled || out.timed_out || out.exit_code != 0)) {
        exit_failed(c, fail_id, &out);
    } else if (v.status != BH_ST_OK) {
        char *why = bh_xasprintf("%s: %s%s%s", bh_status_name(v.status),
                                 v.message ? v.message : "worker failed",
                                 stage ? " during " : "", stage ? stage : "");
        add(c, fail_id, "FAIL", why);
        free(why);
    }
    bh_outcome_view_free(&v);
    bh_worker_outcome_free(&out);
    return plan;
}

/* A job object for part on path. */
static cJSON *new_job(const char *part, const char *path)
{
    cJSON *job = cJSON_CreateObject();

    cJSON_AddStringToObject(job, "mode", "check");
    cJSON_AddStringToObject(job, "part", part);
    cJSON_AddStringToObject(job, "plugin", path);
    cJSON_AddNumberToObject(job, "device", 0);
    return job;
}

/* The backend file for device cycles: --backend NAME resolved on the
 * search path, else the plugin itself when it is a backend, else NULL. */
static char *backend_path(checker *c, const bh_search_path *sp,
                          const char *name, const char *plugin,
                          int plugin_is_backend)
{
    bh_error e = {""};
    char *file;
    char *path;

    if (!name)
        return plugin_is_backend ? bh_xstrdup(plugin) : NULL;
    if (strchr(name, '/') || strstr(name, ".so"))
        file = bh_xstrdup(name);
    else
        file = bh_xasprintf("backend-%s", name);
    path = bh_loader_find(sp, file, &e);
    free(file);
    if (!path)
        add(c, "backend.find", "FAIL", e.msg);
    return path;
}

/* Runs every check of path; the report is in c. */
static void check_all(checker *c, const bh_search_path *sp, const char *path,
                      const char *backend)
{
    cJSON *job = new_job("static", path);
    cJSON *plan = run_part(c, job, "static.worker");
    const cJSON *b;
    int is_backend = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(plan,
                                                                   "backend"));
    char *be_path = NULL;
    int be_resolved = 0;

    cJSON_Delete(job);
    cJSON_ArrayForEach(b, cJSON_GetObjectItemCaseSensitive(plan,
                                                           "benchmarks")) {
        const char *id = bh_json_str(b, "id", "?");
        char *fail_id = bh_xasprintf("bench[%s].cycle", id);
        int device = cJSON_IsTrue(
            cJSON_GetObjectItemCaseSensitive(b, "needs_device"));

        if (!cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(b, "runnable"))) {
            add(c, fail_id, "FAIL", "not run: the descriptor failed its "
                                    "checks above");
            free(fail_id);
            continue;
        }
        if (device && !be_resolved) {
            be_path = backend_path(c, sp, backend, path, is_backend);
            be_resolved = 1;
        }
        job = new_job("cycle", path);
        cJSON_AddStringToObject(job, "bench", id);
        if (device && be_path)
            cJSON_AddStringToObject(job, "backend", be_path);
        cJSON_Delete(run_part(c, job, fail_id));
        cJSON_Delete(job);
        free(fail_id);
    }
    if (is_backend) {
        job = new_job("backend", path);
        cJSON_Delete(run_part(c, job, "backend.worker"));
        cJSON_Delete(job);
    }
    free(be_path);
    cJSON_Delete(plan);
}

/* The options of bhost check-plugin. */
static const bh_opt check_options[] = {
    {"backend", 'b', 0, BH_OPT_VALUE, "the backend plugin the device checks use"},
    {"timeout", 't', 0, BH_OPT_VALUE, "seconds each check worker may take"},
    {"json", 'j', 0, BH_OPT_FLAG, "print the checks as JSON"},
    {NULL, 0, 0, BH_OPT_FLAG, NULL}};

/* Parses the options; -1 after printing a usage error. */
static int parse(int argc, char **argv, checker *c, const char **plugin,
                 const char **backend)
{
    bh_opts p;
    uint64_t secs = 30;
    int ch;

    bh_opts_init(&p, "check-plugin", check_options, argc, argv, 1);
    while ((ch = bh_opts_next(&p)) > 0) {
        if (ch == 'b') {
            *backend = p.value;
        } else if (ch == 't') {
            if (bh_arg_u64("--timeout", p.value, 1, 3600, &secs) != 0)
                return -1;
        } else if (ch == 'j') {
            c->json = 1;
        }
    }
    if (ch < 0)
        return -1;
    if (p.next != argc - 1) {
        bh_cli_error("check-plugin: expected exactly one PLUGIN file (see "
                     "bhost check-plugin --help)");
        return -1;
    }
    *plugin = argv[p.next];
    c->timeout_ns = secs * 1000000000ull;
    return 0;
}

/* Prints the JSON document or the summary line. */
static void finish(checker *c, const char *path)
{
    unsigned n = c->pass + c->fail + c->warn;

    if (c->json) {
        cJSON *doc = cJSON_CreateObject();
        char *t;

        cJSON_AddStringToObject(doc, "plugin", path);
        cJSON_AddItemToObject(doc, "checks", c->checks);
        cJSON_AddNumberToObject(doc, "passed", c->pass);
        cJSON_AddNumberToObject(doc, "failed", c->fail);
        cJSON_AddNumberToObject(doc, "warnings", c->warn);
        cJSON_AddBoolToObject(doc, "ok", c->fail == 0);
        t = bh_json_print(doc);
        puts(t);
        free(t);
        c->checks = NULL;
        cJSON_Delete(doc);
        return;
    }
    printf("%s: %u check%s, %u passed, %u failed, %u warning%s: %s\n", path, n,
           n == 1 ? "" : "s", c->pass, c->fail, c->warn, c->warn == 1 ? "" : "s",
           c->fail ? "FAIL" : "PASS");
}

static int cmd_check_plugin(int argc, char **argv)
{
    checker c;
    const char *plugin = NULL;
    const char *backend = NULL;
    bh_search_path sp;
    bh_error e = {""};
    char *path;
    char *dir;
    char *slash;

    memset(&c, 0, sizeof(c));
    if (parse(argc, argv, &c, &plugin, &backend) != 0)
        return BH_EXIT_USAGE;
    /* the plugin's own folder is searched for --backend too */
    dir = bh_xstrdup(plugin);
    slash = strrchr(dir, '/');
    if (slash)
        *slash = '\0';
    bh_search_path_init(&sp, slash ? &dir : NULL, slash ? 1 : 0);
    c.checks = cJSON_CreateArray();
    c.exe = bh_self_exe();
    path = bh_loader_find(&sp, plugin, &e);
    if (!c.json)
        printf("checking %s\n", path ? path : plugin);
    if (!path)
        add(&c, "file.elf", "FAIL", e.msg);
    else if (check_elf(&c, path))
        check_all(&c, &sp, path, backend);
    finish(&c, path ? path : plugin);
    cJSON_Delete(c.checks);
    free(c.exe);
    free(path);
    free(dir);
    bh_search_path_free(&sp);
    return c.fail ? BH_EXIT_CHECK_FAILED : BH_EXIT_OK;
}

const bh_cli_cmd bh_cli_check_plugin = {
    .name = "check-plugin",
    .handler = cmd_check_plugin,
    .args = "PLUGIN.so",
    .summary = "ABI conformance checks of one plugin file",
    .usage = check_usage,
    .opts = check_options,
};
