// SPDX-License-Identifier: MIT
/* The JSON form of a history analysis, schema "bhost.history/1" (contract
 * in history_report.h). */
#include "history_report.h"

#include <math.h>

/* Adds a number, or null when it is not finite. */
static void add_num(cJSON *o, const char *key, double v)
{
    if (isfinite(v))
        cJSON_AddNumberToObject(o, key, v);
    else
        cJSON_AddNullToObject(o, key);
}

static cJSON *options_json(const bh_history_analysis_opts *o)
{
    cJSON *j = cJSON_CreateObject();

    cJSON_AddNumberToObject(j, "window", (double)o->detect.window);
    cJSON_AddNumberToObject(j, "min_size", (double)o->detect.min_size);
    cJSON_AddNumberToObject(j, "split_p", o->detect.split_p);
    cJSON_AddNumberToObject(j, "max_p", o->detect.max_p);
    cJSON_AddNumberToObject(j, "min_change", o->detect.min_change);
    cJSON_AddStringToObject(j, "test",
                            o->detect.test == BH_HISTORY_WELCH ? "welch" : "student");
    cJSON_AddStringToObject(j, "unit", o->detect.unit == BH_HISTORY_UNIT_RUN ? "run" : "point");
    cJSON_AddStringToObject(j, "scale", o->detect.log_scale ? "log" : "linear");
    cJSON_AddNumberToObject(j, "pi_level", o->pi_level);
    cJSON_AddNumberToObject(j, "pi_min_points", (double)o->pi_min_ref);
    cJSON_AddNumberToObject(j, "pi_max_points", (double)o->pi_max_ref);
    return j;
}

static cJSON *cp_json(const bh_history_set *set, const bh_history_series *s,
                      const bh_history_cp *cp)
{
    cJSON *j = cJSON_CreateObject();
    const bh_history_file *f = &set->files[s->pts[cp->index].file];

    cJSON_AddNumberToObject(j, "index", (double)cp->index);
    cJSON_AddStringToObject(j, "date", f->started_at);
    cJSON_AddStringToObject(j, "file", f->path);
    cJSON_AddNumberToObject(j, "points_before", (double)(cp->index - cp->lo));
    cJSON_AddNumberToObject(j, "points_after", (double)(cp->hi - cp->index));
    add_num(j, "before", cp->before);
    add_num(j, "after", cp->after);
    add_num(j, "change", cp->change);
    add_num(j, "magnitude", cp->magnitude);
    add_num(j, "t", cp->t);
    add_num(j, "df", cp->df);
    add_num(j, "p", cp->p);
    cJSON_AddNumberToObject(j, "candidates", (double)cp->candidates);
    add_num(j, "p_adjusted", cp->p_adjusted);
    return j;
}

static cJSON *newest_json(const bh_history_set *set, const bh_history_result *r,
                          double level)
{
    const bh_history_series *s = r->series;
    const bh_history_point *last = &s->pts[s->n - 1];
    cJSON *j = cJSON_CreateObject();

    cJSON_AddStringToObject(j, "date", set->files[last->file].started_at);
    cJSON_AddStringToObject(j, "file", set->files[last->file].path);
    add_num(j, "value", last->value);
    cJSON_AddStringToObject(j, "status", bh_history_pi_status_name(r->newest.status));
    cJSON_AddNumberToObject(j, "reference_points", (double)r->newest.n);
    add_num(j, "level", level);
    add_num(j, "center", r->newest.center);
    add_num(j, "lo", r->newest.lo);
    add_num(j, "hi", r->newest.hi);
    add_num(j, "t", r->newest.t);
    add_num(j, "df", r->newest.df);
    add_num(j, "p", r->newest.p);
    add_num(j, "q", r->newest_q);
    return j;
}

static cJSON *series_json(const bh_history_set *set, const bh_history_result *r,
                          double level)
{
    const bh_history_series *s = r->series;
    cJSON *j = cJSON_CreateObject();
    cJSON *cps;

    cJSON_AddStringToObject(j, "config", s->config);
    cJSON_AddStringToObject(j, "case", s->case_id);
    cJSON_AddNumberToObject(j, "points", (double)s->n);
    cJSON_AddStringToObject(j, "first", set->files[s->pts[0].file].started_at);
    cJSON_AddStringToObject(j, "last", set->files[s->pts[s->n - 1].file].started_at);
    cps = cJSON_AddArrayToObject(j, "change_points");
    for (size_t k = 0; k < r->n_cps; k++)
        cJSON_AddItemToArray(cps, cp_json(set, s, &r->cps[k]));
    cJSON_AddItemToObject(j, "newest", newest_json(set, r, level));
    return j;
}

cJSON *bh_history_json(const char *root, const bh_history_set *set,
                       const bh_history_analysis_opts *o, const bh_history_analysis *a)
{
    cJSON *doc = cJSON_CreateObject();
    cJSON *files, *warnings, *series;

    cJSON_AddStringToObject(doc, "schema", BH_HISTORY_SCHEMA);
    cJSON_AddStringToObject(doc, "root", root);
    cJSON_AddItemToObject(doc, "options", options_json(o));
    files = cJSON_AddObjectToObject(doc, "files");
    cJSON_AddNumberToObject(files, "read", (double)set->n_files);
    cJSON_AddNumberToObject(files, "skipped", (double)set->n_skipped);
    cJSON_AddNumberToObject(files, "other_config", (double)set->n_other_config);
    warnings = cJSON_AddArrayToObject(doc, "warnings");
    for (size_t i = 0; i < set->n_warnings; i++)
        cJSON_AddItemToArray(warnings, cJSON_CreateString(set->warnings[i]));
    series = cJSON_AddArrayToObject(doc, "series");
    for (size_t i = 0; i < a->n; i++)
        if (a->r[i].series->n > 0)
            cJSON_AddItemToArray(series, series_json(set, &a->r[i], o->pi_level));
    return doc;
}
