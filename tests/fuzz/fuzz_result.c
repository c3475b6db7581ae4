// SPDX-License-Identifier: MIT
/* libFuzzer target: the strict result reader (bh_result_parse: size and
 * depth limits, JSON, schema check, duplicate ids) and, on documents it
 * accepts, the typed view every command reads them through (cases, runs,
 * metrics, verdicts, roofs) and the per-case figures the regression
 * engine applies to result and baseline files from elsewhere. */
#include "result_read.h"
#include "result_view.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Reads every field of case c that takes arithmetic or ownership. */
static void read_case(const bh_result_view *v, const bh_rv_case *c)
{
    double *m = NULL;
    size_t n = 0;

    if (bh_result_view_find(v, c->id) == NULL || bh_result_find_case(v->doc, c->id) == NULL)
        abort(); /* validated ids must be found */
    bh_rv_case_run_medians(c, &m, &n);
    for (size_t i = 0; i < n; i++)
        if (!(m[i] > 0))
            abort(); /* run medians are positive */
    free(m);
    for (size_t i = 0; i < c->n_runs; i++)
        (void)bh_rv_run_metric_value(&c->runs[i], "tokens_per_s");
    for (size_t i = 0; i < c->n_metrics; i++)
        for (size_t k = 1; k < c->metrics[i].n_values; k++)
            if (c->metrics[i].values[k] < c->metrics[i].values[k - 1])
                abort(); /* the view keeps a metric's values sorted */
    if (c->n_changes && !c->head)
        abort(); /* a verdict with changes has a headline */
}

/* Parses the input as a result document and reads it through the view. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    bh_error e = {""};
    cJSON *doc = bh_result_parse((const char *)data, size, "fuzz.json", &e);
    bh_result_view v;

    if (!doc) {
        if (!e.msg[0])
            abort(); /* a refusal must say why */
        return 0;
    }
    bh_result_view_load(doc, &v);
    if (v.n_cases != v.cases_total)
        abort(); /* every validated case has a string id */
    for (size_t i = 0; i < v.n_cases; i++)
        read_case(&v, &v.cases[i]);
    for (size_t i = 0; i < v.roofs.n_ceilings; i++)
        (void)bh_rv_roofs_ceiling(&v.roofs, i);
    bh_result_view_free(&v);
    cJSON_Delete(doc);
    return 0;
}
