// SPDX-License-Identifier: MIT
/* Leaks of host-API allocations into run warnings or failures. */
#include "leak_check.h"

#include "bh_mem.h"
#include "ipc.h"

#include <math.h>
#include <stdlib.h>

/* See leak_check.h. */
void bh_leak_of(const bh_run *r, double *bytes, double *count)
{
    const cJSON *a = r->result ? cJSON_GetObjectItemCaseSensitive(r->result, "alloc") : NULL;
    double b = bh_json_num(a, "leaked_bytes", 0), n = bh_json_num(a, "leaked_count", 0);

    *bytes = isfinite(b) && b > 0 ? b : 0;
    *count = isfinite(n) && n > 0 ? n : 0;
}

/* See leak_check.h. */
void bh_leak_check(bh_run *r, int fail)
{
    double bytes, count;
    char *what;

    bh_leak_of(r, &bytes, &count);
    if (count <= 0)
        return;
    what = bh_xasprintf("leak: %.0f byte%s in %.0f host-API allocation%s not freed by destroy",
                        bytes, bytes == 1 ? "" : "s", count, count == 1 ? "" : "s");
    if (fail && r->status == BH_ST_OK) {
        r->status = BH_ST_FAILED;
        free(r->message);
        r->message = bh_xasprintf("%s (leaks: fail)", what);
    } else {
        char *w = r->warning
                      ? bh_xasprintf("%s; %s (a warning; leaks: fail fails the run)", r->warning,
                                     what)
                      : bh_xasprintf("%s (a warning; leaks: fail fails the run)", what);

        free(r->warning);
        r->warning = w;
    }
    free(what);
}
