// SPDX-License-Identifier: MIT
/* bhost merge OUT SHARD...: joins the results of `bhost run --shard I/N`
 * into one run document. */
#define _GNU_SOURCE
#include "bh_mem.h"
#include "bh_status.h"
#include "cli.h"
#include "expect.h"
#include "report_expect.h"
#include "ipc.h"
#include "merge.h"
#include "merge_gate.h"
#include "result_doc.h"
#include "result_read.h"
#include "result_view.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char merge_usage[] =
    "usage: bhost merge OUT.json SHARD.json... [--fail-on-regression] [--quiet]\n"
    "\n"
    "Joins the result files of `bhost run CONFIG --shard I/N` (I = 1..N)\n"
    "into one run document, written to OUT.json atomically (replacing it).\n"
    "Refused with one line: shards of different configs, seeds, system\n"
    "fingerprints, git commits or partitions, a shard given twice or\n"
    "missing, a case in two shards, shards of which only some were\n"
    "compared with a baseline, or shards gated against different baselines\n"
    "or with different regression settings, --ignore-param, confirmation\n"
    "or --force. The merged run keeps every case in the unsharded order\n"
    "with the verdict its shard decided (confirmation reruns included) and\n"
    "joins the shards' comparison summaries. Each shard gated its own\n"
    "cases in the whole run's Benjamini-Hochberg family (its tests and the\n"
    "tests the other shards' cases have in the baseline, counted with\n"
    "p = 1; comparison.families), and confirmed its own suspects.\n"
    "\n"
    "  --fail-on-regression exit 5 when a critical regression remains (also\n"
    "                       when the shards were run with it)\n"
    "  --quiet              print nothing when it worked\n"
    "  -h, --help           this help\n"
    "\n"
    "Exit: what the whole run would exit: 0 written, 1 a case failed, 5 a\n"
    "critical regression (see --fail-on-regression), 6 a shard was\n"
    "interrupted (incomplete); 2 bad usage or shards that do not belong\n"
    "together, 4 a shard file unreadable or malformed, or OUT not written.\n";

/* The exit code the merged run deserves: as bhost run's (incomplete 6,
 * a failed case 1, a critical regression under fail_on_regression 5). */
static int merged_exit(const bh_result_view *v, int fail_on_regression)
{
    if (v->run.complete != 1)
        return BH_EXIT_INTERRUPTED;
    for (size_t i = 0; i < v->n_cases; i++) {
        int s = bh_status_parse(v->cases[i].status);

        if (s >= 0 && bh_status_is_failure((bh_status)s))
            return BH_EXIT_CASES_FAILED;
    }
    fail_on_regression |= v->comparison.fail_on_regression;
    return fail_on_regression && bh_rv_comparison_failing(&v->comparison) > 0
               ? BH_EXIT_REGRESSION
               : BH_EXIT_OK;
}

/* One line with the merged comparison's counts, like bhost run's. */
static void print_comparison(FILE *out, const bh_rv_comparison *cmp)
{
    static const char *const order[] = {"regressed", "improved", "within noise", "no change",
                                        "inconclusive", "new", "missing"};

    if (!cmp->json)
        return;
    fprintf(out, "compared with %s, %g test%s in %zu shard%s (BH fdr %g",
            cmp->baseline ? cmp->baseline : "?", isfinite(cmp->tests) ? cmp->tests : 0,
            cmp->tests == 1 ? "" : "s", cmp->n_families, cmp->n_families == 1 ? "" : "s",
            isfinite(cmp->fdr) ? cmp->fdr : 0);
    if (cmp->confirm_tests > 0)
        fprintf(out, "; %g confirmed by rerun", cmp->confirm_tests);
    fprintf(out, "):");
    for (size_t k = 0; k < sizeof(order) / sizeof(*order); k++) {
        double n = bh_rv_comparison_count(cmp, order[k]);

        fprintf(out, "%s %g %s", k ? "," : "", n, order[k]);
        if (k == 0 && n > 0)
            fprintf(out, " (%g critical, %g warning, %g minor)",
                    bh_rv_comparison_regressed(cmp, "critical"),
                    bh_rv_comparison_regressed(cmp, "warning"),
                    bh_rv_comparison_regressed(cmp, "minor"));
    }
    fputc('\n', out);
}

enum { MERGE_QUIET = 1, MERGE_FAIL };

static const bh_opt merge_options[] = {
    {"quiet", MERGE_QUIET, 'q', BH_OPT_FLAG, "print nothing but errors"},
    {"fail-on-regression", MERGE_FAIL, 0, BH_OPT_FLAG, "exit 5 on a critical regression"},
    {NULL, 0, 0, BH_OPT_FLAG, NULL},
};

/* bhost merge OUT.json SHARD.json...: one run document from its shards.
 * The merged run records the command line as given, so the parser works
 * on a copy (it moves operands after the options). */
static int cmd_merge(int argc, char **argv)
{
    const char *out = NULL;
    const char **names = bh_xcalloc((size_t)argc + 1, sizeof(*names));
    cJSON **docs = bh_xcalloc((size_t)argc + 1, sizeof(*docs));
    char **args = bh_xcalloc((size_t)argc + 1, sizeof(*args));
    size_t n = 0;
    int quiet = 0;
    int fail_on_regression = 0;
    int rc = BH_EXIT_OK;
    int why = 0, ch;
    bh_error e = {""};
    cJSON *merged = NULL;
    char *used = NULL;
    bh_result_view view;
    bh_opts p;

    memcpy(args, argv, sizeof(*args) * (size_t)argc);
    bh_opts_init(&p, "merge", merge_options, argc, args, 1);
    while ((ch = bh_opts_next(&p)) > 0) {
        quiet |= ch == MERGE_QUIET;
        fail_on_regression |= ch == MERGE_FAIL;
    }
    if (ch < 0) {
        rc = BH_EXIT_USAGE;
        goto done;
    }
    for (int i = p.next; i < argc; i++) {
        if (!out)
            out = args[i];
        else
            names[n++] = args[i];
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
    bh_result_view_load(merged, &view);
    if (!quiet) {
        printf("merged %zu shard%s (%zu case%s) into %s\n", n, n == 1 ? "" : "s", view.n_cases,
               view.n_cases == 1 ? "" : "s", used);
        print_comparison(stdout, &view.comparison);
        bh_report_console_expect(stdout, merged, 0, 1);
    }
    rc = merged_exit(&view, fail_on_regression);
    if (rc == BH_EXIT_OK && (fail_on_regression || view.comparison.fail_on_regression) &&
        bh_expect_n_failed(merged) > 0)
        rc = BH_EXIT_REGRESSION; /* a shard's case missed a budget (expect:) */
    bh_result_view_free(&view);
done:
    free(used);
    cJSON_Delete(merged);
    for (size_t i = 0; i < n; i++)
        cJSON_Delete(docs[i]);
    free(docs);
    free(names);
    free(args);
    return rc;
}

const bh_cli_cmd bh_cli_merge = {
    .name = "merge",
    .handler = cmd_merge,
    .args = "OUT SHARD.json...",
    .summary = "join the results of run --shard I/N into one run",
    .usage = merge_usage,
    .opts = merge_options,
};
