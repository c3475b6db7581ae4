// SPDX-License-Identifier: MIT
/* Text helpers shared by the report formats: escaping for HTML/XML, CSV
 * and Markdown, and the few number forms the formats print. */
#ifndef BH_REPORT_TEXT_H
#define BH_REPORT_TEXT_H

#include "bh_strbuf.h"

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

/* s, or dflt when s is NULL (a string the result view reads as absent). */
const char *bh_report_str_or(const char *s, const char *dflt);

#endif
