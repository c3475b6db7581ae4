// SPDX-License-Identifier: MIT
/* Scaling curves as text (report_scaling.h): the cells of a point, a
 * curve's title, the console tables and the Markdown section. */
#include "report_scaling.h"

#include "report_text.h"
#include "units.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* The number key of o, NAN when absent or null. */
static double num(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

    return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

/* The string key of o, dflt when absent. */
static const char *str(const cJSON *o, const char *key, const char *dflt)
{
    const char *s = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, key));

    return s ? s : dflt;
}

/* The unit of a rate name ("flop_per_s" -> "FLOP/s"). */
static const char *rate_unit(const char *rate)
{
    if (strcmp(rate, "flop_per_s") == 0)
        return "FLOP/s";
    return strcmp(rate, "bytes_per_s") == 0 ? "B/s" : "items/s";
}

void bh_report_scaling_cells(const cJSON *c, const cJSON *p, bh_scaling_cells *out)
{
    const char *rate = str(c, "rate", NULL);
    double s = num(p, "speedup"), e = num(p, "efficiency");
    char r[32];

    memset(out, 0, sizeof(*out));
    snprintf(out->value, sizeof(out->value), "%g", num(p, "value"));
    if (isnan(num(p, "median_ns")))
        snprintf(out->median, sizeof(out->median), "-");
    else
        bh_fmt_time(num(p, "median_ns"), out->median, sizeof(out->median));
    if (rate && !isnan(num(p, "rate"))) {
        bh_fmt_rate(num(p, "rate"), rate_unit(rate), r, sizeof(r));
        snprintf(out->median + strlen(out->median), sizeof(out->median) - strlen(out->median),
                 " (%s)", r);
    }
    snprintf(out->speedup, sizeof(out->speedup), isnan(s) ? "-" : "%.2fx", s);
    snprintf(out->efficiency, sizeof(out->efficiency), isnan(e) ? "-" : "%.2f", e);
    if (!isnan(s))
        snprintf(out->speedup_ci, sizeof(out->speedup_ci), "[%.2f, %.2f]", num(p, "speedup_lo"),
                 num(p, "speedup_hi"));
    if (!isnan(e))
        snprintf(out->efficiency_ci, sizeof(out->efficiency_ci), "[%.2f, %.2f]",
                 num(p, "efficiency_lo"), num(p, "efficiency_hi"));
    if (isnan(e))
        snprintf(out->flag, sizeof(out->flag), "gap: %s: %s", str(p, "status", "?"),
                 str(p, "reason", "no time"));
    else if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(p, "below_threshold")))
        snprintf(out->flag, sizeof(out->flag), "LOW");
}

void bh_report_scaling_title(const cJSON *c, char *buf, size_t cap)
{
    const char *axis = str(c, "axis", "?");
    int n = snprintf(buf, cap, "%s: %s, %s scaling, min efficiency %.2f", str(c, "name", "?"), axis,
                     str(c, "mode", "?"), num(c, "min_efficiency"));

    if (n < 0 || (size_t)n >= cap)
        return;
    if (strcmp(str(c, "status", "ok"), "ok") != 0)
        snprintf(buf + n, cap - (size_t)n, " (unavailable: %s)", str(c, "reason", "?"));
    else
        snprintf(buf + n, cap - (size_t)n, " (base %s=%g)", axis, num(c, "base"));
}

void bh_report_console_scaling(FILE *out, const cJSON *doc)
{
    const cJSON *list = cJSON_GetObjectItemCaseSensitive(doc, "scaling"), *c, *p;
    char title[600];

    if (cJSON_GetArraySize(list) == 0)
        return;
    fprintf(out, "scaling (speedup and parallel efficiency against the smallest axis value with "
                 "a time; 95%% bootstrap CI; LOW: efficiency under min efficiency):\n");
    cJSON_ArrayForEach(c, list) {
        bh_report_scaling_title(c, title, sizeof(title));
        fprintf(out, "  %s\n    %10s  %-24s  %-22s  %-20s  %s\n", title, str(c, "axis", "?"),
                "median", "speedup [95% CI]", "efficiency [95% CI]", "flag");
        cJSON_ArrayForEach(p, cJSON_GetObjectItemCaseSensitive(c, "points")) {
            bh_scaling_cells k;

            bh_report_scaling_cells(c, p, &k);
            fprintf(out, "    %10s  %-24s  %7s %-14s  %5s %-14s  %s\n", k.value, k.median,
                    k.speedup, k.speedup_ci, k.efficiency, k.efficiency_ci, k.flag);
        }
    }
}

/* Appends one escaped Markdown table cell and its closing bar. */
static void md_cell(bh_strbuf *b, const char *s)
{
    bh_strbuf_puts(b, " ");
    bh_report_md_escape(b, s);
    bh_strbuf_puts(b, " |");
}

void bh_report_markdown_scaling(const cJSON *doc, bh_strbuf *out)
{
    const cJSON *list = cJSON_GetObjectItemCaseSensitive(doc, "scaling"), *c, *p;
    char title[600];

    if (cJSON_GetArraySize(list) == 0)
        return;
    bh_strbuf_puts(out, "### Scaling\n\nSpeedup and parallel efficiency against the smallest "
                        "axis value with a time, with 95% bootstrap intervals; **LOW**: "
                        "efficiency under the curve's min efficiency.\n\n");
    cJSON_ArrayForEach(c, list) {
        bh_report_scaling_title(c, title, sizeof(title));
        bh_report_md_escape(out, title);
        bh_strbuf_puts(out, "\n\n|");
        md_cell(out, str(c, "axis", "?"));
        bh_strbuf_puts(out, " median | speedup | 95% CI | efficiency | 95% CI | flag |\n"
                            "|--:|--:|--:|--:|--:|--:|---|\n");
        cJSON_ArrayForEach(p, cJSON_GetObjectItemCaseSensitive(c, "points")) {
            bh_scaling_cells k;

            bh_report_scaling_cells(c, p, &k);
            bh_strbuf_puts(out, "|");
            md_cell(out, k.value);
            md_cell(out, k.median);
            md_cell(out, k.speedup);
            md_cell(out, k.speedup_ci);
            md_cell(out, k.efficiency);
            md_cell(out, k.efficiency_ci);
            bh_strbuf_puts(out, strcmp(k.flag, "LOW") == 0 ? " **LOW** |\n" : "");
            if (strcmp(k.flag, "LOW") != 0) {
                md_cell(out, k.flag);
                bh_strbuf_puts(out, "\n");
            }
        }
        bh_strbuf_puts(out, "\n");
    }
}
