// SPDX-License-Identifier: MIT
/* The executing half of confirm-before-fail: clone the suspect cases,
 * run them in the confirmation schedule, collect the values
 * (confirm_rerun.h). */
#define _GNU_SOURCE
#include "confirm_rerun.h"

#include "bh_fs.h"
#include "bh_mem.h"
#include "executor.h"
#include "loader.h"
#include "result_build.h"
#include "result_view.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A fresh, not yet run copy of c running plugin (and backend) from the
 * given files, with runs runs. */
static bh_case clone_case(const bh_case *c, const char *plugin_path, const char *backend_path,
                          uint32_t runs)
{
    bh_case k;

    memset(&k, 0, sizeof(k));
    k.id = bh_xstrdup(c->id);
    k.suite = c->suite;
    k.plugin = bh_xstrdup(c->plugin);
    k.plugin_path = bh_xstrdup(plugin_path);
    k.bench = c->bench ? bh_xstrdup(c->bench) : NULL;
    k.params = c->params ? cJSON_Duplicate(c->params, 1) : cJSON_CreateObject();
    k.params_plain = c->params_plain ? cJSON_Duplicate(c->params_plain, 1) : NULL;
    k.backend = c->backend ? bh_xstrdup(c->backend) : NULL;
    k.backend_path = backend_path ? bh_xstrdup(backend_path) : NULL;
    k.device = c->device;
    bh_settings_copy(&k.settings, &c->settings);
    k.settings.runs = runs;
    k.settings.runs_auto = 0; /* reruns are fixed runs (confirm_runs) */
    k.pre_status = BH_ST_OK;
    return k;
}

static const bh_case *plan_case(const bh_plan *plan, const char *id)
{
    for (size_t i = 0; i < plan->n; i++)
        if (strcmp(plan->cases[i].id, id) == 0)
            return &plan->cases[i];
    return NULL;
}

/* Marks every suspect item of case id with a new error (printf-style). */
static void fail_case(bh_regress_report *r, const char *id, const char *msg)
{
    for (size_t i = 0; i < r->n; i++) {
        bh_regress_item *it = &r->items[i];

        if (it->suspect && strcmp(it->case_id, id) == 0) {
            free(it->conf.error);
            it->conf.done = 1;
            it->conf.error = bh_xstrdup(msg);
        }
    }
}

/* The distinct case ids of r's suspect items that can be rerun, cloned
 * into cp (paired: A then B per case). Returns the number of cases. */
static size_t build_plan(bh_regress_report *r, const bh_plan *plan, const bh_confirm_opts *o,
                         bh_plan *cp, char ***ids)
{
    size_t n = 0;

    *ids = bh_xcalloc(r->n ? r->n : 1, sizeof(char *));
    for (size_t i = 0; i < r->n; i++) {
        const bh_regress_item *it = &r->items[i];
        const bh_case *c;
        int seen = 0;

        if (!it->suspect)
            continue;
        for (size_t k = 0; k < n; k++)
            seen |= strcmp((*ids)[k], it->case_id) == 0;
        if (seen)
            continue;
        c = plan_case(plan, it->case_id);
        if (!c || c->pre_status != BH_ST_OK || !c->plugin_path) {
            fail_case(r, it->case_id, "the case is not runnable in this plan");
            continue;
        }
        if (o->baseline_plugins) {
            char *pa = bh_loader_find_in_dir(o->baseline_plugins, c->plugin_path);
            char *ba = c->backend_path ? bh_loader_find_in_dir(o->baseline_plugins, c->backend_path)
                                       : NULL;

            if (!pa) {
                char *msg = bh_xasprintf("%s: no plugin file named like %s", o->baseline_plugins,
                                         c->plugin_path);
                fail_case(r, it->case_id, msg);
                free(msg);
                free(ba);
                continue;
            }
            BH_PUSH(cp->cases, cp->n, cp->cap,
                    clone_case(c, pa, ba ? ba : c->backend_path, o->runs));
            free(pa);
            free(ba);
        }
        BH_PUSH(cp->cases, cp->n, cp->cap, clone_case(c, c->plugin_path, c->backend_path, o->runs));
        (*ids)[n++] = it->case_id;
    }
    return n;
}

/* Fills the confirmations of the suspect items of case k from the clones'
 * runs (unpaired: against the baseline's case in base). */
static void collect(bh_regress_report *r, const bh_plan *cp, size_t k, const char *id,
                    const bh_result_view *base, const bh_regress_config *cfg, int paired)
{
    cJSON *cand_json = bh_result_case(&cp->cases[paired ? 2 * k + 1 : k]);
    cJSON *base_json = paired ? bh_result_case(&cp->cases[2 * k]) : NULL;
    bh_rv_case cand, pair_base;

    bh_rv_case_read(cand_json, &cand);
    bh_rv_case_read(base_json, &pair_base);
    for (size_t i = 0; i < r->n; i++) {
        bh_regress_item *it = &r->items[i];
        double *bv = NULL, *cv = NULL;
        size_t nb = 0, nc = 0;

        if (!it->suspect || strcmp(it->case_id, id) != 0)
            continue;
        if (paired) {
            bh_regress_run_values_indexed(&pair_base, it->metric, &bv, &nb);
            bh_regress_run_values_indexed(&cand, it->metric, &cv, &nc);
            bh_regress_confirm_paired(it, bv, cv, nb < nc ? nb : nc, cfg->confidence);
        } else {
            const bh_rv_case *bc = bh_result_view_find(base, it->base_id ? it->base_id : id);

            if (bc)
                bh_regress_run_values(bc, it->metric, &bv, &nb);
            bh_regress_run_values(&cand, it->metric, &cv, &nc);
            bh_regress_confirm_unpaired(it, bv, nb, cv, nc, cfg->method, cfg->confidence);
        }
        free(bv);
        free(cv);
    }
    bh_rv_case_free(&cand);
    bh_rv_case_free(&pair_base);
    cJSON_Delete(cand_json);
    cJSON_Delete(base_json);
}

/* See confirm_rerun.h. */
size_t bh_confirm_rerun(bh_regress_report *r, const bh_plan *plan, const cJSON *base_doc,
                        const bh_regress_config *cfg, const bh_confirm_opts *o)
{
    bh_plan cp = {NULL, 0, 0};
    char **ids = NULL;
    int paired = o->baseline_plugins != NULL;
    size_t n_cases = build_plan(r, plan, o, &cp, &ids);
    bh_regress_slot *sched;
    bh_exec_slot *slots;
    size_t n = 0;
    bh_exec_opts xo = {o->seed, o->progress, o->log_limit, NULL};
    bh_result_view base;

    if (n_cases == 0) {
        free(ids);
        bh_plan_free(&cp);
        bh_regress_confirm_decide(r, cfg);
        return 0;
    }
    sched = paired ? bh_regress_abba_schedule(n_cases, o->runs, o->seed, &n)
                   : bh_regress_shuffled_schedule(n_cases, o->runs, o->seed, &n);
    slots = bh_xcalloc(n ? n : 1, sizeof(*slots));
    for (size_t i = 0; i < n; i++)
        slots[i] = (bh_exec_slot){sched[i].clone, sched[i].run};
    bh_exec_ordered(&cp, slots, n, &xo);
    bh_result_view_load(base_doc, &base);
    /* Interrupted: the reruns are partial, so nothing is decided on them
     * and every suspect keeps its first verdict. */
    for (size_t k = 0; k < n_cases; k++)
        if (bh_interrupted)
            fail_case(r, ids[k], "interrupted before the reruns finished");
        else
            collect(r, &cp, k, ids[k], &base, cfg, paired);
    bh_result_view_free(&base);
    free(slots);
    free(sched);
    free(ids);
    bh_plan_free(&cp);
    bh_regress_confirm_decide(r, cfg);
    return n_cases;
}
