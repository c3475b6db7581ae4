// SPDX-License-Identifier: MIT
/* The results-store and alert steps of bhost run (--store, --no-store,
 * --notify) and of bhost compare (--notify): after the JSON result is
 * written, store it; when a comparison found regressions, post them to
 * the webhook. Neither step can lose the JSON result or change the exit
 * code: a failure is a one-line warning. */
#ifndef BH_RUN_STORE_H
#define BH_RUN_STORE_H

#include <cjson/cJSON.h>
#include <stdio.h>

typedef struct bh_run_store {
    const char *store;  /* --store TARGET, or NULL */
    int no_store;       /* --no-store */
    const char *notify; /* --notify URL, or NULL */
    char target[4096];  /* the store used (bh_run_store_prepare) */
} bh_run_store;

/* Works out the store target (--store, else $BHOST_STORE, else
 * <results_dir>/bhost.db) into rs->target. 0, or -1 (printed) when it is
 * too long. */
int bh_run_store_prepare(bh_run_store *rs, const char *results_dir);

/* Stores the result file used as written (read back: the store holds
 * what the file holds; NULL: it was not written, nothing is stored),
 * unless --no-store; prints "store: ..." on out or a warning on stderr. Then, with --notify, posts doc's regressions
 * (bh_cli_notify). */
void bh_run_store_finish(const bh_run_store *rs, const cJSON *doc, const char *used, FILE *out);

/* Posts the regressions of doc (a result with verdicts, or a comparison
 * document; result names its file, may be NULL) to url: prints
 * "notify: ..." on out, or a one-line warning on stderr when the post
 * failed. Nothing is sent when nothing regressed. */
void bh_cli_notify(const char *url, const cJSON *doc, const char *result, FILE *out);

#endif
