// SPDX-License-Identifier: MIT
/*
 * tok_wordpiece.c -- BERT WordPiece: vocab.txt loading, the BertPreTokenizer
 * (split on whitespace, isolate every punctuation character), greedy
 * longest-match-first pieces with "##" continuations (a word with any
 * unmatched position, or longer than 100 characters, becomes [UNK]) and
 * Hugging Face's WordPiece decoder.
 */
#include "tok_internal.h"

#include <stdlib.h>
#include <string.h>

/* bert-base-uncased's settings: lowercase, strip, ## and 100 chars. */
int bh_wp_init_defaults(bh_wp *wp)
{
    wp->unk_id = -1;
    wp->max_chars = 100;
    wp->lowercase = true;
    wp->strip_accents = true;
    wp->clean_text = true;
    wp->chinese_chars = true;
    memcpy(wp->prefix, "##", 3);
    wp->prefix_n = 2;
    return 0;
}

/* BERT punctuation: ASCII 33-47, 58-64, 91-96, 123-126 or Unicode P*. */
static bool is_punct(uint32_t cp, unsigned f)
{
    if (cp < 0x80)
        return (cp >= 33 && cp <= 47) || (cp >= 58 && cp <= 64) ||
               (cp >= 91 && cp <= 96) || (cp >= 123 && cp <= 126);
    return (f & UF_P) != 0;
}

/* Greedy longest-match WordPiece of one word w[0..n) of nchars chars. */
static int word_pieces(const bh_wp *wp, const uint8_t *w, size_t n,
                       size_t nchars, bh_tok_ids *out)
{
    char key[512];
    size_t mark = out->n, start = 0;

    if (nchars > wp->max_chars || n + wp->prefix_n > sizeof(key))
        return bh_tok_ids_push(out, wp->unk_id);
    memcpy(key, wp->prefix, wp->prefix_n);
    while (start < n) {
        size_t pre = start > 0 ? wp->prefix_n : 0;
        size_t end = n;
        if (end - start + pre > wp->max_piece) {
            end = start + (wp->max_piece > pre ? wp->max_piece - pre : 0);
            while (end > start && (w[end] & 0xC0) == 0x80)
                end--; /* back to a character boundary */
        }
        int32_t id = -1;
        while (end > start) {
            memcpy(key + wp->prefix_n, w + start, end - start);
            id = bh_strmap_get(&wp->vocab, key + wp->prefix_n - pre,
                               end - start + pre);
            if (id >= 0)
                break;
            end--;
            while (end > start && (w[end] & 0xC0) == 0x80)
                end--;
        }
        if (id < 0) {
            out->n = mark;
            return bh_tok_ids_push(out, wp->unk_id);
        }
        if (bh_tok_ids_push(out, id) != 0)
            return -1;
        start = end;
    }
    return 0;
}

/* Splits normalized text into words and punctuation; pieces each. */
static int pretok_pieces(const bh_wp *wp, const uint8_t *s, size_t n,
                         bh_tok_ids *out)
{
    size_t i = 0, ws = 0, nchars = 0, len;
    bool in_word = false;

    while (i < n) {
        uint32_t cp = s[i] < 0x80 ? s[i] : bh_utf8_dec(s + i, n - i, &len);
        unsigned f;
        if (s[i] < 0x80) {
            len = 1;
            f = bh_uni_table[cp];
        } else {
            f = bh_uni_flags(cp);
        }
        bool space = (f & UF_WS) != 0;
        bool punct = !space && is_punct(cp, f);
        if (space || punct) {
            if (in_word && word_pieces(wp, s + ws, i - ws, nchars, out) != 0)
                return -1;
            in_word = false;
            if (punct && word_pieces(wp, s + i, len, 1, out) != 0)
                return -1;
        } else if (!in_word) {
            in_word = true;
            ws = i;
            nchars = 1;
        } else {
            nchars++;
        }
        i += len;
    }
    if (in_word && word_pieces(wp, s + ws, n - ws, nchars, out) != 0)
        return -1;
    return 0;
}

int bh_wp_encode(const bh_tok *t, bh_tok_ws *ws, const uint8_t *s, size_t n,
                 bh_tok_ids *out)
{
    ws->norm.n = 0;
    if (bh_bert_normalize(&t->wp, s, n, &ws->norm) != 0)
        return -1;
    return pretok_pieces(&t->wp, (const uint8_t *)ws->norm.p, ws->norm.n, out);
}

/* HF's WordPiece decoder cleanup of one token (with its leading space). */
static int cleanup_append(bh_tok_bytes *out, const char *p, size_t n)
{
    static const struct { const char *from, *to; } rules[] = {
        {" .", "."},     {" ?", "?"},     {" !", "!"},   {" ,", ","},
        {" ' ", "'"},    {" n't", "n't"}, {" 'm", "'m"}, {" do not", " don't"},
        {" 's", "'s"},   {" 've", "'ve"}, {" 're", "'re"},
    };
    bh_tok_bytes a = {0}, b = {0};
    int rc = -1;
    if (n > 0 && n < 16 && memchr(p + 1, ' ', n - 1) == NULL) {
        /* the common case: a space can only lead, so each rule can only
         * match at the start, in order */
        char buf[16];
        size_t bl = 0;
        for (size_t r = 0; r < sizeof(rules) / sizeof(rules[0]); r++) {
            size_t fl = strlen(rules[r].from), tl = strlen(rules[r].to);
            const char *cur = bl ? buf : p;
            size_t cn = bl ? bl : n;
            if (cn >= fl && memcmp(cur, rules[r].from, fl) == 0 &&
                cn - fl + tl <= sizeof(buf)) {
                memmove(buf + tl, cur + fl, cn - fl);
                memcpy(buf, rules[r].to, tl);
                bl = cn - fl + tl;
            }
        }
        return bl ? bh_tok_bytes_append(out, buf, bl)
                  : bh_tok_bytes_append(out, p, n);
    }
    if (bh_tok_bytes_append(&a, p, n) != 0)
        goto out;
    for (size_t r = 0; r < sizeof(rules) / sizeof(rules[0]); r++) {
        size_t fl = strlen(rules[r].from), tl = strlen(rules[r].to);
        b.n = 0;
        for (size_t i = 0; i < a.n;) {
            if (i + fl <= a.n && memcmp(a.p + i, rules[r].from, fl) == 0) {
                if (bh_tok_bytes_append(&b, rules[r].to, tl) != 0)
                    goto out;
                i += fl;
            } else {
                /* every rule starts with a space: copy up to the next one
                 * at once (a byte at a time made decode slow on long
                 * tokens) */
                const char *sp = memchr(a.p + i + 1, ' ', a.n - i - 1);
                size_t e = sp != NULL ? (size_t)(sp - a.p) : a.n;
                if (bh_tok_bytes_append(&b, a.p + i, e - i) != 0)
                    goto out;
                i = e;
            }
        }
        bh_tok_bytes tmp = a;
        a = b;
        b = tmp;
    }
    rc = bh_tok_bytes_append(out, a.p, a.n);
out:
    bh_tok_bytes_free(&a);
    bh_tok_bytes_free(&b);
    return rc;
}

int bh_wp_decode(const bh_tok *t, const int32_t *ids, size_t n,
                 bh_tok_bytes *out)
{
    const bh_wp *wp = &t->wp;
    bh_tok_bytes tok = {0};
    int rc = 0;

    for (size_t i = 0; i < n && rc == 0; i++) {
        int32_t id = ids[i];
        if (id < 0 || (size_t)id >= t->nids || t->id_off[id] == UINT32_MAX) {
            rc = -1;
            break;
        }
        const char *p = t->id_blob + t->id_off[id];
        size_t len = t->id_len[id];
        tok.n = 0;
        if (i > 0) {
            if (len >= wp->prefix_n && memcmp(p, wp->prefix, wp->prefix_n) == 0) {
                p += wp->prefix_n;
                len -= wp->prefix_n;
            } else if (bh_tok_bytes_append(&tok, " ", 1) != 0) {
                rc = -2;
                break;
            }
        }
        if (bh_tok_bytes_append(&tok, p, len) != 0 ||
            cleanup_append(out, tok.p, tok.n) != 0)
            rc = -2;
    }
    bh_tok_bytes_free(&tok);
    return rc;
}

int bh_wp_finish(bh_tok *t, const char *unk, const char *path, char *err,
                 size_t cap)
{
    static const char *const specials[] = {"[PAD]", "[UNK]", "[CLS]", "[SEP]",
                                           "[MASK]"};
    bh_wp *wp = &t->wp;
    wp->unk_id = bh_strmap_get(&wp->vocab, unk, strlen(unk));
    if (wp->unk_id < 0)
        return bh_tok_err(err, cap, "%s: the vocabulary has no %s token", path,
                          unk);
    for (size_t i = 0; i < wp->vocab.n; i++)
        if (wp->vocab.len[i] > wp->max_piece)
            wp->max_piece = wp->vocab.len[i];
    for (size_t i = 0; i < sizeof(specials) / sizeof(specials[0]); i++) {
        int32_t id = bh_strmap_get(&wp->vocab, specials[i], strlen(specials[i]));
        if (id >= 0 && bh_tok_special_id(t, specials[i]) < 0 &&
            bh_tok_add_special(t, specials[i], strlen(specials[i]), id) != 0)
            return bh_tok_err(err, cap, "%s: out of memory", path);
    }
    return 0;
}

int bh_load_bert_vocab(bh_tok *t, const char *path, bool lowercase,
                       char *err, size_t cap)
{
    size_t len, line = 0;
    char *buf = bh_tok_read_file(path, TOK_MAX_FILE, &len, err, cap);
    int rc = -1;

    if (buf == NULL)
        return -1;
    t->kind = TOK_KIND_WP;
    bh_wp_init_defaults(&t->wp);
    t->wp.lowercase = lowercase;
    t->wp.strip_accents = lowercase;
    for (size_t i = 0; i < len;) {
        size_t e = i, le, cl;
        while (e < len && buf[e] != '\n')
            e++;
        line++;
        le = e;
        while (le > i && (buf[le - 1] == '\r' || buf[le - 1] == ' ' ||
                          buf[le - 1] == '\t'))
            le--;
        for (size_t k = i; k < le; k += cl) {
            if (bh_utf8_dec((const uint8_t *)buf + k, le - k, &cl) == TOK_BAD_CP) {
                bh_tok_err(err, cap, "%s:%zu: invalid UTF-8", path, line);
                goto out;
            }
        }
        if (le == i) {
            bh_tok_err(err, cap, "%s:%zu: empty token", path, line);
            goto out;
        }
        if (line > TOK_MAX_IDS) {
            bh_tok_err(err, cap, "%s:%zu: too many tokens", path, line);
            goto out;
        }
        int ins = bh_strmap_put(&t->wp.vocab, buf + i, le - i,
                                (int32_t)(line - 1), NULL);
        if (ins < 0) {
            bh_tok_err(err, cap, "%s: out of memory", path);
            goto out;
        }
        if (ins > 0) {
            bh_tok_err(err, cap, "%s:%zu: duplicate token \"%.*s\"", path, line,
                       (int)(le - i > 40 ? 40 : le - i), buf + i);
            goto out;
        }
        i = e + 1;
    }
    if (line == 0 || bh_tok_set_ids(t, line) != 0) {
        bh_tok_err(err, cap, "%s: no tokens", path);
        goto out;
    }
    for (size_t i = 0; i < t->wp.vocab.n; i++) {
        size_t kn;
        const char *k = bh_strmap_key(&t->wp.vocab, i, &kn);
        if (bh_tok_set_id(t, (size_t)t->wp.vocab.val[i], k, kn) != 0) {
            bh_tok_err(err, cap, "%s: out of memory", path);
            goto out;
        }
    }
    rc = bh_wp_finish(t, "[UNK]", path, err, cap);
out:
    free(buf);
    return rc;
}
