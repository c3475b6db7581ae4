// SPDX-License-Identifier: MIT
/* The HTML report's Ratios section: each pair of the config's ratios:
 * (doc.ratios, host/pipeline/ratio_build.c), as the console prints them
 * (console_ratios.c): the ratio of median times with its bootstrap
 * interval and the two case ids, or why it has none. */
#include "html.h"

#include <math.h>
#include <string.h>

/* The string key of o, "?" when absent. */
static const char *text_of(const cJSON *o, const char *key)
{
    const char *s = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, key));

    return s ? s : "?";
}

/* The number key of o, NAN when absent. */
static double num_of(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

    return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

/* One table row for ratio r. */
static void row(bh_strbuf *out, const cJSON *r)
{
    bh_strbuf_puts(out, "<tr><td>");
    bh_html_esc(out, text_of(r, "name"));
    if (strcmp(text_of(r, "status"), "ok") == 0)
        bh_strbuf_printf(out, "</td><td>%.3f&times;</td><td>[%.3f, %.3f]</td><td>",
                         num_of(r, "ratio"), num_of(r, "ci_lo"), num_of(r, "ci_hi"));
    else
        bh_strbuf_puts(out, "</td><td>unavailable</td><td>-</td><td>");
    bh_html_esc(out, text_of(r, "case"));
    bh_strbuf_puts(out, "</td><td>");
    bh_html_esc(out, text_of(r, "reference"));
    bh_strbuf_puts(out, "</td><td>");
    if (strcmp(text_of(r, "status"), "ok") != 0)
        bh_html_esc(out, text_of(r, "reason"));
    bh_strbuf_puts(out, "</td></tr>\n");
}

void bh_report_html_ratios(bh_strbuf *out, const cJSON *doc)
{
    const cJSON *list = cJSON_GetObjectItemCaseSensitive(doc, "ratios"), *r;

    if (cJSON_GetArraySize(list) == 0)
        return;
    bh_strbuf_puts(out, "<section id=\"ratios\"><h2>Ratios</h2><p>Time of case over time of "
                        "reference: the ratio of medians with its 95% bootstrap interval over "
                        "runs; below 1, the case is faster.</p><table><thead><tr><th>pair</th>"
                        "<th>ratio</th><th>95% CI</th><th>case</th><th>reference</th>"
                        "<th>why unavailable</th></tr></thead><tbody>\n");
    cJSON_ArrayForEach(r, list)
        row(out, r);
    bh_strbuf_puts(out, "</tbody></table></section>\n");
}
