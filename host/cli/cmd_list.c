// SPDX-License-Identifier: MIT
#include "bh_json_write.h"
#include "bh_mem.h"
#include "catalog.h"
#include "cli.h"
#include "config.h"
#include "ipc.h"
#include "param_range.h"
#include "plan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char list_usage[] =
    "usage: bhost list [CONFIG] [--filter PATTERN] [--json]\n"
    "\n"
    "With CONFIG: the cases it expands to, with the reason for any case\n"
    "that will not run. Without: every plugin on the plugin path with its\n"
    "benchmarks, their parameters (type, default, allowed values or range)\n"
    "and, for backends, their devices.\n"
    "\n"
    "  -f, --filter PATTERN only the cases, or the benchmarks PLUGIN/BENCH,\n"
    "                       that match: a glob, or a word they contain\n"
    "                       (repeatable), as bhost run --filter\n"
    "  --json               print JSON instead of text\n"
    "  -h, --help           this help\n";

/* The --filter patterns of one list command. */
typedef struct list_filter {
    char **patterns;
    size_t n;
    size_t cap;
} list_filter;

/* True when no filter is given or PLUGIN/BENCH matches one of them. */
static int bench_wanted(const list_filter *f, const char *plugin, const char *bench)
{
    char *id;
    int hit = f->n == 0;

    if (hit)
        return 1;
    id = bh_xasprintf("%s/%s", plugin, bench);
    for (size_t i = 0; i < f->n && !hit; i++)
        hit = bh_plan_id_matches(f->patterns[i], id);
    free(id);
    return hit;
}

/* The description info of one plugin with only the benchmarks f wants (a
 * copy), or NULL when f wants none of them. */
static cJSON *filtered_info(const cJSON *info, const list_filter *f)
{
    cJSON *copy = cJSON_Duplicate(info, 1);
    cJSON *benches = cJSON_GetObjectItemCaseSensitive(copy, "benchmarks");
    const char *name = bh_json_str(info, "name", "?");
    cJSON *b = benches ? benches->child : NULL;

    while (b) {
        cJSON *next = b->next;

        if (!bench_wanted(f, name, bh_json_str(b, "id", "")))
            cJSON_Delete(cJSON_DetachItemViaPointer(benches, b));
        b = next;
    }
    if (f->n && cJSON_GetArraySize(benches) == 0) {
        cJSON_Delete(copy);
        return NULL;
    }
    return copy;
}

/* One parameter as "key: type = default  {choices}  [min, max]  -- summary". */
static void print_param(const cJSON *pd)
{
    const cJSON *ch = cJSON_GetObjectItemCaseSensitive(pd, "choices");
    const cJSON *c;
    char range[96];

    printf("      %s: %s = %s", bh_json_str(pd, "key", "?"),
           bh_json_str(pd, "type", "?"),
           bh_json_str(pd, "default", "(required)"));
    if (ch) {
        printf("  {");
        cJSON_ArrayForEach(c, ch) printf("%s%s", c == ch->child ? "" : ",",
                                         cJSON_IsString(c) ? c->valuestring
                                                           : "?");
        printf("}");
    }
    if (*bh_param_range_text(pd, range, sizeof(range)))
        printf("  %s", range);
    if (bh_json_str(pd, "summary", NULL))
        printf("  -- %s", bh_json_str(pd, "summary", ""));
    printf("\n");
}

static void print_plugin(const bh_catalog_entry *en)
{
    const cJSON *b;
    const cJSON *be;

    if (!en->info) {
        printf("%s\n  %s: %s\n", en->path ? en->path : en->key,
               bh_status_name(en->status), en->error ? en->error : "");
        return;
    }
    printf("%s %s (%s)  %s\n  %s\n", bh_json_str(en->info, "name", "?"),
           bh_json_str(en->info, "version", "?"),
           bh_json_str(en->info, "plugin_id", "?"), en->path,
           bh_json_str(en->info, "summary", ""));
    cJSON_ArrayForEach(b, cJSON_GetObjectItemCaseSensitive(en->info,
                                                           "benchmarks")) {
        const cJSON *pd;

        printf("    %s%s -- %s\n", bh_json_str(b, "id", "?"),
               cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(b,
                                                             "needs_device"))
                   ? " [device]"
                   : "",
               bh_json_str(b, "summary", ""));
        cJSON_ArrayForEach(pd, cJSON_GetObjectItemCaseSensitive(b, "params"))
            print_param(pd);
    }
    be = cJSON_GetObjectItemCaseSensitive(en->info, "backend");
    if (cJSON_IsObject(be)) {
        const cJSON *d;

        int n = (int)bh_json_num(be, "device_count", 0);

        printf("    backend '%s': %d device%s%s%s\n", bh_json_str(be, "id", "?"), n,
               n == 1 ? "" : "s",
               bh_json_str(be, "reason", NULL) ? ": " : "",
               bh_json_str(be, "reason", ""));
        cJSON_ArrayForEach(d, cJSON_GetObjectItemCaseSensitive(be, "devices"))
            printf("      %d: %s\n", (int)bh_json_num(d, "index", 0),
                   bh_json_str(d, "name", "?"));
    }
}

static int list_plugins(const list_filter *f, int json)
{
    bh_catalog cat;
    char *dups = NULL;
    cJSON *arr = cJSON_CreateArray();
    size_t shown = 0;
    int rc = BH_EXIT_OK;

    bh_catalog_init(&cat, NULL, 0);
    bh_catalog_scan(&cat, &dups);
    for (size_t i = 0; i < cat.n; i++) {
        const bh_catalog_entry *en = cat.entries[i];
        cJSON *o;

        if (!en->info) {
            if (f->n)
                continue; /* a plugin that failed has no benchmark to match */
            shown++;
            if (!json) {
                print_plugin(en);
                continue;
            }
            o = cJSON_CreateObject();
            cJSON_AddStringToObject(o, "path", en->path);
            cJSON_AddStringToObject(o, "error", en->error);
        } else if (!(o = filtered_info(en->info, f))) {
            continue;
        } else {
            shown++;
        }
        if (json) {
            cJSON_AddItemToArray(arr, o);
        } else {
            bh_catalog_entry view = *en;

            view.info = o;
            print_plugin(&view);
            cJSON_Delete(o);
        }
    }
    if (json) {
        char *t = bh_json_print(arr);
        puts(t);
        free(t);
    }
    if (dups)
        bh_cli_error("%s", dups);
    if (cat.n == 0)
        bh_cli_error("no plugins found (set BHOST_PLUGIN_PATH)");
    else if (f->n && shown == 0) {
        bh_cli_error("list: --filter '%s'%s matches no benchmark; ids look like "
                     "'selftest/spin' (PLUGIN/BENCH)",
                     f->patterns[0], f->n > 1 ? " (and the others)" : "");
        rc = BH_EXIT_USAGE;
    }
    cJSON_Delete(arr);
    free(dups);
    bh_catalog_free(&cat);
    return rc;
}

static int list_cases(const char *path, const list_filter *f, int json)
{
    bh_error e = {""};
    bh_config *cfg = bh_config_load(path, &e);
    bh_catalog cat;
    bh_plan plan;
    cJSON *arr;

    if (!cfg) {
        bh_cli_error("%s", e.msg);
        return BH_EXIT_CONFIG;
    }
    bh_catalog_init(&cat, cfg->plugin_path, cfg->n_plugin_path);
    if (bh_plan_build(cfg, &cat, &plan, &e) != 0) {
        bh_cli_error("%s", e.msg);
        bh_catalog_free(&cat);
        bh_config_free(cfg);
        return BH_EXIT_CONFIG;
    }
    if (f->n) {
        size_t before = plan.n;

        bh_plan_filter(&plan, f->patterns, f->n);
        if (plan.n == 0) {
            bh_cli_error("list: --filter '%s'%s matches none of the %zu case%s of %s", f->patterns[0],
                         f->n > 1 ? " (and the others)" : "", before, before == 1 ? "" : "s", path);
            bh_plan_free(&plan);
            bh_catalog_free(&cat);
            bh_config_free(cfg);
            return BH_EXIT_USAGE;
        }
    }
    arr = cJSON_CreateArray();
    for (size_t i = 0; i < plan.n; i++) {
        const bh_case *c = &plan.cases[i];

        if (json) {
            cJSON *o = cJSON_CreateObject();
            cJSON_AddStringToObject(o, "id", c->id);
            cJSON_AddStringToObject(o, "status",
                                    c->pre_status ? bh_status_name(
                                                        c->pre_status)
                                                  : "runnable");
            if (c->pre_reason)
                cJSON_AddStringToObject(o, "reason", c->pre_reason);
            cJSON_AddItemToArray(arr, o);
        } else if (c->pre_status != BH_ST_OK) {
            printf("%s  (%s: %s)\n", c->id, bh_status_name(c->pre_status),
                   c->pre_reason ? c->pre_reason : "");
        } else {
            printf("%s\n", c->id);
        }
    }
    if (json) {
        char *t = bh_json_print(arr);
        puts(t);
        free(t);
    }
    cJSON_Delete(arr);
    bh_plan_free(&plan);
    bh_catalog_free(&cat);
    bh_config_free(cfg);
    return BH_EXIT_OK;
}

static const bh_opt list_options[] = {
    {"filter", 'f', 'f', BH_OPT_VALUE, "only the cases or benchmarks that match"},
    {"json", 'j', 0, BH_OPT_FLAG, "print JSON instead of text"},
    {NULL, 0, 0, BH_OPT_FLAG, NULL},
};

/* bhost list [CONFIG] [--filter PATTERN] [--json]: the cases of CONFIG,
 * or every plugin. */
static int cmd_list(int argc, char **argv)
{
    bh_opts p;
    list_filter f = {NULL, 0, 0};
    int json = 0, ch, rc;

    bh_opts_init(&p, "list", list_options, argc, argv, 1);
    while ((ch = bh_opts_next(&p)) > 0) {
        if (ch == 'f')
            BH_PUSH(f.patterns, f.n, f.cap, p.value);
        else
            json = 1;
    }
    if (ch < 0 || argc - p.next > 1) {
        if (ch >= 0)
            bh_cli_error("list: unexpected argument '%s' (see bhost list --help)",
                         argv[p.next + 1]);
        free(f.patterns);
        return BH_EXIT_USAGE;
    }
    rc = p.next < argc ? list_cases(argv[p.next], &f, json) : list_plugins(&f, json);
    free(f.patterns);
    return rc;
}

const bh_cli_cmd bh_cli_list = {
    .name = "list",
    .handler = cmd_list,
    .args = "[CONFIG]",
    .summary = "the cases of a config, or every plugin and benchmark",
    .usage = list_usage,
    .opts = list_options,
};
