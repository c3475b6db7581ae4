// SPDX-License-Identifier: MIT
/* bhost import FORMAT FILE...: other tools' results (Google Benchmark,
 * pyperf, hyperfine, Criterion.rs, asv) as one bhost.result/1 document,
 * written into the results folder or stored in the results store. */
#define _GNU_SOURCE
#include "bh_clock.h"
#include "bh_json_write.h"
#include "bh_mem.h"
#include "cli.h"
#include "import.h"
#include "result_doc.h"
#include "result_read.h"
#include "result_view.h"
#include "store.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef BHOST_VERSION
#define BHOST_VERSION "0.0.0"
#endif

static const char import_usage[] =
    "usage: bhost import FORMAT FILE... [--config NAME] [--into DIR | --store URL]\n"
    "\n"
    "Reads the results of another benchmark tool and writes them as one\n"
    "bhost result (bhost.result/1), usable as a baseline (compare, run\n"
    "--baseline), in history and in the results store. FORMAT is one of:\n"
    "\n"
    "  gbench     Google Benchmark JSON (--benchmark_format=json): each\n"
    "             repetition a run; aggregate-only files give summaries\n"
    "  pyperf     pyperf JSON: each worker run a run, its values the\n"
    "             samples (warmups left out)\n"
    "  hyperfine  hyperfine --export-json: each timed execution a run; exit\n"
    "             codes, user and system time kept\n"
    "  criterion  Criterion.rs sample.json (samples: times/iters) and\n"
    "             estimates.json (a summary)\n"
    "  asv        asv results (results/MACHINE/COMMIT-ENV.json): each\n"
    "             parameter combination a case; time_ benchmarks only\n"
    "\n"
    "Times become nanoseconds (a unit that is not a time is refused), the\n"
    "source's context (host, CPU, caches, date, metadata) the system record,\n"
    "and run.imported names the format and the files. Several files of one\n"
    "format make one document.\n"
    "\n"
    "  --config NAME  the config name recorded (compare and --baseline match\n"
    "                 it); default: the one in a file bhost exported, else FORMAT\n"
    "  --into DIR     the results folder (default results/): the file is\n"
    "                 DIR/NAME/<timestamp>-<host>.json, written atomically\n"
    "  --store URL    store it in the results store (an SQLite file or a\n"
    "                 postgresql:// URL) instead of writing a file\n"
    "  --quiet        print nothing but errors\n"
    "  -h, --help     this help\n"
    "\n"
    "Example: bhost import gbench bench.json --config smoke\n"
    "         bhost compare results/smoke/<imported>.json results/smoke/<run>.json\n"
    "\n"
    "Exit: 0 imported; 2 bad usage or unknown format; 4 a file unreadable,\n"
    "malformed, truncated, of another format or with a unit that is not a\n"
    "time (one line naming the file, and the line where there is one), or\n"
    "the result not written or stored.\n";

enum { IMP_CONFIG = 1, IMP_INTO, IMP_STORE, IMP_QUIET };

static const bh_opt import_options[] = {
    {"config", IMP_CONFIG, 'c', BH_OPT_VALUE, "the config name to record"},
    {"into", IMP_INTO, 'o', BH_OPT_VALUE, "the results folder (default results/)"},
    {"store", IMP_STORE, 's', BH_OPT_VALUE, "store in this results store instead"},
    {"quiet", IMP_QUIET, 'q', BH_OPT_FLAG, "print nothing but errors"},
    {NULL, 0, 0, BH_OPT_FLAG, NULL},
};

/* A copy of s safe as one file-name component. */
static char *file_safe(const char *s)
{
    char *out = bh_xstrdup(s && *s ? s : "imported");

    for (char *p = out; *p; p++)
        if (*p == '/' || *p == '\\' || (unsigned char)*p < 0x20)
            *p = '_';
    if (out[0] == '.')
        out[0] = '_';
    return out;
}

/* Writes doc into dir: 0, or -1 after printing why. */
static int write_into(const cJSON *doc, const char *dir, char **used)
{
    bh_result_view v;
    bh_error e = {""};
    char stamp[32];
    char *config, *host, *path;
    int rc;

    bh_result_view_load_top(doc, &v);
    config = file_safe(v.run.config_name);
    host = file_safe(v.system.hostname);
    bh_result_view_free(&v);
    bh_utc_compact(stamp);
    path = bh_result_default_path(dir, config, stamp, host);
    rc = bh_result_write(doc, path, 0, used, &e);
    if (rc != 0)
        bh_cli_error("import: cannot write %s: %s", path, e.msg);
    free(path);
    free(config);
    free(host);
    return rc;
}

/* Stores doc (as a written file would hold it) in the store at target:
 * 0, or -1 after printing why. */
static int store_into(const cJSON *doc, const char *target, const char *source, FILE *out)
{
    char *text = bh_json_print(doc);
    bh_error e = {""};
    cJSON *back = text ? bh_result_parse(text, strlen(text), source, &e) : NULL;
    bh_store *s = back ? bh_store_open(target, &e) : NULL;
    int64_t id = 0;
    int rc = s ? bh_store_put(s, back, source, &id, &e) : -1;

    if (rc < 0)
        bh_cli_error("import: not stored in %s: %s", target, e.msg);
    else if (out)
        fprintf(out, "store: %s run %lld%s\n", bh_store_name(s), (long long)id,
                rc == 0 ? " (already stored)" : "");
    bh_store_close(s);
    cJSON_Delete(back);
    free(text);
    return rc < 0 ? -1 : 0;
}

/* The cases and samples of doc, for the closing line. */
static void counts(const cJSON *doc, size_t *cases, size_t *samples)
{
    bh_result_view v;

    bh_result_view_load(doc, &v);
    *cases = v.n_cases;
    *samples = 0;
    for (size_t i = 0; i < v.n_cases; i++)
        for (size_t r = 0; r < v.cases[i].n_runs; r++)
            *samples += (size_t)cJSON_GetArraySize(v.cases[i].runs[r].samples);
    bh_result_view_free(&v);
}

/* Parses the options into o (format and files from the operands). */
static int parse(int argc, char **argv, bh_import_opts *o, const char **into, const char **store,
                 int *quiet)
{
    bh_opts p;
    int ch;

    bh_opts_init(&p, "import", import_options, argc, argv, 1);
    while ((ch = bh_opts_next(&p)) > 0) {
        if (ch == IMP_CONFIG)
            o->config = p.value;
        else if (ch == IMP_INTO)
            *into = p.value;
        else if (ch == IMP_STORE)
            *store = p.value;
        *quiet |= ch == IMP_QUIET;
    }
    if (ch < 0)
        return -1;
    if (argc - p.next < 2 || (*into && *store)) {
        bh_cli_error("import: expected FORMAT FILE... and at most one of --into and --store "
                     "(see bhost import --help)");
        return -1;
    }
    o->format = argv[p.next];
    o->files = argv + p.next + 1;
    o->n_files = (size_t)(argc - p.next - 1);
    if (!bh_import_format_known(o->format)) {
        bh_cli_error("import: unknown format '%s' (expected gbench, pyperf, hyperfine, "
                     "criterion or asv)",
                     o->format);
        return -1;
    }
    return 0;
}

/* bhost import FORMAT FILE... The parser works on a copy of argv (it
 * moves operands after the options); the document records argv as given. */
static int cmd_import(int argc, char **argv)
{
    char **args = bh_xcalloc((size_t)argc + 1, sizeof(*args));
    char **recorded = bh_xcalloc((size_t)argc + 2, sizeof(*recorded));
    bh_import_opts o = {.argc = argc + 1, .argv = recorded, .version = BHOST_VERSION};
    const char *into = NULL, *store = NULL;
    char *warnings = NULL, *used = NULL;
    bh_error e = {""};
    cJSON *doc = NULL;
    int quiet = 0, rc = BH_EXIT_USAGE;
    size_t ncases, nsamples;

    memcpy(args, argv, sizeof(*args) * (size_t)argc);
    recorded[0] = (char *)"bhost";
    memcpy(recorded + 1, argv, sizeof(*args) * (size_t)argc);
    if (parse(argc, args, &o, &into, &store, &quiet) != 0)
        goto done;
    rc = BH_EXIT_IO;
    doc = bh_import(&o, &warnings, &e);
    if (!doc) {
        bh_cli_error("import: %s", e.msg);
        goto done;
    }
    if (warnings)
        fprintf(stderr, "bhost: import: warning: %s", warnings);
    if (store ? store_into(doc, store, o.files[0], quiet ? NULL : stdout) != 0
              : write_into(doc, into ? into : "results", &used) != 0)
        goto done;
    counts(doc, &ncases, &nsamples);
    if (!quiet)
        printf("imported %zu case%s (%zu sample%s) from %s%s%s\n", ncases, ncases == 1 ? "" : "s",
               nsamples, nsamples == 1 ? "" : "s", o.format, used ? " into " : "",
               used ? used : "");
    rc = BH_EXIT_OK;
done:
    free(warnings);
    free(used);
    cJSON_Delete(doc);
    free(args);
    free(recorded);
    return rc;
}

const bh_cli_cmd bh_cli_import = {
    .name = "import",
    .handler = cmd_import,
    .args = "FORMAT FILE...",
    .summary = "import gbench, pyperf, hyperfine, criterion or asv results",
    .usage = import_usage,
    .opts = import_options,
};
