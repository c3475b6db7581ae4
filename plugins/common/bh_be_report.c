// SPDX-License-Identifier: MIT
/*
 * bh_be_report.c -- a backend's messages to the host: set_error and log
 * lines that start with the backend's name, informational metrics.
 */
#include <bhost/backend_helper.h>

#include <stdarg.h>
#include <stdio.h>

/* "<name>: " and fmt with ap into msg (cap bytes, truncated). */
static void format(const bh_be *be, char *msg, size_t cap, const char *fmt,
                   va_list ap) BH_BE_PRINTF(4, 0);
static void format(const bh_be *be, char *msg, size_t cap, const char *fmt,
                   va_list ap)
{
    int len = snprintf(msg, cap, "%s: ", be->name);

    if (len < 0 || (size_t)len >= cap)
        return;
    vsnprintf(msg + len, cap - (size_t)len, fmt, ap);
}

bhost_status bh_be_fail(const bh_be *be, bhost_host *h, bhost_status st,
                        const char *fmt, ...)
{
    char msg[512];
    va_list ap;

    va_start(ap, fmt);
    format(be, msg, sizeof(msg), fmt, ap);
    va_end(ap);
    if (be->api != NULL)
        be->api->set_error(h, msg);
    return st;
}

void bh_be_log(const bh_be *be, bhost_host *h, bhost_log_level level,
               const char *fmt, ...)
{
    char msg[512];
    va_list ap;

    va_start(ap, fmt);
    format(be, msg, sizeof(msg), fmt, ap);
    va_end(ap);
    if (be->api != NULL)
        be->api->log(h, level, msg);
}

bhost_status bh_be_metric_info(const bh_be *be, bhost_host *h, const char *name,
                               const char *unit, double value)
{
    /* A 1.0 host would compare it as a performance metric: leave it out. */
    if (be->api == NULL || !BHOST_HAS(bhost_host_api, be->api, report_metric_kind) ||
        be->api->report_metric_kind == NULL)
        return BHOST_OK;
    return be->api->report_metric_kind(h, name, unit, BHOST_METRIC_INFORMATIONAL,
                                       BHOST_HIGHER_IS_BETTER, value, 0.0);
}
