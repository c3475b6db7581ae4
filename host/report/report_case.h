// SPDX-License-Identifier: MIT
/* The figures every report shows, read once from a result document
 * ("bhost.result/1"): one row per case with its group (plugin/benchmark),
 * summary, throughput, roofline fraction and verdict. Fields a document
 * lacks are NAN or NULL, so every format degrades the same way. */
#ifndef BH_REPORT_CASE_H
#define BH_REPORT_CASE_H

#include <cjson/cJSON.h>
#include <stddef.h>

/* The verdict figures of one (case, metric) comparison. */
typedef struct bh_report_change {
    const char *metric;   /* "time" or an extra metric; borrowed */
    const char *unit;     /* "ns/iter", ...; borrowed, "" when absent */
    int higher_better;    /* 1 when the metric's direction is "higher" */
    const char *verdict;  /* "regressed", "improved", ...; borrowed */
    const char *severity; /* "critical", "warning", "minor" or NULL */
    double change;        /* candidate / baseline - 1 */
    double lo, hi;        /* its interval (may be -+INFINITY) */
    double level;         /* the interval's confidence level */
    double p, q;
    double base, cand;    /* the two medians */
    double noise_floor;   /* NAN when the document has none */
} bh_report_change;

typedef struct bh_report_row {
    const cJSON *json;    /* the case object (borrowed from the document) */
    const char *id;       /* every string below is borrowed, never NULL */
    const char *plugin;
    const char *bench;    /* "" when absent */
    const char *status;
    const char *message;  /* "" when none */
    char *group;          /* "plugin/benchmark" (owned) */
    const char *rest;     /* id after the group: "[n=1]@cpu:0", or "" */
    char *op;             /* id without its "@backend:device" (owned) */
    const char *at;       /* "@backend:device" part of the id, or "" */
    int ok;               /* status is "ok" */
    int has_summary;
    double median, lo, hi, level; /* ns per iteration; CI of the median */
    double cv;            /* between-run CV (the sample CV for one run) */
    double q1, q3, p5, p95, min, max, mean;
    double n_samples, n_runs;
    double rate;          /* the headline throughput, NAN when none */
    const char *rate_unit; /* "FLOP/s", "B/s", "items/s" or a metric's unit */
    double roof_fraction; /* NAN when the case has no roofline */
    double roof_attainable;
    const char *roof_bound; /* "memory", "compute" or "" */
    const char *roof_unit;
    double wall_s;        /* total wall time of its runs */
    const char *verdict;  /* headline verdict, NULL without a comparison */
    const char *severity; /* NULL when none */
    bh_report_change *changes; /* one per compared metric (owned) */
    size_t n_changes;
    const bh_report_change *head; /* the change behind the headline, or
                                     NULL */
} bh_report_row;

typedef struct bh_report_rows {
    bh_report_row *v;
    size_t n;
    size_t n_verdicts;    /* rows with a verdict */
    size_t n_roofline;    /* rows with a roofline fraction */
} bh_report_rows;

/* Reads the rows of doc (a validated result document) in case order.
 * Rows borrow strings from doc, which must outlive them. Never fails
 * (malformed members read as absent); free with bh_report_rows_free. */
void bh_report_rows_load(const cJSON *doc, bh_report_rows *out);

void bh_report_rows_free(bh_report_rows *r);

/* Median of the finite numbers of a JSON array; NAN when it has none. */
double bh_report_array_median(const cJSON *arr);

/* A number member of o, or NAN when absent, null or not a number. */
double bh_report_num(const cJSON *o, const char *key);

/* A string member of o, or dflt. */
const char *bh_report_str(const cJSON *o, const char *key, const char *dflt);

/* Orders verdicts for reports: critical regression 0, warning 1, minor 2,
 * improved 3, inconclusive 4, new 5, missing 6, within noise 7, no change
 * 8, none or unknown 9. */
int bh_report_verdict_rank(const char *verdict, const char *severity);

/* True for a failed, invalid, crashed, timeout or oom status. */
int bh_report_status_failed(const char *status);

#endif
