// SPDX-License-Identifier: MIT
/* Durations, sizes and percentages as people write them in configs and on
 * the command line. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#define DURATION_HINT "expected a duration such as 500ms or 2s"
#define SIZE_HINT "expected a size such as 512MiB, 4GiB or 100k"
#define PERCENT_HINT "expected a percentage such as 5%% or a fraction such as 0.05"
#define MAX_FRACTION_DIGITS 9

/* A decimal number split at its point: whole.frac with frac_digits digits
 * after the point (frac < 10^frac_digits). */
typedef struct decimal {
    uint64_t whole;
    uint64_t frac;
    int frac_digits;
} decimal;

typedef struct unit {
    const char *suffix;
    uint64_t mult;
} unit;

/* Reads [0-9]+(\.[0-9]+)? or \.[0-9]+ from *s, advancing it. Returns 0,
 * -1 when there is no number or more than MAX_FRACTION_DIGITS digits after
 * the point, -2 when the whole part does not fit 64 bits. */
static int read_decimal(const char **s, decimal *d)
{
    const char *p = *s;
    int digits = 0;

    memset(d, 0, sizeof(*d));
    for (; *p >= '0' && *p <= '9'; p++, digits++) {
        uint64_t v = (uint64_t)(*p - '0');

        if (d->whole > (UINT64_MAX - v) / 10)
            return -2;
        d->whole = d->whole * 10 + v;
    }
    if (*p == '.') {
        p++;
        if (*p < '0' || *p > '9')
            return -1;
        for (; *p >= '0' && *p <= '9'; p++, digits++) {
            if (d->frac_digits == MAX_FRACTION_DIGITS)
                return -1;
            d->frac = d->frac * 10 + (uint64_t)(*p - '0');
            d->frac_digits++;
        }
    }
    if (!digits)
        return -1;
    *s = p;
    return 0;
}

/* d * mult, truncated to an integer, into *out; -1 on overflow. */
static int scale(const decimal *d, uint64_t mult, uint64_t *out)
{
    uint64_t pow10 = 1, q, r, whole, part;

    if (d->whole != 0 && mult > UINT64_MAX / d->whole)
        return -1;
    whole = d->whole * mult;
    for (int i = 0; i < d->frac_digits; i++)
        pow10 *= 10;
    /* frac * mult / pow10 without overflow: mult = q * pow10 + r. */
    q = mult / pow10;
    r = mult % pow10;
    part = d->frac * q + d->frac * r / pow10;
    if (whole > UINT64_MAX - part)
        return -1;
    *out = whole + part;
    return 0;
}

/* Parses "<decimal><suffix>" with suffix from units (or none: bare_mult)
 * into *out. Returns 0, -1 for bad syntax, -2 for overflow. */
static int parse_scaled(const char *text, const unit *units, size_t n,
                        uint64_t bare_mult, uint64_t *out)
{
    const char *p = text;
    decimal d;
    uint64_t mult = 0;
    int rc = text ? read_decimal(&p, &d) : -1;

    if (rc != 0)
        return rc;
    if (*p == '\0') {
        mult = bare_mult;
    } else {
        for (size_t i = 0; i < n; i++)
            if (strcmp(p, units[i].suffix) == 0)
                mult = units[i].mult;
        if (!mult)
            return -1;
    }
    return scale(&d, mult, out) == 0 ? 0 : -2;
}

int bh_parse_duration(const char *text, uint64_t *ns, bh_error *e)
{
    static const unit units[] = {
        {"ns", 1ULL},
        {"us", 1000ULL},
        {"ms", 1000000ULL},
        {"s", 1000000000ULL},
        {"m", 60ULL * 1000000000ULL},
        {"h", 3600ULL * 1000000000ULL},
    };
    int rc = parse_scaled(text, units, sizeof(units) / sizeof(units[0]),
                          1000000000ULL, ns);

    if (rc == -2)
        return bh_error_set(e, "duration '%s' is too large (the limit is "
                               "about 584 years)", text);
    if (rc != 0)
        return bh_error_set(e, DURATION_HINT ", got '%s'",
                            text ? text : "");
    return 0;
}

int bh_parse_size(const char *text, uint64_t *bytes, bh_error *e)
{
    static const unit units[] = {
        {"B", 1ULL},
        {"k", 1000ULL},
        {"K", 1000ULL},
        {"kB", 1000ULL},
        {"KB", 1000ULL},
        {"KiB", 1024ULL},
        {"M", 1000000ULL},
        {"MB", 1000000ULL},
        {"MiB", 1024ULL * 1024},
        {"G", 1000000000ULL},
        {"GB", 1000000000ULL},
        {"GiB", 1024ULL * 1024 * 1024},
        {"T", 1000000000000ULL},
        {"TB", 1000000000000ULL},
        {"TiB", 1024ULL * 1024 * 1024 * 1024},
    };
    int rc = parse_scaled(text, units, sizeof(units) / sizeof(units[0]), 1,
                          bytes);

    if (rc == -2)
        return bh_error_set(e, "size '%s' is too large (the limit is "
                               "16 EiB)", text);
    if (rc != 0)
        return bh_error_set(e, SIZE_HINT ", got '%s'", text ? text : "");
    return 0;
}

int bh_parse_percent(const char *text, double *fraction, bh_error *e)
{
    const char *p = text;
    decimal d;
    double v, pow10 = 1;
    int percent;

    if (!text || read_decimal(&p, &d) != 0)
        return bh_error_set(e, PERCENT_HINT ", got '%s'", text ? text : "");
    percent = *p == '%';
    if (percent)
        p++;
    if (*p != '\0')
        return bh_error_set(e, PERCENT_HINT ", got '%s'", text);
    for (int i = 0; i < d.frac_digits; i++)
        pow10 *= 10;
    v = (double)d.whole + (double)d.frac / pow10;
    if (percent)
        v /= 100.0;
    if (v > 1.0)
        return bh_error_set(e, "a percentage must be from 0%% to 100%% (or a "
                               "fraction from 0 to 1), got '%s'", text);
    *fraction = v;
    return 0;
}
