// SPDX-License-Identifier: MIT
/* Text helpers shared by the report formats: escaping for HTML/XML, CSV
 * and Markdown, and the few number forms the formats print. */
#ifndef BH_REPORT_TEXT_H
#define BH_REPORT_TEXT_H

#include "bh_strbuf.h"
#include "result_view.h"

#include <cjson/cJSON.h>

#include <stddef.h>

/* Appends s with & < > " ' escaped as entities. Bytes that XML 1.0 does
 * not allow (controls other than tab, newline and carriage return) and
 * invalid UTF-8 become U+FFFD, so the output is always well-formed. s NULL
 * appends nothing. */
void bh_report_xml_escape(bh_strbuf *b, const char *s);

/* The same for an attribute value: tab, LF and CR also become character
 * references, so they survive attribute-value normalization. */
void bh_report_xml_attr(bh_strbuf *b, const char *s);

/* Appends one CSV field (RFC 4180): quoted when it holds a comma, a quote,
 * a CR or an LF, quotes doubled. */
void bh_report_csv_field(bh_strbuf *b, const char *s);

/* Appends s for a Markdown table cell: | escaped, newlines as spaces, and
 * & < > as entities (GitHub renders HTML in Markdown). */
void bh_report_md_escape(bh_strbuf *b, const char *s);

/* The shortest of "%.15g", "%.16g", "%.17g" that reads back (strtod) as
 * exactly v: a double printed without loss, as every JSON bhost writes
 * numbers (bh_json_format_double). v must be finite. */
void bh_report_fmt_double(double v, char buf[32]);

/* Appends v as bh_report_fmt_double writes it; "" for NAN and
 * +-INFINITY. */
void bh_report_num17(bh_strbuf *b, double v);

/* Adds number v to a JSON object as raw text from bh_report_fmt_double
 * (cJSON's own printing may drop the last bit); nothing when v is not
 * finite. */
void bh_report_json_num(cJSON *o, const char *key, double v);

/* "+3.4%" for 0.034 (one decimal), "+inf%" style for infinities and "-"
 * for NAN. */
void bh_report_fmt_change(double f, char *buf, size_t cap);

/* A p or q value: "0.0123", "1.2e-05", "-" for NAN. */
void bh_report_fmt_p(double p, char *buf, size_t cap);

/* A value in a unit, scaled: ns/iter as a time ("1.64 us"), "B/s" etc. as
 * rates with SI prefixes, anything else as "%.4g unit". "-" for NAN. */
void bh_report_fmt_value(double v, const char *unit, char *buf, size_t cap);

/* The median of the run medians of c (ns per iteration: the figure the
 * comparisons use, docs/statistics.md sections 1 and 2) into *med, and its
 * distribution-free interval at level from the order statistics of the run
 * medians (section 10.5) into *lo, *hi: -INFINITY / INFINITY where too few
 * runs reach the level (at 95%, fewer than 6; at 99%, fewer than 8). All
 * NAN without a run median. Returns the number of run medians. */
size_t bh_report_run_median(const bh_rv_case *c, double level, double *med, double *lo,
                            double *hi);

/* How a verdict reads in words (docs/statistics.md section 11.6): an
 * "inconclusive" verdict whose reason says its test could never reach the
 * level (too few runs to judge) or that its interval rules out a change of
 * the minimum detectable effect (no change detected); every other verdict
 * reads as its own word. */
typedef enum bh_report_reading {
    BH_READING_VERDICT = 0,
    BH_READING_TOO_FEW,
    BH_READING_UNDETECTED,
} bh_report_reading;

/* The reading of a verdict word with its reason (NULLs allowed). Pure. */
bh_report_reading bh_report_verdict_reading(const char *verdict, const char *reason);

/* What bh_report_verdict_words needs of one (case, metric) verdict. */
typedef struct bh_report_verdict_in {
    const char *verdict;  /* "regressed", "inconclusive", ... */
    const char *severity; /* NULL or "" without one */
    const char *reason;   /* NULL when absent */
    double change;        /* the metric's own change, NAN when none */
    double mde;           /* minimum detectable change, NAN when none */
    double n_base, n_cand; /* values per side (pairs) */
    double need;          /* runs per side at which the test can reach its
                             level (bh_regress_runs_to_reach), NAN unknown */
    int paired;
} bh_report_verdict_in;

/* The verdict in a few words into buf: "regressed (critical) +12.3%",
 * "improved -8.1%", "inconclusive +2.0%", "no change detected (MDE
 * 41.2%)", "too few runs to judge (3 a side, 7 needed)" (without the
 * count when need is unknown). */
void bh_report_verdict_words(const bh_report_verdict_in *v, char *buf, size_t cap);

/* The name of the ceiling a case's roofline fraction is held against:
 * the memory ceiling of a memory-bound case, the compute ceiling of a
 * compute-bound one, else whichever it has; NULL when none (borrowed). */
const char *bh_report_roof_ceiling(const bh_rv_roof *r);

/* s, or dflt when s is NULL (a string the result view reads as absent). */
const char *bh_report_str_or(const char *s, const char *dflt);

#endif
