// SPDX-License-Identifier: MIT
/* See callgrind_out.h. */
#include "callgrind_out.h"

#include <string.h>

#define MAX_EVENTS 64

/* The events of the file and the sums being built. */
typedef struct cg_state {
    const char *file;
    char names[MAX_EVENTS][32];
    size_t n_events;
    char events_text[256]; /* the first events: line, to compare a repeat */
    int events_line;
    uint64_t sum[MAX_EVENTS];
    int part_has_summary; /* the current part had a summary: line */
    uint64_t part_totals[MAX_EVENTS];
    int part_has_totals;
    unsigned parts;
} cg_state;

/* True when line (len bytes) starts with key followed by ':'; *rest is
 * what follows, leading blanks skipped. */
static int header(const char *line, size_t len, const char *key, const char **rest)
{
    size_t k = strlen(key);

    if (len <= k || strncmp(line, key, k) != 0 || line[k] != ':')
        return 0;
    *rest = line + k + 1;
    while (*rest < line + len && (**rest == ' ' || **rest == '\t'))
        (*rest)++;
    return 1;
}

/* The next blank-separated word of [*p, end) into w (len *wl); 0 at the
 * end. */
static int word(const char **p, const char *end, const char **w, size_t *wl)
{
    while (*p < end && (**p == ' ' || **p == '\t'))
        (*p)++;
    if (*p >= end)
        return 0;
    *w = *p;
    while (*p < end && **p != ' ' && **p != '\t')
        (*p)++;
    *wl = (size_t)(*p - *w);
    return 1;
}

/* The "events:" line: the event names, each once, Ir among them. */
static int read_events(cg_state *s, const char *p, const char *end, int ln, bh_error *e)
{
    const char *w;
    size_t wl;
    int has_ir = 0;

    if (s->n_events > 0) {
        /* Each part of a combined dump may repeat the events; they must not
           change. */
        if ((size_t)(end - p) >= sizeof(s->events_text) ||
            strncmp(s->events_text, p, (size_t)(end - p)) != 0 ||
            s->events_text[end - p] != '\0')
            return bh_error_set(e, "%s:%d: events: differs from the events of line %d", s->file,
                                ln, s->events_line);
        return 0;
    }
    if ((size_t)(end - p) < sizeof(s->events_text)) {
        memcpy(s->events_text, p, (size_t)(end - p));
        s->events_text[end - p] = '\0';
    }
    s->events_line = ln;
    while (word(&p, end, &w, &wl)) {
        if (s->n_events == MAX_EVENTS || wl >= sizeof(s->names[0]))
            return bh_error_set(e, "%s:%d: events: expected at most %d names of at most %zu "
                                   "bytes", s->file, ln, MAX_EVENTS, sizeof(s->names[0]) - 1);
        memcpy(s->names[s->n_events], w, wl);
        s->names[s->n_events][wl] = '\0';
        for (size_t i = 0; i < s->n_events; i++)
            if (strcmp(s->names[i], s->names[s->n_events]) == 0)
                return bh_error_set(e, "%s:%d: events: '%s' named twice", s->file, ln,
                                    s->names[i]);
        has_ir |= strcmp(s->names[s->n_events], "Ir") == 0;
        s->n_events++;
    }
    if (!has_ir)
        return bh_error_set(e, "%s:%d: events: expected Ir among the events (instructions "
                               "were not counted)", s->file, ln);
    return 0;
}

/* A "summary:" or "totals:" line into v (zeros where values are left
 * out). */
static int read_costs(const cg_state *s, const char *key, const char *p, const char *end,
                      int ln, uint64_t *v, bh_error *e)
{
    const char *w;
    size_t wl, k = 0;

    if (s->n_events == 0)
        return bh_error_set(e, "%s:%d: '%s:' before the 'events:' line", s->file, ln, key);
    memset(v, 0, sizeof(uint64_t) * MAX_EVENTS);
    while (word(&p, end, &w, &wl)) {
        uint64_t x = 0;

        if (k == s->n_events)
            return bh_error_set(e, "%s:%d: %s: more values than the %zu events", s->file, ln,
                                key, s->n_events);
        for (size_t i = 0; i < wl; i++) {
            unsigned d = (unsigned char)w[i] - '0';

            if (d > 9 || x > (UINT64_MAX - d) / 10)
                return bh_error_set(e, "%s:%d: %s: value %zu ('%.*s') is not a decimal "
                                       "integer below 2^64", s->file, ln, key, k + 1,
                                    (int)(wl > 40 ? 40 : wl), w);
            x = x * 10 + d;
        }
        v[k++] = x;
    }
    return 0;
}

/* Adds src to the sums, refusing an overflow. */
static int add_part(cg_state *s, const uint64_t *src, bh_error *e)
{
    for (size_t i = 0; i < s->n_events; i++) {
        if (s->sum[i] > UINT64_MAX - src[i])
            return bh_error_set(e, "%s: the %s totals of its parts overflow 2^64", s->file,
                                s->names[i]);
        s->sum[i] += src[i];
    }
    s->parts++;
    return 0;
}

/* Ends a part: its totals count when it had no summary. */
static int end_part(cg_state *s, bh_error *e)
{
    int rc = 0;

    if (!s->part_has_summary && s->part_has_totals)
        rc = add_part(s, s->part_totals, e);
    s->part_has_summary = 0;
    s->part_has_totals = 0;
    return rc;
}

/* The index of event name, or -1. */
static int event(const cg_state *s, const char *name)
{
    for (size_t i = 0; i < s->n_events; i++)
        if (strcmp(s->names[i], name) == 0)
            return (int)i;
    return -1;
}

/* Fills out from the sums: Ir, and the misses when the cache events are
 * all there. */
static int finish(const cg_state *s, bh_callgrind_counts *out, bh_error *e)
{
    static const char *const l1[] = {"I1mr", "D1mr", "D1mw"};
    static const char *const ll[] = {"ILmr", "DLmr", "DLmw"};
    int found = 0;

    memset(out, 0, sizeof(*out));
    out->ir = s->sum[event(s, "Ir")];
    out->parts = s->parts;
    for (int i = 0; i < 3; i++) {
        found += event(s, l1[i]) >= 0;
        found += event(s, ll[i]) >= 0;
    }
    if (found != 0 && found != 6)
        return bh_error_set(e, "%s: events: expected all of I1mr D1mr D1mw ILmr DLmr DLmw "
                               "(callgrind's --cache-sim=yes) or none, got %d of them",
                            s->file, found);
    out->has_cache = found == 6;
    for (int i = 0; i < 3 && out->has_cache; i++) {
        out->l1_misses += s->sum[event(s, l1[i])];
        out->ll_misses += s->sum[event(s, ll[i])];
    }
    return 0;
}

int bh_callgrind_parse(const char *text, size_t n, const char *file, bh_callgrind_counts *out,
                       bh_error *e)
{
    static cg_state zero;
    cg_state s = zero;
    const char *p = text ? text : "";
    const char *end = p + (text ? n : 0);
    int ln = 0;
    uint64_t v[MAX_EVENTS];

    s.file = file ? file : "callgrind output";
    memset(out, 0, sizeof(*out));
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *le = nl ? nl : end;
        size_t len = (size_t)(le - p);
        const char *rest;

        ln++;
        if (len > 0 && le[-1] == '\r')
            len--;
        if (header(p, len, "version", &rest)) {
            if (!(p + len - rest == 1 && *rest == '1') &&
                !(p + len - rest == 3 && strncmp(rest, "0x1", 3) == 0))
                return bh_error_set(e, "%s:%d: version: expected 1, got '%.*s'", s.file, ln,
                                    (int)(p + len - rest > 40 ? 40 : p + len - rest), rest);
        } else if (header(p, len, "part", &rest)) {
            if (end_part(&s, e) != 0)
                return -1;
        } else if (header(p, len, "events", &rest)) {
            if (read_events(&s, rest, p + len, ln, e) != 0)
                return -1;
        } else if (header(p, len, "summary", &rest)) {
            if (read_costs(&s, "summary", rest, p + len, ln, v, e) != 0 ||
                add_part(&s, v, e) != 0)
                return -1;
            s.part_has_summary = 1;
        } else if (header(p, len, "totals", &rest)) {
            if (read_costs(&s, "totals", rest, p + len, ln, s.part_totals, e) != 0)
                return -1;
            s.part_has_totals = 1;
        }
        p = nl ? nl + 1 : end;
    }
    if (end_part(&s, e) != 0)
        return -1;
    if (s.n_events == 0)
        return bh_error_set(e, "%s: no 'events:' line (not a callgrind output file?)", s.file);
    if (s.parts == 0)
        return bh_error_set(e, "%s: no 'summary:' or 'totals:' line (the worker ended before "
                               "callgrind wrote its totals?)", s.file);
    return finish(&s, out, e);
}
