// SPDX-License-Identifier: MIT
/* The single-file HTML report: inline CSS, inline SVG charts, one small
 * inline script (sorting and filtering the summary table) and no external
 * resources (a Content-Security-Policy that allows only that script, by
 * its hash, makes any slip visible as a browser error). Sections: summary
 * table, baseline changes, distributions, roofline, backends side by
 * side, history trends, run and system. */
#include "html.h"
#include "report_expect.h"
#include "report_scaling.h"

#include "report_text.h"
#include "units.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const char css[] =
    ":root{--fg:#1d2330;--mut:#5f6b7a;--bd:#d9dee5;--alt:#f5f7fa}"
    "body{font:14px/1.45 system-ui,-apple-system,'Segoe UI',Roboto,'Helvetica Neue',Arial,"
    "sans-serif;color:var(--fg);margin:0;background:#fff}"
    "header{padding:18px 32px 10px;border-bottom:1px solid var(--bd)}"
    "h1{font-size:22px;margin:0 0 4px}"
    "h2{font-size:18px;margin:30px 0 8px;border-bottom:1px solid var(--bd);padding-bottom:4px}"
    /* the sticky navigation bar must not cover a heading it jumped to */
    "section[id]{scroll-margin-top:64px}"
    "h3{font-size:14px;margin:16px 0 4px;font-family:ui-monospace,Menlo,Consolas,monospace}"
    "nav{padding:8px 32px;background:var(--alt);border-bottom:1px solid var(--bd);"
    "position:sticky;top:0;z-index:2}"
    "nav a{margin-right:18px;color:#1558b0;text-decoration:none}"
    "main{padding:0 32px 40px}"
    ".meta,.note{color:var(--mut);margin:4px 0}"
    ".chips span{display:inline-block;padding:1px 10px;border-radius:12px;margin:6px 6px 0 0;"
    "font-weight:600;color:#fff;font-size:13px}"
    "table{border-collapse:collapse;font-size:13px;margin:6px 0}"
    "th,td{padding:3px 10px;border-bottom:1px solid var(--bd);text-align:left;"
    "vertical-align:top}"
    "th{background:var(--alt);font-weight:600}"
    "th[data-sort]{cursor:pointer;white-space:nowrap}"
    "th[aria-sort=ascending]::after{content:' \\25b2'}"
    "th[aria-sort=descending]::after{content:' \\25bc'}"
    ".why{color:var(--mut);font-size:12px;font-weight:400;max-width:46em;white-space:normal}"
    ".filters{margin:6px 0}.filters label{margin-right:14px}"
    "td.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}"
    ".id{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:12px}"
    ".ok{color:#2e7d32}.bad{color:#c62828;font-weight:600}.skip{color:#8d6e00}"
    ".v{display:inline-block;padding:0 7px;border-radius:4px;color:#fff;font-size:12px;"
    "white-space:nowrap}"
    ".best{font-weight:700;background:#e8f5e9}"
    ".scroll{overflow-x:auto}"
    ".grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(400px,1fr));gap:12px}"
    ".card{border:1px solid var(--bd);border-radius:6px;padding:6px 8px}"
    ".card h3{margin:2px 0;font-size:12px;word-break:break-all}"
    "svg{display:block;margin:4px 0 10px}"
    ".charts{display:flex;flex-wrap:wrap;column-gap:24px}"
    "svg text{font-family:system-ui,-apple-system,'Segoe UI',Roboto,Arial,sans-serif;"
    "font-size:11px;fill:#1d2330}"
    "svg .m{fill:#5f6b7a}svg .c{font-family:ui-monospace,Menlo,Consolas,monospace}"
    "svg .b{font-weight:700}"
    "details>summary{cursor:pointer;color:#1558b0}"
    ".warn{color:#c62828}ul.warn{margin:4px 0;padding-left:20px}"
    ".legend span{margin-right:14px;white-space:nowrap}"
    ".legend i,i.sw{display:inline-block;width:10px;height:10px;border-radius:50%;"
    "margin-right:4px;vertical-align:-1px}"
    ".legend i.hollow{border:2px solid #5f6b7a;width:7px;height:7px}"
    ".legend i.ring{border:2.5px solid;width:9px;height:9px}"
    "footer{padding:12px 32px;color:var(--mut);border-top:1px solid var(--bd);font-size:12px}";

/* Appends s escaped for HTML. */
static void esc(bh_strbuf *b, const char *s)
{
    bh_html_esc(b, s);
}

/* Status counts and the comparison's verdict counts as chips: every
 * verdict word the comparison counted, in the order of
 * bh_rv_verdict_rank (words it does not know last, as they come). */
static void chips(bh_strbuf *b, const bh_result_view *view)
{
    static const char *const st[] = {"ok",      "skipped", "unsupported", "failed",
                                     "invalid", "crashed", "timeout",     "oom"};
    const cJSON *it;

    bh_strbuf_puts(b, "<div class=\"chips\">");
    for (size_t k = 0; k < sizeof(st) / sizeof(*st); k++) {
        size_t n = 0;

        for (size_t i = 0; i < view->n_cases; i++)
            n += strcmp(view->cases[i].status, st[k]) == 0;
        if (n)
            bh_strbuf_printf(b, "<span style=\"background:%s\">%zu %s</span>",
                             k == 0 ? "#2e7d32" : k < 3 ? "#8d6e00" : "#c62828", n, st[k]);
    }
    for (int rank = 0; rank <= 10; rank++)
        cJSON_ArrayForEach(it, view->comparison.counts) {
            if (!it->string || !cJSON_IsNumber(it) || !(it->valuedouble > 0) ||
                bh_rv_verdict_rank(it->string, "critical") != rank)
                continue;
            bh_strbuf_printf(b, "<span style=\"background:%s\">%.0f ",
                             bh_svg_verdict_color(it->string, "critical"), it->valuedouble);
            esc(b, it->string);
            bh_strbuf_puts(b, "</span>");
        }
    bh_strbuf_puts(b, "</div>\n");
}

/* One row of a two-column facts table. */
static void kv(bh_strbuf *b, const char *k, const char *v)
{
    bh_strbuf_puts(b, "<tr><th>");
    esc(b, k);
    bh_strbuf_puts(b, "</th><td>");
    esc(b, v);
    bh_strbuf_puts(b, "</td></tr>\n");
}

/* The run and system facts, and the plugins with their hashes. */
static void system_section(bh_strbuf *b, const bh_result_view *v)
{
    const bh_rv_run_info *run = &v->run;
    const bh_rv_system *sys = &v->system;
    const cJSON *it;
    bh_strbuf cmd = BH_STRBUF_INIT;
    char buf[64];

    bh_strbuf_puts(b, "<section id=\"system\"><h2>Run and system</h2><table>\n");
    kv(b, "config", bh_report_str_or(run->config_path, "-"));
    kv(b, "config hash", bh_report_str_or(run->config_hash, "-"));
    kv(b, "started", bh_report_str_or(run->started_at, "-"));
    kv(b, "finished", bh_report_str_or(run->finished_at, "-"));
    snprintf(buf, sizeof(buf), "%.2f s", run->duration_s);
    kv(b, "duration", buf);
    kv(b, "seed", bh_report_str_or(run->seed, "-"));
    kv(b, "complete", run->complete == 0 ? "no (interrupted)" : "yes");
    cJSON_ArrayForEach(it, run->command_line) {
        if (cJSON_IsString(it)) {
            bh_strbuf_puts(&cmd, cmd.len ? " " : "bhost ");
            bh_strbuf_puts(&cmd, it->valuestring);
        }
    }
    kv(b, "command line", bh_strbuf_str(&cmd));
    kv(b, "bhost", bh_report_str_or(run->host_version, "-"));
    kv(b, "host", bh_report_str_or(sys->hostname, "-"));
    kv(b, "CPU", bh_report_str_or(sys->cpu_model, "-"));
    snprintf(buf, sizeof(buf), "%.0f logical, %.0f physical, %.0f NUMA node(s)",
             sys->logical_cores, sys->physical_cores, sys->numa_nodes);
    kv(b, "cores", buf);
    kv(b, "kernel", bh_report_str_or(sys->os_release, "-"));
    kv(b, "compiler", bh_report_str_or(sys->compiler, "-"));
    kv(b, "governor", bh_report_str_or(sys->governor, "-"));
    kv(b, "fingerprint", bh_report_str_or(sys->fingerprint_hash, "-"));
    bh_strbuf_puts(b, "</table>\n<h3>plugins</h3><table><thead><tr><th>plugin</th>"
                      "<th>version</th><th>status</th><th>sha256</th></tr></thead><tbody>\n");
    for (size_t i = 0; i < run->n_plugins; i++) {
        bh_rv_plugin pl = bh_rv_run_plugin(run, i);

        bh_strbuf_puts(b, "<tr><td class=\"id\">");
        esc(b, bh_report_str_or(pl.name, bh_report_str_or(pl.requested, "?")));
        bh_strbuf_puts(b, "</td><td>");
        esc(b, bh_report_str_or(pl.version, "-"));
        bh_strbuf_puts(b, "</td><td>");
        esc(b, bh_report_str_or(pl.status, "-"));
        bh_strbuf_puts(b, "</td><td class=\"id\">");
        esc(b, bh_report_str_or(pl.sha256, "-"));
        bh_strbuf_puts(b, "</td></tr>\n");
    }
    bh_strbuf_puts(b, "</tbody></table></section>\n");
    bh_strbuf_free(&cmd);
}

/* The document head: CSP (no fetches, no script but the report's own by
 * its hash), title and the style. */
static void head(bh_strbuf *b, const char *name)
{
    char hash[BH_HTML_HASH_LEN];

    bh_html_script_hash(hash);
    bh_strbuf_printf(b,
                     "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                     "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src "
                     "'none'; style-src 'unsafe-inline'; img-src data:; script-src "
                     "'sha256-%s'\">\n"
                     "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
                     "<title>bhost report: ",
                     hash);
    esc(b, name);
    bh_strbuf_printf(b, "</title>\n<style>%s</style>\n</head>\n<body>\n", css);
}

/* See report.h: the HTML report of doc, appended to out. */
void bh_report_html(const cJSON *doc, const bh_report_ctx *ctx, bh_strbuf *out)
{
    bh_result_view view;
    const char *name;

    bh_result_view_load(doc, &view);
    name = bh_report_str_or(view.run.config_name, "result");
    head(out, name);
    bh_strbuf_puts(out, "<header><h1>bhost report: ");
    esc(out, name);
    bh_strbuf_puts(out, "</h1><p class=\"meta\">");
    esc(out, bh_report_str_or(view.run.started_at, ""));
    bh_strbuf_puts(out, " &middot; host ");
    esc(out, bh_report_str_or(view.system.hostname, "?"));
    bh_strbuf_printf(out, " &middot; %zu case%s", view.n_cases, view.n_cases == 1 ? "" : "s");
    if (view.comparison.json) {
        bh_strbuf_puts(out, " &middot; baseline ");
        esc(out, bh_report_str_or(view.comparison.baseline, "?"));
    }
    bh_strbuf_puts(out, "</p>");
    chips(out, &view);
    bh_strbuf_puts(out, "</header>\n<nav><a href=\"#summary\">Summary</a>"
                        "<a href=\"#changes\">Changes</a>"
                        "<a href=\"#distributions\">Distributions</a>"
                        "<a href=\"#roofline\">Roofline</a>"
                        "<a href=\"#backends\">Backends</a>"
                        "<a href=\"#history\">History</a>"
                        "<a href=\"#system\">Run and system</a></nav>\n<main>\n");
    bh_report_html_summary(out, &view);
    bh_report_html_expect(out, doc);
    bh_report_html_ratios(out, doc);
    bh_report_html_scaling(out, doc);
    bh_report_html_changes(out, &view);
    bh_report_html_dist(out, &view);
    bh_report_html_roofline(out, &view);
    bh_report_html_backends(out, &view);
    bh_report_html_profiles(out, &view, ctx ? ctx->base_dir : NULL);
    bh_report_html_history(out, doc, ctx ? ctx->history : NULL);
    system_section(out, &view);
    bh_strbuf_puts(out, "</main>\n<footer>Generated by bhost ");
    esc(out, bh_report_str_or(view.run.host_version, ""));
    bh_strbuf_puts(out, " from a bhost.result/1 document. Self-contained: one inline script "
                        "(sorting and filtering the summary), no network.</footer>\n<script>");
    bh_strbuf_puts(out, bh_html_script());
    bh_strbuf_puts(out, "</script>\n</body>\n</html>\n");
    bh_result_view_free(&view);
}
