// SPDX-License-Identifier: MIT
/* The results-store and alert steps of bhost run (--store, --no-store,
 * --notify) and of bhost compare (--notify): after the JSON result is
 * written, store it; then deliver the verdicts to each --notify target
 * (notify.h). Neither step can lose the JSON result or change the exit
 * code: a failure is a one-line warning. */
#ifndef BH_RUN_STORE_H
#define BH_RUN_STORE_H

#include "notify.h"

#include <cjson/cJSON.h>
#include <stdio.h>

/* The most --notify targets of one command. */
#define BH_CLI_NOTIFY_MAX 8

/* The help of --notify in bhost run and compare (the last line,
 * "a warning...", is each command's own). */
#define BH_CLI_NOTIFY_HELP                                                                         \
    "  --notify TARGET      deliver the verdicts (repeatable): URL, a webhook\n"                   \
    "                       (Slack-compatible JSON); slack:URL, a Slack\n"                         \
    "                       message; github:comment[:OWNER/REPO#PR], one\n"                        \
    "                       pull-request comment updated in place;\n"                              \
    "                       github:issue[:OWNER/REPO], an issue on a critical\n"                   \
    "                       regression; email:ADDR[,ADDR], a mail over SMTP.\n"                    \
    "                       From the environment: GITHUB_TOKEN,\n"                                 \
    "                       GITHUB_REPOSITORY, GITHUB_REF or GITHUB_EVENT_PATH,\n"                 \
    "                       GITHUB_API_URL; BHOST_SMTP_URL, BHOST_SMTP_FROM,\n"                    \
    "                       BHOST_SMTP_USER, BHOST_SMTP_PASSWORD. A failure is\n"

/* The --notify targets of one command. */
typedef struct bh_cli_notify_list {
    bh_notify_target t[BH_CLI_NOTIFY_MAX];
    size_t n;
} bh_cli_notify_list;

typedef struct bh_run_store {
    const char *store;         /* --store TARGET, or NULL */
    int no_store;              /* --no-store */
    bh_cli_notify_list notify; /* --notify TARGET (repeatable) */
    char target[4096];         /* the store used (bh_run_store_prepare) */
} bh_run_store;

/* Works out the store target (--store, else $BHOST_STORE, else
 * <results_dir>/bhost.db) into rs->target. 0, or -1 (printed) when it is
 * too long. */
int bh_run_store_prepare(bh_run_store *rs, const char *results_dir);

/* Stores the result file used as written (read back: the store holds
 * what the file holds; NULL: it was not written, nothing is stored),
 * unless --no-store; prints "store: ..." on out or a warning on stderr.
 * Then, with --notify, delivers doc's verdicts (bh_cli_notify). */
void bh_run_store_finish(const bh_run_store *rs, const cJSON *doc, const char *used, FILE *out);

/* Adds the --notify value text (it must outlive l) to l; 0, or -1 after
 * printing "CMD: --notify '...': expected ..." (a usage error). */
int bh_cli_notify_add(bh_cli_notify_list *l, const char *cmd, const char *text);

/* Delivers the verdicts of doc (a result with verdicts, or a comparison
 * document; result names its file, may be NULL) to each target of l
 * (bh_notify_send): prints "notify: ..." on out for each, or one warning
 * line on stderr for each that failed, naming the target. */
void bh_cli_notify(const bh_cli_notify_list *l, const cJSON *doc, const char *result, FILE *out);

#endif
