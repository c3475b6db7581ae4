// SPDX-License-Identifier: MIT
/* JUnit XML export (the Jenkins/Ant junit-10.xsd form that CI systems
 * read): <testsuites> with one <testsuite> named after the config, one
 * <testcase> per case (classname plugin/benchmark, name the case id, time
 * the wall time of its runs in seconds).
 *
 *   critical regression            <failure type="regression">
 *   a missed budget (expect:)      <failure type="budget">
 *   noisier, regression.noisier:   <failure type="noisier">
 *     fail (fails_gate)
 *   failed, invalid                <failure type="STATUS">
 *   crashed, timeout, oom, other   <error type="STATUS">
 *   skipped, unsupported           <skipped message="...">
 * Each testcase's <system-out> holds its figures (median, CI, CV,
 * throughput, verdict). All text is XML-escaped; characters XML cannot
 * carry become U+FFFD. */
#include "report.h"

#include "result_view.h"
#include "report_case.h"
#include "report_expect.h"
#include "report_text.h"
#include "units.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

typedef enum outcome { PASS, FAILURE, ERROR, SKIPPED } outcome;

/* True when r regressed with severity critical. */
static int is_critical(const bh_rv_case *r)
{
    return r->verdict && strcmp(r->verdict, "regressed") == 0 && r->severity &&
           strcmp(r->severity, "critical") == 0;
}

/* The noisier change of r that fails the gate (its fails_gate is true:
 * regression.noisier: fail), or NULL. */
static const bh_rv_change *failing_noisier(const bh_rv_case *r)
{
    for (size_t i = 0; i < r->n_changes; i++)
        if (strcmp(r->changes[i].verdict, "noisier") == 0 &&
            cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(r->changes[i].json, "fails_gate")))
            return &r->changes[i];
    return NULL;
}

/* What a case is in JUnit terms (see the table at the top). */
static outcome classify(const bh_rv_case *r)
{
    char msg[512];

    if (strcmp(r->status, "skipped") == 0 || strcmp(r->status, "unsupported") == 0)
        return SKIPPED;
    if (strcmp(r->status, "failed") == 0 || strcmp(r->status, "invalid") == 0)
        return FAILURE;
    if (!r->ok)
        return ERROR;
    if (is_critical(r) || failing_noisier(r))
        return FAILURE;
    return bh_report_expect_case_failed(r->json, msg, sizeof(msg)) ? FAILURE : PASS;
}

/* Appends name="value" with the value escaped. */
static void attr(bh_strbuf *b, const char *name, const char *value)
{
    bh_strbuf_printf(b, " %s=\"", name);
    bh_report_xml_attr(b, value);
    bh_strbuf_append(b, "\"", 1);
}

/* "regressed (critical): time +12.3% [+10.1%, +14.5%], q=0.0012,
 * 1.64 us -> 1.84 us" */
static void regression_message(const bh_rv_case *r, char *buf, size_t cap)
{
    const bh_rv_change *ch = r->head;
    char c[32] = "-", lo[32] = "-", hi[32] = "-", q[32] = "-", bv[48] = "-", cv[48] = "-";

    if (ch) {
        bh_report_fmt_change(ch->change, c, sizeof(c));
        bh_report_fmt_change(ch->lo, lo, sizeof(lo));
        bh_report_fmt_change(ch->hi, hi, sizeof(hi));
        bh_report_fmt_p(ch->q, q, sizeof(q));
        bh_report_fmt_value(ch->base, ch->unit, bv, sizeof(bv));
        bh_report_fmt_value(ch->cand, ch->unit, cv, sizeof(cv));
    }
    snprintf(buf, cap, "regressed (critical): %s %s [%s, %s], q=%s, %s -> %s",
             ch ? ch->metric : "time", c, lo, hi, q, bv, cv);
}

/* The figures of a case as one text line. */
static void figures(bh_strbuf *b, const bh_rv_case *r)
{
    char tp[48];
    bh_report_median m;

    if (!r->summary.present)
        return;
    /* the median every report prints: of the run medians, with its 95% CI */
    bh_report_case_median(r, &m);
    bh_strbuf_printf(b, "median %s per iteration, 95%% CI %s, CV %.2f%%, %.0f runs", m.med_text,
                     m.ci_text, r->summary.spread_cv * 100, r->summary.runs);
    if (isfinite(r->rate)) {
        bh_fmt_rate(r->rate, r->rate_unit, tp, sizeof(tp));
        bh_strbuf_printf(b, ", %s", tp);
    }
    if (r->verdict && r->head) {
        char c[32];

        bh_report_fmt_change(r->head->change, c, sizeof(c));
        bh_strbuf_printf(b, ", verdict %s%s%s (%s %s)", r->verdict,
                         r->severity ? " " : "", r->severity ? r->severity : "",
                         r->head->metric, c);
    }
}

/* The <testcase> element of one case. */
static void testcase(bh_strbuf *b, const bh_rv_case *r)
{
    outcome oc = classify(r);
    bh_strbuf fig = BH_STRBUF_INIT;
    char msg[512];

    bh_strbuf_puts(b, "    <testcase");
    attr(b, "classname", r->group);
    attr(b, "name", r->id);
    bh_strbuf_printf(b, " time=\"%.6f\">\n", r->wall_s);
    figures(&fig, r);
    if (oc == SKIPPED) {
        bh_strbuf_puts(b, "      <skipped");
        attr(b, "message", *r->message ? r->message : r->status);
        bh_strbuf_puts(b, "/>\n");
    } else if (oc != PASS) {
        const char *tag = oc == FAILURE ? "failure" : "error";

        if (r->ok && !is_critical(r) && failing_noisier(r))
            snprintf(msg, sizeof(msg), "noisier: the spread between runs grew x%.2f "
                     "(regression.noisier: fail)", failing_noisier(r)->change + 1.0);
        else if (r->ok && !is_critical(r))
            bh_report_expect_case_failed(r->json, msg, sizeof(msg));
        else if (r->ok)
            regression_message(r, msg, sizeof(msg));
        else
            snprintf(msg, sizeof(msg), "%s%s%s", r->status, *r->message ? ": " : "",
                     r->message);
        bh_strbuf_printf(b, "      <%s", tag);
        attr(b, "type", !r->ok           ? r->status
                        : is_critical(r)   ? "regression"
                        : failing_noisier(r) ? "noisier"
                                           : "budget");
        attr(b, "message", msg);
        bh_strbuf_puts(b, ">");
        bh_report_xml_escape(b, r->id);
        bh_strbuf_puts(b, ": ");
        bh_report_xml_escape(b, r->ok ? msg : r->message);
        bh_strbuf_printf(b, "</%s>\n", tag);
    }
    if (fig.len) {
        bh_strbuf_puts(b, "      <system-out>");
        bh_report_xml_escape(b, bh_strbuf_str(&fig));
        bh_strbuf_puts(b, "</system-out>\n");
    }
    bh_strbuf_puts(b, "    </testcase>\n");
    bh_strbuf_free(&fig);
}

/* One <property> of the suite. */
static void property(bh_strbuf *b, const char *name, const char *value)
{
    bh_strbuf_puts(b, "      <property");
    attr(b, "name", name);
    attr(b, "value", value);
    bh_strbuf_puts(b, "/>\n");
}

/* See report.h: the JUnit XML of doc, appended to out. */
void bh_report_junit(const cJSON *doc, bh_strbuf *out)
{
    bh_result_view view;
    const bh_rv_run_info *run = &view.run;
    size_t count[4] = {0};
    char t[64];
    double dur;

    bh_result_view_load(doc, &view);
    dur = run->duration_s;
    for (size_t i = 0; i < view.n_cases; i++)
        count[classify(&view.cases[i])]++;
    snprintf(t, sizeof(t), "%.3f", isfinite(dur) && dur >= 0 ? dur : 0.0);
    bh_strbuf_puts(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites");
    attr(out, "name", "bhost");
    bh_strbuf_printf(out, " tests=\"%zu\" failures=\"%zu\" errors=\"%zu\" time=\"%s\">\n",
                     view.n_cases, count[FAILURE], count[ERROR], t);
    bh_strbuf_puts(out, "  <testsuite");
    attr(out, "name", bh_report_str_or(run->config_name, "bhost"));
    bh_strbuf_printf(out,
                     " tests=\"%zu\" failures=\"%zu\" errors=\"%zu\" skipped=\"%zu\" "
                     "time=\"%s\"",
                     view.n_cases, count[FAILURE], count[ERROR], count[SKIPPED], t);
    attr(out, "timestamp", bh_report_str_or(run->started_at, ""));
    attr(out, "hostname", bh_report_str_or(view.system.hostname, ""));
    bh_strbuf_puts(out, ">\n    <properties>\n");
    property(out, "config", bh_report_str_or(run->config_path, ""));
    property(out, "config_hash", bh_report_str_or(run->config_hash, ""));
    property(out, "bhost_version", bh_report_str_or(run->host_version, ""));
    property(out, "seed", bh_report_str_or(run->seed, ""));
    property(out, "complete", run->complete == 0 ? "false" : "true");
    bh_strbuf_puts(out, "    </properties>\n");
    for (size_t i = 0; i < view.n_cases; i++)
        testcase(out, &view.cases[i]);
    bh_strbuf_puts(out, "  </testsuite>\n</testsuites>\n");
    bh_result_view_free(&view);
}
