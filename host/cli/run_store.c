// SPDX-License-Identifier: MIT
/* The store and alert steps of bhost run and compare (see run_store.h). */
#define _GNU_SOURCE
#include "run_store.h"

#include "cli.h"
#include "notify.h"
#include "result_read.h"
#include "store.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int bh_run_store_prepare(bh_run_store *rs, const char *results_dir)
{
    char *t = bh_store_default_target(rs->store, results_dir);
    size_t n = strlen(t);

    if (n >= sizeof(rs->target)) {
        bh_cli_error("run: --store: the store name is longer than %zu characters",
                     sizeof(rs->target) - 1);
        free(t);
        return -1;
    }
    memcpy(rs->target, t, n + 1);
    free(t);
    return 0;
}

void bh_run_store_finish(const bh_run_store *rs, const cJSON *doc, const char *used, FILE *out)
{
    bh_error e = {""};
    bh_store *s;
    int64_t id = 0;
    int rc;

    if (used && !rs->no_store) {
        /* What the file holds (cJSON prints some doubles an ulp off), so
         * that ingesting the file later finds the same run. */
        cJSON *written = bh_result_read(used, &e);

        s = written ? bh_store_open(rs->target, &e) : NULL;
        rc = s ? bh_store_put(s, written, used, &id, &e) : -1;
        cJSON_Delete(written);
        if (rc < 0)
            bh_cli_error("warning: result not stored (the JSON file is written; store it "
                         "later with bhost store ingest): %s",
                         e.msg);
        else
            fprintf(out, "store: %s run %lld%s\n", bh_store_name(s), (long long)id,
                    rc == 0 ? " (already stored)" : "");
        bh_store_close(s);
    }
    if (rs->notify)
        bh_cli_notify(rs->notify, doc, used, out);
}

void bh_cli_notify(const char *url, const cJSON *doc, const char *result, FILE *out)
{
    bh_error e = {""};
    size_t n = 0;
    cJSON *payload = bh_notify_payload(doc, result, &n);
    char *shown = bh_notify_url_display(url);

    if (!payload)
        fprintf(out, "notify: nothing regressed, nothing sent to %s\n", shown);
    else if (bh_notify_post(url, payload, BH_NOTIFY_TIMEOUT_MS, &e) != 0)
        bh_cli_error("warning: --notify: %zu regression%s not posted: %s", n,
                     n == 1 ? "" : "s", e.msg);
    else
        fprintf(out, "notify: %zu regression%s posted to %s\n", n, n == 1 ? "" : "s", shown);
    cJSON_Delete(payload);
    free(shown);
}
