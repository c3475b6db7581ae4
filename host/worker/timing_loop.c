// SPDX-License-Identifier: MIT
#include "timing_loop.h"

#include "bh_clock.h"
#include "host_api.h"
#include "ipc.h"
#include "rank_ext.h"
#include "rules.h"

#include <stdio.h>
#include <string.h>

#define MS 1000000ull

void bh_timing_measure_clock(double *resolution_ns, double *overhead_ns)
{
    uint64_t best = UINT64_MAX;
    uint64_t t0;
    uint64_t t1;
    enum { PAIRS = 2000, CALLS = 100000 };

    for (int i = 0; i < PAIRS; i++) {
        uint64_t a = bh_now_ns();
        uint64_t b = bh_now_ns();

        while (b == a)
            b = bh_now_ns();
        if (b - a < best)
            best = b - a;
    }
    t0 = bh_now_ns();
    for (int i = 0; i < CALLS; i++)
        (void)bh_now_ns();
    t1 = bh_now_ns();
    *resolution_ns = (double)best;
    *overhead_ns = (double)(t1 - t0) / CALLS;
}

/* Times one call of run(iters); stores nanoseconds in *ns. */
static bhost_status time_call(const bh_timing_target *t, uint64_t iters,
                              uint64_t *ns, const char **timing)
{
    bhost_status st;

    if (t->manual) {
        t->h->manual_time_set = 0;
        st = t->desc->run(t->inst, t->stream, iters);
        if (st == BHOST_OK && !t->h->manual_time_set)
            return BHOST_E_INTERNAL; /* time_once says why */
        *ns = t->h->manual_time_ns;
        *timing = "manual";
        return st;
    }
    if (t->be && t->dev && t->be->event_create) {
        bhost_event *e0 = NULL;
        bhost_event *e1 = NULL;

        st = t->be->event_create(t->dev, &e0);
        if (st == BHOST_OK)
            st = t->be->event_create(t->dev, &e1);
        if (st == BHOST_OK)
            st = t->be->event_record(t->dev, t->stream, e0);
        if (st == BHOST_OK)
            st = t->desc->run(t->inst, t->stream, iters);
        if (st == BHOST_OK)
            st = t->be->event_record(t->dev, t->stream, e1);
        if (st == BHOST_OK)
            st = t->be->stream_sync(t->dev, t->stream);
        if (st == BHOST_OK)
            st = t->be->event_elapsed_ns(t->dev, e0, e1, ns);
        if (e0)
            t->be->event_destroy(t->dev, e0);
        if (e1)
            t->be->event_destroy(t->dev, e1);
        *timing = "device";
        return st;
    } else {
        uint64_t a = bh_now_ns();

        st = t->desc->run(t->inst, t->stream, iters);
        *ns = bh_now_ns() - a;
        *timing = "host";
        return st;
    }
}

/* time_call, then the timing rules (bh_rules_sample) against the wall
 * time of the call: an impossible time is BHOST_E_VERIFY, a manual time
 * never set BHOST_E_INTERNAL, each with the reason in out->reason. */
static bhost_status time_once(const bh_timing_target *t, uint64_t iters,
                              uint64_t *ns, bh_timing_outcome *out)
{
    uint64_t a = bh_now_ns();
    bhost_status st = time_call(t, iters, ns, &out->timing);
    uint64_t wall = bh_now_ns() - a;

    if (st == BHOST_E_INTERNAL && t->manual && !t->h->manual_time_set) {
        snprintf(out->reason, sizeof(out->reason), "%s", BH_RULE_MANUAL_UNSET);
        return st;
    }
    if (st == BHOST_OK && bh_rules_sample(out->timing, *ns, wall, out->reason,
                                          sizeof(out->reason)) != 0)
        return BHOST_E_VERIFY;
    return st;
}

static void send_pair(int fd, const char *type, uint64_t iters, uint64_t ns, uint64_t local_ns)
{
    cJSON *m = cJSON_CreateObject();

    cJSON_AddStringToObject(m, "t", type);
    cJSON_AddNumberToObject(m, "iters", (double)iters);
    cJSON_AddNumberToObject(m, "ns", (double)ns);
    if (bh_rank_multi())
        cJSON_AddNumberToObject(m, "local_ns", (double)local_ns);
    bh_ipc_send(fd, m, NULL);
    cJSON_Delete(m);
}

/* Next iteration count towards target given that iters took ns. */
static uint64_t grow(uint64_t iters, uint64_t ns, uint64_t target)
{
    double want;

    if (ns < target / 10 || ns == 0)
        return iters * 10;
    want = (double)iters * (double)target * 1.1 / (double)ns;
    if (want < (double)iters + 1)
        return iters + 1;
    if (want > 1e12)
        return (uint64_t)1e12;
    return (uint64_t)want;
}

/* The ranks' agreement after a timed call (a barrier too): *ns becomes
 * the maximum over ranks, the result is 1 when any rank wants to stop,
 * and when another rank failed this one fails too, saying which. Outside
 * a launch: *stop unchanged. */
static int agree(uint64_t *ns, int stop, bh_timing_outcome *out)
{
    uint64_t v[3] = {*ns, (uint64_t)stop, out->status != BHOST_OK ? bh_rank_self() + 1 : 0};

    if (!bh_rank_multi())
        return stop;
    if (bh_rank_max_u64(v, 3) != BHOST_OK) {
        if (out->status == BHOST_OK) {
            out->status = BHOST_E_INTERNAL;
            snprintf(out->reason, sizeof(out->reason), "the host's rank hub is gone");
        }
        return 1;
    }
    *ns = v[0];
    if (v[2] && out->status == BHOST_OK) {
        out->status = BHOST_E_INTERNAL;
        out->peer_failed = 1;
        snprintf(out->reason, sizeof(out->reason), "stopped: rank %llu failed",
                 (unsigned long long)(v[2] - 1));
    }
    return v[1] != 0 || v[2] != 0;
}

/* True when the run has used more than share of its budget. */
static int over_budget(const bh_timing_plan *plan, uint64_t start, uint64_t share)
{
    return plan->budget_ns && bh_now_ns() - start > share;
}

/* Calibration: grows the iterations until one call reaches target;
 * returns them, the last call's time in *ns. */
static uint64_t calibrate(const bh_timing_target *t, const bh_timing_plan *plan,
                          uint64_t target, uint64_t start, uint64_t *ns,
                          bh_timing_outcome *out)
{
    uint64_t iters = 1;

    for (;;) {
        int stop;

        out->status = time_once(t, iters, ns, out);
        stop = agree(ns, over_budget(plan, start, plan->budget_ns / 2), out);
        if (out->status != BHOST_OK || *ns >= target || iters >= (uint64_t)1e12 || stop)
            return iters;
        iters = grow(iters, *ns, target);
    }
}

void bh_timing_run(const bh_timing_target *t, const bh_timing_plan *plan,
                   bh_timing_outcome *out)
{
    uint64_t start = bh_now_ns();
    uint64_t target;
    uint64_t iters;
    uint64_t ns = 0, zero = 0;

    memset(out, 0, sizeof(*out));
    bh_timing_measure_clock(&out->resolution_ns, &out->overhead_ns);
    out->timing = "host";
    target = plan->sample_time_ns;
    if (target == 0) {
        target = (uint64_t)(1000.0 * out->resolution_ns);
        if (target < MS)
            target = MS;
    }
    agree(&zero, 0, out); /* every rank starts its first call together */
    iters = calibrate(t, plan, target, start, &ns, out);
    if (out->status != BHOST_OK)
        goto failed;
    send_pair(plan->result_fd, "calib", iters, ns, ns);
    /* Warm-up at the calibrated size; re-aim the size from its last time. */
    if (plan->warmup_ns > 0) {
        uint64_t warm_end = bh_now_ns() + plan->warmup_ns;

        for (;;) {
            int stop;

            out->status = time_once(t, iters, &ns, out);
            out->warmup_samples += out->status == BHOST_OK;
            stop = agree(&ns, bh_now_ns() >= warm_end ||
                                  over_budget(plan, start, plan->budget_ns / 2),
                         out);
            if (out->status != BHOST_OK)
                goto failed;
            if (stop)
                break;
        }
    }
    if (out->warmup_samples > 0 && ns > 0 && ns < target)
        iters = grow(iters, ns, target);
    out->iters_per_sample = iters;
    for (uint32_t i = 0; i < plan->samples; i++) {
        uint64_t local;
        int stop;

        if (plan->sample_begin)
            plan->sample_begin(plan->sample_arg);
        out->status = time_once(t, iters, &ns, out);
        if (plan->sample_end)
            plan->sample_end(plan->sample_arg);
        local = ns;
        stop = agree(&ns, over_budget(plan, start, plan->budget_ns) && i + 1 < plan->samples &&
                              out->samples_taken + 1 >= 2,
                     out);
        if (out->status != BHOST_OK)
            goto failed;
        send_pair(plan->result_fd, "sample", iters, ns, local);
        out->samples_taken++;
        if (stop) {
            out->budget_exhausted = 1;
            break;
        }
    }
    return;
failed:
    out->where = "run";
}
