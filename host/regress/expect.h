// SPDX-License-Identifier: MIT
/* Budgets (expect:): absolute targets a case must meet, checked on the
 * result document without a baseline. A budget is decided on the median
 * of the case's run medians (the unit of the statistics, docs/statistics.md
 * section 2) and its 95% order-statistic interval: met when the whole
 * interval is on the right side of the target, missed when the whole
 * interval is on the wrong side, at risk when it straddles the target;
 * under 6 runs there is no interval and the median alone decides (met or
 * missed). A missed budget, and a budget on a metric the case does not
 * report, fail the gate like a critical regression; at risk only warns. */
#ifndef BH_EXPECT_H
#define BH_EXPECT_H

#include "config.h"

#include <cjson/cJSON.h>
#include <stddef.h>

/* The outcome of one budget. */
typedef enum bh_budget_status {
    BH_BUDGET_MET = 0,
    BH_BUDGET_AT_RISK = 1,
    BH_BUDGET_MISSED = 2,
    BH_BUDGET_UNKNOWN = 3, /* the case reports no such metric */
    BH_BUDGET_NO_VALUE = 4 /* the case has no ok run to judge */
} bh_budget_status;

/* The level of the interval a budget is decided on. */
#define BH_EXPECT_CI_LEVEL 0.95

/* Decides a budget "value OP target" (op a bh_expect_op) from the value
 * and its interval [lo, hi] (either bound not finite: no interval, the
 * value alone decides). Pure. Returns MET, AT_RISK or MISSED; MISSED
 * for a value that is not finite. */
bh_budget_status bh_expect_decide(int op, double target, double value, double lo, double hi);

/* The status as written in the result: "met", "at risk", "missed",
 * "unknown metric", "no value" (static). */
const char *bh_expect_status_name(bh_budget_status st);

/* The budgets of a case's settings as written in case.settings.expect:
 * [{key, name, op, target, text}] (new array; NULL when n == 0). */
cJSON *bh_expect_spec_json(const bh_expect *x, size_t n);

/* Checks the budgets of every case of doc (case.settings.expect) and
 * writes case.expect: [{key, name, op, target, text, unit, value, ci:
 * [lo, hi] or null, runs, status, reason}], replacing one already there. A
 * case that ran under a profiler (case.profile) is not checked: no value.
 * Returns the number of budgets that fail the gate (missed or unknown
 * metric) over the document. */
size_t bh_expect_apply(cJSON *doc);

/* The number of budgets of doc's cases (their case.expect) that fail the
 * gate: missed, or on an unknown metric. Reads only. */
size_t bh_expect_n_failed(const cJSON *doc);

#endif
