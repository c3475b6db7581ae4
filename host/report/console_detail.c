// SPDX-License-Identifier: MIT
/* The per-case details `--verbose` adds below the console table (see
 * console.h): settings, flags, one line per run, and the tail of the plugin
 * log of runs that did not end ok. */
#include "console.h"

#include "report_runs_auto.h"
#include "report_env.h"
#include "report_text.h"
#include "units.h"

#include <math.h>
#include <string.h>

#define LOG_TAIL_LINES 12

/* Prints the last LOG_TAIL_LINES lines of log, indented. */
static void log_tail(FILE *out, const char *log, int truncated)
{
    size_t end = strlen(log);
    size_t start;
    int lines = 0;

    while (end > 0 && log[end - 1] == '\n')
        end--;
    start = end;
    while (start > 0) {
        if (log[start - 1] == '\n' && ++lines == LOG_TAIL_LINES)
            break;
        start--;
    }
    if (truncated || start > 0)
        fprintf(out, "      | ...\n");
    while (start < end) {
        size_t n = strcspn(log + start, "\n");

        if (start + n > end)
            n = end - start;
        fprintf(out, "      | %.*s\n", (int)n, log + start);
        start += n + 1;
    }
}

/* One line per run: status, samples, median, wall time, RSS, timing; its
 * message, and the log tail of a run that did not end ok. */
static void print_run(FILE *out, const bh_rv_run *r)
{
    char mt[32], wt[32], env[160];

    bh_fmt_time(r->median_ns, mt, sizeof(mt));
    bh_fmt_time(r->wall_ns, wt, sizeof(wt));
    fprintf(out, "    run %ld: %s, %zu samples", r->index, r->status, r->n_samples);
    if (isfinite(r->iters_per_sample))
        fprintf(out, " x %.0f iters", r->iters_per_sample);
    if (r->n_samples)
        fprintf(out, ", median %s", mt);
    fprintf(out, ", wall %s", wt);
    if (isfinite(r->worker_maxrss_kb))
        fprintf(out, ", rss %.1f MiB", r->worker_maxrss_kb / 1024.0);
    if (*r->timing)
        fprintf(out, ", timing %s", r->timing);
    bh_report_run_env_text(r->json, env, sizeof(env));
    fprintf(out, "%s\n", env);
    if (*r->message)
        fprintf(out, "      message: %s\n", r->message);
    if (!r->ok && r->log) {
        fprintf(out, "      plugin log (last lines):\n");
        log_tail(out, r->log, r->log_truncated);
    }
}

/* One compared metric: "  time: inconclusive [-3.0% +1.0% +5.2%] (95% CI),
 * MDE 12.0%: not significant, ...": the verdict, its interval with its level
 * (none where it is unbounded) and the reason regress gave. */
static void print_change(FILE *out, const bh_rv_change *ch)
{
    char lo[32], est[32], hi[32];

    fprintf(out, "  %s: %s", ch->metric, ch->verdict);
    if (ch->severity)
        fprintf(out, " (%s)", ch->severity);
    bh_report_fmt_change(ch->change, est, sizeof(est));
    if (isfinite(ch->lo) && isfinite(ch->hi)) {
        bh_report_fmt_change(ch->lo, lo, sizeof(lo));
        bh_report_fmt_change(ch->hi, hi, sizeof(hi));
        fprintf(out, " [%s %s %s]", lo, est, hi);
        if (isfinite(ch->level))
            fprintf(out, " (%.0f%% CI)", 100.0 * ch->level);
    } else if (isfinite(ch->change)) {
        fprintf(out, " %s", est);
    }
    if (isfinite(ch->mde))
        fprintf(out, ", MDE %.1f%%", 100.0 * ch->mde);
    fprintf(out, "%s%s\n", *ch->reason ? ": " : "", ch->reason);
}

/* The details of one case: settings, summary figures, flags, runs. */
static void print_case(FILE *out, const bh_rv_case *c, int color)
{
    const bh_rv_settings *set = &c->settings;
    const bh_rv_summary *sum = &c->summary;
    char a[32], b[32], t[32], env[256];

    fprintf(out, "%s%s%s: %s\n", color ? "\033[1m" : "", c->id, color ? "\033[0m" : "",
            c->status);
    if (set->json) {
        bh_fmt_time(set->warmup_ns, a, sizeof(a));
        bh_fmt_time(set->sample_time_ns, b, sizeof(b));
        bh_fmt_time(set->timeout_ns, t, sizeof(t));
        fprintf(out, "  settings: %.0f runs x %.0f samples, warmup %s, sample %s, timeout %s, "
                     "pin %s\n",
                set->runs, set->samples, a, b, t, set->pin ? set->pin : "none");
    }
    bh_report_runs_auto_line(out, c->json);
    if (sum->json) {
        const cJSON *f;
        int first = 1;

        fprintf(out, "  summary: n %.0f, mean ", sum->n);
        bh_fmt_time(sum->mean, a, sizeof(a));
        bh_fmt_time(sum->mad, b, sizeof(b));
        fprintf(out, "%s, MAD %s, within-run CV %.2f%%, between-run CV %.2f%%, MDE %.2f%%\n", a,
                b, sum->within_run_cv * 100, sum->between_run_cv * 100, sum->mde * 100);
        fprintf(out, "  flags:");
        cJSON_ArrayForEach(f, sum->flags) if (cJSON_IsString(f)) {
            fprintf(out, "%s %s", first ? "" : ",", f->valuestring);
            first = 0;
        }
        fprintf(out, "%s; outliers: %.0f low severe, %.0f low mild, %.0f high mild, "
                     "%.0f high severe\n",
                first ? " none" : "", sum->low_severe, sum->low_mild, sum->high_mild,
                sum->high_severe);
    }
    if (isfinite(c->roof.fraction)) {
        fprintf(out, "  roofline: %.1f%% of %s, %s-bound", c->roof.fraction * 100,
                bh_report_str_or(bh_report_roof_ceiling(&c->roof), "its ceiling"),
                *c->roof.bound ? c->roof.bound : "?");
        if (c->roof.level)
            fprintf(out, ", working set in %s", c->roof.level);
        fprintf(out, "%s\n", c->roof.above ? "; above its ceiling: check the bytes/FLOP "
                                             "accounting or the ceiling"
                                           : "");
    }
    for (size_t i = 0; i < c->n_changes; i++)
        print_change(out, &c->changes[i]);
    bh_report_case_env_text(c->json, env, sizeof(env));
    if (*env)
        fprintf(out, "%s\n", env);
    if (*c->message)
        fprintf(out, "  message: %s\n", c->message);
    for (size_t i = 0; i < c->n_runs; i++)
        print_run(out, &c->runs[i]);
}

/* See console.h. */
void bh_report_console_details(FILE *out, const bh_result_view *v, int color)
{
    fputc('\n', out);
    for (size_t i = 0; i < v->n_cases; i++)
        print_case(out, &v->cases[i], color);
}
