// SPDX-License-Identifier: MIT
/*
 * tok_pretok.c -- the GPT-2, cl100k and o200k pre-tokenizer regexes as
 * hand-written matchers with the regex engines' leftmost-first semantics:
 * at each position the alternatives are tried in order, quantifiers are
 * greedy and backtrack, and the first alternative that matches wins.
 *
 *   gpt2/r50k/p50k: 's|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+|
 *                   ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+
 *   cl100k:  (?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|
 *            \p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+
 *   o200k:   [^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*
 *            [\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|...)?|[^\r\n\p{L}\p{N}]?
 *            [\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*
 *            (?i:'s|...)?|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|
 *            \s*[\r\n]+|\s+(?!\S)|\s+
 *
 * \s is Unicode White_Space, \p{..} are general categories (tok_uni.c).
 * Invalid UTF-8 bytes count as one character of none of the classes.
 */
#include "tok_internal.h"

#include <string.h>

static const char pat_gpt2[] =
    "'s|'t|'re|'ve|'m|'ll|'d| ?\\p{L}+| ?\\p{N}+| ?[^\\s\\p{L}\\p{N}]+|"
    "\\s+(?!\\S)|\\s+";
static const char pat_cl100k[] =
    "(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|"
    "\\p{N}{1,3}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|"
    "\\s+(?!\\S)|\\s+";
static const char pat_o200k[] =
    "[^\\r\\n\\p{L}\\p{N}]?[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]*"
    "[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?|"
    "[^\\r\\n\\p{L}\\p{N}]?[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]+"
    "[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?|"
    "\\p{N}{1,3}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n/]*|\\s*[\\r\\n]+|"
    "\\s+(?!\\S)|\\s+";

/* See tok_internal.h. */
const char *bh_pretok_pattern(int kind)
{
    switch (kind) {
    case PRETOK_GPT2:
        return pat_gpt2;
    case PRETOK_CL100K:
        return pat_cl100k;
    case PRETOK_O200K:
        return pat_o200k;
    default:
        return NULL;
    }
}

#define OTHER_MASK (UF_L | UF_N | UF_WS)

/* End of the run of characters from i whose flags intersect mask. */
static size_t run_any(const uint8_t *s, size_t n, size_t i, unsigned mask)
{
    size_t len;
    while (i < n && (bh_uni_at(s, n, i, &len) & mask) != 0)
        i += len;
    return i;
}

/* End of the run of [^\s\p{L}\p{N}] characters from i. */
static size_t run_other(const uint8_t *s, size_t n, size_t i)
{
    size_t len;
    while (i < n && (bh_uni_at(s, n, i, &len) & OTHER_MASK) == 0)
        i += len;
    return i;
}

/* Length of a contraction at s[i] == '\'': 's 't 're 've 'm 'll 'd, any
 * case when ci (Unicode simple case folding adds U+017F for s). 0 if none. */
static size_t contraction(const uint8_t *s, size_t n, size_t i, bool ci)
{
    if (i + 1 >= n || s[i] != '\'')
        return 0;
    uint8_t a = s[i + 1];
    if (ci && a == 0xC5 && i + 2 < n && s[i + 2] == 0xBF)
        return 3; /* 'ſ */
    if (ci && a >= 'A' && a <= 'Z')
        a = (uint8_t)(a + 32);
    if (a == 's' || a == 't' || a == 'm' || a == 'd')
        return 2;
    if (i + 2 >= n)
        return 0;
    uint8_t b = s[i + 2];
    if (ci && b >= 'A' && b <= 'Z')
        b = (uint8_t)(b + 32);
    if ((a == 'r' && b == 'e') || (a == 'v' && b == 'e') ||
        (a == 'l' && b == 'l'))
        return 3;
    return 0;
}

/* \s+(?!\S)|\s+ at i (a White_Space character): the run minus its last
 * character when more follows and the run has two or more characters. */
static size_t ws_tail(const uint8_t *s, size_t n, size_t i)
{
    size_t len, last = i, k = i;
    while (k < n && (bh_uni_at(s, n, k, &len) & UF_WS) != 0) {
        last = k;
        k += len;
    }
    if (k >= n)
        return n;
    return last > i ? last : k;
}

/* \s*[\r\n]+|\s+(?!\S)|\s+ at i (a White_Space character). */
static size_t ws_newline(const uint8_t *s, size_t n, size_t i)
{
    size_t len, k = i, nl_end = 0;
    while (k < n && (bh_uni_at(s, n, k, &len) & UF_WS) != 0) {
        if (s[k] == '\r' || s[k] == '\n')
            nl_end = k + 1;
        k += len;
    }
    if (nl_end != 0)
        return nl_end;
    return ws_tail(s, n, i);
}

/* End of the GPT-2/r50k/p50k pre-token starting at s[i]. */
static size_t gpt2_next(const uint8_t *s, size_t n, size_t i)
{
    size_t len, c = contraction(s, n, i, false);
    unsigned f;

    if (c != 0)
        return i + c;
    size_t j = i;
    if (s[i] == ' ' && i + 1 < n)
        j = i + 1;
    f = bh_uni_at(s, n, j, &len);
    if (j > i || (f & UF_WS) == 0) {
        if (f & UF_L)
            return run_any(s, n, j, UF_L);
        if (f & UF_N)
            return run_any(s, n, j, UF_N);
        if ((f & OTHER_MASK) == 0)
            return run_other(s, n, j);
    }
    return ws_tail(s, n, i);
}

/* [^\r\n\p{L}\p{N}] */
static bool prefix_class(const uint8_t *s, unsigned f, size_t i)
{
    return (f & (UF_L | UF_N)) == 0 && s[i] != '\r' && s[i] != '\n';
}

/* ` ?[^\s\p{L}\p{N}]+` followed by [\r\n]* (plus '/' when slash) at i, or 0
 * when it does not match. */
static size_t punct_run(const uint8_t *s, size_t n, size_t i, unsigned f0,
                        bool slash)
{
    size_t len, j = i;
    if (s[i] == ' ' && i + 1 < n &&
        (bh_uni_at(s, n, i + 1, &len) & OTHER_MASK) == 0)
        j = i + 1;
    else if ((f0 & OTHER_MASK) != 0)
        return 0;
    size_t k = run_other(s, n, j);
    while (k < n && (s[k] == '\r' || s[k] == '\n' || (slash && s[k] == '/')))
        k++;
    return k;
}

/* \p{N}{1,3} at i (a number character). */
static size_t digits3(const uint8_t *s, size_t n, size_t i)
{
    size_t len;
    for (int k = 0; k < 3 && i < n && (bh_uni_at(s, n, i, &len) & UF_N); k++)
        i += len;
    return i;
}

/* End of the cl100k pre-token starting at s[i]. */
static size_t cl100k_next(const uint8_t *s, size_t n, size_t i)
{
    size_t len0, len, c = contraction(s, n, i, true);
    unsigned f0;

    if (c != 0)
        return i + c;
    f0 = bh_uni_at(s, n, i, &len0);
    if (f0 & UF_L)
        return run_any(s, n, i, UF_L);
    if (prefix_class(s, f0, i) && i + len0 < n &&
        (bh_uni_at(s, n, i + len0, &len) & UF_L))
        return run_any(s, n, i + len0, UF_L);
    if (f0 & UF_N)
        return digits3(s, n, i);
    size_t k = punct_run(s, n, i, f0, false);
    if (k != 0)
        return k;
    return ws_newline(s, n, i);
}

/* o200k's first letter alternative without its prefix, at p:
 * U*W+ then an optional contraction. 0 when it does not match. */
static size_t o200k_alt1(const uint8_t *s, size_t n, size_t p)
{
    size_t len, e = p, last_lo = SIZE_MAX, u;
    unsigned f;

    while (e < n && ((f = bh_uni_at(s, n, e, &len)) & UF_UP)) {
        if (f & UF_LO)
            last_lo = e;
        e += len;
    }
    if (e < n && (bh_uni_at(s, n, e, &len) & UF_LO))
        u = e;
    else if (last_lo != SIZE_MAX)
        u = last_lo;
    else
        return 0;
    size_t w = run_any(s, n, u, UF_LO);
    return w + contraction(s, n, w, true);
}

/* o200k's second letter alternative without its prefix: U+W* then an
 * optional contraction. 0 when it does not match. */
static size_t o200k_alt2(const uint8_t *s, size_t n, size_t p)
{
    size_t len;
    if (p >= n || !(bh_uni_at(s, n, p, &len) & UF_UP))
        return 0;
    size_t e = run_any(s, n, p, UF_UP);
    size_t w = run_any(s, n, e, UF_LO);
    return w + contraction(s, n, w, true);
}

/* End of the o200k pre-token starting at s[i]. */
static size_t o200k_next(const uint8_t *s, size_t n, size_t i)
{
    size_t len0, r;
    unsigned f0 = bh_uni_at(s, n, i, &len0);
    bool pre = prefix_class(s, f0, i) && i + len0 < n;

    if (pre && (r = o200k_alt1(s, n, i + len0)) != 0)
        return r;
    if ((r = o200k_alt1(s, n, i)) != 0)
        return r;
    if (pre && (r = o200k_alt2(s, n, i + len0)) != 0)
        return r;
    if ((r = o200k_alt2(s, n, i)) != 0)
        return r;
    if (f0 & UF_N)
        return digits3(s, n, i);
    r = punct_run(s, n, i, f0, true);
    if (r != 0)
        return r;
    return ws_newline(s, n, i);
}

/* See tok_internal.h: dispatch by regex kind. */
size_t bh_pretok_next(int kind, const uint8_t *s, size_t n, size_t i)
{
    switch (kind) {
    case PRETOK_GPT2:
        return gpt2_next(s, n, i);
    case PRETOK_CL100K:
        return cl100k_next(s, n, i);
    case PRETOK_O200K:
        return o200k_next(s, n, i);
    default:
        return n;
    }
}
