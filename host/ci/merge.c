// SPDX-License-Identifier: MIT
/* Joining shard results into one run document (merge.h). */
#define _GNU_SOURCE
#include "merge.h"

#include "bh_mem.h"
#include "compare_backends.h"
#include "merge_gate.h"
#include "ratio_build.h"
#include "result_read.h"
#include "scaling_build.h"
#include "result_view.h"
#include "roofline.h"
#include "variant_speedup.h"
#include "shard.h"
#include "sysinfo.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* One shard's run.shard, checked, with the view of its document. */
typedef struct shard_rec {
    long index, count, total;
    const char *partition;
    const cJSON *positions;
    const bh_result_view *v;
} shard_rec;

/* s, or "" when NULL. */
static const char *or_empty(const char *s)
{
    return s ? s : "";
}

/* x when it is an integral number in [lo, hi] into *v; 0 or -1 (NAN, for
 * an absent member, is not). */
static int int_in(double x, long lo, long hi, long *v)
{
    if (x != floor(x) || x < lo || x > hi)
        return -1;
    *v = (long)x;
    return 0;
}

/* Checks the run.shard of a view and fills *r; 0 or -1 with e set. */
static int read_shard(const bh_result_view *v, const char *name, shard_rec *r, bh_error *e)
{
    const bh_rv_run_info *run = &v->run;
    const cJSON *p;
    long prev = -1;

    if (!run->shard)
        return bh_error_set(e, "%s: not a shard result (no run.shard; made by bhost run "
                               "--shard I/N)", name);
    r->v = v;
    r->positions = run->shard_positions;
    r->partition = run->shard_partition;
    if (int_in(run->shard_count, 1, BH_SHARD_MAX, &r->count) != 0 ||
        int_in(run->shard_index, 1, r->count, &r->index) != 0 ||
        int_in(run->shard_cases_total, 0, 100000000, &r->total) != 0 ||
        strlen(r->partition) != 64 || !r->positions || v->n_cases != v->cases_total ||
        (size_t)cJSON_GetArraySize(r->positions) != v->n_cases)
        return bh_error_set(e, "%s: run.shard: expected index, count, cases_total, a 64-hex "
                               "partition and one position per case", name);
    cJSON_ArrayForEach(p, r->positions) {
        if (!cJSON_IsNumber(p) || p->valuedouble != floor(p->valuedouble) ||
            p->valuedouble <= (double)prev || p->valuedouble >= (double)r->total)
            return bh_error_set(e, "%s: run.shard.positions: expected ascending integers "
                                   "below cases_total %ld", name, r->total);
        prev = (long)p->valuedouble;
    }
    return 0;
}

/* Compares one string field of two documents; -1 with e set when they
 * differ. */
static int same(const char *what, const char *a, const char *b, const char *na,
                const char *nb, bh_error *e)
{
    if (strcmp(a, b) == 0)
        return 0;
    return bh_error_set(e, "shards of different %s: %s has '%s', %s has '%s'", what, na, a, nb,
                        b);
}

/* The checks that two shards belong to one run. */
static int check_pair(const shard_rec *ra, const shard_rec *rb, const char *na, const char *nb,
                      bh_error *e)
{
    const bh_rv_run_info *a = &ra->v->run, *b = &rb->v->run;
    char *diff;

    if (same("configs", or_empty(a->config_name), or_empty(b->config_name), na, nb, e) ||
        same("config files (hash)", or_empty(a->config_hash), or_empty(b->config_hash), na, nb,
             e) ||
        same("seeds", or_empty(a->seed), or_empty(b->seed), na, nb, e))
        return -1;
    diff = bh_sysinfo_diff(ra->v->system.json, rb->v->system.json);
    if (diff) {
        bh_error_set(e, "shards of different system fingerprints: %s vs %s: %s", na, nb, diff);
        free(diff);
        return -1;
    }
    if (a->git.commit && b->git.commit && same("git commits", a->git.commit, b->git.commit, na,
                                               nb, e))
        return -1;
    if (ra->count != rb->count)
        return bh_error_set(e, "shards of different splits: %s is shard %ld/%ld, %s is "
                               "%ld/%ld", na, ra->index, ra->count, nb, rb->index, rb->count);
    if (ra->total != rb->total || strcmp(ra->partition, rb->partition) != 0)
        return bh_error_set(e, "shards of different partitions: %s and %s split the cases "
                               "differently (other filters or duration history)", na, nb);
    return 0;
}

/* Every shard index once; -1 with e naming a duplicate or the missing. */
static int check_indices(const shard_rec *r, const char *const *names, size_t n, bh_error *e)
{
    long count = r[0].count;
    size_t *by = bh_xcalloc((size_t)count + 1, sizeof(*by)); /* 1 + file index */
    int rc = 0;

    for (size_t i = 0; i < n && rc == 0; i++) {
        if (by[r[i].index])
            rc = bh_error_set(e, "%s and %s are both shard %ld/%ld", names[by[r[i].index] - 1],
                              names[i], r[i].index, count);
        by[r[i].index] = i + 1;
    }
    for (long k = 1; k <= count && rc == 0; k++)
        if (!by[k]) {
            char list[256] = "";
            size_t len = 0;

            for (long j = k; j <= count && len < sizeof(list) - 16; j++)
                if (!by[j])
                    len += (size_t)snprintf(list + len, sizeof(list) - len, "%s%ld",
                                            len ? ", " : "", j);
            rc = bh_error_set(e, "missing shard%s %s of %ld (%zu given)",
                              strchr(list, ',') ? "s" : "", list, count, n);
        }
    free(by);
    return rc;
}

/* Places every shard's cases at their plan positions in a new array;
 * NULL with e set when a case id or position is in two shards. */
static cJSON *place_cases(const shard_rec *r, const char *const *names, size_t n, bh_error *e)
{
    size_t total = (size_t)r[0].total;
    const cJSON **slot = bh_xcalloc(total ? total : 1, sizeof(*slot));
    size_t *from = bh_xcalloc(total ? total : 1, sizeof(*from));
    cJSON *out = NULL;
    size_t placed = 0;

    for (size_t i = 0; i < n; i++) {
        const bh_rv_case *c = r[i].v->cases;
        const cJSON *p;

        cJSON_ArrayForEach(p, r[i].positions) {
            size_t k = (size_t)p->valuedouble;

            if (slot[k]) {
                bh_error_set(e, "overlapping shards: %s and %s both hold case %zu ('%s')",
                             names[from[k]], names[i], k, c->id);
                goto out;
            }
            slot[k] = c->json;
            from[k] = i;
            placed++;
            c++;
        }
    }
    if (placed != total) {
        bh_error_set(e, "the shards hold %zu of the run's %zu cases", placed, total);
        goto out;
    }
    out = cJSON_CreateArray();
    for (size_t k = 0; k < total; k++) {
        cJSON *c = cJSON_Duplicate(slot[k], 1);

        cJSON_DeleteItemFromObjectCaseSensitive(c, "roofline");
        cJSON_AddItemToArray(out, c);
    }
out:
    free(from);
    free(slot);
    return out;
}

/* The "requested" string of a plugins entry, or "". */
static const char *requested(const cJSON *p)
{
    const cJSON *s = cJSON_GetObjectItemCaseSensitive(p, "requested");

    return cJSON_IsString(s) ? s->valuestring : "";
}

/* Adds plugins entries of src that dst lacks (by "requested"). */
static void union_plugins(cJSON *dst, const cJSON *src)
{
    const cJSON *p;

    if (!cJSON_IsArray(dst))
        return;
    cJSON_ArrayForEach(p, src) {
        const cJSON *q;
        int have = 0;

        cJSON_ArrayForEach(q, dst) have |= strcmp(requested(q), requested(p)) == 0;
        if (!have)
            cJSON_AddItemToArray(dst, cJSON_Duplicate(p, 1));
    }
}

void bh_merge_put(cJSON *o, const char *key, cJSON *v)
{
    if (!cJSON_IsObject(o)) {
        cJSON_Delete(v);
        return;
    }
    /* in place of the member when there is one, else added */
    if (!cJSON_ReplaceItemInObjectCaseSensitive(o, key, v))
        cJSON_AddItemToObject(o, key, v);
}

/* The run object of the merged document. */
static cJSON *merged_run(const char *const *names, const shard_rec *r, size_t n, int argc,
                         char **argv)
{
    cJSON *run = cJSON_Duplicate(r[0].v->run.json, 1);
    cJSON *git;
    cJSON *m = cJSON_CreateObject();
    cJSON *list = cJSON_AddArrayToObject(m, "shards");
    cJSON *cl = cJSON_AddArrayToObject(m, "command_line");
    const char *start = NULL, *end = NULL;
    double dur = 0;
    int complete = 1, dirty = 0, dirty_known = 1;

    cJSON_DeleteItemFromObjectCaseSensitive(run, "shard");
    for (size_t i = 0; i < n; i++) {
        const bh_rv_run_info *ri = &r[i].v->run;
        const char *started = or_empty(ri->started_at), *finished = or_empty(ri->finished_at);
        double d = isnan(ri->duration_s) ? 0 : ri->duration_s;
        cJSON *s = cJSON_CreateObject();

        if (!start || strcmp(started, start) < 0)
            start = started;
        if (!end || strcmp(finished, end) > 0)
            end = finished;
        dur += d;
        complete &= ri->complete == 1;
        dirty |= ri->git.dirty == 1;
        dirty_known &= ri->git.dirty >= 0;
        if (i > 0) /* into the copy's plugins list */
            union_plugins(cJSON_GetObjectItemCaseSensitive(run, "plugins"), ri->plugins);
        cJSON_AddStringToObject(s, "file", names[i]);
        cJSON_AddNumberToObject(s, "index", (double)r[i].index);
        cJSON_AddNumberToObject(s, "cases", (double)r[i].v->cases_total);
        cJSON_AddStringToObject(s, "started_at", started);
        cJSON_AddStringToObject(s, "finished_at", finished);
        cJSON_AddNumberToObject(s, "duration_s", d);
        cJSON_AddBoolToObject(s, "complete", ri->complete == 1);
        cJSON_AddItemToArray(list, s);
    }
    for (int i = 0; i < argc; i++)
        cJSON_AddItemToArray(cl, cJSON_CreateString(argv[i]));
    cJSON_AddNumberToObject(m, "count", (double)r[0].count);
    cJSON_AddStringToObject(m, "partition", r[0].partition);
    bh_merge_put(run, "started_at", cJSON_CreateString(start));
    bh_merge_put(run, "finished_at", cJSON_CreateString(end));
    bh_merge_put(run, "duration_s", cJSON_CreateNumber(dur));
    bh_merge_put(run, "complete", cJSON_CreateBool(complete));
    git = cJSON_GetObjectItemCaseSensitive(run, "git"); /* the copy's, written */
    if (cJSON_IsObject(git))
        bh_merge_put(git, "dirty",
            dirty ? cJSON_CreateTrue() : dirty_known ? cJSON_CreateFalse() : cJSON_CreateNull());
    bh_merge_put(run, "merged", m);
    return run;
}

cJSON *bh_merge_shards(cJSON *const *docs, const char *const *names, size_t n, int argc,
                       char **argv, int *why, bh_error *e)
{
    shard_rec *r = bh_xcalloc(n ? n : 1, sizeof(*r));
    bh_result_view *views = bh_xcalloc(n ? n : 1, sizeof(*views));
    cJSON *cases = NULL;
    cJSON *doc = NULL;
    cJSON *comparison = NULL;
    cJSON *groups;
    const cJSON *it;
    uint64_t seed;

    *why = BH_MERGE_MALFORMED;
    if (n == 0) {
        bh_error_set(e, "no shard results to merge");
        goto out;
    }
    for (size_t i = 0; i < n; i++)
        bh_result_view_load(docs[i], &views[i]);
    for (size_t i = 0; i < n; i++)
        if (read_shard(&views[i], names[i], &r[i], e) != 0)
            goto out;
    *why = BH_MERGE_MISMATCH;
    for (size_t i = 1; i < n; i++)
        if (check_pair(&r[0], &r[i], names[0], names[i], e) != 0)
            goto out;
    if (check_indices(r, names, n, e) != 0)
        goto out;
    if (bh_merge_comparison(docs, names, n, &comparison, why, e) != 0)
        goto out;
    cases = place_cases(r, names, n, e);
    if (!cases)
        goto out;
    doc = cJSON_CreateObject();
    cJSON_ArrayForEach(it, docs[0]) {
        /* ratios, scaling: computed again below over every shard's cases
         * (a shard's curves miss the points other shards ran) */
        static const char *const dropped[] = {"comparison", "roofs", "backend_comparison",
                                              "scaling", "ratios"};
        int drop = 0;

        for (size_t k = 0; k < sizeof(dropped) / sizeof(*dropped); k++)
            drop |= strcmp(it->string, dropped[k]) == 0;
        if (drop)
            continue;
        if (strcmp(it->string, "run") == 0)
            cJSON_AddItemToObject(doc, "run", merged_run(names, r, n, argc, argv));
        else if (strcmp(it->string, "cases") == 0)
            cJSON_AddItemToObject(doc, "cases", cases);
        else
            cJSON_AddItemToObject(doc, it->string, cJSON_Duplicate(it, 1));
    }
    if (comparison)
        cJSON_AddItemToObject(doc, "comparison", comparison);
    comparison = NULL;
    seed = views[0].run.seed ? strtoull(views[0].run.seed, NULL, 0) : 0; /* "0x..." */
    bh_ratios_merge(doc, docs, n, seed);  /* sides that ran in different shards */
    bh_scaling_merge(doc, docs, n, seed); /* points that ran in different shards */
    bh_variant_speedup_apply(doc); /* twins that ran in different shards */
    bh_roofline_apply(doc);
    groups = bh_report_backend_groups(doc);
    if (cJSON_GetArraySize(groups) > 0)
        cJSON_AddItemToObject(doc, "backend_comparison", groups);
    else
        cJSON_Delete(groups);
    if (bh_result_validate(doc, "merged result", e) != 0) {
        cJSON_Delete(doc);
        doc = NULL;
    }
out:
    cJSON_Delete(comparison);
    for (size_t i = 0; i < n; i++)
        bh_result_view_free(&views[i]);
    free(views);
    free(r);
    return doc;
}
