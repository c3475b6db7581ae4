// SPDX-License-Identifier: MIT
/* What every report format says of one case, so that the console, the
 * HTML and the Markdown report print the same figures and words: its
 * median (the median of the run medians, the unit of the statistics) with
 * the 95% interval of that median, whether its runs are noisy, and its
 * verdict in words (docs/statistics.md sections 2 and 11.6; README.md,
 * "Reading the results"). Pure: no I/O, no globals. */
#ifndef BH_REPORT_CASE_H
#define BH_REPORT_CASE_H

#include "result_view.h"

#include <stddef.h>

/* The level of the interval of a case's median in every format: the
 * comparisons' default confidence, so one level reads everywhere. */
#define BH_REPORT_CI_LEVEL 0.95

/* A case's median and its interval, as numbers and as text. */
typedef struct bh_report_median {
    double med;        /* ns per iteration; NAN without a summary */
    double lo, hi;     /* the BH_REPORT_CI_LEVEL interval, NAN when unbounded */
    size_t runs;       /* run medians it came from (0: the all-sample median) */
    char med_text[32]; /* "112 ns", "-" without a median */
    char ci_text[80];  /* "[96.0 ns, 104 ns]", "-" without an interval */
} bh_report_median;

/* The median of c: the median of its run medians with their
 * BH_REPORT_CI_LEVEL order-statistic interval (none under 6 runs); the
 * summary's all-sample median, without an interval, when no run has a
 * median; NAN and "-" when c has no summary either. */
void bh_report_case_median(const bh_rv_case *c, bh_report_median *m);

/* Whether c's runs are noisy: its summary carries the high_cv flag (the
 * CV of the run medians above max_cv). */
int bh_report_case_noisy(const bh_rv_case *c);

/* The level a lone test of view's comparison had to reach (fdr / family),
 * NAN when the document does not say. */
double bh_report_alpha(const bh_result_view *view);

/* The verdict of change ch in words into buf (bh_report_verdict_words):
 * its reading with the runs per side the test needs at level alpha (NAN:
 * not said), and the change itself after a plain verdict when
 * with_change. */
void bh_report_change_words(const bh_rv_change *ch, double alpha, int with_change, char *buf,
                            size_t cap);

/* The headline verdict of c in words into buf, as the console's verdict
 * column prints it ("regressed (critical) +12.3%", "too few runs to judge
 * (3 a side, 7 needed)", "no change detected (MDE 41.2%)", "new",
 * "noisier (spread x3.25)"; a memory figure names itself: "regressed
 * (critical) +25.0% (peak_rss_kb)"); "-" without a verdict. */
void bh_report_case_verdict_words(const bh_rv_case *c, double alpha, char *buf, size_t cap);

/* The short name of c's headline verdict that a reader filters by: "too
 * few runs to judge" or "no change detected" for those readings of
 * "inconclusive", else the verdict word; NULL without a verdict (static
 * or borrowed). */
const char *bh_report_case_verdict_label(const bh_rv_case *c);

/* The reason of c's headline verdict, NULL when it has none (borrowed). */
const char *bh_report_case_reason(const bh_rv_case *c);

#endif
