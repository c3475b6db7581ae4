// SPDX-License-Identifier: MIT
/* Typo suggestions for unknown names, and glob matching of benchmark ids. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

/* Longest word compared; longer words get no suggestion. */
#define MAX_WORD 64

/* The smallest of three. */
static size_t min3(size_t a, size_t b, size_t c)
{
    size_t m = a < b ? a : b;

    return m < c ? m : c;
}

/* Edit distance between a and b (each at most MAX_WORD bytes) counting
 * insertions, deletions, substitutions and swaps of two adjacent
 * characters as one edit each (optimal string alignment). */
static size_t edit_distance(const char *a, size_t la, const char *b,
                            size_t lb)
{
    size_t d[MAX_WORD + 1][MAX_WORD + 1];

    for (size_t i = 0; i <= la; i++)
        d[i][0] = i;
    for (size_t j = 0; j <= lb; j++)
        d[0][j] = j;
    for (size_t i = 1; i <= la; i++) {
        for (size_t j = 1; j <= lb; j++) {
            size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;

            d[i][j] = min3(d[i - 1][j] + 1, d[i][j - 1] + 1,
                           d[i - 1][j - 1] + cost);
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] &&
                a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < d[i][j])
                d[i][j] = d[i - 2][j - 2] + 1;
        }
    }
    return d[la][lb];
}

const char *bh_did_you_mean(const char *word, const char *const *candidates,
                            size_t n)
{
    size_t lw = word ? strlen(word) : 0;
    /* Close enough: one edit per four characters, at least one, and
       never as many edits as the word has characters. */
    size_t limit = lw / 4 > 1 ? lw / 4 : 1;
    const char *best = NULL;
    size_t best_d = (size_t)-1;

    if (lw == 0 || lw > MAX_WORD)
        return NULL;
    if (lw <= 2)
        limit = lw - 1;
    if (lw >= 6 && limit < 2)
        limit = 2;
    for (size_t i = 0; i < n; i++) {
        size_t lc = strlen(candidates[i]);
        size_t d;

        if (lc > MAX_WORD)
            continue;
        d = edit_distance(word, lw, candidates[i], lc);
        if (d <= limit && d < best_d) {
            best = candidates[i];
            best_d = d;
        }
    }
    return best;
}

/* Matches one character c against the bracket expression starting after
 * '[' at p. Sets *end to just past the closing ']'. Returns 1 on a match,
 * 0 on none, -1 when there is no closing ']' (then '[' is literal). */
static int match_class(const char *p, char c, const char **end)
{
    int negate = 0, hit = 0;
    const char *q = p;

    if (*q == '!' || *q == '^') {
        negate = 1;
        q++;
    }
    /* A ']' right after the opening bracket is a member. */
    if (*q == ']') {
        hit |= c == ']';
        q++;
    }
    for (; *q && *q != ']'; q++) {
        if (q[1] == '-' && q[2] && q[2] != ']') {
            hit |= (unsigned char)c >= (unsigned char)q[0] &&
                   (unsigned char)c <= (unsigned char)q[2];
            q += 2;
        } else {
            hit |= c == *q;
        }
    }
    if (*q != ']')
        return -1;
    *end = q + 1;
    return hit != negate;
}

/* Matches the pattern element at *p against c, advancing *p past it; 1 on
 * a match, 0 otherwise. */
static int match_one(const char **p, char c)
{
    const char *q = *p;
    const char *end;
    int m;

    if (*q == '?') {
        *p = q + 1;
        return 1;
    }
    if (*q == '[') {
        m = match_class(q + 1, c, &end);
        if (m >= 0) {
            *p = end;
            return m;
        }
    }
    if (*q == '\\' && q[1])
        q++;
    *p = q + 1;
    return *q == c;
}

int bh_glob_match(const char *pattern, const char *s)
{
    const char *star_p = NULL, *star_s = NULL;
    const char *p = pattern;

    if (!pattern || !s)
        return 0;
    /* Greedy with one backtrack point: the last '*' seen is retried one
       character further each time the rest fails. */
    while (*s) {
        if (*p == '*') {
            while (*p == '*')
                p++;
            star_p = p;
            star_s = s;
            continue;
        }
        if (*p) {
            const char *next = p;

            if (match_one(&next, *s)) {
                p = next;
                s++;
                continue;
            }
        }
        if (!star_p)
            return 0;
        p = star_p;
        s = ++star_s;
    }
    while (*p == '*')
        p++;
    return *p == '\0';
}
