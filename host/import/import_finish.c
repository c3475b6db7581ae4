// SPDX-License-Identifier: MIT
/* Finishing an imported document (bh_imp_finish): each case's summary
 * from its samples and its status from its runs, the run object that
 * marks the document as imported, and the system's fingerprint hash. */
#include "import_internal.h"

#include "bh_clock.h"
#include "bh_json_write.h"
#include "bh_mem.h"
#include "bh_sha256.h"
#include "result_doc.h"
#include "result_summary.h"
#include "summary.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The samples of the ok runs of case c as values (ns per iteration), run
 * ids and sample durations; returns how many (arrays new, free() them). */
static size_t case_samples(const cJSON *c, double **val, uint32_t **run, double **dur)
{
    size_t n = 0, cap = 0;
    uint32_t r = 0;
    const cJSON *it;

    *val = NULL, *run = NULL, *dur = NULL;
    cJSON_ArrayForEach(it, cJSON_GetObjectItemCaseSensitive(c, "runs")) {
        const cJSON *s;

        if (strcmp(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(it, "status")), "ok") != 0)
            continue;
        cJSON_ArrayForEach(s, cJSON_GetObjectItemCaseSensitive(it, "samples")) {
            double iters = cJSON_GetArrayItem(s, 0)->valuedouble;
            double ns = cJSON_GetArrayItem(s, 1)->valuedouble;
            size_t old = cap;

            bh_grow((void **)val, &cap, n + 1, sizeof(**val));
            if (cap != old) {
                *run = bh_xreallocarray(*run, cap, sizeof(**run));
                *dur = bh_xreallocarray(*dur, cap, sizeof(**dur));
            }
            (*val)[n] = ns / iters;
            (*run)[n] = r;
            (*dur)[n++] = ns;
        }
        r++;
    }
    return n;
}

/* The summary of case c from its samples, when it has any. */
static void summarize_case(cJSON *c)
{
    double *val, *dur;
    uint32_t *run;
    size_t n = case_samples(c, &val, &run, &dur);
    bh_summary_opts so;
    bh_summary s;

    bh_summary_opts_default(&so);
    so.min_sample_ns = 0; /* the source chose its sample lengths */
    if (n > 0 && bh_summarize(val, run, dur, n, &so, &s) == 0) {
        cJSON_DeleteItemFromObjectCaseSensitive(c, "summary");
        cJSON_AddItemToObject(c, "summary", bh_result_summary_json(&s));
    } else if (!cJSON_HasObjectItem(c, "summary")) {
        cJSON_AddNullToObject(c, "summary");
    }
    free(val);
    free(run);
    free(dur);
}

/* The status of case c: ok when a run is ok or it has no runs (a summary
 * only), else its first run's status and message. */
static void fold_status(cJSON *c)
{
    const cJSON *runs = cJSON_GetObjectItemCaseSensitive(c, "runs");
    const cJSON *it, *first = cJSON_GetArrayItem(runs, 0);

    cJSON_ArrayForEach(it, runs) {
        if (strcmp(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(it, "status")), "ok") == 0)
            return;
    }
    if (!first)
        return;
    bh_imp_set_str(c, "status",
                   cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(first, "status")));
    bh_imp_set_str(c, "message",
                   cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(first, "message")));
}

/* system.fingerprint_hash: SHA-256 of the system record without its
 * hostname, so that two imports from one machine compare. */
static void fingerprint(cJSON *system)
{
    cJSON *copy = cJSON_Duplicate(system, 1);
    char *text, hex[65];

    cJSON_DeleteItemFromObjectCaseSensitive(copy, "hostname");
    cJSON_DeleteItemFromObjectCaseSensitive(copy, "fingerprint_hash");
    cJSON_DeleteItemFromObjectCaseSensitive(copy, "source_context");
    text = bh_json_print_unformatted(copy);
    bh_sha256_hex(text, strlen(text), hex);
    bh_imp_set_str(system, "fingerprint_hash", hex);
    free(text);
    cJSON_Delete(copy);
}

/* run.imported: the format and the files. */
static void imported(cJSON *run, const char *format, char *const *files, size_t n)
{
    cJSON *o = cJSON_AddObjectToObject(run, "imported");
    cJSON *arr = cJSON_AddArrayToObject(o, "files");

    cJSON_AddStringToObject(o, "format", format);
    for (size_t i = 0; i < n; i++)
        cJSON_AddItemToArray(arr, cJSON_CreateString(files[i]));
}

void bh_imp_finish(bh_imp *imp, const char *format, const char *config, char *const *files,
                   size_t n_files, int argc, char *const *argv, const char *version,
                   const char *sha256)
{
    char now[32];
    const char *when = imp->started_at;
    cJSON *cfg = cJSON_AddObjectToObject(imp->run, "config");
    cJSON *cmd = cJSON_AddArrayToObject(imp->run, "command_line");
    bh_run_git git = {imp->commit, NULL, -1, imp->commit ? format : "none"};

    bh_utc_iso8601(now);
    if (!when)
        when = now;
    for (size_t i = 0; i < imp->n_items; i++) {
        summarize_case(imp->items[i]);
        fold_status(imp->items[i]);
    }
    cJSON_AddStringToObject(cfg, "path", n_files ? files[0] : "");
    cJSON_AddStringToObject(cfg, "name", config ? config : imp->config ? imp->config : format);
    cJSON_AddStringToObject(cfg, "hash", sha256);
    for (int i = 0; i < argc; i++)
        cJSON_AddItemToArray(cmd, cJSON_CreateString(argv[i]));
    cJSON_AddStringToObject(imp->run, "host_version", version ? version : "");
    cJSON_AddStringToObject(imp->run, "started_at", when);
    cJSON_AddStringToObject(imp->run, "finished_at", when);
    cJSON_AddBoolToObject(imp->run, "complete", 1);
    cJSON_AddItemToObject(imp->run, "git", bh_result_git_json(&git));
    cJSON_AddArrayToObject(imp->run, "plugins");
    imported(imp->run, format, files, n_files);
    fingerprint(imp->system);
}
