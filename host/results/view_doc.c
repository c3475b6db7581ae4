// SPDX-License-Identifier: MIT
/* The result view of a whole document: run, system, cases, roofs and
 * comparison, and lookups over it (see result_view.h). */
#include "view_internal.h"

#include "bh_mem.h"
#include "descriptive.h"
#include "view_json.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The run object into out. */
static void read_run(const cJSON *run, bh_rv_run_info *out)
{
    const cJSON *cfg = bh_vj_obj(run, "config");
    const cJSON *git = bh_vj_obj(run, "git");

    out->json = run;
    out->config_path = bh_vj_str(cfg, "path", NULL);
    out->config_name = bh_vj_str(cfg, "name", NULL);
    out->config_hash = bh_vj_str(cfg, "hash", NULL);
    out->host_version = bh_vj_str(run, "host_version", NULL);
    out->seed = bh_vj_str(run, "seed", NULL);
    out->started_at = bh_vj_str(run, "started_at", NULL);
    out->finished_at = bh_vj_str(run, "finished_at", NULL);
    out->duration_s = bh_vj_num(run, "duration_s");
    out->complete = bh_vj_bool(run, "complete");
    out->git.commit = bh_vj_str(git, "commit", NULL);
    out->git.branch = bh_vj_str(git, "branch", NULL);
    out->git.dirty = bh_vj_bool(git, "dirty");
    out->git.source = bh_vj_str(git, "source", NULL);
    out->command_line = bh_vj_arr(run, "command_line");
    out->plugins = bh_vj_arr(run, "plugins");
    out->n_plugins = out->plugins ? (size_t)cJSON_GetArraySize(out->plugins) : 0;
    out->shard = bh_vj_obj(run, "shard");
    out->shard_index = bh_vj_num(out->shard, "index");
    out->shard_count = bh_vj_num(out->shard, "count");
    out->shard_cases_total = bh_vj_num(out->shard, "cases_total");
    out->shard_partition = bh_vj_str(out->shard, "partition", "");
    out->shard_positions = bh_vj_arr(out->shard, "positions");
    out->merged = bh_vj_obj(run, "merged");
}

/* The system object into out. */
static void read_system(const cJSON *sys, bh_rv_system *out)
{
    out->json = sys;
    out->hostname = bh_vj_str(sys, "hostname", NULL);
    out->cpu_model = bh_vj_str(bh_vj_obj(sys, "cpu"), "model", NULL);
    out->fingerprint_hash = bh_vj_str(sys, "fingerprint_hash", NULL);
    out->os_release = bh_vj_str(bh_vj_obj(sys, "os"), "release", NULL);
    out->compiler = bh_vj_str(sys, "compiler", NULL);
    out->governor = bh_vj_str(bh_vj_obj(sys, "frequency"), "governor", NULL);
    out->max_khz = bh_vj_num(bh_vj_obj(sys, "frequency"), "max_khz");
    out->logical_cores = bh_vj_num(bh_vj_obj(sys, "cpu"), "logical_cores");
    out->physical_cores = bh_vj_num(bh_vj_obj(sys, "cpu"), "physical_cores");
    out->numa_nodes = bh_vj_num(bh_vj_obj(sys, "cpu"), "numa_nodes");
    out->load_average = bh_vj_arr(sys, "load_average");
    out->n_caches = bh_vj_arr(sys, "caches") ? (size_t)cJSON_GetArraySize(bh_vj_arr(sys, "caches"))
                                              : 0;
}

/* See result_view.h. */
bh_rv_plugin bh_rv_run_plugin(const bh_rv_run_info *r, size_t i)
{
    const cJSON *p = cJSON_GetArrayItem(r->plugins, (int)i);
    bh_rv_plugin out;

    out.json = p;
    out.requested = bh_vj_str(p, "requested", NULL);
    out.name = bh_vj_str(p, "name", NULL);
    out.version = bh_vj_str(p, "version", NULL);
    out.status = bh_vj_str(p, "status", NULL);
    out.sha256 = bh_vj_str(p, "sha256", NULL);
    out.warning = bh_vj_str(p, "warning", NULL);
    return out;
}

/* See result_view.h. */
bh_rv_cache bh_rv_system_cache(const bh_rv_system *s, size_t i)
{
    const cJSON *c = cJSON_GetArrayItem(bh_vj_arr(s->json, "caches"), (int)i);
    bh_rv_cache out;

    out.type = bh_vj_str(c, "type", NULL);
    out.level = bh_vj_num(c, "level");
    out.size_bytes = bh_vj_num(c, "size_bytes");
    out.count = bh_vj_num(c, "count");
    return out;
}

/* The roofs and comparison objects into v. */
static void read_tops(const cJSON *doc, bh_result_view *v)
{
    const cJSON *roofs = bh_vj_obj(doc, "roofs");
    const cJSON *cmp = bh_vj_obj(doc, "comparison");
    bh_rv_comparison *c = &v->comparison;

    v->roofs.json = roofs;
    v->roofs.bandwidth_bytes_per_s = bh_vj_num(roofs, "bandwidth_bytes_per_s");
    v->roofs.bandwidth_case = bh_vj_str(roofs, "bandwidth_case", NULL);
    v->roofs.flops_per_s = bh_vj_num(roofs, "flops_per_s");
    v->roofs.flops_case = bh_vj_str(roofs, "flops_case", NULL);
    v->roofs.ceilings = bh_vj_arr(roofs, "ceilings");
    v->roofs.n_ceilings =
        v->roofs.ceilings ? (size_t)cJSON_GetArraySize(v->roofs.ceilings) : 0;
    c->json = cmp;
    c->baseline = bh_vj_str(cmp, "baseline", NULL);
    c->candidate = bh_vj_str(cmp, "candidate", NULL);
    c->counts = bh_vj_obj(cmp, "counts");
    c->regressed = bh_vj_obj(cmp, "regressed");
    c->missing = bh_vj_arr(cmp, "missing");
    c->gate = bh_vj_obj(cmp, "gate");
    c->gate_baseline_sha256 = bh_vj_str(c->gate, "baseline_sha256", NULL);
    c->families = bh_vj_arr(cmp, "families");
    c->n_families = c->families ? (size_t)cJSON_GetArraySize(c->families) : 0;
    c->fail_on_regression = bh_vj_bool(c->gate, "fail_on_regression") == 1;
    c->tests = bh_vj_num(cmp, "tests");
    c->family = bh_vj_num(cmp, "family");
    c->fdr = bh_vj_num(cmp, "fdr");
    c->confidence = bh_vj_num(cmp, "confidence");
    c->suspects = bh_vj_num(cmp, "suspects");
    c->confirm_tests = bh_vj_num(cmp, "confirm_tests");
}

/* See result_view.h. */
double bh_rv_comparison_count(const bh_rv_comparison *c, const char *verdict)
{
    double n = bh_vj_num(c->counts, verdict);

    return isfinite(n) ? n : 0;
}

/* See result_view.h. */
double bh_rv_comparison_regressed(const bh_rv_comparison *c, const char *severity)
{
    double n = bh_vj_num(c->regressed, severity);

    return isfinite(n) ? n : 0;
}

/* See result_view.h. */
double bh_rv_comparison_failing(const bh_rv_comparison *c)
{
    double n = bh_rv_comparison_regressed(c, "critical");

    if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(c->json, "noisier_fails")))
        n += bh_rv_comparison_count(c, "noisier");
    return n;
}

/* See result_view.h. */
void bh_result_view_load_top(const cJSON *doc, bh_result_view *v)
{
    memset(v, 0, sizeof(*v));
    v->doc = doc;
    v->schema = bh_vj_str(doc, "schema", NULL);
    read_run(bh_vj_obj(doc, "run"), &v->run);
    read_system(bh_vj_obj(doc, "system"), &v->system);
    read_tops(doc, v);
    v->cases_total = bh_vj_arr(doc, "cases") ? (size_t)cJSON_GetArraySize(bh_vj_arr(doc, "cases"))
                                              : 0;
}

/* See result_view.h. */
void bh_result_view_load(const cJSON *doc, bh_result_view *v)
{
    const cJSON *cases = bh_vj_arr(doc, "cases");
    const cJSON *c;

    bh_result_view_load_top(doc, v);
    v->cases = bh_xcalloc(v->cases_total ? v->cases_total : 1, sizeof(bh_rv_case));
    if (cases)
        cJSON_ArrayForEach(c, cases) if (bh_rv_case_read(c, &v->cases[v->n_cases])) {
                const bh_rv_case *k = &v->cases[v->n_cases++];

                v->n_verdicts += k->verdict != NULL;
                v->n_roofline += isfinite(k->roof.fraction);
            }
}

/* See result_view.h. */
void bh_result_view_free(bh_result_view *v)
{
    for (size_t i = 0; i < v->n_cases; i++)
        bh_rv_case_free(&v->cases[i]);
    free(v->cases);
    memset(v, 0, sizeof(*v));
}

/* See result_view.h. */
const bh_rv_case *bh_result_view_find(const bh_result_view *v, const char *id)
{
    for (size_t i = 0; i < v->n_cases; i++)
        if (strcmp(v->cases[i].id, id) == 0)
            return &v->cases[i];
    return NULL;
}

/* See result_view.h. */
const bh_rv_metric *bh_rv_case_metric(const bh_rv_case *c, const char *name)
{
    for (size_t i = 0; i < c->n_metrics; i++)
        if (strcmp(c->metrics[i].name, name) == 0)
            return &c->metrics[i];
    return NULL;
}

/* See result_view.h. */
double bh_rv_run_metric_value(const bh_rv_run *r, const char *name)
{
    double *v = r->n_metrics ? bh_xcalloc(r->n_metrics, sizeof(double)) : NULL;
    size_t n = 0;
    double m;

    for (size_t i = 0; i < r->n_metrics; i++)
        if (strcmp(r->metrics[i].name, name) == 0 && isfinite(r->metrics[i].value))
            v[n++] = r->metrics[i].value;
    m = n ? bh_stats_median(v, n) : NAN;
    free(v);
    return m;
}

/* See result_view.h. */
void bh_rv_case_run_medians(const bh_rv_case *c, double **out, size_t *n)
{
    *out = c->n_runs ? bh_xcalloc(c->n_runs, sizeof(double)) : NULL;
    *n = 0;
    for (size_t i = 0; i < c->n_runs; i++)
        if (c->runs[i].ok && isfinite(c->runs[i].median_ns) && c->runs[i].median_ns > 0)
            (*out)[(*n)++] = c->runs[i].median_ns;
    if (*n == 0) {
        free(*out);
        *out = NULL;
    }
}

/* See result_view.h. */
int bh_rv_status_failed(const char *status)
{
    static const char *const bad[] = {"failed", "invalid", "crashed", "timeout", "oom"};

    for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++)
        if (strcmp(status, bad[i]) == 0)
            return 1;
    return 0;
}

/* See result_view.h. */
int bh_rv_verdict_rank(const char *verdict, const char *severity)
{
    static const char *const order[] = {"improved",     "inconclusive", "new",    "missing",
                                        "within noise", "no change",    "noisier"};

    if (!verdict)
        return 10;
    if (strcmp(verdict, "regressed") == 0) {
        if (severity && strcmp(severity, "critical") == 0)
            return 0;
        if (severity && strcmp(severity, "warning") == 0)
            return 1;
        return 2;
    }
    for (int i = 0; i < 7; i++)
        if (strcmp(verdict, order[i]) == 0)
            return 3 + i;
    return 10;
}
