// SPDX-License-Identifier: MIT
#include "rules.h"

#include "bh_mem.h"
#include "describe.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Formats a reason into why; returns -1 (a rule broken). */
static int broken(char *why, size_t cap, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int broken(char *why, size_t cap, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(why, cap, fmt, ap);
    va_end(ap);
    return -1;
}

/* True when s is non-empty, at most max bytes, made of [a-z0-9] and the
 * bytes in extra, and starts with a letter or digit. */
static int word(const char *s, size_t max, const char *extra)
{
    size_t n = 0;

    if (!s || !((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9')))
        return 0;
    for (; s[n]; n++)
        if (n >= max || !((s[n] >= 'a' && s[n] <= 'z') ||
                          (s[n] >= '0' && s[n] <= '9') || strchr(extra, s[n])))
            return 0;
    return 1;
}

/* A printable rendering of at most 64 bytes of s for a reason: control
 * and non-ASCII bytes as \xNN, "(null)" for NULL. */
static const char *quoted(const char *s, char out[300])
{
    size_t k = 0;

    if (!s)
        return "(null)";
    for (size_t i = 0; s[i] && i < 64; i++) {
        unsigned char c = (unsigned char)s[i];

        if (c < 0x20 || c >= 0x7f)
            k += (size_t)snprintf(out + k, 300 - k, "\\x%02x", c);
        else
            out[k++] = (char)c;
    }
    out[k] = '\0';
    if (strnlen(s, 65) > 64)
        snprintf(out + k, 300 - k, "...");
    return out;
}

int bh_rules_bench_size(const bhost_bench_desc *d, char *why, size_t cap)
{
    if (d->struct_size < BHOST_BENCH_DESC_SIZE_1_0)
        return broken(why, cap,
                      "struct_size %u, smaller than the ABI 1.0 size %zu",
                      d->struct_size, (size_t)BHOST_BENCH_DESC_SIZE_1_0);
    return 0;
}

int bh_rules_bench_size_warning(const bhost_bench_desc *d, char *why,
                                size_t cap)
{
    if (d->struct_size <= BH_RULE_DESC_SIZE_MAX ||
        d->struct_size <= sizeof(bhost_bench_desc))
        return 0;
    snprintf(why, cap,
             "struct_size %u is implausibly large (this host's descriptor "
             "is %zu bytes, later ABI minors only append fields): set it "
             "to sizeof(bhost_bench_desc)",
             d->struct_size, sizeof(bhost_bench_desc));
    return 1;
}

int bh_rules_bench_id(const char *id, char *why, size_t cap)
{
    char q[300];

    if (word(id, BH_RULE_ID_MAX, "_.-"))
        return 0;
    return broken(why, cap,
                  "id '%s' does not match [a-z0-9_.-]+ (starting with a "
                  "letter or digit, at most %d bytes)",
                  quoted(id, q), BH_RULE_ID_MAX);
}

int bh_rules_bench_functions(const bhost_bench_desc *d, char *why,
                             size_t cap)
{
    uint32_t unknown =
        d->flags & ~(uint32_t)(BHOST_BENCH_NEEDS_DEVICE | BHOST_BENCH_MANUAL_TIMING |
                               BHOST_BENCH_CEILING | BHOST_BENCH_MULTI_RANK);
    int ranks_param = 0;

    if (unknown)
        return broken(why, cap, "unknown flag bits 0x%x", unknown);
    for (uint32_t i = 0; (d->flags & BHOST_BENCH_MULTI_RANK) && d->params && i < d->param_count;
         i++) {
        const bhost_param_desc *p = bh_rules_param_at(d, i);

        ranks_param |= p->key && strcmp(p->key, "ranks") == 0 && p->type == BHOST_PARAM_I64 &&
                       p->min <= p->max && p->min >= 1;
    }
    if ((d->flags & BHOST_BENCH_MULTI_RANK) && !ranks_param)
        return broken(why, cap, "BHOST_BENCH_MULTI_RANK without an I64 parameter \"ranks\" "
                                "whose range starts at 1 or above (bhost/ranks.h)");
    if (d->reserved != 0)
        return broken(why, cap, "reserved is %u, must be 0", d->reserved);
    if (!d->create || !d->run || !d->destroy)
        return broken(why, cap, "%s%s%sis NULL", d->create ? "" : "create ",
                      d->run ? "" : "run ", d->destroy ? "" : "destroy ");
    return 0;
}

int bh_rules_bench_caps(const bhost_bench_desc *d, char *why, size_t cap)
{
    bhost_caps unknown = d->required_caps & ~BHOST_CAPS_KNOWN;

    if (unknown & UINT64_C(0xFFFFFFFF))
        return broken(why, cap,
                      "required_caps has bits 0x%llx that bhost does not "
                      "define",
                      (unsigned long long)(unknown & 0xFFFFFFFFu));
    return 0;
}

int bh_rules_params_layout(const bhost_bench_desc *d, char *why, size_t cap)
{
    uint32_t stride;

    if (d->param_count == 0)
        return 0;
    if (!d->params || d->param_count > BH_RULE_PARAMS_MAX)
        return broken(why, cap,
                      "param_count %u with params %s (expected a non-NULL "
                      "array of at most %d)",
                      d->param_count, d->params ? "set" : "NULL",
                      BH_RULE_PARAMS_MAX);
    stride = d->params[0].struct_size;
    if (stride < BHOST_PARAM_DESC_SIZE_1_0)
        return broken(why, cap,
                      "params[0].struct_size %u, smaller than the ABI 1.0 "
                      "size %zu",
                      stride, (size_t)BHOST_PARAM_DESC_SIZE_1_0);
    for (uint32_t i = 1; i < d->param_count; i++)
        if (bh_rules_param_at(d, i)->struct_size != stride)
            return broken(why, cap,
                          "params[%u].struct_size %u differs from "
                          "params[0]'s %u (all elements must match)",
                          i, bh_rules_param_at(d, i)->struct_size, stride);
    return 0;
}

const bhost_param_desc *bh_rules_param_at(const bhost_bench_desc *d,
                                          uint32_t i)
{
    uint32_t stride = d->params[0].struct_size;

    return (const bhost_param_desc *)(const void *)((const char *)d->params +
                                                    (size_t)i * stride);
}

int bh_rules_parse_default(bhost_param_type type, const char *text,
                           double *num, int64_t *ival)
{
    char *end = NULL;

    *num = 0;
    *ival = 0;
    if (type == BHOST_PARAM_STR)
        return 0;
    if (type == BHOST_PARAM_BOOL) {
        *ival = strcmp(text, "true") == 0;
        return strcmp(text, "true") == 0 || strcmp(text, "false") == 0 ? 0
                                                                         : -1;
    }
    errno = 0;
    *ival = strtoll(text, &end, 10);
    if (*text && *end == '\0' && errno == 0) {
        *num = (double)*ival;
        return 0;
    }
    if (type != BHOST_PARAM_F64)
        return -1;
    *num = strtod(text, &end);
    return *text && *end == '\0' && isfinite(*num) ? 0 : -1;
}

/* The choices rules of p (see bh_rules_param). */
static int check_choices(const bhost_param_desc *p, const char *type,
                         char *why, size_t cap)
{
    int found = 0;
    size_t i = 0;
    char q[300];

    if (!p->choices)
        return 0;
    if (p->type != BHOST_PARAM_STR)
        return broken(why, cap, "choices given for a %s parameter (STR only)",
                      type);
    for (; i < BH_RULE_CHOICES_MAX && p->choices[i]; i++) {
        if (!*p->choices[i])
            return broken(why, cap, "choice %zu is empty", i);
        if (strnlen(p->choices[i], BH_RULE_TEXT_MAX + 1) > BH_RULE_TEXT_MAX)
            return broken(why, cap, "choice %zu is longer than %d bytes", i,
                          BH_RULE_TEXT_MAX);
        if (p->default_value && strcmp(p->choices[i], p->default_value) == 0)
            found = 1;
    }
    if (i == 0)
        return broken(why, cap, "choices list is empty (use NULL for free "
                                "text)");
    if (i == BH_RULE_CHOICES_MAX)
        return broken(why, cap, "choices list not NULL-terminated within %d "
                                "entries",
                      BH_RULE_CHOICES_MAX);
    if (p->default_value && !found)
        return broken(why, cap, "default '%s' is not one of the choices",
                      quoted(p->default_value, q));
    return 0;
}

int bh_rules_param(const bhost_bench_desc *d, uint32_t i, char *why,
                   size_t cap)
{
    const bhost_param_desc *p = bh_rules_param_at(d, i);
    const char *type = bh_param_type_name(p->type);
    double num = 0;
    int64_t ival = 0;
    char q[300];

    if (!word(p->key, BH_RULE_KEY_MAX, "_"))
        return broken(why, cap, "key '%s' does not match [a-z0-9_]+ (at most "
                                "%d bytes)",
                      quoted(p->key, q), BH_RULE_KEY_MAX);
    for (uint32_t k = 0; k < i; k++)
        if (bh_rules_param_at(d, k)->key &&
            strcmp(bh_rules_param_at(d, k)->key, p->key) == 0)
            return broken(why, cap, "key '%s' declared twice", p->key);
    if (!type)
        return broken(why, cap,
                      "unknown type %d (expected I64, F64, STR or BOOL)",
                      p->type);
    if (p->default_value &&
        strnlen(p->default_value, BH_RULE_TEXT_MAX + 1) > BH_RULE_TEXT_MAX)
        return broken(why, cap, "default of %zu bytes is longer than %d",
                      strlen(p->default_value), BH_RULE_TEXT_MAX);
    if (p->default_value &&
        bh_rules_parse_default(p->type, p->default_value, &num, &ival) != 0)
        return broken(why, cap, "default '%s' does not parse as %s",
                      quoted(p->default_value, q), type);
    if (check_choices(p, type, why, cap) != 0)
        return -1;
    if (p->default_value && p->min <= p->max &&
        (p->type == BHOST_PARAM_I64 || p->type == BHOST_PARAM_F64) &&
        (num < p->min || num > p->max))
        return broken(why, cap, "default %s outside [%g, %g]",
                      p->default_value, p->min, p->max);
    return 0;
}

int bh_rules_bench(const bhost_bench_desc *d, char *why, size_t cap)
{
    char inner[512];

    if (bh_rules_bench_size(d, why, cap) != 0 ||
        bh_rules_bench_id(d->id, why, cap) != 0 ||
        bh_rules_bench_functions(d, why, cap) != 0 ||
        bh_rules_bench_caps(d, why, cap) != 0 ||
        bh_rules_params_layout(d, why, cap) != 0)
        return -1;
    for (uint32_t i = 0; i < d->param_count; i++)
        if (bh_rules_param(d, i, inner, sizeof(inner)) != 0)
            return broken(why, cap, "parameter #%u: %s", i, inner);
    return 0;
}

int bh_rules_sample(const char *timing, uint64_t ns, uint64_t wall_ns,
                    char *why, size_t cap)
{
    int manual = strcmp(timing, "manual") == 0;
    uint64_t most = wall_ns + wall_ns / 4 + 100000;

    if (!manual && strcmp(timing, "device") != 0)
        return 0;
    if (manual && ns == 0)
        return broken(why, cap,
                      "manual timing: set_iteration_time_ns(0): a sample "
                      "cannot take 0 ns");
    if (ns > most)
        return broken(why, cap,
                      "%s timing: %llu ns reported for a run() call that "
                      "took %llu ns of wall time",
                      timing, (unsigned long long)ns,
                      (unsigned long long)wall_ns);
    return 0;
}

int bh_rules_work(const char *name, double v, char *why, size_t cap)
{
    if (isfinite(v) && v >= 0)
        return 0;
    return broken(why, cap,
                  "%s returned %g (work per iteration must be finite and "
                  ">= 0)",
                  name, v);
}

/* Length of the valid UTF-8 sequence at s (1..4), or 0. */
static size_t utf8_len(const unsigned char *s)
{
    size_t n;

    if (s[0] < 0x80)
        return 1;
    if (s[0] >= 0xc2 && s[0] <= 0xdf)
        n = 2;
    else if (s[0] >= 0xe0 && s[0] <= 0xef)
        n = 3;
    else if (s[0] >= 0xf0 && s[0] <= 0xf4)
        n = 4;
    else
        return 0;
    for (size_t i = 1; i < n; i++)
        if ((s[i] & 0xc0) != 0x80)
            return 0;
    if ((s[0] == 0xe0 && s[1] < 0xa0) || (s[0] == 0xed && s[1] >= 0xa0) ||
        (s[0] == 0xf0 && s[1] < 0x90) || (s[0] == 0xf4 && s[1] >= 0x90))
        return 0;
    return n;
}

char *bh_rules_clean_text(const char *s, size_t max, int keep_lines,
                          size_t *len_out)
{
    size_t n = s ? strnlen(s, max) : 0;
    char *out = bh_xmalloc(n + 1);
    const unsigned char *u = (const unsigned char *)s;
    size_t i = 0;

    if (len_out)
        *len_out = s ? n + strlen(s + n) : 0;
    while (i < n) {
        size_t k = utf8_len(u + i);

        if (k == 0 || i + k > n) {
            out[i++] = '?';
            continue;
        }
        if (k > 1) {
            memcpy(out + i, u + i, k);
            i += k;
            continue;
        }
        out[i] = (char)u[i];
        if ((u[i] < 0x20 || u[i] == 0x7f) &&
            !(keep_lines && (u[i] == '\n' || u[i] == '\t')))
            out[i] = '?';
        i++;
    }
    out[n] = '\0';
    return out;
}
