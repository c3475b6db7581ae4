// SPDX-License-Identifier: MIT
/* See run_profile.h. */
#include "run_profile.h"

#include "bh_fs.h"
#include "bh_mem.h"
#include "cli.h"
#include "ipc.h"

#include <stdlib.h>
#include <string.h>

int bh_run_profile_set(bh_run_profile *p, const char *value)
{
    int t = bh_prof_tool_parse(value);

    if (t < 0) {
        bh_cli_error("run: --profile '%s': expected one of " BH_PROF_TOOLS, value);
        return -1;
    }
    p->on = 1;
    p->req.tool = (bh_prof_tool)t;
    return 0;
}

void bh_run_profile_settings(const bh_run_profile *p, bh_config *cfg)
{
    if (!p->on)
        return;
    for (size_t i = 0; i < cfg->n_suites; i++) {
        bh_settings *s = &cfg->suites[i].settings;

        s->runs = 1;
        s->runs_auto = 0;
        s->measure = p->req.tool == BH_PROF_CALLGRIND ? BH_MEASURE_INSTRUCTIONS : BH_MEASURE_TIME;
    }
}

/* The profiles folder for result_path: "<its folder>/<stamp>-profiles",
 * or with --out "<FILE without .json>-profiles"; a free name. */
static void name_dir(bh_run_profile *p, const char *result_path, const char *stamp, int out_given)
{
    const char *slash = strrchr(result_path, '/');
    size_t dir_len = slash ? (size_t)(slash - result_path) : 0;
    char *base;

    if (out_given) {
        const char *name = slash ? slash + 1 : result_path;
        size_t n = strlen(name);

        if (n > 5 && strcmp(name + n - 5, ".json") == 0)
            n -= 5;
        base = bh_xasprintf("%.*s-profiles", (int)n, name);
    } else {
        base = bh_xasprintf("%s-profiles", stamp);
    }
    for (int k = 1;; k++) {
        char *rel = k == 1 ? bh_xstrdup(base) : bh_xasprintf("%s-%d", base, k);
        char *dir =
            slash ? bh_xasprintf("%.*s/%s", (int)dir_len, result_path, rel) : bh_xstrdup(rel);

        if (!bh_path_exists(dir) || k == 1000) {
            p->req.dir = dir;
            p->req.rel_dir = rel;
            break;
        }
        free(rel);
        free(dir);
    }
    free(base);
}

int bh_run_profile_prepare(bh_run_profile *p, bh_plan *plan, const char *result_path,
                           const char *stamp, int out_given)
{
    bh_error e = {""};

    if (!p->on)
        return 0;
    if (plan->n != 1) {
        bh_cli_error("run: --profile profiles exactly one case, and %zu are selected%s%s%s%s%s "
                     "(narrow them with --filter)",
                     plan->n, plan->n ? ": '" : "", plan->n ? plan->cases[0].id : "",
                     plan->n > 1 ? "', '" : "", plan->n > 1 ? plan->cases[1].id : "",
                     plan->n > 2 ? "', ..."
                     : plan->n   ? "'"
                                 : "");
        return BH_EXIT_USAGE;
    }
    if (bh_prof_check_tool(p->req.tool, &e) != 0) {
        bh_cli_error("run: %s", e.msg);
        return BH_EXIT_USAGE;
    }
    name_dir(p, result_path, stamp, out_given);
    p->req.records = cJSON_CreateObject();
    bh_prof_check_plan(&p->req, plan);
    return 0;
}

const bh_prof_request *bh_run_profile_request(const bh_run_profile *p)
{
    return p->on ? &p->req : NULL;
}

void bh_run_profile_record(const bh_run_profile *p, cJSON *doc)
{
    cJSON *run = cJSON_GetObjectItemCaseSensitive(doc, "run");
    cJSON *c;

    if (!p->on)
        return;
    if (cJSON_IsObject(run))
        cJSON_AddStringToObject(run, "profile", bh_prof_tool_name(p->req.tool));
    cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(doc, "cases")) {
        const cJSON *rec =
            cJSON_GetObjectItemCaseSensitive(p->req.records, bh_json_str(c, "id", ""));

        if (rec)
            cJSON_AddItemToObject(c, "profile", cJSON_Duplicate(rec, 1));
    }
}

void bh_run_profile_print(const bh_run_profile *p, FILE *out)
{
    const cJSON *rec;
    size_t skip = p->req.rel_dir ? strlen(p->req.rel_dir) : 0;

    if (!p->on)
        return;
    cJSON_ArrayForEach(rec, p->req.records) {
        const char *path = bh_json_str(rec, "path", "");
        const char *svg = bh_json_str(rec, "svg", NULL);

        /* the records name files relative to the result's folder */
        fprintf(out, "profile: %s%s (%s)\n", p->req.dir, path + (strlen(path) > skip ? skip : 0),
                bh_json_str(rec, "tool", ""));
        if (svg)
            fprintf(out, "flame graph: %s%s\n", p->req.dir, svg + (strlen(svg) > skip ? skip : 0));
        else if (bh_json_str(rec, "svg_error", NULL))
            fprintf(out, "flame graph: none (%s)\n", bh_json_str(rec, "svg_error", ""));
    }
}

void bh_run_profile_free(bh_run_profile *p)
{
    free(p->req.dir);
    free(p->req.rel_dir);
    cJSON_Delete(p->req.records);
    memset(p, 0, sizeof(*p));
}
