// SPDX-License-Identifier: MIT
#include "run_case.h"
#include "rank_ext.h"

#include "bh_error.h"
#include "bh_mem.h"
#include "bh_plugin_status.h"
#include "count_loop.h"
#include "host_api.h"
#include "ipc.h"
#include "loader.h"
#include "profile_region.h"
#include "rules.h"
#include "run_meters.h"
#include "timing_loop.h"
#include "work_profile.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

/* Everything one run holds, released in reverse order. */
typedef struct run_state {
    bh_plugin plugin;
    bh_plugin backend_plugin;
    const bhost_backend *be;
    bhost_dev *dev;
    bhost_stream *stream;
    const bhost_bench_desc *desc;
    void *inst;
    int created;
} run_state;

/* The status word a plugin failure maps to (bh_plugin_status.h). */
static const char *status_for(bhost_status st, const char *stage)
{
    return bh_status_name(bh_plugin_status_case(st, stage));
}

/* The message for a failed stage, always "stage: ...": the plugin's own
 * detail when it gave one, else the status it returned by name. */
static char *stage_message(const char *stage, bhost_status st)
{
    const char *why = bh_host_api_last_error();
    const char *name = bh_plugin_status_name(st);

    if (*why)
        return bh_xasprintf("%s: %s", stage, why);
    if (name)
        return bh_xasprintf("%s: returned %s (%d) without a message (the "
                            "plugin did not call set_error)",
                            stage, name, st);
    return bh_xasprintf("%s: returned %d, which is not a bhost_status", stage,
                        st);
}

static void send_error(int fd, const char *kind, const char *msg)
{
    cJSON *m = cJSON_CreateObject();

    cJSON_AddStringToObject(m, "t", "error");
    cJSON_AddStringToObject(m, "kind", kind);
    cJSON_AddStringToObject(m, "message", msg);
    bh_ipc_send(fd, m, NULL);
    cJSON_Delete(m);
}

/* Finds the descriptor with the given id. */
static const bhost_bench_desc *find_bench(const bh_plugin *p, const char *id)
{
    uint32_t n;

    if (!p->benchmarks)
        return NULL;
    n = p->benchmarks->count();
    for (uint32_t i = 0; i < n; i++) {
        const bhost_bench_desc *d = p->benchmarks->get(i);
        if (d && d->id && strcmp(d->id, id) == 0)
            return d;
    }
    return NULL;
}

/* Opens the backend device named by the job; returns a plugin status. */
static bhost_status open_device(run_state *rs, const cJSON *job,
                                bh_error *e, const char **stage)
{
    const char *path = bh_json_str(job, "backend", NULL);
    uint32_t index = (uint32_t)bh_json_num(job, "device", 0);
    uint32_t count = 0;
    bhost_status st;

    *stage = "backend";
    if (!path) {
        bh_error_set(e, "device benchmark without a backend");
        return BHOST_E_INVALID;
    }
    if (bh_loader_open(path, bh_host_api_get(), &rs->backend_plugin, e) != 0)
        return BHOST_E_INVALID;
    rs->be = rs->backend_plugin.backend;
    if (!rs->be) {
        bh_error_set(e, "%s provides no backend interface", path);
        return BHOST_E_INVALID;
    }
    *stage = "device_count";
    st = rs->be->device_count(&count);
    if (st != BHOST_OK)
        return st;
    if (index >= count) {
        bh_error_set(e, "device %u not present (count %u)", index, count);
        return BHOST_E_UNSUPPORTED;
    }
    *stage = "open";
    st = rs->be->open(index, bh_host_context(), &rs->dev);
    if (st != BHOST_OK)
        return st;
    *stage = "stream_create";
    return rs->be->stream_create(rs->dev, &rs->stream);
}

/* Adds the work-per-iteration figures the descriptor provides, each
 * checked by bh_rules_work, and its work profile (work_profile.h).
 * Returns 0, or -1 with why set (the broken figure is left out). */
static int add_work(cJSON *res, const run_state *rs, char *why, size_t cap)
{
    const bhost_bench_desc *d = rs->desc;
    const struct {
        const char *name;
        double(BHOST_ABI *fn)(void *);
    } g[] = {{"flops_per_iter", d->flops_per_iter},
             {"bytes_per_iter", d->bytes_per_iter},
             {"items_per_iter", d->items_per_iter}};
    int rc = 0;
    cJSON *profile = NULL;

    for (size_t i = 0; i < sizeof(g) / sizeof(g[0]); i++) {
        double v;

        if (!g[i].fn)
            continue;
        v = g[i].fn(rs->inst);
        if (bh_rules_work(g[i].name, v, why, cap) == 0)
            cJSON_AddNumberToObject(res, g[i].name, v);
        else
            rc = -1;
    }
    if (rc == 0 && bh_work_profile_get(d, rs->inst, &profile, why, cap) != 0)
        rc = -1;
    if (profile)
        cJSON_AddItemToObject(res, "work_profile", profile);
    if (d->flags & BHOST_BENCH_CEILING)
        cJSON_AddTrueToObject(res, "ceiling");
    return rc;
}

/* True when a correctness metric of the run exceeds its limit (ABI 1.1
 * report_metric_kind), with why naming the first one. */
static int over_limit(const cJSON *metrics, char *why, size_t cap)
{
    const cJSON *m;

    cJSON_ArrayForEach(m, metrics) {
        double v = bh_json_num(m, "value", NAN), limit = bh_json_num(m, "limit", NAN);

        if (strcmp(bh_json_str(m, "kind", ""), "correctness") == 0 && v > limit) {
            snprintf(why, cap, "metric %s = %g above its limit %g", bh_json_str(m, "name", "?"),
                     v, limit);
            return 1;
        }
    }
    return 0;
}

/* Adds the run's host-API allocation figures and peak RSS to res. Called
 * after the plugin's destroy and the backend's close, so the blocks still
 * live are the run's leaks (leaked_bytes, leaked_count). */
static void add_resources(cJSON *res)
{
    struct rusage ru;
    uint64_t count, bytes, peak, live, live_blocks;
    cJSON *alloc = cJSON_AddObjectToObject(res, "alloc");

    bh_host_api_alloc_stats(&count, &bytes, &peak);
    bh_host_api_alloc_live(&live, &live_blocks);
    cJSON_AddNumberToObject(alloc, "count", (double)count);
    cJSON_AddNumberToObject(alloc, "bytes", (double)bytes);
    cJSON_AddNumberToObject(alloc, "peak_bytes", (double)peak);
    cJSON_AddNumberToObject(alloc, "leaked_bytes", (double)live);
    cJSON_AddNumberToObject(alloc, "leaked_count", (double)live_blocks);
    if (getrusage(RUSAGE_SELF, &ru) == 0)
        cJSON_AddNumberToObject(res, "peak_rss_kb", (double)ru.ru_maxrss);
}

static void add_timing(cJSON *res, const bh_timing_outcome *t)
{
    cJSON_AddStringToObject(res, "timing", t->timing ? t->timing : "host");
    cJSON_AddNumberToObject(res, "iters_per_sample",
                            (double)t->iters_per_sample);
    cJSON_AddNumberToObject(res, "warmup_samples", t->warmup_samples);
    cJSON_AddNumberToObject(res, "timer_resolution_ns", t->resolution_ns);
    cJSON_AddNumberToObject(res, "timer_overhead_ns", t->overhead_ns);
    cJSON_AddBoolToObject(res, "budget_exhausted", t->budget_exhausted);
    if (bh_host_api_log_truncated())
        cJSON_AddBoolToObject(res, "log_truncated", 1);
}

/* A rank's digest of its result (bhost/ranks.h), and whether it stopped
 * because another rank failed, for the rank hub. */
static void add_rank_record(cJSON *res, const bh_timing_outcome *t)
{
    uint64_t d;
    char hex[24];

    if (bh_rank_digest(&d)) {
        snprintf(hex, sizeof(hex), "0x%016llx", (unsigned long long)d);
        cJSON_AddStringToObject(res, "digest", hex);
    }
    if (t->peer_failed)
        cJSON_AddTrueToObject(res, "peer_failed");
}

int bh_run_case(const cJSON *job, int result_fd)
{
    run_state rs;
    bh_error e = {""};
    bhost_host *h = bh_host_context();
    const char *stage = "create";
    const char *status = "ok";
    char *message = NULL;
    bhost_status st = BHOST_OK;
    bh_timing_outcome tout;
    bh_timing_plan plan;
    bh_timing_target target;
    bh_prof_region prof; /* bhost run --profile: the run stage marked */
    cJSON *res;
    const char *seed = bh_json_str(job, "seed", "0");
    int counting = strcmp(bh_json_str(job, "measure", "time"), "instructions") == 0;
    char work_why[512];
    bh_run_meters meters;

    memset(&rs, 0, sizeof(rs));
    memset(&tout, 0, sizeof(tout));
    h->params = cJSON_GetObjectItemCaseSensitive(job, "params");
    h->seed = strtoull(seed, NULL, 0);
    /* before the plugin loads, so that the threads it starts inherit them */
    bh_run_meters_open(&meters, !counting && strcmp(bh_json_str(job, "counters", "on"), "off"),
                       bh_json_str(job, "backend", NULL) ? (int)bh_json_num(job, "device", 0) : -1);
    bh_host_api_stage("load");
    if (bh_loader_open(bh_json_str(job, "plugin", ""), bh_host_api_get(),
                       &rs.plugin, &e) != 0) {
        send_error(result_fd, "load", e.msg);
        bh_plugin_release(&rs.plugin);
        bh_run_meters_close(&meters);
        return 3;
    }
    rs.desc = find_bench(&rs.plugin, bh_json_str(job, "bench", ""));
    if (!rs.desc) {
        send_error(result_fd, "job", "benchmark not found in plugin");
        bh_plugin_release(&rs.plugin);
        bh_run_meters_close(&meters);
        return 2;
    }
    if (counting && bh_rank_multi()) {
        status = "unsupported";
        message = bh_xstrdup("measure: instructions counts one process under callgrind; a "
                             "multi-rank case is timed (measure: time)");
        goto report;
    }
    if (counting && !bh_count_available()) {
        status = "unsupported";
        message = bh_xstrdup("measure: instructions: this worker was built without "
                             "<valgrind/callgrind.h> (install valgrind and rebuild)");
        goto report;
    }
    bh_host_api_clear_error();
    bh_host_api_stage("create");
    if (rs.desc->flags & BHOST_BENCH_NEEDS_DEVICE) {
        st = open_device(&rs, job, &e, &stage);
        if (st != BHOST_OK && e.msg[0]) {
            status = status_for(st, stage);
            message = bh_xasprintf("%s: %s", stage, e.msg);
            goto report;
        }
    }
    if (st == BHOST_OK) {
        stage = "create";
        st = rs.desc->create(h, rs.be, rs.dev, &rs.inst);
    }
    if (st == BHOST_OK) {
        rs.created = 1;
        stage = "setup";
        bh_host_api_stage(stage);
        st = rs.desc->setup ? rs.desc->setup(rs.inst, rs.stream) : BHOST_OK;
        if (st == BHOST_OK && rs.be)
            st = rs.be->stream_sync(rs.dev, rs.stream);
    }
    if (st == BHOST_OK) {
        memset(&plan, 0, sizeof(plan));
        plan.warmup_ns = (uint64_t)bh_json_num(job, "warmup_ns", 0);
        plan.sample_time_ns = (uint64_t)bh_json_num(job, "sample_time_ns", 0);
        plan.samples = (uint32_t)bh_json_num(job, "samples", 10);
        plan.budget_ns = (uint64_t)bh_json_num(job, "budget_ns", 0);
        plan.result_fd = result_fd;
        plan.sample_begin = bh_run_meters_begin;
        plan.sample_end = bh_run_meters_end;
        plan.sample_arg = &meters;
        memset(&target, 0, sizeof(target));
        target.desc = rs.desc;
        target.inst = rs.inst;
        target.h = h;
        target.be = rs.be;
        target.dev = rs.dev;
        target.stream = rs.stream;
        target.manual = (rs.desc->flags & BHOST_BENCH_MANUAL_TIMING) != 0;
        bh_host_api_stage("run");
        bh_prof_region_open(job, &prof);
        bh_prof_region_enter(&prof);
        if (counting)
            bh_count_run(&target, &plan, (uint64_t)bh_json_num(job, "iterations", 10), &tout);
        else
            bh_timing_run(&target, &plan, &tout);
        bh_prof_region_leave(&prof);
        bh_prof_region_close(&prof);
        st = tout.status;
        stage = "run";
    }
    if (st == BHOST_OK) {
        stage = "verify";
        bh_host_api_stage(stage);
        st = rs.desc->verify ? rs.desc->verify(rs.inst) : BHOST_E_VERIFY;
        if (!rs.desc->verify)
            bh_error_set(&e, "benchmark has no verify()");
    }
    if (st != BHOST_OK && tout.reason[0]) {
        status = st == BHOST_E_VERIFY ? "invalid" : "failed";
        message = bh_xasprintf("run: %s", tout.reason);
    } else if (st != BHOST_OK) {
        status = status_for(st, stage);
        message = e.msg[0] ? bh_xasprintf("%s: %s", stage, e.msg)
                           : stage_message(stage, st);
    }
report:
    res = cJSON_CreateObject();
    cJSON_AddStringToObject(res, "t", "result");
    if (rs.created && add_work(res, &rs, work_why, sizeof(work_why)) != 0 &&
        strcmp(status, "ok") == 0) {
        status = "invalid";
        message = bh_xasprintf("verify: %s", work_why);
    }
    if (strcmp(status, "ok") == 0 && over_limit(h->metrics, work_why, sizeof(work_why))) {
        status = "invalid";
        message = bh_xasprintf("verify: %s", work_why);
    }
    cJSON_AddStringToObject(res, "status", status);
    if (message)
        cJSON_AddStringToObject(res, "message", message);
    add_rank_record(res, &tout);
    add_timing(res, &tout);
    if (!counting)
        bh_run_meters_report(&meters, (double)tout.samples_taken * (double)tout.iters_per_sample,
                             h, res);
    if (h->metrics)
        cJSON_AddItemReferenceToObject(res, "metrics", h->metrics);
    if (rs.created) {
        bh_host_api_stage("destroy");
        rs.desc->destroy(rs.inst);
    }
    if (rs.stream)
        rs.be->stream_destroy(rs.dev, rs.stream);
    if (rs.dev)
        rs.be->close(rs.dev);
    add_resources(res);
    bh_ipc_send(result_fd, res, NULL);
    bh_host_api_stage("exit");
    cJSON_Delete(res);
    free(message);
    cJSON_Delete(h->metrics);
    h->metrics = NULL;
    bh_plugin_release(&rs.plugin);
    bh_plugin_release(&rs.backend_plugin);
    bh_host_api_reclaim(); /* after the leak report and the plugin's unload */
    bh_run_meters_close(&meters);
    return 0;
}
