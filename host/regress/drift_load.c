// SPDX-License-Identifier: MIT
/* The drift floor's history, read from the results store (see drift.h). */
#include "drift.h"

#include "result_view.h"
#include "store.h"

#include <stdlib.h>

int bh_regress_drift_from_store(bh_regress_report *r, const bh_regress_config *cfg,
                                const char *target, const cJSON *base_doc,
                                const cJSON *cand_doc, bh_error *e)
{
    bh_result_view base, cand;
    const char *name, *fp, *before;
    bh_error ignored = {""};
    bh_store_recent *h = NULL;
    bh_store *s;
    size_t n = 0;
    int rc = 0;

    bh_result_view_load_top(base_doc, &base);
    bh_result_view_load_top(cand_doc, &cand);
    name = cand.run.config_name;
    fp = cand.system.fingerprint_hash;
    before = base.run.started_at;
    if (cfg->drift_window == 0 || !target || !name || !fp || !before ||
        !bh_store_exists(target, &ignored))
        goto out;
    s = bh_store_open(target, e);
    if (!s) {
        rc = -1;
        goto out;
    }
    rc = bh_store_recent_values(s, name, fp, before, cfg->drift_window, &h, &n, e);
    bh_store_close(s);
    if (rc == 0)
        bh_regress_apply_drift(r, cfg, h, n);
    bh_store_recent_free(h, n);
out:
    bh_result_view_free(&base);
    bh_result_view_free(&cand);
    return rc;
}
