// SPDX-License-Identifier: MIT
/*
 * tok_bert.c -- Hugging Face's BertNormalizer, step for step:
 *   1. clean text: drop U+0000, U+FFFD and Cc/Cf/Co characters other than
 *      \t \n \r; White_Space characters become ' ';
 *   2. spaces around CJK ideographs (HF's ranges, 2B920 start included);
 *   3. strip accents: NFD (utf8proc, canonical order) and drop Mn;
 *   4. lowercase per character (full mapping: U+0130 -> "i\u0307").
 * ASCII takes a table-free fast path. Invalid UTF-8 bytes are dropped.
 */
#include "tok_internal.h"

#include <utf8proc.h>

/* True for HF BertNormalizer's CJK ideograph ranges. */
static bool is_cjk(uint32_t c)
{
    return (c >= 0x4E00 && c <= 0x9FFF) || (c >= 0x3400 && c <= 0x4DBF) ||
           (c >= 0x20000 && c <= 0x2A6DF) || (c >= 0x2A700 && c <= 0x2B73F) ||
           (c >= 0x2B740 && c <= 0x2B81F) || (c >= 0x2B920 && c <= 0x2CEAF) ||
           (c >= 0xF900 && c <= 0xFAFF) || (c >= 0x2F800 && c <= 0x2FA1F);
}

/* Appends cp as UTF-8; 0 or -1 (out of memory). */
static int put_cp(bh_tok_bytes *out, uint32_t cp)
{
    uint8_t b[4];
    return bh_tok_bytes_append(out, b, bh_utf8_enc(cp, b));
}

/* Lowercases (when asked) and appends one code point. */
static int emit(const bh_wp *wp, bh_tok_bytes *out, uint32_t cp)
{
    if (wp->lowercase) {
        if (cp == 0x130)
            return put_cp(out, 'i') | put_cp(out, 0x307);
        cp = (uint32_t)utf8proc_tolower((utf8proc_int32_t)cp);
    }
    return put_cp(out, cp);
}

/* Appends the canonical decomposition of the pending run cps[0..n) in
 * canonical order, without Mn characters. */
static int flush_nfd(const bh_wp *wp, const uint32_t *cps, size_t n,
                     bh_tok_bytes *out)
{
    utf8proc_int32_t buf[64];
    utf8proc_int32_t seq[256];
    size_t m = 0;

    for (size_t i = 0; i < n; i++) {
        int lb;
        utf8proc_ssize_t k = utf8proc_decompose_char(
            (utf8proc_int32_t)cps[i], buf, 64, UTF8PROC_DECOMPOSE, &lb);
        if (k < 0 || k > 64)
            k = 0;
        for (utf8proc_ssize_t j = 0; j < k; j++) {
            if (m == 256) { /* flush a pathological run in chunks */
                for (size_t q = 0; q < m; q++)
                    if (!(bh_uni_flags((uint32_t)seq[q]) & UF_MN) &&
                        emit(wp, out, (uint32_t)seq[q]) != 0)
                        return -1;
                m = 0;
            }
            seq[m++] = buf[j];
        }
    }
    /* canonical ordering: stable sort by combining class inside runs of
     * non-zero classes */
    for (size_t i = 1; i < m; i++) {
        utf8proc_int32_t c = seq[i];
        int cc = utf8proc_get_property(c)->combining_class;
        if (cc == 0)
            continue;
        size_t j = i;
        while (j > 0) {
            int pc = utf8proc_get_property(seq[j - 1])->combining_class;
            if (pc == 0 || pc <= cc)
                break;
            seq[j] = seq[j - 1];
            j--;
        }
        seq[j] = c;
    }
    for (size_t q = 0; q < m; q++)
        if (!(bh_uni_flags((uint32_t)seq[q]) & UF_MN) &&
            emit(wp, out, (uint32_t)seq[q]) != 0)
            return -1;
    return 0;
}

int bh_bert_normalize(const bh_wp *wp, const uint8_t *s, size_t n,
                      bh_tok_bytes *out)
{
    uint32_t run[64]; /* a starter plus its marks, pending NFD */
    size_t nrun = 0, len;

    if (bh_tok_grow((void **)&out->p, &out->cap, out->n + n + 16, 1) != 0)
        return -1;
    for (size_t i = 0; i < n; i += len) {
        uint32_t cp;
        if (s[i] < 0x80) {
            len = 1;
            cp = s[i];
            if (wp->clean_text) {
                if (cp == '\t' || cp == '\n' || cp == '\r' || cp == ' ')
                    cp = ' ';
                else if (cp < 0x20 || cp == 0x7F)
                    continue;
            }
            if (nrun > 0) {
                if (flush_nfd(wp, run, nrun, out) != 0)
                    return -1;
                nrun = 0;
            }
            if (wp->lowercase && cp >= 'A' && cp <= 'Z')
                cp += 32;
            if (out->n + 2 <= out->cap) {
                out->p[out->n++] = (char)cp;
                continue;
            }
            char c = (char)cp;
            if (bh_tok_bytes_append(out, &c, 1) != 0)
                return -1;
            continue;
        }
        cp = bh_utf8_dec(s + i, n - i, &len);
        if (cp == TOK_BAD_CP)
            continue;
        unsigned f = bh_uni_flags(cp);
        if (wp->clean_text) {
            if (cp == 0xFFFD || (f & UF_CTL))
                continue;
            if (f & UF_WS)
                cp = ' ';
        }
        bool cjk = wp->chinese_chars && is_cjk(cp);
        if (!wp->strip_accents || cjk || cp == ' ') {
            if (nrun > 0) {
                if (flush_nfd(wp, run, nrun, out) != 0)
                    return -1;
                nrun = 0;
            }
            if ((cjk && put_cp(out, ' ') != 0) || emit(wp, out, cp) != 0 ||
                (cjk && put_cp(out, ' ') != 0))
                return -1;
            continue;
        }
        /* a new starter flushes the pending run */
        if (nrun > 0 && (utf8proc_get_property((utf8proc_int32_t)cp)->combining_class == 0 ||
                         nrun == 64)) {
            if (flush_nfd(wp, run, nrun, out) != 0)
                return -1;
            nrun = 0;
        }
        run[nrun++] = cp;
    }
    if (nrun > 0 && flush_nfd(wp, run, nrun, out) != 0)
        return -1;
    return bh_tok_bytes_append(out, "", 0); /* NUL-terminates */
}
