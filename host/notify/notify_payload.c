// SPDX-License-Identifier: MIT
/* The alert payload (see notify.h, bh_notify_payload). */
#define _GNU_SOURCE
#include "notify.h"

#include "bh_mem.h"
#include "bh_strbuf.h"
#include "units.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Regressions listed one block each; the rest are counted in one line
 * (Slack allows 50 blocks and 3000 characters per text). */
#define MAX_LISTED 20

static const cJSON *get(const cJSON *o, const char *key)
{
    return cJSON_GetObjectItemCaseSensitive(o, key);
}

static const char *str(const cJSON *o, const char *key)
{
    const cJSON *v = get(o, key);

    return cJSON_IsString(v) ? v->valuestring : NULL;
}

static double num(const cJSON *o, const char *key)
{
    const cJSON *v = get(o, key);

    return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

/* Copies member key of from into to (null when absent). */
static void copy(cJSON *to, const cJSON *from, const char *key, const char *as)
{
    const cJSON *v = get(from, key);

    cJSON_AddItemToObject(to, as ? as : key, v ? cJSON_Duplicate(v, 1) : cJSON_CreateNull());
}

/* The verdict object of a case: c.verdict in a result document, c itself
 * in a comparison document; NULL when it has none. */
static const cJSON *verdict_of(const cJSON *c)
{
    const cJSON *v = get(c, "verdict");

    if (cJSON_IsObject(v))
        return v;
    return cJSON_IsString(v) && cJSON_IsArray(get(c, "metrics")) ? c : NULL;
}

/* The machine-readable entries of the regressed (case, metric) pairs. */
static cJSON *regressions(const cJSON *doc)
{
    cJSON *out = cJSON_CreateArray();
    const cJSON *c;

    cJSON_ArrayForEach(c, get(doc, "cases")) {
        const cJSON *v = verdict_of(c);
        const cJSON *it;

        cJSON_ArrayForEach(it, get(v, "metrics")) {
            cJSON *r;

            if (!str(it, "verdict") || strcmp(str(it, "verdict"), "regressed") != 0)
                continue;
            r = cJSON_CreateObject();
            copy(r, c, "id", "case");
            copy(r, v, "baseline_id", "baseline_case");
            copy(r, it, "metric", NULL);
            copy(r, it, "unit", NULL);
            copy(r, it, "direction", NULL);
            copy(r, it, "severity", NULL);
            copy(r, it, "change", NULL);
            copy(r, it, "change_lo", NULL);
            copy(r, it, "change_hi", NULL);
            copy(r, it, "q", NULL);
            copy(r, get(it, "baseline"), "median", "baseline_median");
            copy(r, get(it, "candidate"), "median", "candidate_median");
            cJSON_AddItemToArray(out, r);
        }
    }
    return out;
}

/* "+12.3%" (or "?" when unknown) into buf. */
static void pct(double f, char *buf, size_t n)
{
    if (isfinite(f))
        snprintf(buf, n, "%+.1f%%", 100.0 * f);
    else
        snprintf(buf, n, "?");
}

/* A median in the regression's unit into buf. */
static void value(const cJSON *r, const char *key, char *buf, size_t n)
{
    double v = num(r, key);
    const char *unit = str(r, "unit");

    if (!isfinite(v))
        snprintf(buf, n, "?");
    else if (unit && strcmp(unit, "ns/iter") == 0)
        bh_fmt_time(v, buf, n);
    else
        snprintf(buf, n, "%.4g%s%s", v, unit && *unit ? " " : "", unit ? unit : "");
}

/* One regression as a Slack mrkdwn line, or as plain text. */
static void line(bh_strbuf *b, const cJSON *r, int plain)
{
    char est[32], lo[32], hi[32], base[32], cand[32];
    const char *metric = str(r, "metric");
    const char *sev = str(r, "severity");

    pct(num(r, "change"), est, sizeof(est));
    pct(num(r, "change_lo"), lo, sizeof(lo));
    pct(num(r, "change_hi"), hi, sizeof(hi));
    value(r, "baseline_median", base, sizeof(base));
    value(r, "candidate_median", cand, sizeof(cand));
    bh_strbuf_printf(
        b, plain ? "%s: %s %s %s [%s, %s]: %s -> %s" : "*%s* `%s` %s %s [%s, %s]: %s -> %s",
        sev ? sev : "regressed", str(r, "case") ? str(r, "case") : "?", metric ? metric : "time",
        est, lo, hi, base, cand);
}

/* A Slack block {"type": type, "text": {"type": ttype, "text": text}}. */
static cJSON *block(const char *type, const char *ttype, const char *text)
{
    cJSON *b = cJSON_CreateObject();
    cJSON *t;

    cJSON_AddStringToObject(b, "type", type);
    t = cJSON_AddObjectToObject(b, "text");
    cJSON_AddStringToObject(t, "type", ttype);
    cJSON_AddStringToObject(t, "text", text);
    return b;
}

/* The machine-readable part: what ran, against what, what regressed. */
static cJSON *machine(const cJSON *doc, const char *result, cJSON *regs)
{
    const cJSON *run = get(doc, "run");
    const cJSON *git = get(run, "git");
    const cJSON *cmp = get(doc, "comparison") ? get(doc, "comparison") : doc;
    cJSON *m = cJSON_CreateObject();
    cJSON *sev = cJSON_CreateObject();
    const cJSON *r;
    int crit = 0, warn = 0, minor = 0;

    cJSON_AddStringToObject(m, "schema", BH_NOTIFY_SCHEMA);
    copy(m, get(run, "config"), "name", "config");
    copy(m, get(doc, "system"), "hostname", "host");
    copy(m, git, "commit", NULL);
    copy(m, git, "branch", NULL);
    copy(m, run, "started_at", NULL);
    copy(m, cmp, "baseline", NULL);
    copy(m, cmp, "candidate", NULL);
    if (result)
        cJSON_AddStringToObject(m, "result", result);
    else
        cJSON_AddNullToObject(m, "result");
    cJSON_ArrayForEach(r, regs) {
        const char *s = str(r, "severity");

        crit += s && strcmp(s, "critical") == 0;
        warn += s && strcmp(s, "warning") == 0;
        minor += !s || strcmp(s, "minor") == 0;
    }
    cJSON_AddNumberToObject(sev, "critical", crit);
    cJSON_AddNumberToObject(sev, "warning", warn);
    cJSON_AddNumberToObject(sev, "minor", minor);
    cJSON_AddItemToObject(m, "severities", sev);
    cJSON_AddItemToObject(m, "regressions", regs);
    return m;
}

/* "bhost: 2 regressions in CONFIG on HOST (BRANCH@COMMIT)" into b. */
static void headline(bh_strbuf *b, const cJSON *m, size_t n)
{
    const char *config = str(m, "config"), *host = str(m, "host");
    const char *commit = str(m, "commit"), *branch = str(m, "branch");

    bh_strbuf_printf(b, "bhost: %zu regression%s", n, n == 1 ? "" : "s");
    if (config)
        bh_strbuf_printf(b, " in %s", config);
    if (host)
        bh_strbuf_printf(b, " on %s", host);
    if (commit)
        bh_strbuf_printf(b, " (%s%s%.12s)", branch ? branch : "", branch ? "@" : "", commit);
}

cJSON *bh_notify_payload(const cJSON *doc, const char *result, size_t *count)
{
    cJSON *regs = regressions(doc);
    size_t n = (size_t)cJSON_GetArraySize(regs);
    bh_strbuf head = BH_STRBUF_INIT, body = BH_STRBUF_INIT, ctx = BH_STRBUF_INIT;
    cJSON *p, *m, *blocks, *att;
    const cJSON *r;
    size_t i = 0;

    *count = n;
    if (n == 0) {
        cJSON_Delete(regs);
        return NULL;
    }
    m = machine(doc, result, regs);
    headline(&head, m, n);
    p = cJSON_CreateObject();
    cJSON_AddStringToObject(p, "text", head.data);
    blocks = cJSON_AddArrayToObject(p, "blocks");
    cJSON_AddItemToArray(blocks, block("header", "plain_text", head.data));
    if (str(m, "baseline"))
        bh_strbuf_printf(&ctx, "baseline: %s", str(m, "baseline"));
    if (result)
        bh_strbuf_printf(&ctx, "%sresult: %s", ctx.len ? "\n" : "", result);
    if (ctx.len)
        cJSON_AddItemToArray(blocks, block("section", "mrkdwn", ctx.data));
    cJSON_ArrayForEach(r, regs) {
        if (i++ == MAX_LISTED)
            break;
        body.len = 0;
        line(&body, r, 0);
        cJSON_AddItemToArray(blocks, block("section", "mrkdwn", body.data));
        bh_strbuf_printf(&ctx, "\n%s", body.data);
    }
    if (n > MAX_LISTED) {
        body.len = 0;
        bh_strbuf_printf(&body, "... and %zu more (see the \"bhost\" member)", n - MAX_LISTED);
        cJSON_AddItemToArray(blocks, block("section", "mrkdwn", body.data));
    }
    att = cJSON_CreateObject();
    cJSON_AddStringToObject(att, "color", "#d62728");
    cJSON_AddStringToObject(att, "fallback", head.data);
    cJSON_AddStringToObject(att, "text", ctx.data ? ctx.data : "");
    cJSON_AddItemToArray(cJSON_AddArrayToObject(p, "attachments"), att);
    cJSON_AddItemToObject(p, "bhost", m);
    bh_strbuf_free(&head);
    bh_strbuf_free(&body);
    bh_strbuf_free(&ctx);
    return p;
}

size_t bh_notify_n_critical(const cJSON *payload)
{
    double n = num(get(get(payload, "bhost"), "severities"), "critical");

    return isfinite(n) && n > 0 ? (size_t)n : 0;
}

char *bh_notify_text(const cJSON *doc, const char *result, size_t *count)
{
    cJSON *regs = regressions(doc);
    size_t n = (size_t)cJSON_GetArraySize(regs);
    bh_strbuf b = BH_STRBUF_INIT;
    cJSON *m;
    const cJSON *r;

    *count = n;
    if (n == 0) {
        cJSON_Delete(regs);
        return NULL;
    }
    m = machine(doc, result, regs);
    headline(&b, m, n);
    bh_strbuf_puts(&b, "\n\n");
    if (str(m, "baseline"))
        bh_strbuf_printf(&b, "baseline: %s\n", str(m, "baseline"));
    if (result)
        bh_strbuf_printf(&b, "result: %s\n", result);
    cJSON_ArrayForEach(r, regs) {
        bh_strbuf_puts(&b, "\n");
        line(&b, r, 1);
    }
    bh_strbuf_puts(&b, "\n");
    cJSON_Delete(m);
    return bh_strbuf_detach(&b);
}
