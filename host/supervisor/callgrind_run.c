// SPDX-License-Identifier: MIT
/* See callgrind_run.h. */
#define _GNU_SOURCE
#include "callgrind_run.h"

#include "bh_fs.h"
#include "bh_mem.h"
#include "ipc.h"
#include "tool_env.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The largest callgrind output file read: a counting run's file holds the
 * costs of the few functions its samples call, far below this. */
#define CG_MAX_BYTES (256u << 20)

void bh_cg_check_plan(bh_plan *plan)
{
    char *why = NULL;
    int checked = 0;

    for (size_t i = 0; i < plan->n; i++) {
        bh_case *c = &plan->cases[i];

        if (c->pre_status != BH_ST_OK || c->runs ||
            c->settings.measure != BH_MEASURE_INSTRUCTIONS)
            continue;
        if (!checked) {
            const char *refusal = bh_tool_valgrind_refusal();
            char *vg = refusal ? NULL : bh_tool_find("valgrind");

            if (refusal)
                why = bh_xasprintf("measure: instructions cannot run in this build: %s",
                                   refusal);
            else if (!vg)
                why = bh_xstrdup("measure: instructions needs valgrind (its callgrind tool) on "
                                 "PATH, and there is none (Debian package valgrind)");
            free(vg);
            checked = 1;
        }
        if (!why)
            return;
        c->pre_status = BH_ST_UNSUPPORTED;
        free(c->pre_reason);
        c->pre_reason = bh_xstrdup(why);
    }
    free(why);
}

int bh_cg_begin(const bh_case *c, const char *keep, bh_cg_run *x, bh_error *e)
{
    const char *tmp = getenv("TMPDIR");
    char *vg;
    size_t k = 0;

    memset(x, 0, sizeof(*x));
    if (c->settings.measure != BH_MEASURE_INSTRUCTIONS)
        return 0;
    vg = bh_tool_find("valgrind");
    if (!vg)
        return bh_error_set(e, "measure: instructions: valgrind is no longer on PATH");
    if (keep) {
        x->keep = bh_xstrdup(keep);
        x->out_arg = bh_xasprintf("--callgrind-out-file=%s", keep);
    } else {
        char *dir = bh_xasprintf("%s/bhost-callgrind-XXXXXX", tmp && *tmp ? tmp : "/tmp");

        if (!mkdtemp(dir)) {
            free(dir);
            free(vg);
            return bh_error_set(e, "measure: instructions: cannot create a folder for "
                                   "callgrind's output under %s", tmp && *tmp ? tmp : "/tmp");
        }
        x->dir = dir;
        x->out_arg = bh_xasprintf("--callgrind-out-file=%s/callgrind.out.%%p", dir);
    }
    x->on = 1;
    x->argv[k++] = vg;
    x->argv[k++] = bh_xstrdup("-q");
    x->argv[k++] = bh_xstrdup("--tool=callgrind");
    x->argv[k++] = bh_xstrdup("--collect-atstart=no");
    x->argv[k++] = bh_xstrdup("--cache-sim=yes");
    /* A fixed cache geometry, not this machine's: the misses of a case are
       then the same on every runner, and Valgrind has no LL size to round
       (it warns when a real L3 is not a power of two). */
    x->argv[k++] = bh_xstrdup("--I1=32768,8,64");
    x->argv[k++] = bh_xstrdup("--D1=32768,8,64");
    x->argv[k++] = bh_xstrdup("--LL=8388608,16,64");
    x->argv[k++] = bh_xstrdup(x->out_arg);
    x->argv[k] = NULL;
    return 0;
}

void bh_cg_add_metrics(cJSON *result, const bh_callgrind_counts *c, double iters)
{
    const struct {
        const char *name;
        const char *unit;
        double total;
    } m[] = {{BH_CG_INSTRUCTIONS, "instructions/iter", (double)c->ir},
             {BH_CG_L1_MISSES, "misses/iter", (double)c->l1_misses},
             {BH_CG_LL_MISSES, "misses/iter", (double)c->ll_misses}};
    cJSON *metrics = cJSON_GetObjectItemCaseSensitive(result, "metrics");

    if (!cJSON_IsArray(metrics)) {
        cJSON_DeleteItemFromObjectCaseSensitive(result, "metrics");
        metrics = cJSON_AddArrayToObject(result, "metrics");
    }
    for (size_t i = 0; i < (c->has_cache ? 3u : 1u); i++) {
        cJSON *o = cJSON_CreateObject();
        int at = 0;
        const cJSON *old;

        cJSON_ArrayForEach(old, metrics) {
            if (strcmp(bh_json_str(old, "name", ""), m[i].name) == 0)
                break;
            at++;
        }
        if (old)
            cJSON_DeleteItemFromArray(metrics, at);
        cJSON_AddStringToObject(o, "name", m[i].name);
        cJSON_AddStringToObject(o, "unit", m[i].unit);
        cJSON_AddStringToObject(o, "direction", "lower");
        cJSON_AddNumberToObject(o, "value", m[i].total / iters);
        cJSON_AddItemToArray(metrics, o);
    }
}

/* The sum of the iterations of samples ([iters, ns] pairs). */
static double sample_iterations(const cJSON *samples)
{
    const cJSON *pair;
    double n = 0;

    cJSON_ArrayForEach(pair, samples)
        n += cJSON_GetArrayItem(pair, 0) ? cJSON_GetArrayItem(pair, 0)->valuedouble : 0;
    return n;
}

/* Reads the output file of pid into r's metrics; -1 with e set. */
static int collect(const bh_cg_run *x, int pid, bh_run *r, bh_error *e)
{
    char *path = x->keep ? bh_xstrdup(x->keep) : bh_xasprintf("%s/callgrind.out.%d", x->dir, pid);
    char *text = NULL;
    size_t len = 0;
    bh_callgrind_counts c;
    double iters = sample_iterations(r->samples);
    int rc = -1;

    if (!(iters >= 1) || !isfinite(iters)) {
        bh_error_set(e, "no samples were counted");
        goto out;
    }
    if (bh_read_file(path, CG_MAX_BYTES, &text, &len, e) != 0)
        goto out;
    if (bh_callgrind_parse(text, len, path, &c, e) != 0)
        goto out;
    bh_cg_add_metrics(r->result, &c, iters);
    rc = 0;
out:
    free(text);
    free(path);
    return rc;
}

void bh_cg_end(bh_cg_run *x, int pid, bh_run *r)
{
    bh_error e = {""};

    if (!x->on)
        return;
    if (r->status == BH_ST_OK && r->result && collect(x, pid, r, &e) != 0) {
        r->status = BH_ST_FAILED;
        free(r->message);
        r->message = bh_xasprintf("measure: instructions: %s", e.msg);
    }
    if (x->dir)
        bh_tool_remove_dir(x->dir);
    free(x->dir);
    free(x->keep);
    free(x->out_arg);
    for (size_t i = 0; x->argv[i]; i++)
        free(x->argv[i]);
    memset(x, 0, sizeof(*x));
}
