// SPDX-License-Identifier: MIT
/*
 * bh_plugin_metric.c -- metrics by kind for the in-tree plugins: ABI 1.1's
 * report_metric_kind() where the host has it, the 1.0 behaviour where not
 * (contracts in bh_plugin.h; the kinds: plugin-api/README.md section 6.2),
 * and the error accumulator that verify() functions report from.
 */
#include "bh_plugin.h"

#include <math.h>
#include <stddef.h>

/* Whether the bound host table has report_metric_kind() (ABI 1.1). */
static int host_has_kinds(void)
{
    return BHOST_HAS(bhost_host_api, bh_plugin_api, report_metric_kind) &&
           bh_plugin_api->report_metric_kind != NULL;
}

bhost_status bh_plugin_metric(bhost_host *h, const char *name, const char *unit,
                              bhost_direction direction, double value)
{
    return bh_plugin_api->report_metric(h, name, unit, direction, value);
}

bhost_status bh_plugin_metric_info(bhost_host *h, const char *name, const char *unit,
                                   double value)
{
    /* A 1.0 host would compare it as a performance metric: leave it out. */
    if (!host_has_kinds())
        return BHOST_OK;
    return bh_plugin_api->report_metric_kind(h, name, unit, BHOST_METRIC_INFORMATIONAL,
                                             BHOST_HIGHER_IS_BETTER, value, 0.0);
}

bhost_status bh_plugin_metric_error(bhost_host *h, const char *name, const char *unit,
                                    double value, double limit)
{
    if (!host_has_kinds())
        return BHOST_OK;
    return bh_plugin_api->report_metric_kind(h, name, unit, BHOST_METRIC_CORRECTNESS,
                                             BHOST_LOWER_IS_BETTER, value, limit);
}

void bh_plugin_err_add(bh_plugin_err *e, uint64_t i, double got, double ref, double tol)
{
    double d = fabs(got - ref);
    double r = d / (tol > 0 ? tol : 1e-300);

    if (!(d == d)) /* NaN compares false: force a failure */
        r = INFINITY;
    if (d > e->max_abs || !(d == d))
        e->max_abs = d == d ? d : INFINITY;
    if (!(r <= e->max_ratio)) {
        e->max_ratio = r;
        e->worst = i;
        e->worst_got = got;
        e->worst_ref = ref;
        e->worst_tol = tol;
    }
}
