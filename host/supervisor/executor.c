// SPDX-License-Identifier: MIT
#include "executor.h"
#include "executor_internal.h"

#include "bh_clock.h"
#include "bh_json_write.h"
#include "bh_mem.h"
#include "bh_rng.h"
#include "bh_strbuf.h"
#include "callgrind_run.h"
#include "env_check.h"
#include "ipc.h"
#include "leak_check.h"
#include "outcome.h"
#include "profile_run.h"
#include "progress_log.h"
#include "rank_plan.h"
#include "runs_auto.h"
#include "worker_spawn.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

uint64_t bh_case_seed(uint64_t seed, const char *case_id)
{
    uint64_t h = UINT64_C(0xcbf29ce484222325);
    bh_rng r;

    for (const char *p = case_id; *p; p++)
        h = (h ^ (unsigned char)*p) * UINT64_C(0x100000001b3);
    bh_rng_seed(&r, seed ^ h);
    return bh_rng_next(&r);
}

/* The job text for one run of c (profiled as pr says). */
static char *make_job(const bh_case *c, uint32_t run, uint64_t seed, const bh_prof_run *pr)
{
    cJSON *j = cJSON_CreateObject();
    char hex[32];
    char *text;
    const bh_settings *s = &c->settings;

    cJSON_AddStringToObject(j, "mode", "run");
    cJSON_AddStringToObject(j, "plugin", c->plugin_path);
    cJSON_AddStringToObject(j, "bench", c->bench);
    cJSON_AddItemToObject(j, "params", cJSON_Duplicate(c->params, 1));
    if (c->backend_path) {
        cJSON_AddStringToObject(j, "backend", c->backend_path);
        cJSON_AddNumberToObject(j, "device", c->device);
    }
    cJSON_AddNumberToObject(j, "warmup_ns", (double)s->warmup_ns);
    cJSON_AddNumberToObject(j, "sample_time_ns", (double)s->sample_time_ns);
    cJSON_AddNumberToObject(j, "samples", s->samples);
    /* runs: auto: a run's share is that of min_runs runs (runs_auto.h) */
    cJSON_AddNumberToObject(j, "budget_ns",
                            s->runs_auto && c->autorun.min
                                ? (double)s->max_time_ns / c->autorun.min
                            : s->runs ? (double)s->max_time_ns / s->runs
                                      : 0);
    snprintf(hex, sizeof(hex), "0x%016llx",
             (unsigned long long)bh_case_seed(seed, c->id));
    cJSON_AddStringToObject(j, "seed", hex);
    cJSON_AddStringToObject(j, "pin", s->pin ? s->pin : "none");
    cJSON_AddNumberToObject(j, "memory_limit", (double)s->memory_limit_bytes);
    cJSON_AddNumberToObject(j, "run_index", run);
    if (s->measure == BH_MEASURE_INSTRUCTIONS) {
        cJSON_AddStringToObject(j, "measure", "instructions");
        cJSON_AddNumberToObject(j, "iterations", s->iterations);
    }
    if (s->counters_off)
        cJSON_AddStringToObject(j, "counters", "off");
    bh_prof_add_job(pr, j);
    bh_rank_job(c, j);
    text = bh_json_print_unformatted(j);
    cJSON_Delete(j);
    return text;
}

/* Copies the sample messages of a finished run into r->samples. */
static void collect_samples(bh_run *r, const cJSON *msgs)
{
    const cJSON *m;

    r->samples = cJSON_CreateArray();
    cJSON_ArrayForEach(m, msgs) {
        if (strcmp(bh_ipc_type(m), "sample") == 0) {
            double iters = bh_json_num(m, "iters", 0);
            double ns = bh_json_num(m, "ns", -1);
            cJSON *pair;

            if (iters < 1 || ns < 0)
                continue;
            pair = cJSON_CreateArray();
            cJSON_AddItemToArray(pair, cJSON_CreateNumber(iters));
            cJSON_AddItemToArray(pair, cJSON_CreateNumber(ns));
            cJSON_AddItemToArray(r->samples, pair);
        }
    }
}

/* Appends the plugin's host-API log lines ("log" messages, as
 * "[level] text") to the run's captured output, within limit bytes in
 * all; sets r->log_truncated when a line did not fit. */
static void append_plugin_log(bh_run *r, const cJSON *msgs, size_t limit)
{
    static const char *const level[] = {"debug", "info", "warn", "error"};
    bh_strbuf b = BH_STRBUF_INIT;
    const cJSON *m;

    bh_strbuf_printf(&b, "%s", r->log ? r->log : "");
    cJSON_ArrayForEach(m, msgs) {
        int lv = (int)bh_json_num(m, "level", 1);
        const char *text = bh_json_str(m, "msg", "");

        if (strcmp(bh_ipc_type(m), "log") != 0)
            continue;
        if (b.len + strlen(text) + 16 > limit) {
            r->log_truncated = 1;
            break;
        }
        bh_strbuf_printf(&b, "[%s] %s\n", lv >= 0 && lv <= 3 ? level[lv] : "info",
                         text);
    }
    free(r->log);
    r->log = bh_strbuf_detach(&b);
    bh_strbuf_free(&b);
}

/* Runs one worker for one run and records what happened. */
static void run_once(bh_case *c, uint32_t run, const bh_exec_opts *o,
                     const char *exe)
{
    bh_run *r = &c->runs[run];
    bh_error e = {""};
    bh_prof_run pr;
    int prof_rc = bh_prof_begin(o->profile, c, &pr, &e);
    char *job = make_job(c, run, o->seed, &pr);
    bh_spawn_opts so = {exe, job, c->settings.timeout_ns, o->log_limit,
                        c->settings.memory_limit_bytes};
    bh_worker_outcome out;
    bh_outcome_view v;
    bh_cg_run cg = {0};

    r->index = run;
    r->done = 1;
    bh_env_begin(&r->env); /* the machine and the calibration before the run */
    if (prof_rc != 0 || bh_cg_begin(c, bh_prof_callgrind_file(&pr), &cg, &e) != 0 ||
        bh_spawn_worker_wrapped(&so, bh_prof_wrap(&pr) ? bh_prof_wrap(&pr)
                                     : cg.argv[0]      ? cg.argv
                                                       : NULL,
                                &out, &e) != 0) {
        bh_cg_end(&cg, 0, r);
        r->status = BH_ST_FAILED;
        r->message = bh_xstrdup(e.msg);
        r->samples = cJSON_CreateArray();
        bh_prof_end(&pr, c, r);
        free(job);
        return;
    }
    free(job);
    bh_env_end(&r->env);
    r->cpu_user_ns = out.user_ns;
    r->cpu_sys_ns = out.sys_ns;
    if (out.interrupted) {
        r->done = 0;
        r->interrupted = 1;
        bh_cg_end(&cg, out.pid, r);
        bh_prof_end(&pr, c, r);
        bh_worker_outcome_free(&out);
        r->samples = cJSON_CreateArray();
        return;
    }
    bh_outcome_classify(&out, "result", &v);
    bh_outcome_name_stage(&v);
    r->status = v.status;
    r->message = v.message;
    r->warning = v.warning;
    v.message = NULL;
    v.warning = NULL;
    if (v.final)
        r->result = cJSON_Duplicate(v.final, 1);
    bh_leak_check(r, c->settings.leaks_fail);
    if (v.messages)
        collect_samples(r, v.messages);
    else
        r->samples = cJSON_CreateArray();
    r->log = out.log;
    out.log = NULL;
    r->log_truncated = out.log_truncated ||
                       cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(
                           v.final, "log_truncated"));
    if (v.messages)
        append_plugin_log(r, v.messages, o->log_limit);
    r->wall_ns = out.wall_ns;
    r->maxrss_kb = out.maxrss_kb;
    bh_cg_end(&cg, out.pid, r);
    bh_prof_end(&pr, c, r);
    bh_outcome_view_free(&v);
    bh_worker_outcome_free(&out);
}

size_t bh_exec_plan(bh_plan *plan, const bh_exec_opts *o)
{
    bh_exec_slot *slots = NULL;
    size_t n = 0;
    size_t cap = 0;
    size_t started;
    bh_rng rng;

    bh_cg_check_plan(plan);
    bh_rank_preflight(plan);
    if (bh_runs_auto_any(plan))
        return bh_exec_runs_auto(plan, o);
    for (size_t i = 0; i < plan->n; i++) {
        const bh_case *c = &plan->cases[i];

        if (c->pre_status != BH_ST_OK)
            continue;
        for (uint32_t r = 0; r < c->settings.runs; r++)
            BH_PUSH(slots, n, cap, ((bh_exec_slot){(uint32_t)i, r}));
    }
    bh_rng_seed(&rng, o->seed);
    bh_rng_shuffle(&rng, slots, n, sizeof(*slots));
    started = bh_exec_ordered(plan, slots, n, o);
    free(slots);
    return started;
}

/* The live progress line on stderr (a terminal): run k + 1 of n, time
 * elapsed since t0 and the estimated time left (from the mean time of the
 * runs so far), the case and run; cut to the terminal width so \r can
 * redraw it. */
static void progress_line(size_t k, size_t n, const bh_case *c, uint32_t run, uint64_t t0)
{
    double el = (double)(bh_now_ns() - t0) * 1e-9;
    struct winsize ws;
    size_t width = 80;
    char e[24], left[24] = "?", line[512];
    int len;

    if (ioctl(2, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 10)
        width = ws.ws_col;
    bh_clock_text(el, e, sizeof(e));
    if (k > 0)
        bh_clock_text(el / (double)k * (double)(n - k), left, sizeof(left));
    len = snprintf(line, sizeof(line), "[%zu/%zu] %s elapsed, ~%s left  %s (run %u/%u)", k + 1,
                   n, e, left, c->id, run + 1, c->n_runs);
    if (len > 0 && (size_t)len >= width && width < sizeof(line))
        line[width - 1] = '\0';
    fprintf(stderr, "\r\033[K%s", line);
    fflush(stderr);
}

size_t bh_exec_ordered(bh_plan *plan, const bh_exec_slot *order, size_t n,
                       const bh_exec_opts *o)
{
    size_t started = 0;
    char *exe = bh_self_exe();
    uint64_t t0 = bh_now_ns();
    bh_progress_log plog;

    bh_cg_check_plan(plan);
    bh_rank_preflight(plan);
    for (size_t i = 0; i < plan->n; i++) {
        bh_case *c = &plan->cases[i];

        if (c->pre_status != BH_ST_OK || c->runs)
            continue;
        c->n_runs = c->settings.runs;
        c->runs = bh_xcalloc(c->n_runs ? c->n_runs : 1, sizeof(bh_run));
    }
    if (o->progress == BH_PROGRESS_LOG)
        bh_progress_log_start(&plog, plan, order, n, stderr);
    for (size_t k = 0; k < n && !bh_interrupted; k++) {
        bh_case *c;

        if (order[k].case_index >= plan->n)
            continue;
        c = &plan->cases[order[k].case_index];
        if (c->pre_status != BH_ST_OK || order[k].run_index >= c->n_runs ||
            c->runs[order[k].run_index].done)
            continue;
        if (o->progress == BH_PROGRESS_LIVE)
            progress_line(k, n, c, order[k].run_index, t0);
        else if (o->progress == BH_PROGRESS_LOG)
            bh_progress_log_begin(&plog, c, order[k].run_index);
        run_once(c, order[k].run_index, o, exe);
        if (o->progress == BH_PROGRESS_LOG && c->runs[order[k].run_index].done)
            bh_progress_log_end(&plog, plan, order[k].case_index);
        started++;
    }
    if (o->progress == BH_PROGRESS_LIVE)
        fprintf(stderr, "\r\033[K");
    if (o->progress == BH_PROGRESS_LOG)
        bh_progress_log_stop(&plog);
    for (size_t i = 0; i < plan->n; i++)
        bh_case_finish(&plan->cases[i], o->seed);
    free(exe);
    return started;
}

/* See executor_internal.h. */
void bh_exec_slot_run(bh_plan *plan, const bh_exec_slot *s, size_t k, size_t n,
                      const bh_exec_opts *o, const char *exe, uint64_t t0)
{
    bh_case *c = &plan->cases[s->case_index];

    if (o->progress == BH_PROGRESS_LIVE)
        progress_line(k, n, c, s->run_index, t0);
    run_once(c, s->run_index, o, exe);
}

/* Summarizes the samples of c's ok runs (ns per iteration). */
static void summarize(bh_case *c, uint64_t seed)
{
    size_t total = 0;
    size_t k = 0;
    double *values;
    double *sample_ns;
    uint32_t *run;
    uint32_t run_no = 0;
    bh_summary_opts so;

    for (uint32_t r = 0; r < c->n_runs; r++)
        if (c->runs[r].status == BH_ST_OK)
            total += (size_t)cJSON_GetArraySize(c->runs[r].samples);
    if (total == 0)
        return;
    values = bh_xcalloc(total, sizeof(double));
    sample_ns = bh_xcalloc(total, sizeof(double));
    run = bh_xcalloc(total, sizeof(uint32_t));
    for (uint32_t r = 0; r < c->n_runs; r++) {
        const cJSON *pair;

        if (c->runs[r].status != BH_ST_OK)
            continue;
        cJSON_ArrayForEach(pair, c->runs[r].samples) {
            double iters = cJSON_GetArrayItem(pair, 0)->valuedouble;
            double ns = cJSON_GetArrayItem(pair, 1)->valuedouble;

            values[k] = ns / iters;
            sample_ns[k] = ns;
            run[k] = run_no;
            k++;
        }
        run_no++;
    }
    bh_summary_opts_default(&so);
    so.seed = bh_case_seed(seed, c->id);
    so.max_cv = c->settings.max_cv;
    so.min_sample_ns = 1e6;
    c->has_summary = bh_summarize(values, run, sample_ns, k, &so,
                                  &c->summary) == 0;
    free(values);
    free(sample_ns);
    free(run);
}

/* Why a case with runs that never finished is incomplete: the run that
 * SIGINT/SIGTERM stopped, or how far the case got before the stop. */
static char *interrupted_message(const bh_case *c)
{
    uint32_t finished = 0;

    for (uint32_t r = 0; r < c->n_runs; r++)
        finished += c->runs[r].done != 0;
    for (uint32_t r = 0; r < c->n_runs; r++)
        if (c->runs[r].interrupted)
            return bh_xasprintf("run interrupted while this case was running "
                                "(its worker was stopped; %u of %u run%s "
                                "finished)",
                                finished, c->n_runs, c->n_runs == 1 ? "" : "s");
    if (finished == 0)
        return bh_xstrdup("run interrupted before this case ran");
    return bh_xasprintf("run interrupted before all runs of this case "
                        "finished (%u of %u run%s finished)",
                        finished, c->n_runs, c->n_runs == 1 ? "" : "s");
}

void bh_case_finish(bh_case *c, uint64_t seed)
{
    int worst = -1;

    if (c->pre_status != BH_ST_OK) {
        c->status = c->pre_status;
        c->message = bh_xstrdup(c->pre_reason ? c->pre_reason : "");
        return;
    }
    c->status = BH_ST_OK;
    for (uint32_t r = 0; r < c->n_runs; r++) {
        const bh_run *run = &c->runs[r];

        if (!run->done) {
            if (bh_status_rank(BH_ST_SKIPPED) > worst) {
                worst = bh_status_rank(BH_ST_SKIPPED);
                c->status = BH_ST_SKIPPED;
                c->skip_cause = "interrupted";
                free(c->message);
                c->message = interrupted_message(c);
            }
            continue;
        }
        if (bh_status_rank(run->status) > worst) {
            worst = bh_status_rank(run->status);
            c->status = run->status;
            c->skip_cause = "plugin"; /* the plugin's own skip or unsupported */
            free(c->message);
            c->message = run->message ? bh_xstrdup(run->message) : NULL;
        }
    }
    if (c->status != BH_ST_SKIPPED && c->status != BH_ST_UNSUPPORTED)
        c->skip_cause = NULL;
    summarize(c, seed);
}
