// SPDX-License-Identifier: MIT
/* The console table of bhost ab (ab_console.h). */
#include "ab_console.h"

#include "report_text.h"
#include "result_view.h"

#include <math.h>
#include <string.h>

#define RED    "\033[31m"
#define GREEN  "\033[32m"
#define YELLOW "\033[33m"
#define RESET  "\033[0m"

/* The color of a verdict ("regressed" with its severity). */
static const char *verdict_color(const char *verdict, const char *severity)
{
    if (strcmp(verdict, "regressed") == 0)
        return severity && strcmp(severity, "minor") == 0 ? YELLOW : RED;
    if (strcmp(verdict, "improved") == 0)
        return GREEN;
    if (strcmp(verdict, "inconclusive") == 0 || strcmp(verdict, "noisier") == 0)
        return YELLOW;
    return "";
}

/* The case called id among the elements of cases, or NULL. */
static const cJSON *find_case(const cJSON *cases, const char *id)
{
    const cJSON *c;

    cJSON_ArrayForEach(c, cases) {
        const cJSON *cid = cJSON_GetObjectItemCaseSensitive(c, "id");

        if (cJSON_IsString(cid) && strcmp(cid->valuestring, id) == 0)
            return c;
    }
    return NULL;
}

/* A side's figure: its median in unit, or its status when it did not end
 * ok. */
static void side_text(const bh_rv_case *c, double median, const char *unit, char *buf, size_t cap)
{
    if (!c)
        snprintf(buf, cap, "-");
    else if (!c->ok && !isfinite(median))
        snprintf(buf, cap, "%s", c->status);
    else
        bh_report_fmt_value(median, unit, buf, cap);
}

/* "+25.1% [+24.0%, +26.3%]", or "-" without a change. */
static void change_text(const bh_rv_change *ch, char *buf, size_t cap)
{
    char c[32], lo[32], hi[32];

    if (!ch || isnan(ch->change)) {
        snprintf(buf, cap, "-");
        return;
    }
    bh_report_fmt_change(ch->change, c, sizeof(c));
    bh_report_fmt_change(ch->lo, lo, sizeof(lo));
    bh_report_fmt_change(ch->hi, hi, sizeof(hi));
    snprintf(buf, cap, "%s [%s, %s]%s", c, lo, hi, ch->paired ? "" : " unpaired");
}

/* One row: label, the two sides, the change and the verdict. */
static void row(FILE *out, int w, const char *label, const bh_rv_case *a, const bh_rv_case *b,
                const bh_rv_change *ch, int color)
{
    const char *unit = ch ? ch->unit : "ns/iter";
    double ma = ch ? ch->base : NAN, mb = ch ? ch->cand : NAN;
    char sa[48], sb[48], chg[160], verdict[64];
    const char *v = ch && *ch->verdict ? ch->verdict : "";
    const char *col;

    if (!isfinite(ma) && a && a->summary.present && !strcmp(unit, "ns/iter"))
        ma = a->summary.median;
    if (!isfinite(mb) && b && b->summary.present && !strcmp(unit, "ns/iter"))
        mb = b->summary.median;
    side_text(a, ma, unit, sa, sizeof(sa));
    side_text(b, mb, unit, sb, sizeof(sb));
    change_text(ch, chg, sizeof(chg));
    if (!*v)
        v = "not compared";
    if (b && !b->ok)
        snprintf(verdict, sizeof(verdict), "B %s", b->status);
    else if (a && !a->ok)
        snprintf(verdict, sizeof(verdict), "A %s", a->status);
    else if (ch && ch->severity)
        snprintf(verdict, sizeof(verdict), "%s (%s)", v, ch->severity);
    else
        snprintf(verdict, sizeof(verdict), "%s", v);
    col = !color                           ? ""
          : (b && !b->ok) || (a && !a->ok) ? RED
                                           : verdict_color(v, ch ? ch->severity : NULL);
    fprintf(out, "%-*s  %12s  %12s  %-30s  %s%s%s\n", w, label, sa, sb, chg, col, verdict,
            *col ? RESET : "");
}

/* The rows of one case: time first, then its other compared metrics. */
static void case_rows(FILE *out, int w, const bh_rv_case *a, const bh_rv_case *b, int color)
{
    const bh_rv_change *time = NULL;

    for (size_t i = 0; i < b->n_changes; i++)
        if (strcmp(b->changes[i].metric, "time") == 0)
            time = &b->changes[i];
    row(out, w, b->id, a, b, time, color);
    for (size_t i = 0; i < b->n_changes; i++) {
        char label[128];

        const bh_rv_change *ch = &b->changes[i];

        /* memory and spread (unpaired) only when they found a change */
        if (ch == time ||
            (!ch->paired && strcmp(ch->verdict, "regressed") != 0 &&
             strcmp(ch->verdict, "improved") != 0 && strcmp(ch->verdict, "noisier") != 0))
            continue;
        snprintf(label, sizeof(label), "  %s", ch->metric);
        row(out, w, label, a, b, ch, color);
    }
}

/* "only in A: id, id" when the list is not empty. */
static void only_line(FILE *out, const char *side, const cJSON *ids)
{
    const cJSON *id;
    const char *sep = "";

    if (cJSON_GetArraySize(ids) == 0)
        return;
    fprintf(out, "only in %s (not compared):", side);
    cJSON_ArrayForEach(id, ids) {
        if (cJSON_IsString(id))
            fprintf(out, "%s %s", sep, id->valuestring);
        sep = ",";
    }
    fputc('\n', out);
}

/* The verdict of the time of case c (a case object), or "". */
static const char *time_verdict(const cJSON *c)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(c, "verdict");
    const cJSON *m;

    cJSON_ArrayForEach(m, cJSON_GetObjectItemCaseSensitive(v, "metrics")) {
        const char *name = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(m, "metric"));
        const char *kind = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(m, "verdict"));

        if (name && kind && strcmp(name, "time") == 0)
            return kind;
    }
    return "";
}

/* True when case c (a case object, may be NULL) did not end ok. */
static int not_ok(const cJSON *c)
{
    const char *st = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(c, "status"));

    return c && (!st || strcmp(st, "ok") != 0);
}

/* "time, decided on pairs: 1 regressed, 0 improved, ..." over the cases'
 * time verdicts; a case that did not end ok on a side counts as such. */
static void summary_line(FILE *out, const cJSON *cases, const cJSON *a_cases)
{
    static const char *const kinds[] = {"regressed",    "improved",     "no change",
                                        "within noise", "inconclusive", NULL};
    size_t n[6] = {0}, failed = 0;
    const cJSON *c;

    cJSON_ArrayForEach(c, cases) {
        const char *v = time_verdict(c);
        const cJSON *id = cJSON_GetObjectItemCaseSensitive(c, "id");
        size_t k = 0;

        if (not_ok(c) || (cJSON_IsString(id) && not_ok(find_case(a_cases, id->valuestring)))) {
            failed++;
            continue;
        }
        while (kinds[k] && strcmp(kinds[k], v) != 0)
            k++;
        n[k]++;
    }
    fprintf(out,
            "\ntime, decided on pairs: %zu regressed, %zu improved, %zu no change, %zu "
            "within noise, %zu inconclusive, %zu not compared; %zu not ok on a side\n",
            n[0], n[1], n[2], n[3], n[4], n[5], failed);
}

/* The id column's width: the longest id, at least 4, at most 60. */
static int id_width(const cJSON *cases)
{
    const cJSON *c;
    int w = 4;

    cJSON_ArrayForEach(c, cases) {
        const cJSON *id = cJSON_GetObjectItemCaseSensitive(c, "id");
        int l = cJSON_IsString(id) ? (int)strlen(id->valuestring) : 0;

        w = l > w ? l : w;
    }
    return w > 60 ? 60 : w;
}

/* See ab_console.h. */
void bh_report_console_ab(FILE *out, const cJSON *doc, int color)
{
    const cJSON *ab = cJSON_GetObjectItemCaseSensitive(doc, "ab");
    const cJSON *sa = cJSON_GetObjectItemCaseSensitive(ab, "a");
    const cJSON *sb = cJSON_GetObjectItemCaseSensitive(ab, "b");
    const cJSON *a_cases = cJSON_GetObjectItemCaseSensitive(sa, "cases");
    const cJSON *cases = cJSON_GetObjectItemCaseSensitive(doc, "cases");
    const cJSON *c;
    int w = id_width(cases);

    fprintf(out, "A: %s\nB: %s\n",
            cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(sa, "plugins_dir")),
            cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(sb, "plugins_dir")));
    fprintf(out, "%zu case%s run in pairs of A and B runs, interleaved ABBA in one invocation\n\n",
            (size_t)cJSON_GetArraySize(cases), cJSON_GetArraySize(cases) == 1 ? "" : "s");
    fprintf(out, "%-*s  %12s  %12s  %-30s  %s\n", w, "case", "A median", "B median",
            "paired change [interval]", "verdict");
    cJSON_ArrayForEach(c, cases) {
        bh_rv_case vb, va;
        int has_a;

        if (!bh_rv_case_read(c, &vb))
            continue;
        has_a = bh_rv_case_read(find_case(a_cases, vb.id), &va);
        case_rows(out, w, has_a ? &va : NULL, &vb, color);
        if (has_a)
            bh_rv_case_free(&va);
        bh_rv_case_free(&vb);
    }
    only_line(out, "A", cJSON_GetObjectItemCaseSensitive(ab, "only_a"));
    only_line(out, "B", cJSON_GetObjectItemCaseSensitive(ab, "only_b"));
    summary_line(out, cases, a_cases);
}
