// SPDX-License-Identifier: MIT
/* runs: auto in words (report_runs_auto.h). */
#include "report_runs_auto.h"

#include <math.h>
#include <string.h>

/* The number member key of o, or NAN. */
static double num(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

    return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

/* "0.40%" for a relative width, "unbounded" for none. */
static void width_text(const cJSON *ra, char *buf, size_t cap)
{
    const cJSON *w = cJSON_GetObjectItemCaseSensitive(ra, "ci_rel_width");

    if (cJSON_IsNumber(w) && isfinite(w->valuedouble))
        snprintf(buf, cap, "%.2f%% wide", 100.0 * w->valuedouble);
    else
        snprintf(buf, cap, "unbounded (under 6 ok runs)");
}

/* See report_runs_auto.h. */
void bh_report_runs_auto_text(const cJSON *ra, double runs, char *buf, size_t cap)
{
    const cJSON *st = cJSON_GetObjectItemCaseSensitive(ra, "stopped");
    const char *stopped = cJSON_IsString(st) ? st->valuestring : "";
    double floor = num(ra, "noise_floor");
    char w[48];
    int n;

    buf[0] = '\0';
    if (!cJSON_IsObject(ra))
        return;
    width_text(ra, w, sizeof(w));
    n = snprintf(buf, cap, "%.0f (auto, %.0f to %.0f): ", runs, num(ra, "min"),
                 num(ra, "max"));
    if (n < 0 || (size_t)n >= cap)
        return;
    buf += n;
    cap -= (size_t)n;
    if (strcmp(stopped, "ci_narrow") == 0)
        snprintf(buf, cap, "stopped as the 95%% CI of the run medians, %s, is narrower than "
                           "the noise floor %.2f%%", w, 100.0 * floor);
    else if (strcmp(stopped, "max_runs") == 0)
        snprintf(buf, cap, "stopped at max_runs; the 95%% CI of the run medians is still %s "
                           "(noise floor %.2f%%)", w, 100.0 * floor);
    else if (strcmp(stopped, "time_budget") == 0)
        snprintf(buf, cap, "stopped as another run would pass max_time; the 95%% CI of the run "
                           "medians is %s (noise floor %.2f%%)", w, 100.0 * floor);
    else if (strcmp(stopped, "run_not_ok") == 0)
        snprintf(buf, cap, "stopped as a run did not end ok");
    else if (strcmp(stopped, "interrupted") == 0)
        snprintf(buf, cap, "stopped by the interruption");
    else
        snprintf(buf, cap, "never ran");
}

/* See report_runs_auto.h. */
void bh_report_runs_auto_line(FILE *out, const cJSON *case_json)
{
    const cJSON *ra = cJSON_GetObjectItemCaseSensitive(case_json, "runs_auto");
    const cJSON *runs = cJSON_GetObjectItemCaseSensitive(case_json, "runs");
    char text[320];

    if (!cJSON_IsObject(ra))
        return;
    bh_report_runs_auto_text(ra, (double)cJSON_GetArraySize(runs), text, sizeof(text));
    fprintf(out, "  runs: %s\n", text);
}
