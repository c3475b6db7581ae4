// SPDX-License-Identifier: MIT
#include "bh_json_write.h"
#include "bh_mem.h"
#include "catalog.h"
#include "cli.h"
#include "config.h"
#include "ipc.h"
#include "plan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char list_usage[] =
    "usage: bhost list [CONFIG] [--json]\n"
    "\n"
    "With CONFIG: the cases it expands to, with the reason for any case\n"
    "that will not run. Without: every plugin on the plugin path with its\n"
    "benchmarks, their parameters (type, default, allowed values) and, for\n"
    "backends, their devices.\n";

/* One parameter as "key:type=default {choices} [min..max]". */
static void print_param(const cJSON *pd)
{
    const cJSON *ch = cJSON_GetObjectItemCaseSensitive(pd, "choices");
    const cJSON *c;

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
    if (cJSON_GetObjectItemCaseSensitive(pd, "min"))
        printf("  [%g, %g]", bh_json_num(pd, "min", 0),
               bh_json_num(pd, "max", 0));
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

        printf("    backend '%s': %d device(s)%s%s\n",
               bh_json_str(be, "id", "?"),
               (int)bh_json_num(be, "device_count", 0),
               bh_json_str(be, "reason", NULL) ? ": " : "",
               bh_json_str(be, "reason", ""));
        cJSON_ArrayForEach(d, cJSON_GetObjectItemCaseSensitive(be, "devices"))
            printf("      %d: %s\n", (int)bh_json_num(d, "index", 0),
                   bh_json_str(d, "name", "?"));
    }
}

static int list_plugins(int json)
{
    bh_catalog cat;
    char *dups = NULL;
    cJSON *arr = cJSON_CreateArray();

    bh_catalog_init(&cat, NULL, 0);
    bh_catalog_scan(&cat, &dups);
    for (size_t i = 0; i < cat.n; i++) {
        if (json) {
            cJSON *o = cat.entries[i]->info
                           ? cJSON_Duplicate(cat.entries[i]->info, 1)
                           : cJSON_CreateObject();
            if (!cat.entries[i]->info) {
                cJSON_AddStringToObject(o, "path", cat.entries[i]->path);
                cJSON_AddStringToObject(o, "error", cat.entries[i]->error);
            }
            cJSON_AddItemToArray(arr, o);
        } else {
            print_plugin(cat.entries[i]);
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
    cJSON_Delete(arr);
    free(dups);
    bh_catalog_free(&cat);
    return BH_EXIT_OK;
}

static int list_cases(const char *path, int json)
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
    {"json", 'j', 0, BH_OPT_FLAG, "print JSON instead of text"},
    {NULL, 0, 0, BH_OPT_FLAG, NULL},
};

/* bhost list [CONFIG] [--json]: the cases of CONFIG, or every plugin. */
static int cmd_list(int argc, char **argv)
{
    bh_opts p;
    int json = 0, ch;

    bh_opts_init(&p, "list", list_options, argc, argv, 1);
    while ((ch = bh_opts_next(&p)) > 0)
        json = 1;
    if (ch < 0)
        return BH_EXIT_USAGE;
    if (argc - p.next > 1) {
        bh_cli_error("list: unexpected argument '%s' (see bhost list --help)", argv[p.next + 1]);
        return BH_EXIT_USAGE;
    }
    return p.next < argc ? list_cases(argv[p.next], json) : list_plugins(json);
}

const bh_cli_cmd bh_cli_list = {
    .name = "list",
    .handler = cmd_list,
    .args = "[CONFIG]",
    .summary = "the cases of a config, or every plugin and benchmark",
    .usage = list_usage,
    .opts = list_options,
};
