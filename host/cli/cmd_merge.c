/* bhost merge OUT SHARD...: joins the results of `bhost run --shard I/N`
 * into one run document. */
#define _GNU_SOURCE
#include "bh_mem.h"
#include "cli.h"
#include "merge.h"
#include "result_doc.h"
#include "result_read.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char merge_usage[] =
    "usage: bhost merge OUT.json SHARD.json... [--quiet]\n"
    "\n"
    "Joins the result files of `bhost run CONFIG --shard I/N` (I = 1..N)\n"
    "into one run document, written to OUT.json atomically (replacing it).\n"
    "Refused with one line: shards of different configs, seeds, system\n"
    "fingerprints, git commits or partitions, a shard given twice or\n"
    "missing, a case in two shards. The merged run keeps every case in\n"
    "the unsharded order; per-shard verdicts are dropped (compare the\n"
    "merged run with `bhost compare BASE.json OUT.json`).\n"
    "\n"
    "  --quiet              print nothing when it worked\n"
    "  -h, --help           this help\n"
    "\n"
    "Exit: 0 written, 2 bad usage or shards that do not belong together,\n"
    "4 a shard file unreadable or malformed, or OUT not written.\n";

int bh_cmd_merge(int argc, char **argv)
{
    const char *out = NULL;
    const char **names = bh_xcalloc((size_t)argc + 1, sizeof(*names));
    cJSON **docs = bh_xcalloc((size_t)argc + 1, sizeof(*docs));
    size_t n = 0;
    int quiet = 0;
    int rc = BH_EXIT_OK;
    int why = 0;
    bh_error e = {""};
    cJSON *merged = NULL;
    char *used = NULL;

    if (bh_wants_help(argc, argv)) {
        fputs(merge_usage, stdout);
        goto done;
    }
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--quiet") == 0 || strcmp(argv[i], "-q") == 0) {
            quiet = 1;
        } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
            bh_cli_error("merge: unknown option '%s' (see bhost merge --help)", argv[i]);
            rc = BH_EXIT_USAGE;
            goto done;
        } else if (!out) {
            out = argv[i];
        } else {
            names[n++] = argv[i];
        }
    }
    if (!out || n == 0) {
        bh_cli_error("merge: expected OUT.json and at least one SHARD.json (see bhost merge "
                     "--help)");
        rc = BH_EXIT_USAGE;
        goto done;
    }
    for (size_t i = 0; i < n; i++) {
        docs[i] = bh_result_read(names[i], &e);
        if (!docs[i]) {
            bh_cli_error("merge: %s", e.msg);
            rc = BH_EXIT_IO;
            goto done;
        }
    }
    merged = bh_merge_shards(docs, names, n, argc, argv, &why, &e);
    if (!merged) {
        bh_cli_error("merge: %s", e.msg);
        rc = why == BH_MERGE_MISMATCH ? BH_EXIT_USAGE : BH_EXIT_IO;
        goto done;
    }
    if (bh_result_write(merged, out, 1, &used, &e) != 0) {
        bh_cli_error("merge: cannot write %s: %s", out, e.msg);
        rc = BH_EXIT_IO;
        goto done;
    }
    if (!quiet)
        printf("merged %zu shard%s (%d cases) into %s\n", n, n == 1 ? "" : "s",
               cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(merged, "cases")), used);
done:
    free(used);
    cJSON_Delete(merged);
    for (size_t i = 0; i < n; i++)
        cJSON_Delete(docs[i]);
    free(docs);
    free(names);
    return rc;
}
