// SPDX-License-Identifier: MIT
/* The HTML report's profiles section (bhost run --profile): for each
 * profiled case its tool, what it profiled, the files, and its flame
 * graph SVG inline. */
#include "html.h"

#include "bh_fs.h"
#include "bh_mem.h"

#include <stdlib.h>
#include <string.h>

/* The largest flame graph embedded. */
#define SVG_MAX_BYTES (8u << 20)

/* What the region of a profile record means, in words. */
static const char *region_words(const char *region)
{
    if (strcmp(region, "samples") == 0)
        return "the timed samples only";
    if (strcmp(region, "run") == 0)
        return "the run stage (calibration, warm-up and samples)";
    return "the whole worker";
}

/* True when text (n bytes) is an SVG without anything that runs: it
 * starts with "<svg" and holds no script, no foreignObject, no
 * "javascript:" and no event attribute (" on" letters "="). The report's
 * policy allows no script but its own. */
static int inert_svg(const char *text, size_t n)
{
    static const char *const banned[] = {"<script", "<foreignObject", "javascript:"};

    if (n < 4 || strncmp(text, "<svg", 4) != 0 || memchr(text, '\0', n))
        return 0;
    for (size_t i = 0; i < sizeof(banned) / sizeof(banned[0]); i++)
        if (strstr(text, banned[i]))
            return 0;
    for (const char *p = strstr(text, " on"); p; p = strstr(p + 1, " on")) {
        const char *q = p + 3;

        while ((*q >= 'a' && *q <= 'z') || (*q >= 'A' && *q <= 'Z'))
            q++;
        if (q > p + 3 && *q == '=')
            return 0;
    }
    return 1;
}

/* Appends the flame graph at rel (relative to base_dir), or a line
 * saying why it is not embedded. */
static void embed(bh_strbuf *b, const char *base_dir, const char *rel)
{
    char *path =
        rel[0] == '/' || !base_dir ? bh_xstrdup(rel) : bh_xasprintf("%s/%s", base_dir, rel);
    char *text = NULL;
    size_t len = 0;
    bh_error e = {""};

    if (bh_read_file(path, SVG_MAX_BYTES, &text, &len, &e) != 0) {
        bh_strbuf_puts(b, "<p class=\"warn\">flame graph not embedded: ");
        bh_html_esc(b, e.msg);
        bh_strbuf_puts(b, "</p>\n");
    } else if (!inert_svg(text, len)) {
        bh_strbuf_puts(b, "<p class=\"warn\">flame graph not embedded: ");
        bh_html_esc(b, path);
        bh_strbuf_puts(b, " is not a bhost flame graph</p>\n");
    } else {
        bh_strbuf_puts(b, "<div class=\"flame\" style=\"overflow-x:auto\">");
        bh_strbuf_append(b, text, len);
        bh_strbuf_puts(b, "</div>\n");
    }
    free(text);
    free(path);
}

void bh_report_html_profiles(bh_strbuf *b, const bh_result_view *view, const char *base_dir)
{
    int any = 0;

    for (size_t i = 0; i < view->n_cases; i++) {
        const cJSON *p = cJSON_GetObjectItemCaseSensitive(view->cases[i].json, "profile");
        const cJSON *svg = cJSON_GetObjectItemCaseSensitive(p, "svg");
        const cJSON *path = cJSON_GetObjectItemCaseSensitive(p, "path");
        const cJSON *tool = cJSON_GetObjectItemCaseSensitive(p, "tool");
        const cJSON *region = cJSON_GetObjectItemCaseSensitive(p, "region");
        const cJSON *why = cJSON_GetObjectItemCaseSensitive(p, "svg_error");

        if (!cJSON_IsObject(p))
            continue;
        if (!any)
            bh_strbuf_puts(b, "<section id=\"profiles\"><h2>Profiles</h2>\n<p class=\"meta\">"
                              "Profiled runs (bhost run --profile): their times are not "
                              "comparable and are never gated.</p>\n");
        any = 1;
        bh_strbuf_puts(b, "<h3>");
        bh_html_esc(b, view->cases[i].id);
        bh_strbuf_puts(b, "</h3>\n<p>");
        bh_html_esc(b, cJSON_IsString(tool) ? tool->valuestring : "?");
        bh_strbuf_puts(b, ", profiling ");
        bh_html_esc(b, region_words(cJSON_IsString(region) ? region->valuestring : ""));
        bh_strbuf_puts(b, ": <code>");
        bh_html_esc(b, cJSON_IsString(path) ? path->valuestring : "?");
        bh_strbuf_puts(b, "</code></p>\n");
        if (cJSON_IsString(svg))
            embed(b, base_dir, svg->valuestring);
        else if (cJSON_IsString(why)) {
            bh_strbuf_puts(b, "<p class=\"warn\">no flame graph: ");
            bh_html_esc(b, why->valuestring);
            bh_strbuf_puts(b, "</p>\n");
        }
    }
    if (any)
        bh_strbuf_puts(b, "</section>\n");
}
