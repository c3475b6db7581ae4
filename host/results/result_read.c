// SPDX-License-Identifier: MIT
#include "result_read.h"

#include "bh_fs.h"
#include "bh_mem.h"
#include "descriptive.h"
#include "result_check.h"
#include "result_doc.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* See result_read.h. */
size_t bh_result_json_depth(const char *s, size_t n, size_t *open)
{
    size_t depth = 0;
    size_t max = 0;
    int in_str = 0;

    for (size_t i = 0; i < n; i++) {
        char c = s[i];

        if (in_str) {
            if (c == '\\')
                i++;
            else if (c == '"')
                in_str = 0;
        } else if (c == '"') {
            in_str = 1;
        } else if (c == '{' || c == '[') {
            if (++depth > max)
                max = depth;
        } else if ((c == '}' || c == ']') && depth > 0) {
            depth--;
        }
    }
    if (open)
        *open = depth + (size_t)in_str;
    return max;
}

/* One case id and its position, for the duplicate check. */
typedef struct id_at {
    const char *id;
    size_t index;
} id_at;

/* Orders by id, then by position. */
static int cmp_id_at(const void *a, const void *b)
{
    const id_at *x = a, *y = b;
    int c = strcmp(x->id, y->id);

    return c ? c : (x->index > y->index) - (x->index < y->index);
}

/* The position of the first case (in document order) whose id an earlier
 * case already has, or SIZE_MAX when the ids are unique. Sorting keeps
 * this O(n log n): a hostile file with millions of cases cannot stall the
 * reader. */
static size_t first_duplicate(const cJSON *cases, size_t n)
{
    id_at *v = bh_xcalloc(n ? n : 1, sizeof(*v));
    const cJSON *c;
    size_t k = 0;
    size_t first = SIZE_MAX;

    cJSON_ArrayForEach(c, cases) {
        v[k].id = cJSON_GetObjectItemCaseSensitive(c, "id")->valuestring;
        v[k].index = k;
        k++;
    }
    qsort(v, n, sizeof(*v), cmp_id_at);
    for (size_t i = 1; i < n; i++)
        if (strcmp(v[i - 1].id, v[i].id) == 0 &&
            (i < 2 || strcmp(v[i - 2].id, v[i].id) != 0) && v[i].index < first)
            first = v[i].index; /* the second of a group of equal ids */
    free(v);
    return first;
}

/* True for a missing member, null, or a value of the given cJSON type. */
static int null_or(const cJSON *o, const char *key, int type)
{
    const cJSON *it = cJSON_GetObjectItemCaseSensitive(o, key);

    return !it || cJSON_IsNull(it) || (it->type & 0xff & type) != 0;
}

/* run.git, when present: an object of commit/branch strings and a dirty
 * flag, each possibly null. */
static int git_ok(const cJSON *run)
{
    const cJSON *g = cJSON_GetObjectItemCaseSensitive(run, "git");

    return !g || (cJSON_IsObject(g) && null_or(g, "commit", cJSON_String) &&
                  null_or(g, "branch", cJSON_String) &&
                  null_or(g, "dirty", cJSON_True | cJSON_False));
}

int bh_result_validate(const cJSON *doc, const char *name, bh_error *e)
{
    const cJSON *cases;
    const cJSON *c;
    size_t i = 0;
    size_t dup;

    if (!cJSON_IsObject(doc))
        return bh_error_set(e, "%s: expected a JSON object", name);
    if (!cJSON_IsString(cJSON_GetObjectItemCaseSensitive(doc, "schema")) ||
        strcmp(cJSON_GetObjectItemCaseSensitive(doc, "schema")->valuestring,
               BH_RESULT_SCHEMA) != 0)
        return bh_error_set(e, "%s: expected \"schema\": \"%s\"", name,
                            BH_RESULT_SCHEMA);
    if (!cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(doc, "run")))
        return bh_error_set(e, "%s: expected a \"run\" object", name);
    if (!git_ok(cJSON_GetObjectItemCaseSensitive(doc, "run")))
        return bh_error_set(e, "%s: run.git: expected an object with \"commit\" and "
                               "\"branch\" (string or null) and \"dirty\" (bool or null)",
                            name);
    cases = cJSON_GetObjectItemCaseSensitive(doc, "cases");
    if (!cJSON_IsArray(cases))
        return bh_error_set(e, "%s: expected a \"cases\" array", name);
    cJSON_ArrayForEach(c, cases) {
        const cJSON *id = cJSON_GetObjectItemCaseSensitive(c, "id");

        if (!cJSON_IsObject(c) || !cJSON_IsString(id) ||
            !cJSON_IsString(cJSON_GetObjectItemCaseSensitive(c, "status")))
            return bh_error_set(e, "%s: cases[%zu]: expected an object with "
                                   "string \"id\" and \"status\"",
                                name, i);
        if (bh_result_check_case(c, i, name, e) != 0)
            return -1;
        i++;
    }
    if (bh_result_check_scaling(doc, name, e) != 0)
        return -1;
    dup = first_duplicate(cases, i);
    if (dup != SIZE_MAX)
        return bh_error_set(
            e, "%s: cases[%zu]: duplicate id '%s'", name, dup,
            cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(cases, (int)dup),
                                             "id")
                ->valuestring);
    return 0;
}

cJSON *bh_result_parse(const char *text, size_t len, const char *name,
                       bh_error *e)
{
    cJSON *doc;
    const char *end = NULL;

    if (len > BH_RESULT_MAX_BYTES) {
        bh_error_set(e, "%s: %zu bytes, the limit is %u", name, len,
                     BH_RESULT_MAX_BYTES);
        return NULL;
    }
    if (bh_result_json_depth(text, len, NULL) > BH_RESULT_MAX_DEPTH) {
        bh_error_set(e, "%s: JSON nested deeper than %d levels", name,
                     BH_RESULT_MAX_DEPTH);
        return NULL;
    }
    doc = cJSON_ParseWithLengthOpts(text, len, &end, 0);
    if (!doc) {
        const char *at = cJSON_GetErrorPtr();
        size_t off = at && at >= text && at <= text + len
                         ? (size_t)(at - text)
                         : 0;
        size_t line = 1;

        for (size_t k = 0; k < off; k++)
            line += text[k] == '\n';
        bh_error_set(e, "%s:%zu: not valid JSON (expected a bhost result "
                        "document)", name, line);
        return NULL;
    }
    if (bh_result_validate(doc, name, e) != 0) {
        cJSON_Delete(doc);
        return NULL;
    }
    return doc;
}

cJSON *bh_result_read(const char *path, bh_error *e)
{
    char *text = NULL;
    size_t len = 0;
    cJSON *doc;

    if (bh_read_file(path, BH_RESULT_MAX_BYTES, &text, &len, e) != 0)
        return NULL;
    doc = bh_result_parse(text, len, path, e);
    free(text);
    return doc;
}

void bh_result_git(const cJSON *doc, const char **commit, const char **branch, int *dirty)
{
    const cJSON *g = cJSON_GetObjectItemCaseSensitive(
        cJSON_GetObjectItemCaseSensitive(doc, "run"), "git");
    const cJSON *c = cJSON_GetObjectItemCaseSensitive(g, "commit");
    const cJSON *b = cJSON_GetObjectItemCaseSensitive(g, "branch");
    const cJSON *d = cJSON_GetObjectItemCaseSensitive(g, "dirty");

    *commit = cJSON_IsString(c) ? c->valuestring : NULL;
    *branch = cJSON_IsString(b) ? b->valuestring : NULL;
    *dirty = cJSON_IsBool(d) ? cJSON_IsTrue(d) : -1;
}

const cJSON *bh_result_find_case(const cJSON *doc, const char *id)
{
    const cJSON *c;

    cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(doc, "cases")) {
        const cJSON *cid = cJSON_GetObjectItemCaseSensitive(c, "id");
        if (cJSON_IsString(cid) && strcmp(cid->valuestring, id) == 0)
            return c;
    }
    return NULL;
}

/* See result_read.h. */
double bh_result_run_median(const cJSON *samples, size_t *n_out, double *iters)
{
    size_t n = 0;
    size_t cap = (size_t)cJSON_GetArraySize(samples);
    double *v = bh_xcalloc(cap ? cap : 1, sizeof(double));
    double total = 0, m;
    const cJSON *p;

    cJSON_ArrayForEach(p, samples) {
        const cJSON *it = cJSON_GetArrayItem(p, 0);
        const cJSON *ns = cJSON_GetArrayItem(p, 1);

        if (cJSON_IsNumber(it) && cJSON_IsNumber(ns) && it->valuedouble >= 1 &&
            ns->valuedouble >= 0 && isfinite(ns->valuedouble)) {
            v[n++] = ns->valuedouble / it->valuedouble;
            total += it->valuedouble;
        }
    }
    m = bh_stats_median(v, n);
    free(v);
    if (n_out)
        *n_out = n;
    if (iters)
        *iters = total;
    return m;
}

/* See result_read.h. */
double bh_result_metric_median(const cJSON *metric)
{
    const cJSON *vals = cJSON_GetObjectItemCaseSensitive(metric, "values");
    size_t cap = (size_t)cJSON_GetArraySize(vals), n = 0;
    double *v = bh_xcalloc(cap ? cap : 1, sizeof(double));
    const cJSON *it;
    double m;

    cJSON_ArrayForEach(it, vals)
        if (cJSON_IsNumber(it) && !isnan(it->valuedouble))
            v[n++] = it->valuedouble;
    m = bh_stats_median(v, n);
    free(v);
    return m;
}

/* True for a run object whose status is "ok". */
static int run_ok(const cJSON *r)
{
    const cJSON *st = cJSON_GetObjectItemCaseSensitive(r, "status");

    return cJSON_IsString(st) && strcmp(st->valuestring, "ok") == 0;
}

void bh_result_run_medians(const cJSON *c, double **out, size_t *n)
{
    const cJSON *runs = cJSON_GetObjectItemCaseSensitive(c, "runs");
    const cJSON *r;
    size_t cap = (size_t)cJSON_GetArraySize(runs);

    *out = NULL;
    *n = 0;
    if (cap == 0)
        return;
    *out = bh_xcalloc(cap, sizeof(double));
    cJSON_ArrayForEach(r, runs) {
        double m;

        if (!run_ok(r))
            continue;
        m = bh_result_run_median(cJSON_GetObjectItemCaseSensitive(r, "samples"), NULL, NULL);
        if (isfinite(m) && m > 0)
            (*out)[(*n)++] = m;
    }
    if (*n == 0) {
        free(*out);
        *out = NULL;
    }
}
