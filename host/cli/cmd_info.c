// SPDX-License-Identifier: MIT
#include "bh_json_write.h"
#include "catalog.h"
#include "cli.h"
#include "info_text.h"
#include "ipc.h"
#include "sysinfo.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char info_usage[] =
    "usage: bhost info [--json]\n"
    "\n"
    "Prints the system fingerprint recorded in every result (host, CPU,\n"
    "caches, memory, frequency, kernel settings, toolchain) and every\n"
    "backend plugin on the plugin path with its devices, or the reason it\n"
    "has none.\n"
    "\n"
    "  --json               the same as one JSON object {system, backends}\n"
    "  -h, --help           this help\n";

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
        const cJSON *be;

        bh_info_print_system(stdout, fp);
        printf("backends:\n");
        cJSON_ArrayForEach(be, backends)
            bh_info_print_backend(stdout, be);
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
