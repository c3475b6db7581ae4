// SPDX-License-Identifier: MIT
/* Importing the results of other benchmark tools as bhost.result/1
 * documents (docs/results-schema.md, `bhost import`): Google Benchmark
 * JSON, pyperf JSON, hyperfine JSON, Criterion.rs estimates.json and
 * sample.json, and asv results files. Samples become runs and samples,
 * summaries that are all a format has become a case's summary, times are
 * nanoseconds, the source's context becomes the system record, and
 * run.imported says where the document came from. Depends on common,
 * stats and results only. */
#ifndef BH_IMPORT_H
#define BH_IMPORT_H

#include "bh_error.h"

#include <cjson/cJSON.h>
#include <stddef.h>

/* What to import and what to record. */
typedef struct bh_import_opts {
    const char *format; /* one of bh_import_formats */
    char *const *files; /* the files, in order (n_files >= 1) */
    size_t n_files;
    const char *config; /* run.config.name; NULL: the source's, else the format's */
    int argc;           /* the command line recorded in run.command_line */
    char *const *argv;
    const char *version; /* bhost's version (run.host_version) */
} bh_import_opts;

/* The format names, NULL-terminated: "gbench", "pyperf", "hyperfine",
 * "criterion", "asv". */
extern const char *const bh_import_formats[];

/* True when name is one of bh_import_formats. */
int bh_import_format_known(const char *name);

/* Reads every file of o and builds one document (it passes
 * bh_result_validate). NULL with e = "FILE[:LINE]: what was wrong
 * (expected ...)" for a file that cannot be read, is not JSON, is
 * truncated, is not of the format, or has a unit that cannot be mapped to
 * seconds. Lines the caller should show (skipped entries) are appended to
 * *warnings (free() it; NULL when none; warnings may be NULL). */
cJSON *bh_import(const bh_import_opts *o, char **warnings, bh_error *e);

/* The same on len bytes of text in memory named name (the fuzz targets'
 * entry): NULL with e set when it is refused. */
cJSON *bh_import_text(const char *format, const char *text, size_t len, const char *name,
                      bh_error *e);

#endif
