// SPDX-License-Identifier: MIT
/* The "cycle" check: one benchmark through create, setup, run(1), verify,
 * run(3), verify and destroy at its default parameters, on device 0 of a
 * backend when it needs one. A crash or hang here is reported by the
 * supervisor from the last check_stage message. */
#include "check_plugin.h"

#include "bh_clock.h"
#include "bh_plugin_status.h"
#include "host_api.h"
#include "ipc.h"
#include "loader.h"
#include "rules.h"
#include "work_profile.h"

#include <stdio.h>
#include <string.h>

/* Everything one cycle holds, released in reverse order. */
typedef struct cycle {
    int fd;
    char id[192];
    bh_plugin plugin;
    bh_plugin backend_plugin;
    const bhost_backend *be;
    bhost_dev *dev;
    bhost_stream *stream;
    const bhost_bench_desc *d;
    void *inst;
    int created;
} cycle;

/* The case status a failing plugin status means at stage: the mapping
 * bhost run uses (bh_plugin_status.h). */
static const char *status_word(bhost_status st, const char *stage)
{
    return bh_status_name(bh_plugin_status_case(st, stage));
}

/* Reports a failed stage: WARN for skipped/unsupported (a benchmark may
 * decline its defaults here), FAIL otherwise. Returns -1. */
static int stage_failed(cycle *c, const char *stage, bhost_status st)
{
    const char *word = status_word(st, stage);
    int decline = st == BHOST_E_SKIP || st == BHOST_E_UNSUPPORTED;

    bh_check_report(c->fd, c->id, decline ? "WARN" : "FAIL",
                    "%s: %s returned %d: %s", word, stage, st,
                    bh_check_last_error());
    return -1;
}

/* Calls one step; stage names it for the supervisor and the report. */
static int step(cycle *c, const char *stage, bhost_status st)
{
    return st == BHOST_OK ? 0 : stage_failed(c, stage, st);
}

/* Finds the descriptor with the given id. */
static const bhost_bench_desc *find(const bh_plugin *p, const char *id)
{
    uint32_t n = p->benchmarks ? p->benchmarks->count() : 0;

    for (uint32_t i = 0; i < n; i++) {
        const bhost_bench_desc *d = p->benchmarks->get(i);
        if (d && d->id && strcmp(d->id, id) == 0)
            return d;
    }
    return NULL;
}

/* Loads the backend and opens device index with a stream. 0, or -1 after
 * reporting why the cycle cannot run. */
static int open_device(cycle *c, const char *path, uint32_t index)
{
    bh_error e = {""};
    bhost_device_info info;
    uint32_t count = 0;

    if (!path) {
        bh_check_report(c->fd, c->id, "WARN",
                        "not run: needs a device (name a backend with "
                        "--backend NAME)");
        return -1;
    }
    if (strcmp(path, c->plugin.path) == 0) {
        c->be = c->plugin.backend;
    } else if (bh_loader_open(path, bh_host_api_get(), &c->backend_plugin,
                              &e) == 0) {
        c->be = c->backend_plugin.backend;
    } else {
        bh_check_report(c->fd, c->id, "FAIL", "cannot load backend: %s",
                        e.msg);
        return -1;
    }
    if (!c->be) {
        bh_check_report(c->fd, c->id, "FAIL", "%s provides no %s", path,
                        BHOST_IFACE_BACKEND);
        return -1;
    }
    bh_host_api_clear_error();
    bh_check_stage(c->fd, "backend device_count");
    if (c->be->device_count(&count) != BHOST_OK || count <= index) {
        bh_check_report(c->fd, c->id, "WARN",
                        "not run: backend '%s' has no device %u: %s",
                        c->be->id, index, bh_check_last_error());
        return -1;
    }
    memset(&info, 0, sizeof(info));
    info.struct_size = sizeof(info);
    bh_check_stage(c->fd, "backend device_info");
    if (c->be->device_info(index, &info) == BHOST_OK &&
        (info.caps & c->d->required_caps) != c->d->required_caps) {
        bh_check_report(c->fd, c->id, "WARN",
                        "not run: device %u of '%s' lacks required caps "
                        "0x%llx",
                        index, c->be->id,
                        (unsigned long long)(c->d->required_caps &
                                             ~info.caps));
        return -1;
    }
    bh_check_stage(c->fd, "backend open");
    if (step(c, "backend open", c->be->open(index, bh_host_context(),
                                            &c->dev)) != 0)
        return -1;
    bh_check_stage(c->fd, "backend stream_create");
    return step(c, "backend stream_create",
                c->be->stream_create(c->dev, &c->stream));
}

/* run(iterations), then a stream sync for device benchmarks, then the
 * manual-timing rules `run` applies (bh_rules_sample). */
static int run_step(cycle *c, uint64_t iterations, const char *stage)
{
    bhost_host *h = bh_host_context();
    uint64_t t0;
    uint64_t wall;
    char why[512];

    bh_host_api_clear_error();
    h->manual_time_set = 0;
    bh_check_stage(c->fd, stage);
    t0 = bh_now_ns();
    if (step(c, stage, c->d->run(c->inst, c->stream, iterations)) != 0)
        return -1;
    wall = bh_now_ns() - t0;
    if (c->be && step(c, "stream_sync after run",
                      c->be->stream_sync(c->dev, c->stream)) != 0)
        return -1;
    if (!(c->d->flags & BHOST_BENCH_MANUAL_TIMING))
        return 0;
    if (!h->manual_time_set) {
        bh_check_report(c->fd, c->id, "FAIL", "failed: %s: %s", stage,
                        BH_RULE_MANUAL_UNSET);
        return -1;
    }
    if (bh_rules_sample("manual", h->manual_time_ns, wall, why,
                        sizeof(why)) != 0) {
        bh_check_report(c->fd, c->id, "FAIL", "invalid: %s: %s", stage, why);
        return -1;
    }
    return 0;
}

/* verify() after a run. */
static int verify_step(cycle *c, const char *stage)
{
    bh_host_api_clear_error();
    bh_check_stage(c->fd, stage);
    return step(c, stage, c->d->verify(c->inst));
}

/* The work-per-iteration getters must pass bh_rules_work and the work
 * profile bh_work_profile_get's checks, as in `run`. */
static int check_work(cycle *c)
{
    struct {
        const char *name;
        double(BHOST_ABI *fn)(void *);
    } g[] = {{"flops_per_iter", c->d->flops_per_iter},
             {"bytes_per_iter", c->d->bytes_per_iter},
             {"items_per_iter", c->d->items_per_iter}};
    char why[512];

    for (size_t i = 0; i < sizeof(g) / sizeof(g[0]); i++) {
        if (!g[i].fn)
            continue;
        bh_check_stage(c->fd, g[i].name);
        if (bh_rules_work(g[i].name, g[i].fn(c->inst), why, sizeof(why)) != 0) {
            bh_check_report(c->fd, c->id, "FAIL", "invalid: %s", why);
            return -1;
        }
    }
    if (BHOST_HAS(bhost_bench_desc, c->d, work_profile) && c->d->work_profile) {
        cJSON *profile = NULL;

        bh_check_stage(c->fd, "work_profile");
        if (bh_work_profile_get(c->d, c->inst, &profile, why, sizeof(why)) != 0) {
            bh_check_report(c->fd, c->id, "FAIL", "invalid: %s", why);
            return -1;
        }
        cJSON_Delete(profile);
    }
    return 0;
}

/* The lifecycle after the device is open; 0 when every step passed. */
static int lifecycle(cycle *c)
{
    bh_host_api_clear_error();
    bh_check_stage(c->fd, "create");
    if (step(c, "create", c->d->create(bh_host_context(), c->be, c->dev,
                                       &c->inst)) != 0)
        return -1;
    c->created = 1;
    if (c->d->setup) {
        bh_check_stage(c->fd, "setup");
        if (step(c, "setup", c->d->setup(c->inst, c->stream)) != 0)
            return -1;
        if (c->be && step(c, "stream_sync after setup",
                          c->be->stream_sync(c->dev, c->stream)) != 0)
            return -1;
    }
    if (run_step(c, 1, "run(1)") != 0 || verify_step(c, "verify") != 0 ||
        run_step(c, 3, "run(3)") != 0 ||
        verify_step(c, "verify after run(3)") != 0)
        return -1;
    return check_work(c);
}

/* A multi-rank benchmark's cycle runs in this one process: its "ranks"
 * parameter is set to 1 (rank 0 of 1, as the host's rank extension says
 * here). 0, or -1 when the parameter's range excludes 1. */
static int one_rank(const bhost_bench_desc *d, cJSON *params)
{
    cJSON *r = cJSON_GetObjectItemCaseSensitive(params, "ranks");

    for (uint32_t i = 0; i < d->param_count; i++) {
        const bhost_param_desc *p = bh_rules_param_at(d, i);

        if (p->key && strcmp(p->key, "ranks") == 0 && p->min > 1)
            return -1;
    }
    if (!r)
        return -1;
    cJSON_ReplaceItemInObject(r, "value", cJSON_CreateString("1"));
    return 0;
}

int bh_check_cycle(const cJSON *job, int fd)
{
    cycle c;
    bh_error e = {""};
    const char *bench = bh_json_str(job, "bench", "");
    cJSON *params;
    char why[256];
    int rc = -1;

    memset(&c, 0, sizeof(c));
    c.fd = fd;
    snprintf(c.id, sizeof(c.id), "bench[%.128s].cycle", bench);
    bh_check_stage(fd, "load");
    if (bh_loader_open(bh_json_str(job, "plugin", ""), bh_host_api_get(),
                       &c.plugin, &e) != 0) {
        bh_check_report(fd, c.id, "FAIL", "cannot load: %s", e.msg);
        bh_plugin_release(&c.plugin);
        return 0;
    }
    c.d = find(&c.plugin, bench);
    params = c.d ? bh_check_default_params(c.d, why, sizeof(why)) : NULL;
    if (params && (c.d->flags & BHOST_BENCH_MULTI_RANK) && one_rank(c.d, params) != 0) {
        snprintf(why, sizeof(why), "a multi-rank benchmark whose ranks parameter cannot be 1 "
                                   "(the cycle runs in this one process)");
        cJSON_Delete(params);
        params = NULL;
    }
    if (!c.d)
        bh_check_report(fd, c.id, "FAIL", "benchmark '%s' not found", bench);
    else if (!params)
        bh_check_report(fd, c.id, "WARN", "not run: %s", why);
    if (!params) {
        bh_plugin_release(&c.plugin);
        return 0;
    }
    bh_host_context()->params = params;
    bh_host_context()->seed = UINT64_C(0x5eed);
    if (!(c.d->flags & BHOST_BENCH_NEEDS_DEVICE) ||
        open_device(&c, bh_json_str(job, "backend", NULL),
                    (uint32_t)bh_json_num(job, "device", 0)) == 0)
        rc = lifecycle(&c);
    if (c.created) {
        bh_check_stage(fd, "destroy");
        c.d->destroy(c.inst);
    }
    if (c.stream) {
        bh_check_stage(fd, "backend stream_destroy");
        c.be->stream_destroy(c.dev, c.stream);
    }
    if (c.dev) {
        bh_check_stage(fd, "backend close");
        c.be->close(c.dev);
    }
    if (rc == 0)
        bh_check_report(fd, c.id, "PASS",
                        "ok: create, setup, run(1), verify, run(3), verify, "
                        "destroy at default params%s%s",
                        c.be ? " on " : "", c.be ? c.be->id : "");
    bh_host_context()->params = NULL;
    cJSON_Delete(params);
    bh_plugin_release(&c.backend_plugin);
    bh_plugin_release(&c.plugin);
    return 0;
}
