// SPDX-License-Identifier: MIT
/* Escaping and number forms for the report formats (see report_text.h). */
#include "report_text.h"

#include "bh_json_write.h"
#include "descriptive.h"
#include "quantile.h"
#include "units.h"
#include "verdict.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Length of the valid UTF-8 sequence at s (1 to 4), or 0 when invalid. */
static size_t utf8_len(const unsigned char *s)
{
    size_t n;
    unsigned cp;

    if (s[0] < 0x80)
        return 1;
    if (s[0] >= 0xc2 && s[0] <= 0xdf)
        n = 2, cp = s[0] & 0x1fu;
    else if (s[0] >= 0xe0 && s[0] <= 0xef)
        n = 3, cp = s[0] & 0x0fu;
    else if (s[0] >= 0xf0 && s[0] <= 0xf4)
        n = 4, cp = s[0] & 0x07u;
    else
        return 0;
    for (size_t i = 1; i < n; i++) {
        if ((s[i] & 0xc0) != 0x80)
            return 0;
        cp = (cp << 6) | (s[i] & 0x3fu);
    }
    if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
        (cp >= 0xd800 && cp <= 0xdfff) || cp == 0xfffe || cp == 0xffff)
        return 0;
    return n;
}

/* XML escaping; attr also writes tab, LF and CR as character references,
 * which attribute-value normalization would otherwise turn into spaces. */
static void xml_escape(bh_strbuf *b, const char *s, int attr)
{
    const unsigned char *p = (const unsigned char *)s;

    if (!s)
        return;
    while (*p) {
        size_t run = 0;
        size_t n;

        /* copy plain bytes in one go */
        while (p[run] >= 0x20 && p[run] < 0x80 && !strchr("&<>\"'", p[run]))
            run++;
        if (run) {
            bh_strbuf_append(b, (const char *)p, run);
            p += run;
            continue;
        }
        switch (*p) {
        case '&':
            bh_strbuf_puts(b, "&amp;");
            p++;
            continue;
        case '<':
            bh_strbuf_puts(b, "&lt;");
            p++;
            continue;
        case '>':
            bh_strbuf_puts(b, "&gt;");
            p++;
            continue;
        case '"':
            bh_strbuf_puts(b, "&quot;");
            p++;
            continue;
        case '\'':
            bh_strbuf_puts(b, "&#39;");
            p++;
            continue;
        case '\t':
        case '\n':
        case '\r':
            if (attr)
                bh_strbuf_printf(b, "&#%d;", *p);
            else
                bh_strbuf_append(b, (const char *)p, 1);
            p++;
            continue;
        default:
            break;
        }
        n = *p < 0x20 ? 0 : utf8_len(p);
        if (n == 0) {
            bh_strbuf_puts(b, "\xef\xbf\xbd"); /* U+FFFD */
            p++;
        } else {
            bh_strbuf_append(b, (const char *)p, n);
            p += n;
        }
    }
}

/* See report_text.h. */
void bh_report_xml_escape(bh_strbuf *b, const char *s)
{
    xml_escape(b, s, 0);
}

/* See report_text.h. */
void bh_report_xml_attr(bh_strbuf *b, const char *s)
{
    xml_escape(b, s, 1);
}

/* See report_text.h. */
void bh_report_csv_field(bh_strbuf *b, const char *s)
{
    if (!s)
        return;
    if (!strpbrk(s, ",\"\r\n")) {
        bh_strbuf_puts(b, s);
        return;
    }
    bh_strbuf_append(b, "\"", 1);
    for (const char *p = s; *p; p++) {
        if (*p == '"')
            bh_strbuf_append(b, "\"", 1);
        bh_strbuf_append(b, p, 1);
    }
    bh_strbuf_append(b, "\"", 1);
}

/* See report_text.h. */
void bh_report_md_escape(bh_strbuf *b, const char *s)
{
    if (!s)
        return;
    for (const char *p = s; *p; p++) {
        switch (*p) {
        case '|':
            bh_strbuf_puts(b, "\\|");
            break;
        case '\n':
        case '\r':
            bh_strbuf_append(b, " ", 1);
            break;
        case '&':
            bh_strbuf_puts(b, "&amp;");
            break;
        case '<':
            bh_strbuf_puts(b, "&lt;");
            break;
        case '>':
            bh_strbuf_puts(b, "&gt;");
            break;
        case '`':
        case '*':
        case '_':
        case '\\':
            bh_strbuf_append(b, "\\", 1);
            bh_strbuf_append(b, p, 1);
            break;
        default:
            bh_strbuf_append(b, p, 1);
        }
    }
}

/* See report_text.h. */
void bh_report_fmt_double(double v, char buf[32])
{
    bh_json_format_double(v, buf);
}

/* See report_text.h. */
void bh_report_num17(bh_strbuf *b, double v)
{
    char buf[32];

    if (isfinite(v)) {
        bh_report_fmt_double(v, buf);
        bh_strbuf_puts(b, buf);
    }
}

/* See report_text.h. */
void bh_report_json_num(cJSON *o, const char *key, double v)
{
    char buf[32];

    if (!isfinite(v))
        return;
    bh_report_fmt_double(v, buf);
    cJSON_AddRawToObject(o, key, buf);
}

/* See report_text.h. */
void bh_report_fmt_change(double f, char *buf, size_t cap)
{
    if (isnan(f))
        snprintf(buf, cap, "-");
    else if (isinf(f))
        snprintf(buf, cap, "%sinf%%", f < 0 ? "-" : "+");
    else
        snprintf(buf, cap, "%+.1f%%", f * 100.0);
}

/* See report_text.h. */
void bh_report_fmt_p(double p, char *buf, size_t cap)
{
    if (isnan(p))
        snprintf(buf, cap, "-");
    else if (p < 1e-4)
        snprintf(buf, cap, "%.1e", p);
    else
        snprintf(buf, cap, "%.4f", p);
}

/* See report_text.h. */
void bh_report_fmt_value(double v, const char *unit, char *buf, size_t cap)
{
    size_t ul = unit ? strlen(unit) : 0;

    if (isnan(v))
        snprintf(buf, cap, "-");
    else if (!unit || strcmp(unit, "ns/iter") == 0 || strcmp(unit, "ns") == 0)
        bh_fmt_time(v, buf, cap);
    else if (ul > 2 && strcmp(unit + ul - 2, "/s") == 0)
        bh_fmt_rate(v, unit, buf, cap);
    else
        snprintf(buf, cap, "%.4g%s%s", v, ul ? " " : "", unit);
}

/* See report_text.h. */
const char *bh_report_str_or(const char *s, const char *dflt)
{
    return s ? s : dflt;
}

/* See report_text.h. */
size_t bh_report_run_median(const bh_rv_case *c, double level, double *med, double *lo,
                            double *hi)
{
    double *v = NULL;
    size_t n = 0;

    *med = *lo = *hi = NAN;
    bh_rv_case_run_medians(c, &v, &n);
    if (n > 0) {
        bh_stats_sort(v, n);
        *med = bh_stats_median_sorted(v, n);
        if (bh_stats_quantile_ci_sorted(v, n, 0.5, level, lo, hi, NULL) != 0)
            *lo = *hi = NAN;
    }
    free(v);
    return n;
}

/* See report_text.h. */
bh_report_reading bh_report_verdict_reading(const char *verdict, const char *reason)
{
    if (!verdict || strcmp(verdict, "inconclusive") != 0 || !reason)
        return BH_READING_VERDICT;
    if (strcmp(reason, BH_REGRESS_REASON_TOO_FEW) == 0)
        return BH_READING_TOO_FEW;
    if (strcmp(reason, BH_REGRESS_REASON_UNDETECTED) == 0)
        return BH_READING_UNDETECTED;
    return BH_READING_VERDICT;
}

/* See report_text.h. */
void bh_report_verdict_words(const bh_report_verdict_in *v, char *buf, size_t cap)
{
    char ch[32] = "", mde[32];
    const char *side = v->paired ? "pairs" : "a side";

    switch (bh_report_verdict_reading(v->verdict, v->reason)) {
    case BH_READING_TOO_FEW:
        if (v->need > 0 && isfinite(v->need))
            snprintf(buf, cap, "too few runs to judge (%.0f %s, %.0f needed)",
                     fmin(v->n_base, v->n_cand), side, v->need);
        else
            snprintf(buf, cap, "too few runs to judge (%.0f %s)", fmin(v->n_base, v->n_cand),
                     side);
        return;
    case BH_READING_UNDETECTED:
        snprintf(mde, sizeof(mde), "%.1f%%", 100.0 * v->mde);
        snprintf(buf, cap, "no change detected (MDE %s)", mde);
        return;
    default:
        break;
    }
    if (isfinite(v->change) && v->verdict && strcmp(v->verdict, "noisier") == 0) {
        /* a spread item's change is the ratio of spreads minus 1 */
        snprintf(buf, cap, "noisier (spread x%.2f)", v->change + 1.0);
        return;
    }
    if (isfinite(v->change)) {
        ch[0] = ' ';
        bh_report_fmt_change(v->change, ch + 1, sizeof(ch) - 1);
    }
    if (v->severity && *v->severity)
        snprintf(buf, cap, "%s (%s)%s", v->verdict, v->severity, ch);
    else
        snprintf(buf, cap, "%s%s", v->verdict ? v->verdict : "-", ch);
}

/* See report_text.h. */
const char *bh_report_roof_ceiling(const bh_rv_roof *r)
{
    if (strcmp(r->bound, "memory") == 0 && r->memory_ceiling)
        return r->memory_ceiling;
    if (strcmp(r->bound, "compute") == 0 && r->compute_ceiling)
        return r->compute_ceiling;
    return r->memory_ceiling ? r->memory_ceiling : r->compute_ceiling;
}
