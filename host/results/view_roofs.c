// SPDX-License-Identifier: MIT
/* The ceilings of a run in the result view (see result_view.h). */
#include "result_view.h"

#include "view_json.h"

#include <string.h>

/* See result_view.h. */
bh_rv_ceiling bh_rv_roofs_ceiling(const bh_rv_roofs *r, size_t i)
{
    const cJSON *k = i < r->n_ceilings ? cJSON_GetArrayItem(r->ceilings, (int)i) : NULL;
    bh_rv_ceiling c;

    memset(&c, 0, sizeof(c));
    c.name = bh_vj_str(k, "name", "?");
    c.kind = bh_vj_str(k, "kind", "?");
    c.level = bh_vj_str(k, "level", NULL);
    c.access = bh_vj_str(k, "access", NULL);
    c.compute = bh_vj_str(k, "compute", NULL);
    c.at = bh_vj_str(k, "at", NULL);
    c.unit = bh_vj_str(k, "unit", "");
    c.case_id = bh_vj_str(k, "case", NULL);
    c.threads = bh_vj_num(k, "threads");
    c.value = bh_vj_num(k, "value");
    return c;
}
