// SPDX-License-Identifier: MIT
/* The environment of the runs in the console (report_env.h). */
#include "report_env.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Most flagged-run lines printed. */
#define MAX_LINES 20

static const cJSON *get(const cJSON *o, const char *key)
{
    return cJSON_GetObjectItemCaseSensitive(o, key);
}

void bh_report_env_state(const cJSON *doc, char *buf, size_t cap)
{
    const cJSON *c, *env = NULL;
    const cJSON *virt = get(get(doc, "system"), "virtualization");
    const char *where =
        cJSON_IsString(virt) && strcmp(virt->valuestring, "none") != 0 ? " in this VM" : "";
    const cJSON *gov, *boost;
    size_t throttled = 0;
    char g[64];

    *buf = '\0';
    cJSON_ArrayForEach(c, get(doc, "cases")) {
        const cJSON *e = get(c, "environment");

        if (cJSON_IsObject(e) && !env)
            env = e;
        if (cJSON_IsNumber(get(e, "throttled")))
            throttled += (size_t)get(e, "throttled")->valuedouble;
    }
    if (!env)
        return;
    gov = get(env, "governor");
    boost = get(env, "boost");
    if (cJSON_IsString(gov))
        snprintf(g, sizeof(g), "%s", gov->valuestring);
    else
        snprintf(g, sizeof(g), "unknown (no cpufreq%s)", where);
    snprintf(buf, cap, "governor %s, turbo %s, %s", g,
             cJSON_IsBool(boost) ? (cJSON_IsTrue(boost) ? "on" : "off") : "unknown",
             !cJSON_IsTrue(get(env, "throttle_counters")) ? "no thermal throttle counters"
             : throttled                                  ? "throttling seen"
                                                          : "no throttling seen");
}

/* True when run r's environment carries flag. */
static int has_flag(const cJSON *r, const char *flag)
{
    const cJSON *f;

    cJSON_ArrayForEach(f, get(get(r, "environment"), "flags"))
        if (cJSON_IsString(f) && strcmp(f->valuestring, flag) == 0)
            return 1;
    return 0;
}

/* One line for the runs of case c that carry flag, or nothing: "loaded
 * at the start of runs 1, 2, 5 of 6 (load average up to 3.74, 2 CPUs)";
 * returns 1 when it printed. */
static int flag_line(FILE *out, const cJSON *c, const char *flag, int color)
{
    static const size_t max_listed = 8;
    const cJSON *r;
    char list[128] = "";
    size_t n = 0, total = 0, len = 0;
    double worst = -INFINITY, cpus = NAN;

    cJSON_ArrayForEach(r, get(c, "runs")) {
        const cJSON *env = get(r, "environment");
        const cJSON *v = get(env, strcmp(flag, "loaded") == 0 ? "load1" : "slowdown");

        total += cJSON_IsObject(env);
        if (!has_flag(r, flag))
            continue;
        if (n < max_listed && len < sizeof(list))
            len += (size_t)snprintf(list + len, sizeof(list) - len, "%s%.0f", n ? ", " : "",
                                    cJSON_GetNumberValue(get(r, "index")) + 1);
        if (cJSON_IsNumber(v) && v->valuedouble > worst)
            worst = v->valuedouble;
        if (cJSON_IsNumber(get(env, "cpus")))
            cpus = get(env, "cpus")->valuedouble;
        n++;
    }
    if (n == 0)
        return 0;
    fprintf(out, "  %s!%s %s: ", color ? "\033[33m" : "", color ? "\033[0m" : "",
            cJSON_GetStringValue(get(c, "id")));
    if (strcmp(flag, "loaded") == 0)
        fprintf(out,
                "loaded at the start of run%s %s%s of %zu (load average up to %.2f, %.0f "
                "CPUs)\n",
                n == 1 ? "" : "s", list, n > max_listed ? ", ..." : "", total, worst, cpus);
    else if (strcmp(flag, "clock_fell") == 0)
        fprintf(out,
                "clock fell in run%s %s%s of %zu (calibration up to %.0f%% slower than at "
                "the start of the first run)\n",
                n == 1 ? "" : "s", list, n > max_listed ? ", ..." : "", total, 100 * worst);
    else
        fprintf(out, "throttled in run%s %s%s of %zu (thermal throttle counters rose)\n",
                n == 1 ? "" : "s", list, n > max_listed ? ", ..." : "", total);
    return 1;
}

void bh_report_console_env(FILE *out, const cJSON *doc, int color)
{
    static const char *const flags[] = {"loaded", "clock_fell", "throttled"};
    const cJSON *c;
    size_t runs = 0, flagged = 0, lines = 0, more = 0;
    char state[256];

    bh_report_env_state(doc, state, sizeof(state));
    if (!*state)
        return;
    cJSON_ArrayForEach(c, get(doc, "cases")) {
        const cJSON *r;

        cJSON_ArrayForEach(r, get(c, "runs")) {
            runs += cJSON_IsObject(get(r, "environment"));
            flagged += cJSON_GetArraySize(get(get(r, "environment"), "flags")) > 0;
        }
    }
    fprintf(out, "\nenvironment: %s; %zu of %zu run%s flagged%s\n", state, flagged, runs,
            runs == 1 ? "" : "s", flagged ? " (flagged runs are kept in the statistics)" : "");
    cJSON_ArrayForEach(c, get(doc, "cases")) {
        for (size_t k = 0; k < sizeof(flags) / sizeof(flags[0]); k++) {
            if (lines >= MAX_LINES) {
                more += get(get(c, "environment"), flags[k]) &&
                        cJSON_GetNumberValue(get(get(c, "environment"), flags[k])) > 0;
                continue;
            }
            lines += (size_t)flag_line(out, c, flags[k], color);
        }
    }
    if (more)
        fprintf(out, "  ... and %zu more (the result's cases[].environment.messages)\n", more);
}

void bh_report_run_env_text(const cJSON *run, char *buf, size_t cap)
{
    const cJSON *u = get(get(run, "cpu"), "utilisation");
    const cJSON *flags = get(get(run, "environment"), "flags");
    const cJSON *f;
    size_t len = 0;
    int first = 1;

    *buf = '\0';
    if (cJSON_IsNumber(u) && isfinite(u->valuedouble))
        len += (size_t)snprintf(buf, cap, ", cpu %.2f", u->valuedouble);
    cJSON_ArrayForEach(f, flags) {
        if (!cJSON_IsString(f) || len >= cap)
            continue;
        len += (size_t)snprintf(buf + len, cap - len, "%s%s", first ? ", env: " : ", ",
                                f->valuestring);
        first = 0;
    }
}

void bh_report_case_env_text(const cJSON *c, char *buf, size_t cap)
{
    static const char *const flags[] = {"loaded", "clock_fell", "throttled"};
    const cJSON *cu = get(c, "cpu_utilisation");
    const cJSON *env = get(c, "environment");
    double flagged = cJSON_GetNumberValue(get(env, "runs_flagged"));
    size_t len = 0;

    *buf = '\0';
    if (cJSON_IsNumber(get(cu, "median")))
        len = (size_t)snprintf(
            buf, cap, "  cpu utilisation: median %.2f (%.2f to %.2f, %.0f runs)",
            cJSON_GetNumberValue(get(cu, "median")), cJSON_GetNumberValue(get(cu, "min")),
            cJSON_GetNumberValue(get(cu, "max")), cJSON_GetNumberValue(get(cu, "runs")));
    if (!(flagged > 0) || len >= cap)
        return;
    len += (size_t)snprintf(buf + len, cap - len, "%s%.0f of %.0f runs flagged (",
                            len ? "; environment: " : "  environment: ", flagged,
                            cJSON_GetNumberValue(get(cu, "runs")));
    for (size_t k = 0, n = 0; k < sizeof(flags) / sizeof(flags[0]) && len < cap; k++) {
        double v = cJSON_GetNumberValue(get(env, flags[k]));

        if (v > 0)
            len +=
                (size_t)snprintf(buf + len, cap - len, "%s%s %.0f", n++ ? ", " : "", flags[k], v);
    }
    if (len < cap)
        snprintf(buf + len, cap - len, ")");
}
