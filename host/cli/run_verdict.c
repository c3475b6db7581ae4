// SPDX-License-Identifier: MIT
/* The verdict step of bhost run (see run_verdict.h). */
#define _GNU_SOURCE
#include "run_verdict.h"

#include "baseline.h"
#include "bh_fs.h"
#include "bh_mem.h"
#include "cli.h"
#include "compare_console.h"
#include "confirm_rerun.h"
#include "drift.h"
#include "gate.h"
#include "regress_json.h"
#include "result_view.h"

#include <stdlib.h>
#include <string.h>

int bh_run_verdict_prepare(bh_run_verdict *v, const bh_config *cfg, const cJSON *system)
{
    bh_error e = {""};
    bh_result_view mine;
    cJSON *me;

    v->base_path = NULL;
    v->base_doc = NULL;
    v->base_sha256[0] = '\0';
    v->system_diff = v->config_diff = NULL;
    v->compared = 0;
    memset(&v->rep, 0, sizeof(v->rep));
    if (bh_regress_config_parse(cfg->regression_json, cfg->regression_pos_json, cfg->path,
                                &v->rc, &e) != 0) {
        bh_cli_error("%s", e.msg);
        return BH_EXIT_CONFIG;
    }
    if (v->save_baseline && !bh_regress_baseline_name_ok(v->save_baseline)) {
        bh_cli_error("run: --save-baseline '%s': expected a name of 1 to 100 characters "
                     "from A-Z a-z 0-9 . _ - not starting with '.'",
                     v->save_baseline);
        return BH_EXIT_USAGE;
    }
    if (v->baseline_plugins && !bh_is_directory(v->baseline_plugins)) {
        bh_cli_error("run: --baseline-plugins '%s': expected a directory holding the "
                     "baseline build's plugin files", v->baseline_plugins);
        return BH_EXIT_USAGE;
    }
    /* --fail-on-regression alone gates the config's budgets (expect:) */
    if (v->baseline_plugins && !v->baseline) {
        bh_cli_error("run: --baseline-plugins needs --baseline NAME|FILE");
        return BH_EXIT_USAGE;
    }
    if (!v->baseline)
        return 0;
    /* This run as far as comparability goes: its config and machine. */
    me = cJSON_CreateObject();
    cJSON_AddStringToObject(cJSON_AddObjectToObject(cJSON_AddObjectToObject(me, "run"),
                                                    "config"),
                            "name", cfg->name);
    cJSON_AddItemToObject(me, "system", system ? cJSON_Duplicate(system, 1) : cJSON_CreateNull());
    bh_result_view_load_top(me, &mine);
    v->base_doc = bh_regress_baseline_load(v->baseline, v->results_dir, cfg->name, v->store,
                                           mine.system.fingerprint_hash, &v->base_path, &e);
    bh_result_view_free(&mine);
    if (!v->base_doc) {
        cJSON_Delete(me);
        bh_cli_error("baseline: %s", e.msg);
        return BH_EXIT_IO;
    }
    bh_gate_baseline_digest(v->base_doc, v->base_sha256);
    bh_regress_comparable(v->base_doc, me, &v->system_diff, &v->config_diff);
    cJSON_Delete(me);
    if (v->config_diff)
        bh_cli_error("baseline %s is a result of another config (%s)%s", v->base_path,
                     v->config_diff, v->force ? "; compared anyway (--force)"
                                              : "; use --force to compare anyway");
    if (v->system_diff)
        bh_cli_error("baseline %s was measured on another system: %s%s", v->base_path,
                     v->system_diff, v->force ? "; compared anyway (--force)"
                                              : "; use --force to compare anyway");
    if ((v->config_diff || v->system_diff) && !v->force)
        return BH_EXIT_USAGE;
    return 0;
}

/* Number of distinct cases among the suspect items. */
static size_t suspect_cases(const bh_regress_report *r)
{
    size_t n = 0;

    for (size_t i = 0; i < r->n; i++) {
        int seen = 0;

        if (!r->items[i].suspect)
            continue;
        for (size_t j = 0; j < i && !seen; j++)
            seen = r->items[j].suspect && strcmp(r->items[j].case_id, r->items[i].case_id) == 0;
        n += !seen;
    }
    return n;
}

void bh_run_verdict_apply(bh_run_verdict *v, cJSON *doc, const bh_plan *plan,
                          const bh_exec_opts *xo, int progress, FILE *err)
{
    bh_regress_meta meta;
    size_t suspects;

    if (!v->base_doc)
        return;
    {
        bh_regress_match m = {v->ignore_params, v->n_ignore};
        bh_error e = {""};

        bh_regress_compare_docs(v->base_doc, doc, &v->rc, &m, &v->rep);
        v->rep.family_extra = v->family_extra;
        v->rep.paired_confirm = v->baseline_plugins != NULL && v->rc.confirm && !v->no_confirm;
        bh_regress_finalize(&v->rep, &v->rc);
        if (bh_regress_drift_from_store(&v->rep, &v->rc, v->store, v->base_doc, doc, &e) != 0)
            bh_cli_error("warning: no drift floor (the recorded history cannot be read): %s",
                         e.msg);
    }
    v->compared = 1;
    suspects = suspect_cases(&v->rep);
    if (suspects && v->rc.confirm && !v->no_confirm && !bh_interrupted) {
        bh_confirm_opts co = {v->baseline_plugins, v->rc.confirm_runs,
                                      xo->seed ^ UINT64_C(0xc0f1a3b5d7e9f2a4), xo->progress,
                                      xo->log_limit};

        if (progress)
            fprintf(err, "confirming %zu suspect case%s: %u %s each, %s\n", suspects,
                    suspects == 1 ? "" : "s", v->rc.confirm_runs,
                    v->baseline_plugins ? "ABBA pairs" : "reruns",
                    v->baseline_plugins ? "interleaved with the baseline build"
                                        : "compared with the stored baseline (no "
                                          "--baseline-plugins: weaker)");
        bh_confirm_rerun(&v->rep, plan, v->base_doc, &v->rc, &co);
    }
    meta = (bh_regress_meta){v->base_path, NULL, v->system_diff, v->config_diff, v->force};
    bh_regress_attach(doc, &v->rep, &meta);
    {
        bh_gate_spec g = {v->base_sha256, &v->rc, v->ignore_params, v->n_ignore,
                          !v->rc.confirm || v->no_confirm ? "off"
                          : v->baseline_plugins           ? "paired"
                                                          : "unpaired",
                          v->force, v->fail_on_regression};

        cJSON_AddItemToObject(cJSON_GetObjectItemCaseSensitive(doc, "comparison"), "gate",
                              bh_gate_json(&g));
    }
}

void bh_run_verdict_print(const bh_run_verdict *v, FILE *out, int color)
{
    if (!v->compared)
        return;
    fprintf(out, "\ncompared with %s\n", v->base_path);
    bh_compare_print(out, &v->rep, 0, color);
    bh_compare_print_summary(out, &v->rep);
}

int bh_run_verdict_save(const bh_run_verdict *v, const cJSON *doc, const char *config_name,
                        FILE *out)
{
    bh_error e = {""};
    char *used = NULL;

    if (!v->save_baseline)
        return 0;
    if (bh_regress_baseline_save(doc, v->results_dir, config_name, v->save_baseline, &used,
                                 &e) != 0) {
        bh_cli_error("cannot save baseline: %s", e.msg);
        return BH_EXIT_IO;
    }
    fprintf(out, "baseline: %s\n", used);
    free(used);
    return 0;
}

int bh_run_verdict_exit(const bh_run_verdict *v)
{
    return v->compared && v->fail_on_regression && bh_regress_n_critical(&v->rep) > 0
               ? BH_EXIT_REGRESSION
               : 0;
}

void bh_run_verdict_free(bh_run_verdict *v)
{
    bh_regress_report_free(&v->rep);
    bh_regress_config_free(&v->rc);
    cJSON_Delete(v->base_doc);
    free(v->base_path);
    free(v->system_diff);
    free(v->config_diff);
    free(v->ignore_params);
    v->ignore_params = NULL;
    v->n_ignore = v->cap_ignore = 0;
    v->base_doc = NULL;
    v->base_path = v->system_diff = v->config_diff = NULL;
}
