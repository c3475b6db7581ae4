// SPDX-License-Identifier: MIT
/* bhost store: fill and inspect the results store (ingest, info, runs,
 * export). */
#define _GNU_SOURCE
#include "bh_clock.h"
#include "bh_fs.h"
#include "bh_json_write.h"
#include "bh_mem.h"
#include "cli.h"
#include "cli_args.h"
#include "result_doc.h"
#include "store.h"
#include "store_ingest.h"
#include "store_query.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char store_usage[] =
    "usage: bhost store COMMAND [options]\n"
    "\n"
    "The results store: every result in one database (SQLite file, or\n"
    "PostgreSQL for fleets of CI runners) serving history, baselines and\n"
    "trends. bhost run adds each result to it after writing the JSON file.\n"
    "\n"
    "  ingest [PATH...]   add result files (PATH: a file, or a folder read\n"
    "                     recursively for *.json; default: the results\n"
    "                     folder); a run already stored is not added again;\n"
    "                     a malformed file is named on one line and skipped\n"
    "                     (exit 4)\n"
    "  info               engine, schema version and row counts\n"
    "  runs               the stored runs, newest first\n"
    "  export RUN_ID      a stored run as a result document (JSON)\n"
    "\n"
    "  --store FILE|URL   an SQLite file or a postgresql:// URL (default:\n"
    "                     $BHOST_STORE, else <results-dir>/bhost.db)\n"
    "  --results-dir DIR  default: results\n"
    "  --config NAME      runs: only this config\n"
    "  --branch NAME      runs: only this git branch\n"
    "  --limit N          runs: at most N (default 50, 0 = all)\n"
    "  --jobs N           ingest: threads reading and parsing files\n"
    "                     (default: one per CPU; 0: none)\n"
    "  --out FILE         export: write the document to FILE\n"
    "  --json             info, runs: JSON on stdout\n"
    "  -h, --help         this help\n"
    "\n"
    "Exit: 0; 2 usage; 4 the store cannot be opened, or a file was\n"
    "skipped.\n";

typedef struct store_opts {
    const char *cmd;
    char **args;
    size_t n_args;
    const char *store;
    const char *results_dir;
    const char *config;
    const char *branch;
    const char *out;
    uint64_t limit;
    int jobs;
    int json;
} store_opts;

/* The options of bhost store (for every store command). */
static const bh_opt store_options[] = {
    {"store", 's', 0, BH_OPT_VALUE, "an SQLite file or a postgresql:// URL"},
    {"results-dir", 'd', 0, BH_OPT_VALUE, "the results folder"},
    {"config", 'c', 0, BH_OPT_VALUE, "runs: only this config"},
    {"branch", 'b', 0, BH_OPT_VALUE, "runs: only this branch"},
    {"limit", 'l', 0, BH_OPT_VALUE, "runs: at most N runs"},
    {"out", 'o', 0, BH_OPT_VALUE, "export: write to FILE"},
    {"json", 'j', 0, BH_OPT_FLAG, "print JSON"},
    {"jobs", 'J', 0, BH_OPT_VALUE, "ingest: parsing threads"},
    {NULL, 0, 0, BH_OPT_FLAG, NULL}};

static int parse(int argc, char **argv, store_opts *o)
{
    bh_opts p;
    int ch;

    memset(o, 0, sizeof(*o));
    o->results_dir = "results";
    o->limit = 50;
    o->jobs = -1;
    bh_opts_init(&p, "store", store_options, argc, argv, 1);
    while ((ch = bh_opts_next(&p)) > 0) {
        switch (ch) {
        case 's': o->store = p.value; break;
        case 'd': o->results_dir = p.value; break;
        case 'c': o->config = p.value; break;
        case 'b': o->branch = p.value; break;
        case 'o': o->out = p.value; break;
        case 'j': o->json = 1; break;
        case 'l':
            if (bh_arg_u64("--limit", p.value, 0, 100000000, &o->limit) != 0)
                return -1;
            break;
        case 'J': {
            uint64_t j;

            if (bh_arg_u64("--jobs", p.value, 0, 8, &j) != 0)
                return -1;
            o->jobs = (int)j;
            break;
        }
        }
    }
    if (ch < 0)
        return -1;
    if (p.next >= argc) {
        bh_cli_error("store: expected a command: ingest, info, runs or export (see bhost "
                     "store --help)");
        return -1;
    }
    o->cmd = argv[p.next];
    o->args = argv + p.next + 1;
    o->n_args = (size_t)(argc - p.next - 1);
    return 0;
}

/* Prints one skipped file. */
static void report_line(const char *line, void *ctx)
{
    (void)ctx;
    bh_cli_error("%s", line);
}

static int cmd_ingest(bh_store *s, const store_opts *o)
{
    char *def[] = {(char *)o->results_dir};
    bh_store_ingest_stats st;
    uint64_t t0 = bh_now_ns();
    double secs;
    int rc = bh_store_ingest(s, o->n_args ? o->args : def, o->n_args ? o->n_args : 1, o->jobs,
                             report_line, NULL, &st);

    secs = (double)(bh_now_ns() - t0) / 1e9;
    printf("ingested %zu file%s into %s in %.2f s: %zu new run%s, %zu already stored, %zu "
           "skipped\n",
           st.files, st.files == 1 ? "" : "s", bh_store_name(s), secs, st.stored,
           st.stored == 1 ? "" : "s", st.present, st.malformed + st.failed);
    return rc == 0 ? BH_EXIT_OK : BH_EXIT_IO;
}

static int cmd_info(bh_store *s, const store_opts *o)
{
    bh_store_counts c;
    bh_error e = {""};

    if (bh_store_count(s, &c, &e) != 0) {
        bh_cli_error("%s", e.msg);
        return BH_EXIT_IO;
    }
    if (o->json) {
        cJSON *d = cJSON_CreateObject();
        char *text;

        cJSON_AddStringToObject(d, "store", bh_store_name(s));
        cJSON_AddStringToObject(d, "engine", bh_store_engine(s));
        cJSON_AddNumberToObject(d, "schema_version", BH_STORE_SCHEMA_VERSION);
        cJSON_AddNumberToObject(d, "runs", (double)c.runs);
        cJSON_AddNumberToObject(d, "series", (double)c.series);
        cJSON_AddNumberToObject(d, "cases", (double)c.cases);
        cJSON_AddNumberToObject(d, "samples", (double)c.samples);
        cJSON_AddNumberToObject(d, "summaries", (double)c.summaries);
        cJSON_AddNumberToObject(d, "verdicts", (double)c.verdicts);
        text = bh_json_print(d);
        puts(text);
        free(text);
        cJSON_Delete(d);
        return BH_EXIT_OK;
    }
    printf("store %s (%s, schema version %d)\n", bh_store_name(s), bh_store_engine(s),
           BH_STORE_SCHEMA_VERSION);
    printf("  runs %" PRId64 ", series %" PRId64 ", cases %" PRId64 ", run samples %" PRId64
           ", summaries %" PRId64 ", verdicts %" PRId64 "\n",
           c.runs, c.series, c.cases, c.samples, c.summaries, c.verdicts);
    return BH_EXIT_OK;
}

/* A JSON string or null. */
static cJSON *str_or_null(const char *s)
{
    return s ? cJSON_CreateString(s) : cJSON_CreateNull();
}

static int cmd_runs(bh_store *s, const store_opts *o)
{
    bh_store_run *r = NULL;
    size_t n = 0;
    bh_error e = {""};
    cJSON *arr = o->json ? cJSON_CreateArray() : NULL;

    if (bh_store_list_runs(s, o->config, o->branch, (size_t)o->limit, &r, &n, &e) != 0) {
        bh_cli_error("%s", e.msg);
        cJSON_Delete(arr);
        return BH_EXIT_IO;
    }
    for (size_t i = 0; i < n; i++) {
        if (arr) {
            cJSON *j = cJSON_CreateObject();

            cJSON_AddNumberToObject(j, "id", (double)r[i].id);
            cJSON_AddItemToObject(j, "config", str_or_null(r[i].config));
            cJSON_AddItemToObject(j, "started_at", str_or_null(r[i].started_at));
            cJSON_AddItemToObject(j, "commit", str_or_null(r[i].commit));
            cJSON_AddItemToObject(j, "branch", str_or_null(r[i].branch));
            cJSON_AddItemToObject(j, "dirty", r[i].dirty < 0 ? cJSON_CreateNull()
                                                             : cJSON_CreateBool(r[i].dirty));
            cJSON_AddItemToObject(j, "fingerprint", str_or_null(r[i].fingerprint));
            cJSON_AddItemToObject(j, "host", str_or_null(r[i].host));
            cJSON_AddBoolToObject(j, "complete", r[i].complete);
            cJSON_AddNumberToObject(j, "cases", (double)r[i].n_cases);
            cJSON_AddItemToObject(j, "source", str_or_null(r[i].source));
            cJSON_AddItemToArray(arr, j);
        } else {
            printf("%6" PRId64 "  %s  %-12s %-16s %.12s%s  %s  %" PRId64 " cases%s\n", r[i].id,
                   r[i].started_at, r[i].config, r[i].branch ? r[i].branch : "-",
                   r[i].commit ? r[i].commit : "-", r[i].dirty == 1 ? "+" : "",
                   r[i].host ? r[i].host : "-", r[i].n_cases,
                   r[i].complete ? "" : "  (incomplete)");
        }
    }
    if (arr) {
        char *text = bh_json_print(arr);

        puts(text);
        free(text);
        cJSON_Delete(arr);
    }
    bh_store_runs_free(r, n);
    return BH_EXIT_OK;
}

static int cmd_export(bh_store *s, const store_opts *o)
{
    bh_error e = {""};
    uint64_t id = 0;
    cJSON *doc;
    char *used = NULL;
    int rc = BH_EXIT_OK;

    if (o->n_args != 1) {
        bh_cli_error("store export: expected one RUN_ID (see bhost store runs)");
        return BH_EXIT_USAGE;
    }
    if (bh_arg_u64("RUN_ID", o->args[0], 1, INT64_MAX, &id) != 0)
        return BH_EXIT_USAGE;
    doc = bh_store_load_doc(s, (int64_t)id, &e);
    if (!doc) {
        bh_cli_error("%s", e.msg);
        return BH_EXIT_IO;
    }
    if (o->out) {
        if (bh_result_write(doc, o->out, 1, &used, &e) != 0) {
            bh_cli_error("%s", e.msg);
            rc = BH_EXIT_IO;
        }
        free(used);
    } else {
        char *text = bh_json_print(doc);

        puts(text);
        free(text);
    }
    cJSON_Delete(doc);
    return rc;
}

static int cmd_store(int argc, char **argv)
{
    store_opts o;
    bh_error e = {""};
    bh_store *s;
    char *target;
    int rc;

    if (parse(argc, argv, &o) != 0)
        return BH_EXIT_USAGE;
    if (strcmp(o.cmd, "ingest") != 0 && strcmp(o.cmd, "info") != 0 &&
        strcmp(o.cmd, "runs") != 0 && strcmp(o.cmd, "export") != 0) {
        bh_cli_error("store: unknown command '%s' (expected ingest, info, runs or export)",
                     o.cmd);
        return BH_EXIT_USAGE;
    }
    if (strcmp(o.cmd, "ingest") != 0 && strcmp(o.cmd, "export") != 0 && o.n_args) {
        bh_cli_error("store %s: unexpected argument '%s'", o.cmd, o.args[0]);
        return BH_EXIT_USAGE;
    }
    target = bh_store_default_target(o.store, o.results_dir);
    s = strcmp(o.cmd, "ingest") == 0 || bh_store_exists(target, &e) ? bh_store_open(target, &e)
                                                                    : NULL;
    free(target);
    if (!s) {
        bh_cli_error("%s", e.msg);
        return BH_EXIT_IO;
    }
    if (strcmp(o.cmd, "ingest") == 0)
        rc = cmd_ingest(s, &o);
    else if (strcmp(o.cmd, "info") == 0)
        rc = cmd_info(s, &o);
    else if (strcmp(o.cmd, "runs") == 0)
        rc = cmd_runs(s, &o);
    else
        rc = cmd_export(s, &o);
    bh_store_close(s);
    if (fflush(stdout) != 0) {
        bh_cli_error("store: cannot write to stdout");
        rc = BH_EXIT_IO;
    }
    return rc;
}

const bh_cli_cmd bh_cli_store = {
    .name = "store",
    .handler = cmd_store,
    .args = "ingest|info|runs|export",
    .summary = "the results store (SQLite or PostgreSQL)",
    .usage = store_usage,
    .opts = store_options,
};
