// SPDX-License-Identifier: MIT
/* Budgets in words (report_expect.h). */
#include "report_expect.h"

#include "html.h"
#include "report_text.h"
#include "units.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* The string member key of o, or dflt. */
static const char *str(const cJSON *o, const char *key, const char *dflt)
{
    const cJSON *it = cJSON_GetObjectItemCaseSensitive(o, key);

    return cJSON_IsString(it) ? it->valuestring : dflt;
}

/* A value of x in its unit ("1.20 us", "150 GFLOP/s", "12.5 tokens/s"). */
static void fmt_value(const cJSON *x, double v, char *buf, size_t cap)
{
    const char *unit = str(x, "unit", "");

    if (!isfinite(v))
        snprintf(buf, cap, "-");
    else if (strcmp(unit, "ns/iter") == 0)
        bh_fmt_time(v, buf, cap);
    else if (strcmp(unit, "FLOP/s") == 0 || strcmp(unit, "B/s") == 0 ||
             strcmp(unit, "items/s") == 0)
        bh_fmt_rate(v, unit, buf, cap);
    else
        snprintf(buf, cap, "%.4g%s%s", v, *unit ? " " : "", unit);
}

/* A number member, NAN when absent or null. */
static double num(const cJSON *o, const char *key)
{
    const cJSON *it = cJSON_GetObjectItemCaseSensitive(o, key);

    return cJSON_IsNumber(it) ? it->valuedouble : NAN;
}

void bh_report_expect_text(const cJSON *x, char *buf, size_t cap)
{
    const cJSON *ci = cJSON_GetObjectItemCaseSensitive(x, "ci");
    const char *reason = str(x, "reason", NULL);
    char val[48] = "", lo[48], hi[48], interval[112] = "";
    double runs = num(x, "runs");
    double v = num(x, "value");

    if (isfinite(v)) {
        fmt_value(x, v, val, sizeof(val));
        if (cJSON_GetArraySize(ci) == 2) {
            fmt_value(x, cJSON_GetArrayItem(ci, 0)->valuedouble, lo, sizeof(lo));
            fmt_value(x, cJSON_GetArrayItem(ci, 1)->valuedouble, hi, sizeof(hi));
            snprintf(interval, sizeof(interval), " [%s, %s]", lo, hi);
        }
    }
    snprintf(buf, cap, "%s %s: %s%s%s%s%s%.0f run%s)%s%s", str(x, "name", str(x, "key", "?")),
             str(x, "text", "?"), str(x, "status", "?"), isfinite(v) ? ", median " : "", val,
             interval, isfinite(v) ? " (" : " (", isfinite(runs) ? runs : 0, runs == 1 ? "" : "s",
             reason ? "; " : "", reason ? reason : "");
}

int bh_report_expect_failed(const cJSON *x)
{
    const char *st = str(x, "status", "");

    return strcmp(st, "missed") == 0 || strcmp(st, "unknown metric") == 0;
}

void bh_report_console_expect(FILE *out, const cJSON *doc, int color, int failing_only)
{
    static const char *const names[] = {"met", "at risk", "missed", "unknown metric", "no value"};
    size_t count[5] = {0}, total = 0, shown = 0;
    const cJSON *c;

    cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(doc, "cases")) {
        const cJSON *x;

        cJSON_ArrayForEach(x, cJSON_GetObjectItemCaseSensitive(c, "expect")) {
            const char *st = str(x, "status", "");
            int bad = bh_report_expect_failed(x);
            int risk = strcmp(st, "at risk") == 0;
            char text[768];

            total++;
            for (size_t i = 0; i < 5; i++)
                count[i] += strcmp(st, names[i]) == 0;
            if (failing_only && !bad)
                continue;
            if (shown++ == 0)
                fprintf(out, "\nbudgets:\n");
            bh_report_expect_text(x, text, sizeof(text));
            fprintf(out, "  %s%-8s%s %s  %s\n",
                    color ? (bad    ? "\033[31m"
                             : risk ? "\033[33m"
                                    : "\033[32m")
                          : "",
                    bad                      ? "FAIL"
                    : risk                   ? "AT RISK"
                    : strcmp(st, "met") == 0 ? "ok"
                                             : "-",
                    color ? "\033[0m" : "", str(c, "id", "?"), text);
        }
    }
    if (total == 0 || shown == 0)
        return;
    fprintf(out, "%zu budget%s:", total, total == 1 ? "" : "s");
    for (size_t i = 0, k = 0; i < 5; i++)
        if (count[i])
            fprintf(out, "%s %zu %s", k++ ? "," : "", count[i], names[i]);
    fprintf(out, "%s\n",
            count[2] + count[3] ? "; a missed budget fails the gate "
                                  "(--fail-on-regression exits 5)"
                                : "");
}

size_t bh_report_expect_case_failed(const cJSON *c, char *buf, size_t cap)
{
    const cJSON *x;
    size_t n = 0;

    *buf = '\0';
    cJSON_ArrayForEach(x, cJSON_GetObjectItemCaseSensitive(c, "expect")) {
        if (!bh_report_expect_failed(x))
            continue;
        if (n++ == 0)
            bh_report_expect_text(x, buf, cap);
    }
    return n;
}

/* The cells of one budget: the budget as written, its status, median,
 * interval and reason, as text. */
typedef struct budget_cells {
    char budget[160], med[48], ci[112];
    const char *status, *reason;
} budget_cells;

static void cells_of(const cJSON *x, budget_cells *b)
{
    const cJSON *ci = cJSON_GetObjectItemCaseSensitive(x, "ci");
    char lo[48], hi[48];

    snprintf(b->budget, sizeof(b->budget), "%s %s", str(x, "name", str(x, "key", "?")),
             str(x, "text", "?"));
    fmt_value(x, num(x, "value"), b->med, sizeof(b->med));
    snprintf(b->ci, sizeof(b->ci), "-");
    if (cJSON_GetArraySize(ci) == 2) {
        fmt_value(x, cJSON_GetArrayItem(ci, 0)->valuedouble, lo, sizeof(lo));
        fmt_value(x, cJSON_GetArrayItem(ci, 1)->valuedouble, hi, sizeof(hi));
        snprintf(b->ci, sizeof(b->ci), "[%s, %s]", lo, hi);
    }
    b->status = str(x, "status", "?");
    b->reason = str(x, "reason", "");
}

/* True when any case of doc has a checked budget. */
static int any_budget(const cJSON *doc)
{
    const cJSON *c;

    cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(doc, "cases"))
        if (cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(c, "expect")) > 0)
            return 1;
    return 0;
}

static const char *const legend =
    "A budget is met when the whole 95% interval of the median of the run medians is on its "
    "side of the target, missed when the whole interval is on the other side (it fails the "
    "gate, as does a budget on a metric the case does not report), at risk when the interval "
    "straddles the target; under 6 runs the median alone decides.";

void bh_report_markdown_expect(const cJSON *doc, bh_strbuf *out)
{
    const cJSON *c, *x;

    if (!any_budget(doc))
        return;
    bh_strbuf_puts(out, "### Budgets\n\n| case | budget | status | median | 95% CI | why |\n"
                        "|---|---|---|---|---|---|\n");
    cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(doc, "cases")) {
        cJSON_ArrayForEach(x, cJSON_GetObjectItemCaseSensitive(c, "expect")) {
            budget_cells b;
            const char *cols[6];

            cells_of(x, &b);
            cols[0] = str(c, "id", "?");
            cols[1] = b.budget;
            cols[2] = b.status;
            cols[3] = b.med;
            cols[4] = b.ci;
            cols[5] = b.reason;
            bh_strbuf_puts(out, "|");
            for (int i = 0; i < 6; i++) {
                bh_strbuf_puts(out, " ");
                bh_report_md_escape(out, cols[i]);
                bh_strbuf_puts(out, " |");
            }
            bh_strbuf_puts(out, "\n");
        }
    }
    bh_strbuf_printf(out, "\n%s\n\n", legend);
}

void bh_report_html_expect(bh_strbuf *out, const cJSON *doc)
{
    const cJSON *c, *x;

    if (!any_budget(doc))
        return;
    bh_strbuf_puts(out, "<section id=\"budgets\"><h2>Budgets</h2><table><thead><tr><th>case</th>"
                        "<th>budget</th><th>status</th><th>median</th><th>95% CI</th>"
                        "<th>why</th></tr></thead><tbody>\n");
    cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(doc, "cases")) {
        cJSON_ArrayForEach(x, cJSON_GetObjectItemCaseSensitive(c, "expect")) {
            budget_cells b;
            const char *cls = bh_report_expect_failed(x)                 ? "bad"
                              : strcmp(str(x, "status", ""), "met") == 0 ? "ok"
                                                                         : "skip";

            cells_of(x, &b);
            bh_strbuf_puts(out, "<tr><td>");
            bh_html_esc(out, str(c, "id", "?"));
            bh_strbuf_puts(out, "</td><td>");
            bh_html_esc(out, b.budget);
            bh_strbuf_printf(out, "</td><td class=\"%s\">", cls);
            bh_html_esc(out, b.status);
            bh_strbuf_puts(out, "</td><td>");
            bh_html_esc(out, b.med);
            bh_strbuf_puts(out, "</td><td>");
            bh_html_esc(out, b.ci);
            bh_strbuf_puts(out, "</td><td>");
            bh_html_esc(out, b.reason);
            bh_strbuf_puts(out, "</td></tr>\n");
        }
    }
    bh_strbuf_puts(out, "</tbody></table><p class=\"meta\">");
    bh_html_esc(out, legend);
    bh_strbuf_puts(out, "</p></section>\n");
}
