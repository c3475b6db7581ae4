// SPDX-License-Identifier: MIT
/* The comparison as JSON: each case's "verdict" object, the top-level
 * "comparison" summary of a result document, and the standalone document
 * `bhost compare --json` writes (schema "bhost.comparison/1"). Numbers that
 * are not finite are written as null. */
#ifndef BH_REGRESS_JSON_H
#define BH_REGRESS_JSON_H

#include "regress_compare.h"

#include <cjson/cJSON.h>

#define BH_COMPARISON_SCHEMA "bhost.comparison/1"

/* Context of a comparison for the summary. */
typedef struct bh_regress_meta {
    const char *baseline;     /* the baseline's name or file */
    const char *candidate;    /* the candidate's file, or NULL */
    const char *system_diff;  /* bh_sysinfo_diff text when forced, or NULL */
    const char *config_diff;  /* "a != b" when config names differ, or NULL */
    int forced;               /* --force was given */
} bh_regress_meta;

/* The verdict object of one case: {"verdict", "severity", "baseline_id",
 * "metrics": [per-metric objects]} with the headline verdict the most
 * notable of its metrics (regressed by severity, improved, inconclusive,
 * within noise, no change; new and missing when the whole case is). NULL
 * when r has no item for case_id. */
cJSON *bh_regress_case_json(const bh_regress_report *r, const char *case_id);

/* The headline verdict of a case (see above) and its severity. Returns 0,
 * or -1 when r has no item for case_id. */
int bh_regress_case_headline(const bh_regress_report *r, const char *case_id,
                             bh_regress_kind *kind, bh_regress_severity *sev);

/* The summary: method, fdr, confidence, number of tests, counts per
 * verdict and per severity, missing case ids, meta. */
cJSON *bh_regress_summary_json(const bh_regress_report *r, const bh_regress_meta *m);

/* Writes each case's verdict object into the "verdict" field of the
 * matching case of doc (a result document) and adds (or replaces) the
 * top-level "comparison" summary. */
void bh_regress_attach(cJSON *doc, const bh_regress_report *r, const bh_regress_meta *m);

/* The standalone comparison document: schema, the summary fields, and
 * "cases": [{"id", ...verdict object}] for every case (missing ones
 * included), in report order. */
cJSON *bh_regress_report_json(const bh_regress_report *r, const bh_regress_meta *m);

#endif
