// SPDX-License-Identifier: MIT
/* The drift floor's history, read from the results store (see drift.h). */
#include "drift.h"

#include "store.h"

#include <stdlib.h>

/* doc.a.b as a string, or NULL. */
static const char *str2(const cJSON *doc, const char *a, const char *b)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(doc, a), b);

    return cJSON_IsString(v) ? v->valuestring : NULL;
}

int bh_regress_drift_from_store(bh_regress_report *r, const bh_regress_config *cfg,
                                const char *target, const cJSON *base_doc,
                                const cJSON *cand_doc, bh_error *e)
{
    const cJSON *name = cJSON_GetObjectItemCaseSensitive(
        cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(cand_doc, "run"),
                                         "config"),
        "name");
    const char *fp = str2(cand_doc, "system", "fingerprint_hash");
    const char *before = str2(base_doc, "run", "started_at");
    bh_error ignored = {""};
    bh_store_recent *h = NULL;
    bh_store *s;
    size_t n = 0;
    int rc;

    if (cfg->drift_window == 0 || !target || !cJSON_IsString(name) || !fp || !before ||
        !bh_store_exists(target, &ignored))
        return 0;
    s = bh_store_open(target, e);
    if (!s)
        return -1;
    rc = bh_store_recent_values(s, name->valuestring, fp, before, cfg->drift_window, &h, &n, e);
    bh_store_close(s);
    if (rc == 0)
        bh_regress_apply_drift(r, cfg, h, n);
    bh_store_recent_free(h, n);
    return rc;
}
