// SPDX-License-Identifier: MIT
/* Trend data for the HTML report through the history module (see
 * report.h): the series of the report's own config and cases. */
#include "report.h"

#include "bh_mem.h"
#include "result_view.h"

#include <stdlib.h>
#include <string.h>

typedef struct id_set {
    const char **ids; /* sorted */
    size_t n;
} id_set;

/* qsort/bsearch order of C strings. */
static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* history filter callback: keeps the case ids of the report's document */
static int in_doc(const char *case_id, void *ctx)
{
    const id_set *s = ctx;

    return bsearch(&case_id, s->ids, s->n, sizeof(char *), cmp_str) != NULL;
}

/* See report.h. */
int bh_report_history_load(const char *root, const cJSON *doc, bh_report_history *h,
                           bh_error *e)
{
    bh_result_view view;
    id_set ids = {NULL, 0};
    bh_history_filter filter;
    bh_history_analysis_opts ao;
    int rc;

    memset(h, 0, sizeof(*h));
    h->root = bh_xstrdup(root);
    bh_result_view_load(doc, &view);
    ids.ids = bh_xcalloc(view.n_cases + 1, sizeof(char *));
    for (size_t i = 0; i < view.n_cases; i++)
        ids.ids[ids.n++] = view.cases[i].id;
    qsort(ids.ids, ids.n, sizeof(char *), cmp_str);
    memset(&filter, 0, sizeof(filter));
    filter.match = in_doc;
    filter.match_ctx = &ids;
    filter.config = view.run.config_name;
    rc = bh_history_load(root, &filter, &h->set, e);
    if (rc == 0) {
        bh_history_analysis_opts_default(&ao);
        if (bh_history_analyze(&h->set, &ao, &h->an) != 0)
            rc = bh_error_set(e, "%s: the history analysis failed", root);
    }
    free(ids.ids);
    bh_result_view_free(&view);
    return rc;
}

/* See report.h. */
void bh_report_history_free(bh_report_history *h)
{
    bh_history_analysis_free(&h->an);
    bh_history_set_free(&h->set);
    free(h->root);
    memset(h, 0, sizeof(*h));
}
