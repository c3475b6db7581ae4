#include "units.h"

#include <math.h>
#include <stdio.h>

/* Three significant digits of v. */
static void sig3(double v, const char *unit, char *buf, size_t cap)
{
    double a = fabs(v);

    if (a >= 100)
        snprintf(buf, cap, "%.0f %s", v, unit);
    else if (a >= 10)
        snprintf(buf, cap, "%.1f %s", v, unit);
    else
        snprintf(buf, cap, "%.2f %s", v, unit);
}

void bh_fmt_time(double ns, char *buf, size_t cap)
{
    if (!isfinite(ns))
        snprintf(buf, cap, "-");
    else if (fabs(ns) < 1)
        sig3(ns * 1e3, "ps", buf, cap);
    else if (fabs(ns) < 1e3)
        sig3(ns, "ns", buf, cap);
    else if (fabs(ns) < 1e6)
        sig3(ns / 1e3, "us", buf, cap);
    else if (fabs(ns) < 1e9)
        sig3(ns / 1e6, "ms", buf, cap);
    else
        sig3(ns / 1e9, "s", buf, cap);
}

void bh_fmt_rate(double per_s, const char *unit, char *buf, size_t cap)
{
    static const char *const prefix[] = {"", "k", "M", "G", "T", "P", "E"};
    int k = 0;
    char u[32];

    if (!isfinite(per_s)) {
        snprintf(buf, cap, "-");
        return;
    }
    while (fabs(per_s) >= 1000 && k < 6) {
        per_s /= 1000;
        k++;
    }
    snprintf(u, sizeof(u), "%s%s", prefix[k], unit);
    sig3(per_s, u, buf, cap);
}

void bh_fmt_pct(double fraction, char *buf, size_t cap)
{
    if (!isfinite(fraction))
        snprintf(buf, cap, "-");
    else
        snprintf(buf, cap, "%.2f%%", fraction * 100);
}
