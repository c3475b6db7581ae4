// SPDX-License-Identifier: MIT
/* A result document turned into the rows the store inserts (see
 * store_internal.h, bh_store_prep_doc): runs, cases, summaries, raw
 * samples, verdicts. Pure and thread-safe. */
#define _GNU_SOURCE
#include "store_internal.h"

#include "bh_clock.h"
#include "bh_mem.h"
#include "bh_sha256.h"
#include "descriptive.h"
#include "result_read.h"
#include "result_view.h"
#include "store_json.h"
#include "store_scan.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *const bh_store_summary_nums[BH_STORE_N_SUMMARY_NUMS] = {
    "min",          "max",          "mean",          "sd",
    "cv",           "median",       "mad",           "q1",
    "q3",           "p5",           "p95",           "p99",
    "median_ci_lo", "median_ci_hi", "median_ci_level", "mean_boot_lo",
    "mean_boot_hi", "median_boot_lo", "median_boot_hi", "within_run_cv",
    "between_run_cv", "run_median_median", "mde"};

static const cJSON *get(const cJSON *o, const char *key)
{
    return cJSON_GetObjectItemCaseSensitive(o, key);
}

/* The string member key of o, or NULL. */
static const char *str(const cJSON *o, const char *key)
{
    const cJSON *v = get(o, key);

    return cJSON_IsString(v) ? v->valuestring : NULL;
}

/* ---- values ----------------------------------------------------------- */

/* Starts a row of statement slot. */
static void row(bh_store_prep *p, int slot)
{
    bh_store_row r = {slot, p->n_vals, 0};

    BH_PUSH(p->rows, p->n_rows, p->cap_rows, r);
}

static void put(bh_store_prep *p, bh_store_val v)
{
    BH_PUSH(p->vals, p->n_vals, p->cap_vals, v);
    p->rows[p->n_rows - 1].n++;
}

static void v_null(bh_store_prep *p)
{
    put(p, (bh_store_val){BH_SV_NULL, 0, 0.0, 0});
}

static void v_ref(bh_store_prep *p, int type)
{
    put(p, (bh_store_val){type, 0, 0.0, 0});
}

static void v_i64(bh_store_prep *p, int64_t i)
{
    put(p, (bh_store_val){BH_SV_I64, i, 0.0, 0});
}

/* A double, NULL when not finite. */
static void v_num(bh_store_prep *p, double d)
{
    if (isfinite(d))
        put(p, (bh_store_val){BH_SV_NUM, 0, d, 0});
    else
        v_null(p);
}

/* Text of len bytes, copied into the prep's text. */
static void v_textn(bh_store_prep *p, int type, const char *s, size_t len)
{
    size_t off = p->text.len;

    bh_strbuf_append(&p->text, s, len);
    bh_strbuf_append(&p->text, "", 1); /* the NUL between strings */
    put(p, (bh_store_val){type, 0, 0.0, off});
}

/* Text, NULL when s is NULL. */
static void v_str(bh_store_prep *p, const char *s)
{
    if (s)
        v_textn(p, BH_SV_TEXT, s, strlen(s));
    else
        v_null(p);
}

/* The JSON text of o without the keys in skip; NULL when o is absent or
 * null. Written straight into the prep's text. */
static void v_json(bh_store_prep *p, const cJSON *o, const char *const *skip)
{
    size_t off = p->text.len;

    if (!o || cJSON_IsNull(o)) {
        v_null(p);
        return;
    }
    bh_store_json_append_except(&p->text, o, skip);
    bh_strbuf_append(&p->text, "", 1);
    put(p, (bh_store_val){BH_SV_TEXT, 0, 0.0, off});
}

/* v (may be NULL): a number as a double, a string as text, else NULL. */
static void v_value(bh_store_prep *p, const cJSON *v)
{
    if (cJSON_IsNumber(v))
        v_num(p, v->valuedouble);
    else
        v_str(p, cJSON_IsString(v) ? v->valuestring : NULL);
}

/* Member key of o as v_value takes it. */
static void v_member(bh_store_prep *p, const cJSON *o, const char *key)
{
    v_value(p, get(o, key));
}

/* Member key of o as an integer: a finite number rounded, else NULL. */
static void v_int(bh_store_prep *p, const cJSON *o, const char *key)
{
    const cJSON *v = get(o, key);

    if (cJSON_IsNumber(v) && isfinite(v->valuedouble) && fabs(v->valuedouble) < 9.2e18)
        v_i64(p, (int64_t)llround(v->valuedouble));
    else
        v_null(p);
}

/* A JSON boolean as 1/0, else NULL. */
static void v_bool(bh_store_prep *p, const cJSON *b)
{
    if (cJSON_IsBool(b))
        v_i64(p, cJSON_IsTrue(b));
    else
        v_null(p);
}

/* ---- rows ------------------------------------------------------------- */

/* A tri-state flag of the view (1, 0, -1 unknown) as 1/0, else NULL. */
static void v_flag(bh_store_prep *p, int flag)
{
    if (flag >= 0)
        v_i64(p, flag);
    else
        v_null(p);
}

/* The runs row and the run_docs row (see store_put.c), from the top of
 * the document's view. */
static void run_row(bh_store_prep *p, const bh_result_view *v, const char *source,
                    size_t run_off, size_t sys_off)
{
    const bh_rv_run_info *run = &v->run;
    const cJSON *seed = run->json ? cJSON_GetObjectItemCaseSensitive(run->json, "seed") : NULL;
    char now[32];

    bh_utc_iso8601(now);
    row(p, BH_STMT_RUN_INSERT);
    v_str(p, p->key);
    v_str(p, run->config_name);
    v_str(p, run->config_path);
    v_str(p, run->config_hash);
    v_str(p, v->system.fingerprint_hash);
    v_str(p, run->git.commit);
    v_str(p, run->git.branch);
    v_flag(p, run->git.dirty);
    v_str(p, v->system.hostname);
    v_str(p, run->started_at);
    v_str(p, run->finished_at);
    v_num(p, run->duration_s);
    /* a seed that is not a string is kept as the JSON it is */
    if (cJSON_IsNumber(seed) || cJSON_IsBool(seed) || cJSON_IsObject(seed) || cJSON_IsArray(seed))
        v_json(p, seed, NULL);
    else
        v_str(p, run->seed);
    v_i64(p, run->complete != 0);
    v_str(p, run->host_version);
    v_i64(p, (int64_t)v->cases_total);
    v_str(p, v->comparison.baseline);
    v_str(p, source);
    v_str(p, now);
    /* run_json and system_json: the texts the key was computed from */
    row(p, BH_STMT_DOCS_INSERT);
    v_ref(p, BH_SV_RUN);
    put(p, (bh_store_val){BH_SV_TEXT, 0, 0.0, run_off});
    put(p, (bh_store_val){BH_SV_TEXT, 0, 0.0, sys_off});
    v_json(p, v->comparison.json, NULL);
}

/* The members of sum named in bh_store_summary_nums, in its order (NULL
 * where absent; of equal names the first, as get() finds it). Members
 * come in that order in documents: each name is looked for from where the
 * last one was found. */
static void summary_nums(const cJSON *sum, const cJSON *out[BH_STORE_N_SUMMARY_NUMS])
{
    size_t next = 0;

    memset(out, 0, BH_STORE_N_SUMMARY_NUMS * sizeof(*out));
    for (const cJSON *m = sum->child; m; m = m->next) {
        for (size_t t = 0; m->string && t < BH_STORE_N_SUMMARY_NUMS; t++) {
            size_t k = (next + t) % BH_STORE_N_SUMMARY_NUMS;

            if (strcmp(m->string, bh_store_summary_nums[k]) == 0) {
                if (!out[k])
                    out[k] = m;
                next = k + 1;
                break;
            }
        }
    }
}

/* The summaries row of the case row just before it. */
static void summary_row(bh_store_prep *p, const cJSON *sum)
{
    const char *skip[BH_STORE_N_SUMMARY_NUMS + 5] = {"unit", "n", "runs", "flags"};
    const cJSON *nums[BH_STORE_N_SUMMARY_NUMS];
    size_t off;
    const cJSON *f;

    for (size_t i = 0; i < BH_STORE_N_SUMMARY_NUMS; i++)
        skip[4 + i] = bh_store_summary_nums[i];
    summary_nums(sum, nums);
    row(p, BH_STMT_SUMMARY_INSERT);
    v_ref(p, BH_SV_CASE);
    v_str(p, str(sum, "unit"));
    v_int(p, sum, "n");
    v_int(p, sum, "runs");
    for (size_t i = 0; i < BH_STORE_N_SUMMARY_NUMS; i++)
        v_value(p, nums[i]);
    if (cJSON_IsArray(get(sum, "flags"))) {
        off = p->text.len;
        cJSON_ArrayForEach(f, get(sum, "flags")) {
            if (!cJSON_IsString(f))
                continue;
            if (p->text.len > off)
                bh_strbuf_append(&p->text, ",", 1);
            bh_strbuf_puts(&p->text, f->valuestring);
        }
        bh_strbuf_append(&p->text, "", 1);
        put(p, (bh_store_val){BH_SV_TEXT, 0, 0.0, off});
    } else {
        v_null(p);
    }
    v_json(p, sum, skip);
}

/* The samples row of the case row just before it: its runs with their raw
 * samples, as they are in the document (as scan kept them, when it did). */
static void samples_row(bh_store_prep *p, const cJSON *runs, const bh_store_scan *scan,
                        size_t *cursor)
{
    const char *kept;
    size_t len = 0;
    const cJSON *r;
    int64_t n = 0;

    cJSON_ArrayForEach(r, runs)
        n += cJSON_GetArraySize(get(r, "samples"));
    row(p, BH_STMT_SAMPLES_INSERT);
    v_ref(p, BH_SV_CASE);
    v_i64(p, cJSON_GetArraySize(runs));
    v_i64(p, n);
    kept = bh_store_scan_runs_text(scan, runs, cursor, &len);
    if (kept)
        v_textn(p, BH_SV_TEXT, kept, len);
    else
        v_json(p, runs, NULL);
}

/* One verdicts row per metric of the case row just before them. */
static void verdict_rows(bh_store_prep *p, const cJSON *v)
{
    const cJSON *it;
    int64_t ord = 0;

    cJSON_ArrayForEach(it, get(v, "metrics")) {
        const cJSON *conf = get(it, "confirmation");

        if (!str(it, "metric") || !str(it, "verdict"))
            continue;
        row(p, BH_STMT_VERDICT_INSERT);
        v_ref(p, BH_SV_CASE);
        v_i64(p, ord++);
        v_str(p, str(it, "metric"));
        v_str(p, str(it, "verdict"));
        v_str(p, str(it, "severity"));
        v_str(p, str(it, "unit"));
        v_str(p, str(it, "direction"));
        v_member(p, it, "change");
        v_member(p, it, "change_lo");
        v_member(p, it, "change_hi");
        v_member(p, it, "p");
        v_member(p, it, "q");
        v_member(p, get(it, "baseline"), "median");
        v_member(p, get(it, "candidate"), "median");
        v_bool(p, get(it, "suspect"));
        v_bool(p, cJSON_IsObject(conf) ? get(conf, "confirmed") : NULL);
        v_json(p, it, NULL);
    }
}

/* The history value of an ok case (median of its run medians, as
 * `bhost history` takes it) and its run medians as JSON text; NAN when it
 * has none. */
static double history_value(const cJSON *c, bh_strbuf *medians)
{
    double *m = NULL;
    double v;
    size_t k = 0;

    if (!str(c, "status") || strcmp(str(c, "status"), "ok") != 0)
        return NAN;
    bh_result_run_medians(c, &m, &k);
    if (k == 0)
        return NAN;
    bh_strbuf_append(medians, "[", 1);
    for (size_t i = 0; i < k; i++) {
        if (i)
            bh_strbuf_append(medians, ",", 1);
        bh_store_json_number(medians, m[i]);
    }
    bh_strbuf_append(medians, "]", 1);
    bh_stats_sort(m, k);
    v = bh_stats_median_sorted(m, k);
    free(m);
    return v;
}

/* The cases row, then its summary, samples and verdicts rows. */
static void case_rows(bh_store_prep *p, int64_t ord, const cJSON *c, bh_strbuf *tmp,
                      const bh_store_scan *scan, size_t *cursor)
{
    static const char *const skip[] = {"id",   "plugin",  "benchmark", "status", "message",
                                       "runs", "summary", "verdict",   NULL};
    const char *id = str(c, "id");
    double value;

    tmp->len = 0;
    value = history_value(c, tmp);
    row(p, BH_STMT_CASE_INSERT);
    v_ref(p, BH_SV_RUN);
    v_textn(p, BH_SV_SERIES, id, strlen(id));
    v_i64(p, ord);
    v_str(p, str(c, "plugin"));
    v_str(p, str(c, "benchmark"));
    v_str(p, str(c, "status"));
    v_str(p, str(c, "message"));
    v_num(p, value);
    if (isfinite(value))
        v_textn(p, BH_SV_TEXT, tmp->data, tmp->len);
    else
        v_null(p);
    v_json(p, c, skip);
    if (cJSON_IsObject(get(c, "summary")))
        summary_row(p, get(c, "summary"));
    if (cJSON_GetArraySize(get(c, "runs")) > 0)
        samples_row(p, get(c, "runs"), scan, cursor);
    if (cJSON_IsObject(get(c, "verdict")))
        verdict_rows(p, get(c, "verdict"));
}

bh_store_prep *bh_store_prep_doc(const cJSON *doc, const char *source, const bh_store_scan *scan,
                                 bh_error *e)
{
    size_t cursor = 0;
    bh_result_view v;
    bh_store_prep *p;
    bh_strbuf tmp = BH_STRBUF_INIT;
    size_t run_off, run_len, sys_off;
    const cJSON *c;
    int64_t ord = 0;

    bh_result_view_load_top(doc, &v);
    if (!v.run.config_name || !v.run.started_at) {
        bh_error_set(e, "expected strings run.config.name and run.started_at");
        bh_result_view_free(&v);
        return NULL;
    }
    p = bh_xcalloc(1, sizeof(*p));
    p->config = bh_xstrdup(v.run.config_name);
    /* the key: SHA-256 of run_json "\n" system_json, both kept as columns */
    run_off = p->text.len;
    bh_store_json_append(&p->text, v.run.json);
    run_len = p->text.len - run_off;
    bh_strbuf_append(&p->text, "\n", 1);
    sys_off = p->text.len;
    bh_store_json_append(&p->text, get(doc, "system"));
    bh_sha256_hex(p->text.data + run_off, p->text.len - run_off, p->key);
    p->text.data[run_off + run_len] = '\0'; /* the "\n" becomes run_json's NUL */
    bh_strbuf_append(&p->text, "", 1);
    run_row(p, &v, source, run_off, sys_off);
    cJSON_ArrayForEach(c, get(doc, "cases"))
        case_rows(p, ord++, c, &tmp, scan, &cursor);
    bh_strbuf_free(&tmp);
    bh_result_view_free(&v);
    return p;
}

void bh_store_prep_free(bh_store_prep *p)
{
    if (!p)
        return;
    free(p->config);
    bh_strbuf_free(&p->text);
    free(p->vals);
    free(p->rows);
    free(p);
}
