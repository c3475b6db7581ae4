// SPDX-License-Identifier: MIT
/* The summary object of a result case (result_summary.h). */
#include "result_summary.h"

#include "bh_json_write.h"

/* See result_summary.h. */
cJSON *bh_result_summary_json(const bh_summary *s)
{
    cJSON *o = cJSON_CreateObject();
    cJSON *tukey;
    cJSON *flags;
    static const char *const flag_names[] = {"high_cv",     "short_samples", "severe_outliers",
                                             "between_run", "warmup_drift",  "too_few"};

    cJSON_AddStringToObject(o, "unit", "ns/iter");
    cJSON_AddNumberToObject(o, "n", (double)s->n);
    cJSON_AddNumberToObject(o, "runs", (double)s->n_runs);
    bh_json_add_num(o, "min", s->min);
    bh_json_add_num(o, "max", s->max);
    bh_json_add_num(o, "mean", s->mean);
    bh_json_add_num(o, "sd", s->sd);
    bh_json_add_num(o, "cv", s->cv);
    bh_json_add_num(o, "median", s->median);
    bh_json_add_num(o, "mad", s->mad);
    bh_json_add_num(o, "q1", s->q1);
    bh_json_add_num(o, "q3", s->q3);
    bh_json_add_num(o, "p5", s->p5);
    bh_json_add_num(o, "p95", s->p95);
    bh_json_add_num(o, "p99", s->p99);
    bh_json_add_num(o, "median_ci_lo", s->median_ci_lo);
    bh_json_add_num(o, "median_ci_hi", s->median_ci_hi);
    bh_json_add_num(o, "median_ci_level", s->median_ci_level);
    bh_json_add_num(o, "mean_boot_lo", s->mean_boot_lo);
    bh_json_add_num(o, "mean_boot_hi", s->mean_boot_hi);
    bh_json_add_num(o, "median_boot_lo", s->median_boot_lo);
    bh_json_add_num(o, "median_boot_hi", s->median_boot_hi);
    bh_json_add_num(o, "within_run_cv", s->within_run_cv);
    bh_json_add_num(o, "between_run_cv", s->between_run_cv);
    bh_json_add_num(o, "run_median_median", s->run_median_median);
    bh_json_add_num(o, "mde", s->mde);
    tukey = cJSON_AddObjectToObject(o, "tukey");
    cJSON_AddNumberToObject(tukey, "low_severe", (double)s->low_severe);
    cJSON_AddNumberToObject(tukey, "low_mild", (double)s->low_mild);
    cJSON_AddNumberToObject(tukey, "high_mild", (double)s->high_mild);
    cJSON_AddNumberToObject(tukey, "high_severe", (double)s->high_severe);
    flags = cJSON_AddArrayToObject(o, "flags");
    for (unsigned i = 0; i < sizeof(flag_names) / sizeof(*flag_names); i++)
        if (s->flags & (1u << i))
            cJSON_AddItemToArray(flags, cJSON_CreateString(flag_names[i]));
    return o;
}
