// SPDX-License-Identifier: MIT
/* Budgets (expect:, host/regress/expect.h) in every report format: one
 * line per checked budget, in the same words everywhere. Pure text: the
 * console printer is the only function that writes. */
#ifndef BH_REPORT_EXPECT_H
#define BH_REPORT_EXPECT_H

#include "bh_strbuf.h"

#include <cjson/cJSON.h>
#include <stddef.h>
#include <stdio.h>

/* One checked budget x (an element of case.expect) in words into buf:
 * "time < 1ns: missed, median 1.20 us [1.10 us, 1.30 us] (10 runs)", with
 * the reason after it when there is one ("; the case reports no metric
 * 'gflops' (...)"). */
void bh_report_expect_text(const cJSON *x, char *buf, size_t cap);

/* True when x (an element of case.expect) fails the gate: missed or on an
 * unknown metric. */
int bh_report_expect_failed(const cJSON *x);

/* The number of budgets of case c (a cases[] object) that fail the gate;
 * the first one's text (bh_report_expect_text) into buf when there is one
 * ("" otherwise). */
size_t bh_report_expect_case_failed(const cJSON *c, char *buf, size_t cap);

/* The "### Budgets" section of the Markdown report: a table of every
 * budget (case, budget, status, median, 95% CI, why) and a legend;
 * nothing when no case has a budget. */
void bh_report_markdown_expect(const cJSON *doc, bh_strbuf *out);

/* The "Budgets" section of the HTML report (id "budgets"): the same
 * table, the status cell colored as the summary's; nothing when no case
 * has a budget. */
void bh_report_html_expect(bh_strbuf *out, const cJSON *doc);

/* Prints the budgets of doc's cases to out: a "budgets:" heading, then one
 * line per budget "  STATUS  CASE  TEXT", and a count line ("2 budgets: 1
 * met, 1 missed; a missed budget fails the gate (--fail-on-regression)").
 * failing_only: only the budgets that fail the gate, and no heading when
 * there are none. Nothing when no case has a budget. */
void bh_report_console_expect(FILE *out, const cJSON *doc, int color, int failing_only);

#endif
