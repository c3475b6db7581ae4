// SPDX-License-Identifier: MIT
/* The grouped skip lines of the console summary (console.h): one line per
 * status and reason, with how many cases it covers and a glob that matches
 * them, instead of one line per case. */
#include "console.h"

#include "bh_mem.h"

#include <stdlib.h>
#include <string.h>

#define YELLOW "\033[33m"
#define RESET "\033[0m"

/* True for the statuses that are grouped: the case did not run here. */
static int is_skip(const char *status)
{
    return strcmp(status, "skipped") == 0 || strcmp(status, "unsupported") == 0;
}

/* See console.h. */
int bh_report_case_grouped(const bh_rv_case *c, int verbose)
{
    return !verbose && is_skip(c->status) && !c->verdict;
}

/* Length of the common prefix of a and b. */
static size_t common_prefix(const char *a, const char *b)
{
    size_t n = 0;

    while (a[n] && a[n] == b[n])
        n++;
    return n;
}

/* Length of the common suffix of a and b. */
static size_t common_suffix(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b), n = 0;

    while (n < la && n < lb && a[la - 1 - n] == b[lb - 1 - n])
        n++;
    return n;
}

/* A glob matching every id of the group (free() it): the id itself for one
 * case, else the common prefix cut back to a '/', '[' or ',' boundary, a
 * '*', and the common suffix when it starts at an '@' (the backend). */
static char *group_pattern(const bh_result_view *v, const size_t *members, size_t n)
{
    const char *first = v->cases[members[0]].id;
    size_t pre = strlen(first), suf = pre;

    if (n == 1)
        return bh_xstrdup(first);
    for (size_t i = 1; i < n; i++) {
        size_t p = common_prefix(first, v->cases[members[i]].id);
        size_t s = common_suffix(first, v->cases[members[i]].id);

        pre = p < pre ? p : pre;
        suf = s < suf ? s : suf;
    }
    while (pre > 0 && !strchr("/[,", first[pre - 1]))
        pre--;
    {
        const char *tail = first + strlen(first) - suf;
        const char *at = strchr(tail, '@');

        if (!at || (size_t)(at - first) < pre)
            at = "";
        return bh_xasprintf("%.*s*%s", (int)pre, first, at);
    }
}

/* See console.h. */
void bh_report_console_skips(FILE *out, const bh_result_view *v, int verbose, int color)
{
    size_t *members = bh_xcalloc(v->n_cases + 1, sizeof(size_t));
    unsigned char *done = bh_xcalloc(v->n_cases + 1, 1);

    for (size_t i = 0; i < v->n_cases; i++) {
        const bh_rv_case *c = &v->cases[i];
        size_t n = 0;
        char *pattern;

        if (done[i] || !bh_report_case_grouped(c, verbose))
            continue;
        for (size_t j = i; j < v->n_cases; j++) {
            const bh_rv_case *o = &v->cases[j];

            if (!done[j] && bh_report_case_grouped(o, verbose) &&
                strcmp(o->status, c->status) == 0 && strcmp(o->message, c->message) == 0) {
                done[j] = 1;
                members[n++] = j;
            }
        }
        pattern = group_pattern(v, members, n);
        fprintf(out, "%s%s%s %zu %s %s: %s\n", color ? YELLOW : "", c->status,
                color ? RESET : "", n, n == 1 ? "case" : "cases", pattern,
                *c->message ? c->message : "(no reason given)");
        free(pattern);
    }
    free(members);
    free(done);
}
