// SPDX-License-Identifier: MIT
/* Counters and energy of one run: open, sample hooks, report
 * (run_meters.h). */
#include "run_meters.h"

#include "host_api.h"
#include "perf_metrics.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const char *const group_names[BH_PC_GROUPS] = {"core", "cache", "software"};

/* See run_meters.h. */
void bh_run_meters_open(bh_run_meters *m, int on, int gpu)
{
    memset(m, 0, sizeof(*m));
    for (int g = 0; g < BH_PC_GROUPS; g++)
        m->pc.leader[g] = -1;
    m->on = on;
    if (!on)
        return;
    bh_perf_counters_open(&m->pc);
    bh_energy_open(&m->en, gpu);
}

/* See run_meters.h. */
void bh_run_meters_begin(void *p)
{
    bh_run_meters *m = p;

    bh_energy_sample_begin(&m->en);
    bh_perf_counters_enable(&m->pc);
}

/* See run_meters.h. */
void bh_run_meters_end(void *p)
{
    bh_run_meters *m = p;

    bh_perf_counters_disable(&m->pc);
    bh_energy_sample_end(&m->en);
    m->samples++;
}

/* Reports one informational metric when v is finite. */
static void metric(bhost_host *h, const char *name, const char *unit, int higher, double v)
{
    if (isfinite(v))
        bh_host_api_get()->report_metric_kind(
            h, name, unit, BHOST_METRIC_INFORMATIONAL,
            higher ? BHOST_HIGHER_IS_BETTER : BHOST_LOWER_IS_BETTER, v, 0);
}

/* {"status", "reason"} of a part. */
static cJSON *status_json(const char *status, const char *reason)
{
    cJSON *o = cJSON_CreateObject();

    cJSON_AddStringToObject(o, "status", status);
    if (reason && *reason)
        cJSON_AddStringToObject(o, "reason", reason);
    return o;
}

/* The groups that were read: name, events, times. */
static cJSON *groups_json(const bh_perf_counters *pc, const bh_pc_totals *t)
{
    cJSON *arr = cJSON_CreateArray();

    for (int g = 0; g < BH_PC_GROUPS; g++) {
        cJSON *o, *ev;

        if (pc->leader[g] < 0)
            continue;
        o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "name", group_names[g]);
        ev = cJSON_AddArrayToObject(o, "events");
        for (int k = 0; k < pc->n[g]; k++)
            cJSON_AddItemToArray(ev, cJSON_CreateString(bh_pc_event_name(pc->events[g][k])));
        cJSON_AddNumberToObject(o, "time_enabled_ns", (double)t->enabled[g]);
        cJSON_AddNumberToObject(o, "time_running_ns", (double)t->running[g]);
        cJSON_AddItemToArray(arr, o);
    }
    return arr;
}

/* The "counters" record and the perf.* metrics. */
static cJSON *counters_report(bh_run_meters *m, double iterations, bhost_host *h)
{
    const bh_perf_counters *pc = &m->pc;
    bh_pc_totals t;
    bh_pc_derived d;
    const char *status;
    cJSON *o;
    int rc;

    if (!m->on)
        return status_json("off", "counters: off");
    rc = bh_perf_counters_read(pc, &t);
    bh_pc_derive(&t, iterations, &d);
    status = pc->n_hw == pc->n_hw_wanted ? "ok" : pc->n_hw ? "partial" : "unsupported";
    o = status_json(status, pc->hw_reason);
    if (rc != 0)
        cJSON_AddStringToObject(o, "read_error",
                                "a group could not be read: its events' metrics are left out");
    cJSON_AddItemToObject(o, "software",
                          status_json(pc->n[2] ? "ok" : "unsupported", pc->sw_reason));
    cJSON_AddStringToObject(o, "scope", "inherit");
    cJSON_AddItemToObject(o, "groups", groups_json(pc, &t));
    cJSON_AddBoolToObject(o, "multiplexed", d.multiplexed);
    cJSON_AddNumberToObject(o, "samples", m->samples);
    cJSON_AddNumberToObject(o, "iterations", iterations);
    metric(h, "perf.cycles", "cycles/iter", 0, d.cycles);
    metric(h, "perf.instructions", "instructions/iter", 0, d.instructions);
    metric(h, "perf.ipc", "instructions/cycle", 1, d.ipc);
    metric(h, "perf.branches", "branches/iter", 0, d.branches);
    metric(h, "perf.branch_miss_ratio", "", 0, d.branch_miss_ratio);
    metric(h, "perf.l1d_misses", "misses/iter", 0, d.l1d_misses);
    metric(h, "perf.l1d_hit_ratio", "", 1, d.l1d_hit_ratio);
    metric(h, "perf.llc_misses", "misses/iter", 0, d.llc_misses);
    metric(h, "perf.llc_hit_ratio", "", 1, d.llc_hit_ratio);
    metric(h, "perf.task_clock", "ns/iter", 0, d.task_clock_ns);
    metric(h, "perf.context_switches", "switches/iter", 0, d.context_switches);
    metric(h, "perf.page_faults", "faults/iter", 0, d.page_faults);
    return o;
}

/* A domain's name as a metric name part: [a-z0-9_] ("package-0" ->
 * "package_0"). */
static void metric_part(const char *name, char *out, size_t cap)
{
    size_t i = 0;

    for (; name[i] && i + 1 < cap; i++) {
        char c = name[i];

        out[i] = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ? c : '_';
    }
    out[i] = '\0';
}

/* One domain's record, and its energy.* metrics when its figures are
 * plausible (bh_energy_judge); iterations: the run's, over all its
 * samples (the same number in each). */
static cJSON *domain_report(const bh_energy *en, bh_energy_domain *dm, double iterations,
                            bhost_host *h)
{
    cJSON *d = cJSON_CreateObject();
    char part[48], name[96], reason[400];
    bh_energy_status st;

    bh_energy_settle_period(en, dm);
    st = bh_energy_judge(dm, reason, sizeof(reason));
    cJSON_AddStringToObject(d, "name", dm->name);
    cJSON_AddStringToObject(d, "source", bh_energy_source_name(dm->source));
    cJSON_AddStringToObject(d, "status", bh_energy_status_name(st));
    if (*reason)
        cJSON_AddStringToObject(d, "reason", reason);
    if (dm->limit_watts > 0)
        cJSON_AddNumberToObject(d, "limit_watts", dm->limit_watts);
    if (dm->period_ns && dm->period_measured >= 0)
        cJSON_AddNumberToObject(d, "refresh_ms", (double)dm->period_ns * 1e-6);
    if (dm->failed_reads)
        cJSON_AddNumberToObject(d, "failed_reads", dm->failed_reads);
    if (st != BH_ENERGY_OK)
        return d;
    cJSON_AddNumberToObject(d, "joules", dm->joules);
    metric_part(dm->name, part, sizeof(part));
    snprintf(name, sizeof(name), "energy.%s.j_per_iter", part);
    metric(h, name, "J/iter", 0,
           bh_pc_ratio(dm->joules, iterations * dm->samples / (en->samples ? en->samples : 1)));
    snprintf(name, sizeof(name), "energy.%s.watts", part);
    metric(h, name, "W", 0, bh_pc_ratio(dm->joules, (double)dm->ns * 1e-9));
    return d;
}

/* The "energy" record and the energy.* metrics. */
static cJSON *energy_report(bh_run_meters *m, double iterations, bhost_host *h)
{
    bh_energy *en = &m->en;
    cJSON *o, *src, *doms;
    char reasons[800] = "";

    if (!m->on)
        return status_json("off", "counters: off");
    for (int s = 0; s < BH_ENERGY_SOURCES; s++)
        if (*en->reason[s])
            snprintf(reasons + strlen(reasons), sizeof(reasons) - strlen(reasons), "%s%s",
                     *reasons ? "; " : "", en->reason[s]);
    o = status_json(en->n ? "ok" : "unsupported", en->n ? NULL : reasons);
    src = cJSON_AddObjectToObject(o, "sources");
    for (int s = 0; s < BH_ENERGY_SOURCES; s++) {
        int any = 0;

        for (size_t i = 0; i < en->n; i++)
            any |= en->dom[i].source == (bh_energy_source)s;
        cJSON_AddItemToObject(src, bh_energy_source_name((bh_energy_source)s),
                              status_json(any ? "ok" : "unsupported", en->reason[s]));
    }
    doms = cJSON_AddArrayToObject(o, "domains");
    for (size_t i = 0; i < en->n; i++)
        cJSON_AddItemToArray(doms, domain_report(en, &en->dom[i], iterations, h));
    if (!en->n)
        return o;
    cJSON_AddNumberToObject(o, "samples", en->samples);
    cJSON_AddNumberToObject(o, "seconds", (double)en->ns * 1e-9);
    cJSON_AddStringToObject(o, "accumulated",
                            "over all timed samples of the run; a domain's figures are "
                            "reported when that window holds enough refreshes of its "
                            "counter and its average power is within its power limit");
    return o;
}

/* See run_meters.h. */
void bh_run_meters_report(bh_run_meters *m, double iterations, bhost_host *h, cJSON *res)
{
    cJSON_AddItemToObject(res, "counters", counters_report(m, iterations, h));
    cJSON_AddItemToObject(res, "energy", energy_report(m, iterations, h));
}

/* See run_meters.h. */
void bh_run_meters_close(bh_run_meters *m)
{
    bh_perf_counters_close(&m->pc);
    bh_energy_close(&m->en);
}
