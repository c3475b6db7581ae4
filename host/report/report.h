// SPDX-License-Identifier: MIT
/* The report formats of a result document: Markdown, single-file HTML,
 * JUnit XML, CSV, Google Benchmark JSON and Bencher Metric Format, each
 * rendered into memory by its own file and written atomically here. */
#ifndef BH_REPORT_H
#define BH_REPORT_H

#include "bh_error.h"
#include "bh_strbuf.h"
#include "history_load.h"
#include "history_report.h"

#include <cjson/cJSON.h>
#include <stddef.h>

typedef enum bh_report_format {
    BH_REPORT_JSON = 0, /* the result document itself */
    BH_REPORT_MARKDOWN,
    BH_REPORT_HTML,
    BH_REPORT_JUNIT,
    BH_REPORT_CSV,
    BH_REPORT_GBENCH,
    BH_REPORT_BMF,
} bh_report_format;
#define BH_REPORT_FORMATS 7

/* Trend data for the HTML report: a results folder read by the history
 * module and analysed (change points, newest-value check). */
typedef struct bh_report_history {
    char *root;
    bh_history_set set;
    bh_history_analysis an;
} bh_report_history;

/* What a format may use besides the document; every member may be NULL. */
typedef struct bh_report_ctx {
    const bh_report_history *history; /* HTML trend lines */
    const char *base_dir; /* the folder the result's relative paths
                             (case.profile) start from; NULL: the current
                             folder (bh_report_write_outputs: the result's) */
} bh_report_ctx;

/* The format named name ("json", "markdown", "html", "junit", "csv",
 * "gbench", "bmf" as in a config's output: list), or -1. */
int bh_report_format_parse(const char *name);

/* The config name of a format ("markdown"). */
const char *bh_report_format_name(bh_report_format f);

/* The file name ending of a format next to a result: ".json", ".md",
 * ".html", ".xml", ".csv", ".gbench.json", ".bmf.json". */
const char *bh_report_format_ext(bh_report_format f);

/* Renders doc (a validated result document) in format f into out
 * (appending). ctx may be NULL. Deterministic: the same document gives the
 * same bytes. Never fails on odd documents (absent fields degrade). */
void bh_report_render(bh_report_format f, const cJSON *doc, const bh_report_ctx *ctx,
                      bh_strbuf *out);

/* Renders doc in format f and writes it to path atomically ("-" writes to
 * stdout). 0, or -1 with e naming the file. */
int bh_report_write(bh_report_format f, const cJSON *doc, const bh_report_ctx *ctx,
                    const char *path, bh_error *e);

/* The path of format f next to a result file: result_path without its
 * ".json" ending plus the format's ending (new string). */
char *bh_report_sibling_path(const char *result_path, bh_report_format f);

/* Writes every format named in names[0..n) except json next to
 * result_path (bh_report_sibling_path). Unknown names are skipped (the
 * config loader rejects them). Each written path is appended to *written
 * (n_written entries, new strings; may be NULL). Returns 0, or -1 with e
 * naming the first file that could not be written (the others are still
 * attempted). */
int bh_report_write_outputs(const cJSON *doc, const char *result_path, char *const *names,
                            size_t n, const bh_report_ctx *ctx, char ***written,
                            size_t *n_written, bh_error *e);

/* Loads the result files under root with the history module, keeping the
 * series of doc's config and case ids, and analyses them. 0, or -1 with e
 * = "ROOT: message". Free with bh_report_history_free in every case. */
int bh_report_history_load(const char *root, const cJSON *doc, bh_report_history *h,
                           bh_error *e);

void bh_report_history_free(bh_report_history *h);

/* The renderers, one per file. */
void bh_report_markdown(const cJSON *doc, bh_strbuf *out);
void bh_report_junit(const cJSON *doc, bh_strbuf *out);
void bh_report_csv(const cJSON *doc, bh_strbuf *out);
void bh_report_gbench(const cJSON *doc, bh_strbuf *out);
void bh_report_bmf(const cJSON *doc, bh_strbuf *out);
void bh_report_html(const cJSON *doc, const bh_report_ctx *ctx, bh_strbuf *out);

#endif
