// SPDX-License-Identifier: MIT
/*
 * tok_spm_norm.c -- SentencePiece's normalizer: user-defined symbols pass
 * through verbatim, otherwise the longest precompiled_charsmap rule (a
 * darts-clone double array plus NUL-terminated replacements) rewrites the
 * input prefix, and invalid UTF-8 becomes U+FFFD one byte at a time. Then the
 * whitespace rules: leading, trailing and repeated spaces removed
 * (remove_extra_whitespaces), ' ' -> U+2581 (escape_whitespaces) and the
 * dummy prefix (or suffix) U+2581.
 */
#include "tok_internal.h"

#include <string.h>

static const char kSpace[] = "\xe2\x96\x81";

/* Longest user-defined symbol that prefixes s[0..n); 0 if none. */
static size_t user_prefix(const bh_spm *m, const uint8_t *s, size_t n)
{
    size_t lim = n < m->max_user_len ? n : m->max_user_len;
    if (!(m->user_first[s[0] >> 3] & (1u << (s[0] & 7))))
        return 0;
    for (size_t k = lim; k > 0; k--)
        if (bh_strmap_get(&m->user, s, k) >= 0)
            return k;
    return 0;
}

/* darts-clone commonPrefixSearch keeping the longest match: returns the
 * matched length (0 if none) and the replacement offset in *value. */
static size_t charsmap_longest(const bh_spm *m, const uint8_t *s, size_t n,
                               uint32_t *value)
{
    const uint32_t *a = m->charsmap_units;
    size_t nu = m->charsmap_nunits, best = 0;
    uint32_t unit = a[0];
    size_t pos = (size_t)((unit >> 10) << ((unit & (1u << 9)) >> 6));

    for (size_t i = 0; i < n; i++) {
        pos ^= s[i];
        if (pos >= nu)
            return best;
        unit = a[pos];
        if ((unit & ((1u << 31) | 0xFFu)) != s[i])
            return best;
        pos ^= (size_t)((unit >> 10) << ((unit & (1u << 9)) >> 6));
        if (pos >= nu)
            return best;
        if ((unit >> 8) & 1u) {
            best = i + 1;
            *value = a[pos] & ((1u << 31) - 1);
        }
    }
    return best;
}

/* One normalized prefix: *out and *outn is the replacement, returns the input
 * bytes consumed (>= 1). */
static size_t norm_prefix(const bh_spm *m, const uint8_t *s, size_t n,
                          const char **out, size_t *outn)
{
    size_t len;
    if (m->has_user) {
        size_t u = user_prefix(m, s, n);
        if (u > 0) {
            *out = (const char *)s;
            *outn = u;
            return u;
        }
    }
    if (m->charsmap_units != NULL) {
        uint32_t v = 0;
        size_t k = charsmap_longest(m, s, n, &v);
        if (k > 0 && v < m->charsmap_nstr) {
            *out = m->charsmap_str + v;
            *outn = strnlen(*out, m->charsmap_nstr - v);
            return k;
        }
    }
    if (bh_utf8_dec(s, n, &len) == TOK_BAD_CP) {
        *out = "\xEF\xBF\xBD";
        *outn = 3;
        return 1;
    }
    *out = (const char *)s;
    *outn = len;
    return len;
}

/* Appends the space symbol (U+2581 or a space). */
void bh_spm_norm_init(bh_spm *m)
{
    for (unsigned c = 0; c < 128; c++) {
        bool plain = !(m->user_first[c >> 3] & (1u << (c & 7)));
        if (plain && m->charsmap_units != NULL) {
            /* does any rule start with c? (first darts transition) */
            const uint32_t *a = m->charsmap_units;
            uint32_t unit = a[0];
            size_t pos = (size_t)((unit >> 10) << ((unit & (1u << 9)) >> 6)) ^ c;
            if (pos < m->charsmap_nunits &&
                (a[pos] & ((1u << 31) | 0xFFu)) == c)
                plain = false;
        }
        m->ascii_plain[c] = plain;
    }
}

/* Appends the space symbol (U+2581 or a space). */
static int add_ws(const bh_spm *m, bh_tok_bytes *out)
{
    return m->escape_ws ? bh_tok_bytes_append(out, kSpace, 3)
                        : bh_tok_bytes_append(out, " ", 1);
}

int bh_spm_normalize(const bh_spm *m, const uint8_t *s, size_t n,
                     bh_tok_bytes *out)
{
    const char *sp;
    size_t spn, base = out->n;

    if (m->remove_extra_ws) {
        while (n > 0) {
            size_t k = norm_prefix(m, s, n, &sp, &spn);
            if (!(spn == 1 && sp[0] == ' '))
                break;
            s += k;
            n -= k;
        }
    }
    if (n == 0)
        return 0;
    if (!m->ws_as_suffix && m->add_dummy_prefix && add_ws(m, out) != 0)
        return -1;
    bool prev_space = m->remove_extra_ws;
    if (bh_tok_grow((void **)&out->p, &out->cap, out->n + 3 * n + 16, 1) != 0)
        return -1;
    while (n > 0) {
        if (s[0] < 0x80 && m->ascii_plain[s[0]] && out->n + 4 <= out->cap) {
            /* an ASCII byte without rules: the loop below, inlined */
            if (s[0] != ' ') {
                out->p[out->n++] = (char)s[0];
                prev_space = false;
            } else if (!prev_space) {
                if (m->escape_ws) {
                    memcpy(out->p + out->n, kSpace, 3);
                    out->n += 3;
                } else {
                    out->p[out->n++] = ' ';
                }
                prev_space = m->remove_extra_ws;
            }
            s++;
            n--;
            continue;
        }
        size_t k = norm_prefix(m, s, n, &sp, &spn);
        if (prev_space)
            while (spn > 0 && sp[0] == ' ') {
                sp++;
                spn--;
            }
        if (spn > 0) {
            size_t i = 0;
            while (i < spn) {
                size_t j = i;
                while (j < spn && !(m->escape_ws && sp[j] == ' '))
                    j++;
                if (j > i && bh_tok_bytes_append(out, sp + i, j - i) != 0)
                    return -1;
                if (j < spn) {
                    if (bh_tok_bytes_append(out, kSpace, 3) != 0)
                        return -1;
                    j++;
                }
                i = j;
            }
            prev_space = sp[spn - 1] == ' ';
        }
        s += k;
        n -= k;
        if (!m->remove_extra_ws)
            prev_space = false;
    }
    if (m->remove_extra_ws) {
        const char *tail = m->escape_ws ? kSpace : " ";
        size_t tl = m->escape_ws ? 3 : 1;
        while (out->n - base >= tl && memcmp(out->p + out->n - tl, tail, tl) == 0)
            out->n -= tl;
        if (out->p != NULL)
            out->p[out->n] = '\0';
    }
    if (m->ws_as_suffix && m->add_dummy_prefix && add_ws(m, out) != 0)
        return -1;
    return bh_tok_bytes_append(out, "", 0); /* NUL-terminates */
}
