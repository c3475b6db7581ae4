// SPDX-License-Identifier: MIT
/* The environment and CPU time of runs in the result (result_env.h). */
#include "result_env.h"

#include "bh_json_write.h"
#include "bh_mem.h"
#include "descriptive.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static const unsigned flag_bits[] = {BH_ENV_LOADED, BH_ENV_CLOCK_FELL, BH_ENV_THROTTLED};
#define N_FLAGS (sizeof(flag_bits) / sizeof(flag_bits[0]))

/* (user + sys) / wall of r; NAN without a wall time. */
static double utilisation(const bh_run *r)
{
    return r->wall_ns > 0 ? (double)(r->cpu_user_ns + r->cpu_sys_ns) / (double)r->wall_ns : NAN;
}

void bh_result_run_env(cJSON *o, const bh_run *r)
{
    const bh_env_run *v = &r->env;
    cJSON *cpu = cJSON_AddObjectToObject(o, "cpu");
    cJSON *env, *flags;

    cJSON_AddNumberToObject(cpu, "user_ns", (double)r->cpu_user_ns);
    cJSON_AddNumberToObject(cpu, "sys_ns", (double)r->cpu_sys_ns);
    bh_json_add_num(cpu, "utilisation", utilisation(r));
    if (!v->have)
        return;
    env = cJSON_AddObjectToObject(o, "environment");
    cJSON_AddNumberToObject(env, "calibration_start_ns", (double)v->calib_start_ns);
    cJSON_AddNumberToObject(env, "calibration_end_ns", (double)v->calib_end_ns);
    cJSON_AddNumberToObject(env, "calibration_ref_ns", (double)v->calib_ref_ns);
    bh_json_add_num(env, "calibration_noise", v->calib_ref_noise);
    bh_json_add_num(env, "slowdown", v->slowdown);
    bh_json_add_num(env, "load1", v->load1);
    cJSON_AddNumberToObject(env, "cpus", v->ncpu);
    if (*v->governor)
        cJSON_AddStringToObject(env, "governor", v->governor);
    else
        cJSON_AddNullToObject(env, "governor");
    if (v->boost >= 0)
        cJSON_AddBoolToObject(env, "boost", v->boost);
    else
        cJSON_AddNullToObject(env, "boost");
    bh_json_add_num(env, "throttle_start",
                    v->throttle_start >= 0 ? (double)v->throttle_start : NAN);
    bh_json_add_num(env, "throttle_end", v->throttle_end >= 0 ? (double)v->throttle_end : NAN);
    flags = cJSON_AddArrayToObject(env, "flags");
    for (size_t i = 0; i < N_FLAGS; i++)
        if (v->flags & flag_bits[i])
            cJSON_AddItemToArray(flags, cJSON_CreateString(bh_env_flag_name(flag_bits[i])));
}

/* The sentence of one flag of run r (new string). */
static char *flag_message(const bh_run *r, unsigned bit)
{
    const bh_env_run *v = &r->env;

    if (bit == BH_ENV_CLOCK_FELL) {
        double s = (double)v->calib_start_ns / (double)v->calib_ref_ns - 1;
        double e = (double)v->calib_end_ns / (double)v->calib_ref_ns - 1;

        return bh_xasprintf("clock fell: calibration %.0f%% slower at the %s of run %u than at "
                            "the start of the first run",
                            100 * (e >= s ? e : s), e >= s ? "end" : "start", r->index + 1);
    }
    if (bit == BH_ENV_LOADED)
        return bh_xasprintf("loaded: load average %.2f above the %d CPUs at the start of run %u",
                            v->load1, v->ncpu, r->index + 1);
    return bh_xasprintf("throttled: thermal throttle counters rose by %lld during run %u",
                        v->throttle_end - v->throttle_start, r->index + 1);
}

/* The case's machine state, from its first checked run. */
static void add_state(cJSON *env, const bh_env_run *v)
{
    if (v && *v->governor)
        cJSON_AddStringToObject(env, "governor", v->governor);
    else
        cJSON_AddNullToObject(env, "governor");
    if (v && v->boost >= 0)
        cJSON_AddBoolToObject(env, "boost", v->boost);
    else
        cJSON_AddNullToObject(env, "boost");
    cJSON_AddBoolToObject(env, "throttle_counters", v && v->throttle_start >= 0);
}

void bh_result_case_env(cJSON *o, const bh_case *c)
{
    double *u = bh_xcalloc(c->n_runs + 1, sizeof(double));
    size_t n = 0, count[N_FLAGS] = {0}, flagged = 0;
    const bh_env_run *first = NULL;
    cJSON *env, *msgs;

    for (uint32_t i = 0; i < c->n_runs; i++) {
        const bh_run *r = &c->runs[i];

        if (!r->done)
            continue;
        if (isfinite(utilisation(r)))
            u[n++] = utilisation(r);
        if (r->env.have && !first)
            first = &r->env;
    }
    if (n) {
        cJSON *cu = cJSON_AddObjectToObject(o, "cpu_utilisation");

        bh_stats_sort(u, n);
        cJSON_AddNumberToObject(cu, "median", bh_stats_median_sorted(u, n));
        cJSON_AddNumberToObject(cu, "min", u[0]);
        cJSON_AddNumberToObject(cu, "max", u[n - 1]);
        cJSON_AddNumberToObject(cu, "runs", (double)n);
    }
    free(u);
    if (!first)
        return;
    env = cJSON_AddObjectToObject(o, "environment");
    msgs = cJSON_CreateArray();
    for (uint32_t i = 0; i < c->n_runs; i++) {
        const bh_run *r = &c->runs[i];

        if (!r->done || !r->env.have)
            continue;
        flagged += r->env.flags != 0;
        for (size_t k = 0; k < N_FLAGS; k++) {
            char *m;

            if (!(r->env.flags & flag_bits[k]))
                continue;
            count[k]++;
            m = flag_message(r, flag_bits[k]);
            cJSON_AddItemToArray(msgs, cJSON_CreateString(m));
            free(m);
        }
    }
    cJSON_AddNumberToObject(env, "runs_flagged", (double)flagged);
    for (size_t k = 0; k < N_FLAGS; k++)
        cJSON_AddNumberToObject(env, bh_env_flag_name(flag_bits[k]), (double)count[k]);
    add_state(env, first);
    cJSON_AddItemToObject(env, "messages", msgs);
}
