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
    if (rs->notify.n)
        bh_cli_notify(&rs->notify, doc, used, out);
}

int bh_cli_notify_add(bh_cli_notify_list *l, const char *cmd, const char *text)
{
    bh_error e = {""};

    if (l->n == BH_CLI_NOTIFY_MAX) {
        bh_cli_error("%s: --notify: at most %d targets", cmd, BH_CLI_NOTIFY_MAX);
        return -1;
    }
    if (bh_notify_target_parse(text, &l->t[l->n], &e) != 0) {
        bh_cli_error("%s: %s", cmd, e.msg);
        return -1;
    }
    l->n++;
    return 0;
}

void bh_cli_notify(const bh_cli_notify_list *l, const cJSON *doc, const char *result, FILE *out)
{
    for (size_t i = 0; i < l->n; i++) {
        bh_error e = {""};
        bh_strbuf said = BH_STRBUF_INIT;

        if (bh_notify_send(&l->t[i], doc, result, &said, &e) != 0)
            bh_cli_error("warning: --notify: %s", e.msg);
        else
            fprintf(out, "notify: %s\n", bh_strbuf_str(&said));
        bh_strbuf_free(&said);
    }
}
