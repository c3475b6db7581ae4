// SPDX-License-Identifier: MIT
/* bhost ci-matrix: the GitHub Actions job matrix of a folder of configs. */
#define _GNU_SOURCE
#include "bh_mem.h"
#include "bh_json_write.h"
#include "cli.h"
#include "cli_args.h"
#include "matrix.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char matrix_usage[] =
    "usage: bhost ci-matrix [DIR|CONFIG.yaml ...] [options]\n"
    "\n"
    "Prints the GitHub Actions job matrix of the configs in DIR (default:\n"
    "configs; *.yaml and *.yml directly in it) or of the named config files,\n"
    "as one line of JSON {\"include\": [job, ...]} for strategy.matrix. One\n"
    "job per config; a config whose required backends, or backends with a\n"
    "runner of their own, are two or more gets one job per such backend\n"
    "(the first also runs the host-only cases and the other backends).\n"
    "Job fields: id, group, name, config, config_name, backend, backends,\n"
    "required, runs_on, shard, shards, args (extra `bhost run` arguments).\n"
    "\n"
    "  --filter GLOBS       only configs whose name matches one of the globs\n"
    "                       (comma- or space-separated; repeatable)\n"
    "  --runner B=LABELS    jobs of backend B run on the runner with these\n"
    "                       labels (comma-separated), e.g. cuda=self-hosted,gpu;\n"
    "                       default=LABELS for every other job (default:\n"
    "                       " BH_MATRIX_DEFAULT_RUNNER "); repeatable\n"
    "  --shards N           split every job into N shards (--shard I/N)\n"
    "  --pretty             indented JSON\n"
    "  -h, --help           this help\n"
    "\n"
    "Exit: 0 printed, 2 bad options or a filter matching no config, 3 a\n"
    "config is invalid (file:line:col: message).\n";

typedef struct matrix_cli {
    char **filters;
    size_t n_filters, cap_filters;
    char **runners;
    size_t n_runners, cap_runners;
    uint64_t shards;
    int pretty;
    int first; /* argv index of the first operand */
} matrix_cli;

/* The options of bhost ci-matrix. */
static const bh_opt matrix_options[] = {
    {"filter", 'f', 0, BH_OPT_VALUE, "only configs whose name matches the glob"},
    {"runner", 'r', 0, BH_OPT_VALUE, "runner labels: LABELS or BACKEND=LABELS"},
    {"shards", 's', 0, BH_OPT_VALUE, "split each job into N shards"},
    {"pretty", 'p', 0, BH_OPT_FLAG, "indented JSON"},
    {NULL, 0, 0, BH_OPT_FLAG, NULL}};

/* Parses the options; -1 after printing one line on a usage error. */
static int parse(int argc, char **argv, matrix_cli *o)
{
    bh_opts p;
    int ch;

    bh_opts_init(&p, "ci-matrix", matrix_options, argc, argv, 1);
    while ((ch = bh_opts_next(&p)) > 0) {
        switch (ch) {
        case 'f':
            BH_PUSH(o->filters, o->n_filters, o->cap_filters, p.value);
            break;
        case 'r':
            BH_PUSH(o->runners, o->n_runners, o->cap_runners, p.value);
            break;
        case 's':
            if (bh_arg_u64("--shards", p.value, 1, 1000, &o->shards) != 0)
                return -1;
            break;
        case 'p':
            o->pretty = 1;
            break;
        }
    }
    if (ch < 0)
        return -1;
    o->first = p.next;
    return 0;
}

/* The config files named by the operands (a folder expands to its
 * configs); NULL after printing the error. */
static char **config_files(int argc, char **argv, int first, size_t *n)
{
    char **all = NULL;
    size_t cap = 0;
    int ok = 1;

    *n = 0;
    for (int i = first; i < argc || (i == first && argc == first); i++) {
        const char *arg = i < argc ? argv[i] : "configs";
        size_t len = strlen(arg);

        if ((len > 5 && strcmp(arg + len - 5, ".yaml") == 0) ||
            (len > 4 && strcmp(arg + len - 4, ".yml") == 0)) {
            BH_PUSH(all, *n, cap, bh_xstrdup(arg));
        } else {
            bh_error e = {""};
            size_t k;
            char **v = bh_matrix_list_configs(arg, &k, &e);

            if (!v) {
                bh_cli_error("ci-matrix: %s", e.msg);
                ok = 0;
                break;
            }
            for (size_t j = 0; j < k; j++)
                BH_PUSH(all, *n, cap, v[j]);
            free(v);
        }
    }
    if (!ok) {
        for (size_t j = 0; j < *n; j++)
            free(all[j]);
        free(all);
        return NULL;
    }
    return all ? all : bh_xcalloc(1, sizeof(char *));
}

static int cmd_ci_matrix(int argc, char **argv)
{
    matrix_cli o;
    bh_error e = {""};
    bh_matrix_opts mo;
    char **files;
    size_t n = 0;
    cJSON *m;
    int rc = BH_EXIT_OK;

    memset(&o, 0, sizeof(o));
    if (parse(argc, argv, &o) != 0) {
        rc = BH_EXIT_USAGE;
        goto out;
    }
    files = config_files(argc, argv, o.first, &n);
    if (!files) {
        rc = BH_EXIT_USAGE;
        goto out;
    }
    mo = (bh_matrix_opts){o.filters, o.n_filters, o.runners, o.n_runners, (uint32_t)o.shards};
    rc = bh_matrix_build(files, n, &mo, &m, &e);
    if (rc != 0) {
        bh_cli_error("%s%s", rc == BH_MATRIX_BAD_CONFIG ? "" : "ci-matrix: ", e.msg);
        rc = rc == BH_MATRIX_BAD_CONFIG ? BH_EXIT_CONFIG : BH_EXIT_USAGE;
    } else {
        char *text = o.pretty ? bh_json_print(m) : bh_json_print_unformatted(m);

        puts(text);
        free(text);
        cJSON_Delete(m);
    }
    for (size_t i = 0; i < n; i++)
        free(files[i]);
    free(files);
out:
    free(o.filters);
    free(o.runners);
    return rc;
}

const bh_cli_cmd bh_cli_ci_matrix = {
    .name = "ci-matrix",
    .handler = cmd_ci_matrix,
    .args = "[DIR]",
    .summary = "the GitHub Actions job matrix of a folder of configs",
    .usage = matrix_usage,
    .opts = matrix_options,
};
