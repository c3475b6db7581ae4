// SPDX-License-Identifier: MIT
#include "bh_json_write.h"
#include "catalog.h"
#include "cli.h"
#include "ipc.h"
#include "sysinfo.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char info_usage[] =
    "usage: bhost info [--json]\n"
    "\n"
    "Prints the system fingerprint recorded in every result and every\n"
    "backend plugin on the plugin path with its devices, or the reason it\n"
    "has none.\n";

static const bh_opt info_options[] = {
    {"json", 'j', 0, BH_OPT_FLAG, "print JSON instead of text"},
    {NULL, 0, 0, BH_OPT_FLAG, NULL},
};

/* bhost info [--json]: the system fingerprint and the backends. */
static int cmd_info(int argc, char **argv)
{
    int json = 0, ch;
    cJSON *fp;
    cJSON *backends;
    bh_catalog cat;
    char *dups = NULL;
    bh_opts p;

    bh_opts_init(&p, "info", info_options, argc, argv, 1);
    while ((ch = bh_opts_next(&p)) > 0)
        json = 1;
    if (ch < 0)
        return BH_EXIT_USAGE;
    if (p.next < argc) {
        bh_cli_error("info: unexpected argument '%s'", argv[p.next]);
        return BH_EXIT_USAGE;
    }
    backends = cJSON_CreateArray();
    fp = bh_sysinfo_collect();
    bh_catalog_init(&cat, NULL, 0);
    bh_catalog_scan(&cat, &dups);
    for (size_t i = 0; i < cat.n; i++) {
        const cJSON *be = cJSON_GetObjectItemCaseSensitive(cat.entries[i]->info,
                                                           "backend");
        if (cJSON_IsObject(be)) {
            cJSON *o = cJSON_Duplicate(be, 1);
            cJSON_AddStringToObject(o, "path", cat.entries[i]->path);
            cJSON_AddItemToArray(backends, o);
        }
    }
    if (json) {
        cJSON *doc = cJSON_CreateObject();
        char *t;

        cJSON_AddItemToObject(doc, "system", fp);
        cJSON_AddItemToObject(doc, "backends", backends);
        t = bh_json_print(doc);
        puts(t);
        free(t);
        cJSON_Delete(doc);
    } else {
        char *t = bh_json_print(fp);
        const cJSON *be;

        printf("system:\n%s\nbackends:\n", t);
        free(t);
        cJSON_ArrayForEach(be, backends) {
            const cJSON *d;

            printf("  %s (%s): %d device(s)%s%s\n", bh_json_str(be, "id", "?"),
                   bh_json_str(be, "path", "?"),
                   (int)bh_json_num(be, "device_count", 0),
                   bh_json_str(be, "reason", NULL) ? ", " : "",
                   bh_json_str(be, "reason", ""));
            cJSON_ArrayForEach(d, cJSON_GetObjectItemCaseSensitive(be,
                                                                   "devices"))
                printf("    %d: %s [%s] driver %s runtime %s, %.0f MiB\n",
                       (int)bh_json_num(d, "index", 0),
                       bh_json_str(d, "name", "?"),
                       bh_json_str(d, "vendor", "?"),
                       bh_json_str(d, "driver_version", "-"),
                       bh_json_str(d, "runtime_version", "-"),
                       bh_json_num(d, "global_mem_bytes", 0) / 1048576.0);
        }
        if (cJSON_GetArraySize(backends) == 0)
            printf("  (no backend plugins found)\n");
        cJSON_Delete(fp);
        cJSON_Delete(backends);
    }
    if (dups)
        bh_cli_error("%s", dups);
    free(dups);
    bh_catalog_free(&cat);
    return BH_EXIT_OK;
}

const bh_cli_cmd bh_cli_info = {
    .name = "info",
    .handler = cmd_info,
    .args = "",
    .summary = "system fingerprint, backends and their devices",
    .usage = info_usage,
    .opts = info_options,
};
