// SPDX-License-Identifier: MIT
/* Comparing a candidate result document against a baseline one, per case
 * id and per metric, into a report of verdicts (rules: verdict.c).
 *
 * Works on documents in memory (no file I/O); deterministic: the same two
 * documents and config give the same report. */
#ifndef BH_REGRESS_COMPARE_H
#define BH_REGRESS_COMPARE_H

#include "regress_config.h"
#include "result_view.h"
#include "verdict.h"

#include <cjson/cJSON.h>
#include <stddef.h>

/* The metric name under which the host-measured time per iteration is
 * compared (ns/iter, lower is better). */
#define BH_REGRESS_TIME "time"

/* What confirm-before-fail found for one comparison. */
typedef struct bh_regress_confirmation {
    int done;                 /* a confirmation was attempted */
    int confirmed;            /* the confirmation verdict is regressed */
    int paired;               /* baseline build interleaved ABBA (Wilcoxon);
                                 0: candidate rerun vs the stored baseline */
    char *error;              /* why it could not run, or NULL */
    bh_regress_stat st;       /* statistics of the confirmation data */
    bh_regress_verdict v;     /* its verdict (q over the confirmed set) */
    double *base_values;      /* the confirmation's values (paired: pair i
                                 is base_values[i], cand_values[i]); */
    double *cand_values;      /* owned by the item */
    size_t n_base_values;
    size_t n_cand_values;
    bh_regress_verdict first; /* the verdict before confirmation */
    bh_regress_kind initial;  /* = first.kind */
    bh_regress_severity initial_severity;
} bh_regress_confirmation;

/* One (case, metric) comparison. */
typedef struct bh_regress_item {
    char *case_id;            /* the candidate's id (the baseline's when
                                 MISSING) */
    char *base_id;            /* the baseline case matched, NULL when NEW */
    char *metric;             /* BH_REGRESS_TIME or an extra metric */
    char *unit;
    int direction;            /* +1 lower is better, -1 higher */
    bh_regress_thresholds th; /* noise_floor widened by drift (drift.h) */
    struct {
        size_t runs;          /* history values used; 0: no drift floor */
        double sd;            /* between-invocation sd of ln values */
        double floor;         /* the floor that drift calls for */
        double config_floor;  /* the configured floor (th's before) */
    } drift;
    bh_regress_stat st;
    int tested;               /* st holds a p and enters BH */
    int memory;               /* a memory metric (memory_compare.h): its
                                 own BH family */
    int decided;              /* the verdict was set when compared, without
                                 a test (a memory metric equal in every
                                 run); not in BH */
    int spread;               /* a spread item (metric BH_REGRESS_SPREAD,
                                 variance.h): its own BH family, verdict
                                 noisier or no change, never a suspect */
    const char *untested_why; /* static text when !tested and not NEW or
                                 MISSING */
    bh_regress_verdict v;     /* the final verdict */
    int suspect;              /* selected for confirmation */
    bh_regress_confirmation conf;
} bh_regress_item;

typedef struct bh_regress_report {
    bh_regress_item *items;   /* cases in candidate order, then missing */
    size_t n;
    size_t cap;
    size_t m_tests;           /* tested items */
    size_t family_extra;      /* tests outside the report that belong to
                                 its BH family, counted with p = 1 (a
                                 shard's share of a whole run: the other
                                 shards' tests); 0 unless set before
                                 bh_regress_finalize */
    double fdr;
    double confidence;
    bh_regress_method method;
    size_t counts[BH_VERDICT_KINDS];   /* over items */
    size_t severities[BH_SEVERITY_CRITICAL + 1]; /* over regressed items */
    size_t n_suspects;
    size_t n_confirm_tests;   /* the BH family of the confirmation */
    int paired_confirm;       /* suspects will be confirmed paired (ABBA
                                 with the baseline build): they are chosen
                                 against the configured floor, not the
                                 drift floor; set before bh_regress_finalize */
    size_t n_drift;           /* items whose floor drift widened */
    size_t n_memory_tests;    /* memory items tested (their BH family) */
    size_t n_spread_tests;    /* spread items tested (their BH family) */
    int noisier_fail;         /* regression.noisier: fail: a noisier verdict
                                 fails the gate (bh_regress_n_critical) */
} bh_regress_report;

/* How cases are matched. */
typedef struct bh_regress_match {
    char *const *ignore_params; /* parameter keys left out of ids when
                                   matching (e.g. a knob that differs on
                                   purpose); may be NULL */
    size_t n_ignore;
} bh_regress_match;

/* Compares every case and metric of cand against base (both validated
 * result documents) under cfg: tests each (case, metric) with values on
 * both sides, adjusts p by Benjamini-Hochberg over all of them, classifies,
 * marks suspects, counts. match may be NULL. *out is freshly filled (free
 * with bh_regress_report_free). Extra metrics are compared per run (the
 * median of the values one run reported); "time" uses the per-run median
 * ns/iter; failed runs are left out. */
void bh_regress_compare_docs(const cJSON *base, const cJSON *cand,
                             const bh_regress_config *cfg,
                             const bh_regress_match *match,
                             bh_regress_report *out);

/* Appends one (case, metric) comparison of raw per-run values to r (no
 * documents needed: synthetic data, tests), with the thresholds cfg gives
 * the id and the given direction; tested when both sides have >= 2 values
 * and the test runs. Call bh_regress_finalize afterwards. */
void bh_regress_report_add_values(bh_regress_report *r, const bh_regress_config *cfg,
                                  const char *case_id, const char *metric,
                                  int direction, const double *base, size_t nb,
                                  const double *cand, size_t nc);

/* Recomputes q, verdicts, suspects and counts of r from the stats its
 * items hold (items whose confirmation ran take the confirmation's
 * verdict). Called by bh_regress_compare_docs and after confirmation. */
void bh_regress_finalize(bh_regress_report *r, const bh_regress_config *cfg);

void bh_regress_report_free(bh_regress_report *r);

/* True when an item's initial verdict calls for confirmation: regressed,
 * or worse than the noise floor by its estimate and significant or nearly
 * so (q <= 2 fdr) with an interval reaching beyond the floor. With paired
 * set the floor is the configured one (a paired confirmation cancels the
 * drift that widened it). */
int bh_regress_is_suspect(const bh_regress_item *it, double fdr, int paired);

/* The thresholds a paired confirmation of it decides with: it->th with the
 * configured noise floor. */
bh_regress_thresholds bh_regress_paired_thresholds(const bh_regress_item *it);

/* Comparability of two result documents: *system_diff gets the
 * comparability fields of their system fingerprints that differ
 * (bh_sysinfo_diff text) and *config_diff "'a' != 'b'" when their
 * run.config.name differ; each a new string or NULL. Returns 1 when both
 * are NULL (comparable), else 0. */
int bh_regress_comparable(const cJSON *base, const cJSON *cand, char **system_diff,
                          char **config_diff);

/* The number of comparisons in r that fail the gate: critical
 * regressions, plus noisier verdicts when r->noisier_fail. */
size_t bh_regress_n_critical(const bh_regress_report *r);

/* The values of metric (BH_REGRESS_TIME or an extra metric) of each run of
 * a case, indexed by the run's "index" (whole numbers below 1e6; runs
 * without one are left out): out[i] is NAN for a run that is not ok, has
 * no value, or is absent. A run's time is its median ns/iter (NAN unless
 * > 0), an extra metric the median of the values it reported. *n is the
 * largest index + 1 (0 and *out NULL when there is none). free() *out. */
void bh_regress_run_values_indexed(const bh_rv_case *c, const char *metric,
                                   double **out, size_t *n);

/* The same values of the ok runs only, in run order, NANs dropped (*out
 * NULL when none). */
void bh_regress_run_values(const bh_rv_case *c, const char *metric, double **out,
                           size_t *n);

/* The id of a case with the ignored parameters removed from its [...]
 * part (a new string; "[]" disappears when nothing is left). */
char *bh_regress_match_key(const bh_rv_case *c, const bh_regress_match *match);

/* The same key from a case id and its params object (may be NULL): for
 * cases not read from a document (the plan's). */
char *bh_regress_id_key(const char *id, const cJSON *params, const bh_regress_match *match);

#endif
