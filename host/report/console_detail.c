// SPDX-License-Identifier: MIT
/* The per-case details `--verbose` adds below the console table (see
 * console.h): settings, flags, one line per run, and the tail of the plugin
 * log of runs that did not end ok. */
#include "console.h"

#include "bh_mem.h"
#include "report_case.h"
#include "result_read.h"
#include "units.h"

#include <math.h>
#include <stdlib.h>
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
static void print_run(FILE *out, const cJSON *run)
{
    const char *status = bh_report_str(run, "status", "?");
    const cJSON *samples = cJSON_GetObjectItemCaseSensitive(run, "samples");
    size_t n = 0;
    double med = bh_result_run_median(samples, &n, NULL);
    double wall = bh_report_num(run, "wall_ns");
    double rss = bh_report_num(run, "worker_maxrss_kb");
    double ips = bh_report_num(run, "iters_per_sample");
    char mt[32], wt[32];

    bh_fmt_time(med, mt, sizeof(mt));
    bh_fmt_time(wall, wt, sizeof(wt));
    fprintf(out, "    run %.0f: %s, %zu samples", bh_report_num(run, "index"), status, n);
    if (isfinite(ips))
        fprintf(out, " x %.0f iters", ips);
    if (n)
        fprintf(out, ", median %s", mt);
    fprintf(out, ", wall %s", wt);
    if (isfinite(rss))
        fprintf(out, ", rss %.1f MiB", rss / 1024.0);
    if (cJSON_IsString(cJSON_GetObjectItemCaseSensitive(run, "timing")))
        fprintf(out, ", timing %s", bh_report_str(run, "timing", ""));
    fputc('\n', out);
    if (cJSON_IsString(cJSON_GetObjectItemCaseSensitive(run, "message")))
        fprintf(out, "      message: %s\n", bh_report_str(run, "message", ""));
    if (strcmp(status, "ok") != 0 &&
        cJSON_IsString(cJSON_GetObjectItemCaseSensitive(run, "log"))) {
        fprintf(out, "      plugin log (last lines):\n");
        log_tail(out, bh_report_str(run, "log", ""),
                 cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(run, "log_truncated")));
    }
}

/* The details of one case: settings, summary figures, flags, runs. */
static void print_case(FILE *out, const cJSON *c, int color)
{
    const cJSON *set = cJSON_GetObjectItemCaseSensitive(c, "settings");
    const cJSON *sum = cJSON_GetObjectItemCaseSensitive(c, "summary");
    const cJSON *flags = cJSON_GetObjectItemCaseSensitive(sum, "flags");
    const cJSON *tk = cJSON_GetObjectItemCaseSensitive(sum, "tukey");
    const cJSON *run;
    char a[32], b[32], t[32];

    fprintf(out, "%s%s%s: %s\n", color ? "\033[1m" : "", bh_report_str(c, "id", "?"),
            color ? "\033[0m" : "", bh_report_str(c, "status", "?"));
    if (cJSON_IsObject(set)) {
        bh_fmt_time(bh_report_num(set, "warmup_ns"), a, sizeof(a));
        bh_fmt_time(bh_report_num(set, "sample_time_ns"), b, sizeof(b));
        bh_fmt_time(bh_report_num(set, "timeout_ns"), t, sizeof(t));
        fprintf(out, "  settings: %.0f runs x %.0f samples, warmup %s, sample %s, timeout %s, "
                     "pin %s\n",
                bh_report_num(set, "runs"), bh_report_num(set, "samples"), a, b, t,
                bh_report_str(set, "pin", "none"));
    }
    if (cJSON_IsObject(sum)) {
        const cJSON *f;
        int first = 1;

        fprintf(out, "  summary: n %.0f, mean ", bh_report_num(sum, "n"));
        bh_fmt_time(bh_report_num(sum, "mean"), a, sizeof(a));
        bh_fmt_time(bh_report_num(sum, "mad"), b, sizeof(b));
        fprintf(out, "%s, MAD %s, within-run CV %.2f%%, between-run CV %.2f%%, MDE %.2f%%\n", a,
                b, bh_report_num(sum, "within_run_cv") * 100,
                bh_report_num(sum, "between_run_cv") * 100, bh_report_num(sum, "mde") * 100);
        fprintf(out, "  flags:");
        cJSON_ArrayForEach(f, flags) if (cJSON_IsString(f)) {
            fprintf(out, "%s %s", first ? "" : ",", f->valuestring);
            first = 0;
        }
        fprintf(out, "%s; outliers: %.0f low severe, %.0f low mild, %.0f high mild, "
                     "%.0f high severe\n",
                first ? " none" : "", bh_report_num(tk, "low_severe"),
                bh_report_num(tk, "low_mild"), bh_report_num(tk, "high_mild"),
                bh_report_num(tk, "high_severe"));
    }
    if (cJSON_IsString(cJSON_GetObjectItemCaseSensitive(c, "message")))
        fprintf(out, "  message: %s\n", bh_report_str(c, "message", ""));
    cJSON_ArrayForEach(run, cJSON_GetObjectItemCaseSensitive(c, "runs")) print_run(out, run);
}

/* See console.h. */
void bh_report_console_details(FILE *out, const cJSON *doc, int color)
{
    const cJSON *c;

    fputc('\n', out);
    cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(doc, "cases")) print_case(out, c,
                                                                                      color);
}
