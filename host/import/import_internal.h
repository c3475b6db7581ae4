// SPDX-License-Identifier: MIT
/* What the importers share (import_*.c): the document under construction
 * (import_doc.c) and reading the source's JSON, numbers and units
 * (import_read.c). Only this module includes it. */
#ifndef BH_IMPORT_INTERNAL_H
#define BH_IMPORT_INTERNAL_H

#include "bh_error.h"
#include "bh_strbuf.h"
#include "bh_strset.h"

#include <cjson/cJSON.h>
#include <stddef.h>

/* A document being built from one format's files. */
typedef struct bh_imp {
    cJSON *doc;    /* the bhost.result/1 document */
    cJSON *run;    /* doc.run */
    cJSON *system; /* doc.system (an object) */
    cJSON *cases;  /* doc.cases */
    bh_strset ids; /* case id -> index into items */
    cJSON **items; /* the cases in order */
    size_t n_items, cap;
    char *config;       /* the config name the source suggests, or NULL */
    char *started_at;   /* the source's date (UTC ISO 8601), or NULL */
    char *commit;       /* the source's git commit, or NULL */
    bh_strbuf warnings; /* lines for the user */
} bh_imp;

/* One importer: adds what the JSON root of file path holds to imp. 0, or
 * -1 with e = "what was wrong (expected ...)" (the caller prefixes the
 * file). */
typedef int (*bh_imp_format_fn)(bh_imp *imp, const char *path, const cJSON *root, bh_error *e);

int bh_imp_gbench(bh_imp *imp, const char *path, const cJSON *root, bh_error *e);
int bh_imp_pyperf(bh_imp *imp, const char *path, const cJSON *root, bh_error *e);
int bh_imp_hyperfine(bh_imp *imp, const char *path, const cJSON *root, bh_error *e);
int bh_imp_criterion(bh_imp *imp, const char *path, const cJSON *root, bh_error *e);
int bh_imp_asv(bh_imp *imp, const char *path, const cJSON *root, bh_error *e);

/* import_doc.c: the document. */
void bh_imp_init(bh_imp *imp);
void bh_imp_free(bh_imp *imp); /* deletes the document unless taken */

/* The case with this id, added (status ok, no runs) when new, with
 * plugin and benchmark as given; params (taken; may be NULL) only for a
 * new case. */
cJSON *bh_imp_case(bh_imp *imp, const char *id, const char *plugin, const char *bench,
                   cJSON *params);

/* Appends a run to case c: status "ok" when message is NULL, else
 * "failed" with message; an empty samples array. Returns the run. */
cJSON *bh_imp_run(cJSON *c, const char *message);

/* Appends the sample [iters, ns] to a run: 0, or -1 (nothing added) when
 * ns is not finite (a source's time too large for a double in ns). */
int bh_imp_sample(cJSON *run, double iters, double ns);

/* Appends value to the informational metric name (unit) of case c. */
void bh_imp_metric(cJSON *c, const char *name, const char *unit, double value);

/* A summary a source gave instead of samples (fields NAN when absent). */
typedef struct bh_imp_stats {
    double n, runs, mean, median, sd, cv, min, max, mad, q1, q3, ci_lo, ci_hi, ci_level;
} bh_imp_stats;

/* An all-NAN bh_imp_stats. */
bh_imp_stats bh_imp_stats_none(void);

/* Sets the summary of case c from s (used when c has no samples). */
void bh_imp_summary(cJSON *c, const bh_imp_stats *s);

/* The object member key of parent, created when missing. */
cJSON *bh_imp_obj(cJSON *parent, const char *key);

/* Sets a string member (replacing); value NULL is left out. */
void bh_imp_set_str(cJSON *o, const char *key, const char *value);

/* Sets a number member (replacing) when v is finite. */
void bh_imp_set_num(cJSON *o, const char *key, double v);

/* Remembers a source's suggestion (first one wins): config, date, commit. */
void bh_imp_suggest(char **slot, const char *value);

/* Finishes the document: summaries from the samples, case statuses, the
 * run object, the system's fingerprint hash. */
void bh_imp_finish(bh_imp *imp, const char *format, const char *config, char *const *files,
                   size_t n_files, int argc, char *const *argv, const char *version,
                   const char *sha256);

/* import_read.c: the source. */

/* Parses len bytes of JSON. NULL with e = "LINE: not valid JSON ..." or
 * "LINE: the JSON ends early (a truncated file?)", each with "(expected
 * EXPECTED)". */
cJSON *bh_imp_parse(const char *text, size_t len, const char *expected, bh_error *e);

/* The multiplier from unit to nanoseconds (ns, us, ms, s and spellings):
 * 0 when unit is not a unit of time. */
double bh_imp_unit_ns(const char *unit);

/* The finite number member key of o into *v: 1, else 0 (*v untouched). */
int bh_imp_num(const cJSON *o, const char *key, double *v);

/* The string member key of o, or NULL. */
const char *bh_imp_str(const cJSON *o, const char *key);

/* A whole number >= 1 (iterations). */
int bh_imp_whole(double v);

/* Converts a date as sources write it ("2026-11-22T01:40:49+00:00",
 * "2020-10-13 10:12:20.476957", "2026-11-22T01:40:49Z") to UTC ISO 8601
 * (a zone offset is applied); NULL when it is not one. */
char *bh_imp_date(const char *text);

/* UTC ISO 8601 of a time in milliseconds since the epoch. */
char *bh_imp_date_ms(double ms);

#endif
